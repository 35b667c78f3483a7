"""Conformance of an HTTTX bot server (bws v1-alpha or stateless v1-alpha, docs/protocols/htttx.md).

The handshake is read with the adapters' own ``fetch_capabilities``; games run through ``BwsPlayer`` and
``StatelessPlayer``. What a match never does on purpose (a heartbeat between requests, a stray ``waiting: true``,
a ``nope`` or an ``end``, then another game) is played here on a socket of its own, so each reaction is a row.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import math
import os
import random
from collections.abc import Iterable, Mapping, Sequence

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from hexarena.checkbot.games import Plan, Raw, Settings, play_checked, varied_positions
from hexarena.checkbot.opponents import opponent_player
from hexarena.checkbot.report import FAIL, PASS, SKIP, WARN, Report, clip
from hexarena.core.contract import MoveRequest
from hexarena.core.errors import BotError, ConfigError
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.games.htttx import HTTTX, Coord, HtttxState, Move
from hexarena.games.htttx.board import hex_distance
from hexarena.players.bws import BwsPlayer
from hexarena.players.htttx_common import (
    board_of,
    fetch_capabilities,
    http_client,
    read_limited,
    resolve,
    stateless_board_of,
)
from hexarena.players.stateless import StatelessPlayer
from hexarena.wire import htttx as w

ORIGIN_BOARD: JsonObject = {"cells": [{"q": 0, "r": 0, "p": "x"}]}
#: Seconds a probe waits for the bot to react (close, answer) beyond the move time: generous, a loaded machine.
REACT = 5.0
#: Overrides :data:`REACT` for the probes' waits for an answer or a close (a test's silent bot need not be
#: waited for that long).
REACT_ENV = "HEXARENA_CHECKBOT_REACT_SECONDS"
MAX_REACT = 600.0


def react() -> float:
    """``$HEXARENA_CHECKBOT_REACT_SECONDS`` or :data:`REACT`."""
    text = os.environ.get(REACT_ENV, "").strip()
    if not text:
        return REACT
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds <= MAX_REACT:
        raise ConfigError(f"{REACT_ENV} must be a number of seconds above 0 and at most {MAX_REACT:g}, got {text!r}")
    return seconds


class _WatchedBws(BwsPlayer):
    """The bws adapter, keeping the last message the bot sent (clipped) so a failure can quote it."""

    last_raw: str | None = None

    def _on_message(self, message: bytes) -> None:
        self.last_raw = clip(message[:400].decode(errors="replace"))
        super()._on_message(message)


def diagnose(state: HtttxState, move: object) -> tuple[str, str, str]:
    """Why an HTTTX move is illegal, in the bot author's terms: which cell, and what the rule is."""
    cells = dict(state.cells)
    view = state.view_distance
    expected = f"two different empty cells, each within view_distance ({view}) of a stone already on the board"
    try:
        if not isinstance(move, Iterable):
            raise TypeError("not two pieces")
        (a, b) = move
        pieces = [(int(a[0]), int(a[1])), (int(b[0]), int(b[1]))]
    except (TypeError, ValueError, OverflowError):  # int(inf) overflows
        return repr(move), expected, "send exactly two pieces, each {q, r} with integer axial coordinates"
    sent = f"pieces {pieces[0]} and {pieces[1]}"
    seat = state.to_move_seat if state.to_move_seat is not None else 0
    for i, cell in enumerate(pieces):
        if i == 1 and cell == pieces[0]:  # checked before "occupied": the first piece stands there now
            return f"{sent}: the same cell twice", expected, "the two pieces of a move must be different cells"
        if cell in cells:
            owner = w.side_of(cells[cell]).upper()
            why = f"played {cell}, which is occupied by {owner}"
            if cell == (0, 0) and cells[cell] == 0:
                why += ": X's first stone is placed at the origin for it"
            fix = (
                "choose an empty cell within view_distance of a stone; read the whole board (the `board` of the "
                "move_request, or `setup` plus every `previous`), X's origin stone included"
            )
            return f"{sent}: {why}", expected, fix
        near = min((hex_distance(cell[0], cell[1], q, r) for q, r in cells), default=0)
        if near > view:
            fix = f"only play cells at most {view} hex steps (max(|dq|, |dr|, |dq+dr|)) from a stone"
            return f"{sent}: {cell} is {near} steps from the nearest stone", expected, fix
        cells[cell] = seat  # the second piece may lean on the first
    return sent, expected, "check the move against the rules (docs/protocols/htttx.md) before sending it"


async def check_capabilities(report: Report, url: str) -> tuple[str, w.Capabilities] | None:
    """GET capabilities.json: answered, well-formed, declaring the transport asked for, consistent."""
    async with http_client() as client:
        try:
            caps_url, caps = await fetch_capabilities(client, url, timeout=REACT)
        except (BotError, ConfigError) as exc:
            report.add(
                "capabilities",
                FAIL,
                "GET capabilities.json failed",
                sent=str(exc),
                expected='HTTP 200 with JSON such as {"meta":{"name":"mybot"},"basic_websocket":{"versions":'
                '{"v1-alpha":{}}}}',
                fix="serve GET <bot URL>/capabilities.json as the bot API (specs/htttx-bot-api/bot-api-v1.yaml) says",
            )
            return None
    bws = caps.basic_websocket.versions.v1_alpha if caps.basic_websocket else None
    stateless = caps.stateless.versions.v1_alpha if caps.stateless else None
    wanted = {"bws": bws, "stateless": stateless}[report.protocol]
    if wanted is None:
        name = "basic_websocket" if report.protocol == "bws" else "stateless"
        report.add(
            "capabilities",
            FAIL,
            f"the bot does not declare {name} v1-alpha",
            sent=clip(w.encode(caps).decode()),
            expected=f'"{name}": {{"versions": {{"v1-alpha": {{...}}}}}}',
            fix=f"declare {name} v1-alpha, or check it with the spec of the transport it does declare",
        )
        return None
    declared = ", ".join(k for k, v in msgspec.to_builtins(wanted).items() if v not in (False, None)) or "nothing"
    report.add("capabilities", PASS, f"{caps_url}: {report.protocol} v1-alpha declared ({declared})")
    if caps.meta is None or not caps.meta.name:
        report.add(
            "capabilities.meta",
            WARN,
            "no meta.name: the arena shows the URL instead",
            sent=clip(w.encode(caps.meta).decode()) if caps.meta else "no meta",
            expected='"meta": {"name": "mybot", "version": "1.0", "authors": ["me"]}',
            fix="add meta with at least a name",
        )
    else:
        report.add("capabilities.meta", PASS, f"meta.name {caps.meta.name!r}")
    if bws is not None and report.protocol == "bws" and bws.evaluation_time_limit and not bws.evaluation:
        report.add(
            "capabilities.consistent",
            WARN,
            "evaluation_time_limit is declared without evaluation: nothing will ever use it",
            sent='"evaluation_time_limit": true, "evaluation": false',
            expected="evaluation_time_limit only together with evaluation",
            fix="declare evaluation (and answer eval_request) or drop evaluation_time_limit",
        )
    return caps_url, caps


def _settings_params(settings: Settings) -> dict[str, object]:
    return HTTTX.validate_params(settings.params)


def free_positions(n: int, seed: int, params: dict[str, object]) -> list[HtttxState]:
    """Positions a few random turns in, rebuilt as free setups (the ``setup`` packet's whole board)."""
    out = []
    for state in varied_positions(HTTTX, n, seed, params):
        out.append(
            HTTTX.from_cells(
                [(q, r, s) for (q, r), s in state.cells.items()], state.to_move_seat or 0, turns=0, **params
            )
        )
    return out


async def run_htttx(report: Report, url: str, games: int, settings: Settings, opponents: list[str]) -> None:
    found = await check_capabilities(report, url)
    if found is None:
        return
    caps_url, caps = found
    bws = caps.basic_websocket.versions.v1_alpha if caps.basic_websocket else None
    params = _settings_params(settings)
    plans: list[Plan[HtttxState]] = [Plan(opp, 1, None, "start") for _ in range(games) for opp in opponents]
    free = report.protocol == "stateless" or (bws is not None and bws.free_setup)
    if free:
        for i, state in enumerate(free_positions(games, 7, params)):
            plans.append(Plan(opponents[i % len(opponents)], 1, state, f"free setup {i + 1}"))
    else:
        report.add("free-setup", SKIP, "not declared: games from the start only")
    for k, plan in enumerate(plans):
        plan.seat = (1 + k) % 2  # O first: O makes the first move of a game from the start
        player, raw = _under_test(report, url)
        result = await play_checked(
            report,
            HTTTX,
            player,
            await opponent_player(plan.opponent, HTTTX.name),
            plan,
            settings,
            raw=raw,
            diagnose=diagnose,
        )
        if plan.initial_state is not None:
            if result.culprit == plan.seat:
                report.add(
                    "free-setup",
                    FAIL,
                    f"lost a game from a set-up position ({plan.label}): {result.outcome.reason}",
                    sent=f"{result.outcome.termination} (the row of that check says what it sent)",
                    expected="the same play from any position the setup packet (or the stateless board) gives",
                    fix="build the bot's board from the whole `board` it is given, not from the opening",
                )
            else:
                report.add("free-setup", PASS, "played from set-up positions")
    _evaluation_fields(report)
    if report.checks["starts"].status == FAIL:
        report.add("probes", SKIP, "no game started: heartbeats, nope, end and evaluation were not tried")
        return
    if report.protocol == "bws" and bws is not None:
        await _probe_bws(report, caps_url, bws, settings)
        await _check_eval_request(report, url, bws)
    else:
        report.add(
            "reconnection",
            SKIP,
            "not applicable: every stateless request carries the whole board; there is no connection to drop",
        )


def _under_test(report: Report, url: str) -> tuple[_WatchedBws | StatelessPlayer, Raw]:
    """The adapter for the bot under test, and how to quote what it sent when an answer was not well-formed."""
    if report.protocol == "bws":
        bws = _WatchedBws(url)
        return bws, functools.partial(_last_raw, bws)
    stateless = StatelessPlayer(url, request_timeout=None)
    return stateless, functools.partial(_ask_again, stateless)


async def _last_raw(player: _WatchedBws, request: MoveRequest | None) -> str | None:
    return player.last_raw


async def _ask_again(player: StatelessPlayer, request: MoveRequest | None) -> str | None:
    """The body a stateless bot answers to the request it failed on, asked once more: a stateless bot answers a
    board, so the same board shows what it sent (the adapter keeps no copy of an answer it could not read)."""
    if request is None or not player.turn_url:
        return None
    limit = request.time_limit if player.caps is not None and player.caps.move_time_limit else None
    body = w.encode(w.StatelessRequest(board=stateless_board_of(request.state), time_limit=limit))
    try:
        async with http_client() as client:
            headers = {"content-type": "application/json"}
            async with client.stream("POST", player.turn_url, content=body, headers=headers, timeout=REACT) as response:
                data = await read_limited(response, "turn response")
    except Exception as exc:  # the quote is a courtesy: the failure itself is already known
        return f"(asked again: {type(exc).__name__})"
    return f"HTTP {response.status_code}: {clip(data[:400].decode(errors='replace'))}"


def _evaluation_fields(report: Report) -> None:
    """Evaluations a bot attached to its moves must be on the spec's scale (read from the games' records)."""
    seen = report.evaluations
    if not seen:
        report.add("evaluation.fields", SKIP, "no move carried an evaluation (optional)")
        return
    for ev in seen:
        h = ev.get("heuristic")
        if h is not None and (not math.isfinite(h) or abs(h) > 1.0):
            report.add(
                "evaluation.fields",
                WARN,
                "a heuristic outside the UI's -1..1 scale",
                sent=json.dumps(ev),
                expected="heuristic between -1 (O winning) and 1 (X winning); win_in +N / -N",
                fix="squash the score into -1..1 (e.g. tanh)",
            )
            return
    report.add("evaluation.fields", PASS, f"{len(seen)} evaluation(s), heuristic within -1..1")


async def _check_eval_request(report: Report, url: str, bws: w.BwsV1Alpha) -> None:
    if not bws.evaluation:
        report.add("evaluation", SKIP, "evaluation not declared: no eval_request sent")
        return
    state = HTTTX.new()
    try:
        ev = await BwsPlayer(url).analyse(state, 5.0)
    except (BotError, ConfigError) as exc:
        report.add(
            "evaluation",
            FAIL,
            "eval_request on the opening, O to move",
            sent=str(exc),
            expected='{"type":"eval_response","evaluation":{"heuristic":-0.1}} within the time limit',
            fix="answer every eval_request with eval_response, or do not declare evaluation",
        )
        return
    if not ev:
        report.add(
            "evaluation",
            FAIL,
            "eval_response carried neither heuristic nor win_in",
            sent=json.dumps(ev),
            expected='{"evaluation":{"heuristic":0.1}} or {"evaluation":{"win_in":-3}}',
            fix="fill heuristic (-1..1, + favours X) and/or win_in",
        )
        return
    report.add("evaluation", PASS, f"eval_response {json.dumps(ev)}")


# ----- raw bws probes -----


def _move_request(side: str = "o", limit: float | None = None) -> JsonObject:
    out: JsonObject = {"type": "move_request", "side": side, "previous": [], "board": ORIGIN_BOARD}
    if limit is not None:
        out["move_time_limit"] = limit
    return out


async def _open(url: str) -> ClientConnection:
    return await connect(url, open_timeout=REACT, ping_interval=None, max_size=1 << 20, compression=None)


async def _next(ws: ClientConnection, timeout: float) -> JsonValue:
    """The next packet (parsed), None on silence; raises ConnectionClosed when the bot closes."""
    try:
        data = await asyncio.wait_for(ws.recv(), timeout)
    except TimeoutError:
        return None
    try:
        parsed: JsonValue = json.loads(data)
    except ValueError:
        return {"unparsed": clip(str(data))}
    return parsed


async def _closes(ws: ClientConnection, timeout: float) -> bool:
    try:
        async with asyncio.timeout(timeout):
            while True:
                await ws.recv()
    except ConnectionClosed:
        return True
    except TimeoutError:
        return False


async def _one_move(
    ws: ClientConnection, settings: Settings, limit: float | None, board: JsonObject | None = None
) -> JsonValue:
    request = _move_request("o", limit)
    if board is not None:
        request["board"] = board
    await ws.send(json.dumps(request))
    return await _next(ws, (settings.clock.seconds or 10.0) + react())


def _move_of(reply: JsonValue) -> Move | None:
    """The move of a move_response as the game's (q, r) pairs; None when it is not one.

    Lenient as a probe should be: a coordinate is anything ``int()`` takes (a float, a numeric string).
    """
    move = reply.get("move") if isinstance(reply, Mapping) else None
    pieces = move.get("pieces") if isinstance(move, Mapping) else None
    if not isinstance(pieces, Sequence) or isinstance(pieces, str) or len(pieces) != 2:
        return None
    try:
        return (_cell_of(pieces[0]), _cell_of(pieces[1]))
    except (KeyError, TypeError, ValueError, OverflowError):  # JSON's 1e400 is an infinite float
        return None


def _cell_of(piece: JsonValue) -> Coord:
    """A piece's ``(q, r)``; KeyError, TypeError or ValueError when it has no such two numbers."""
    if not isinstance(piece, Mapping):
        raise TypeError(f"a piece is an object, got {piece!r}")
    return (_int(piece["q"]), _int(piece["r"]))


def _int(value: JsonValue) -> int:
    if isinstance(value, int | float | str):
        return int(value)
    raise TypeError(f"a coordinate is a number, got {value!r}")


async def _probe_reconnection(
    report: Report, url: str, bws: w.BwsV1Alpha, settings: Settings, limit: float | None
) -> None:
    """Drop a game's connection mid-game as a network failure would (no close frame, no ``end``), then connect
    again: the bot server must accept the new connection and play on. The spec's setup packet exists for this
    ("caching, reconnections"): a bot declaring free_setup is given the position the dropped game had reached;
    one that doesn't can only be given a new game from the start."""
    ws = await _open(url)
    try:
        await ws.send(json.dumps({"type": "setup", "board": ORIGIN_BOARD}))
        first = _move_of(await _one_move(ws, settings, limit))
    except ConnectionClosed:
        first = None
    finally:
        ws.transport.abort()
    state = None if first is None else _answered(first)
    if state is None:  # no legal first move: the games' rows already say why
        report.add("reconnection", SKIP, "not tried: the bot's first move of the probe was not a legal move")
        return
    resumed = bool(bws.free_setup)
    board: JsonObject = msgspec.to_builtins(board_of(state)) if resumed else ORIGIN_BOARD
    reply: JsonValue = None
    try:
        ws = await _open(url)
        try:
            await ws.send(json.dumps({"type": "setup", "board": board}))
            reply = await _one_move(ws, settings, limit, board)
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 2.0)
    except (OSError, InvalidHandshake, InvalidURI, TimeoutError, ConnectionClosed) as exc:
        reply = {"unparsed": f"the new connection failed: {exc}"}
    move = _move_of(reply)
    position = state if resumed else HTTTX.new()
    legal = move is not None and _is_legal(position, move)
    if not legal:
        report.add(
            "reconnection",
            FAIL,
            "after a connection dropped mid-game the bot server did not play on a new connection"
            + (" from the position it was given" if resumed else ""),
            sent="nothing" if reply is None else json.dumps(reply),
            expected="a new connection accepted; setup then move_response with a legal move "
            + ("for the setup's board" if resumed else "(a new game from the start)"),
            fix="treat a connection that ends without `end` like one that ended: free its game, keep serving new "
            "connections, and build each game from its own setup packet",
        )
        return
    how = "played on from the position it was given (free_setup)" if resumed else "played a new game on it"
    report.add("reconnection", PASS, f"accepted a new connection after a dropped one and {how}")


def _answered(first: Move) -> HtttxState | None:
    """The opening after the bot's ``first`` move and a random answer to it; None if ``first`` is illegal there."""
    try:
        after = HTTTX.play(HTTTX.new(), first)
        return HTTTX.play(after, HTTTX.random_move(after, random.Random(3)))
    except Exception:  # the rules refuse it: what counts here is only whether they do
        return None


def _is_legal(state: HtttxState, move: Move) -> bool:
    try:
        HTTTX.play(state, move)
    except Exception:  # the rules refuse it: what counts here is only whether they do
        return False
    return True


async def _probe_bws(report: Report, caps_url: str, bws: w.BwsV1Alpha, settings: Settings) -> None:
    socket_url = resolve(caps_url, bws.api_root, w.DEFAULT_BWS_API_ROOT, "game", websocket=True)
    limit = settings.clock.seconds if bws.move_time_limit else None
    try:
        await _probe_heartbeats(report, socket_url, settings, limit)
        packets: tuple[tuple[str, JsonObject], ...] = (
            ("nope", {"type": "nope", "reason": "check-bot: the server reports an error"}),
            ("game-end", {"type": "end", "winner": "x", "reason": "forfeit", "board": ORIGIN_BOARD}),
        )
        for name, packet in packets:
            await _probe_after(report, name, packet, socket_url, settings, limit)
        await _probe_reconnection(report, socket_url, bws, settings, limit)
    except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
        report.add(
            "stays-up",
            FAIL,
            f"the bot's socket {socket_url} could not be opened for a probe",
            sent=str(exc),
            expected="a WebSocket accepted for every new game",
            fix="keep the bot server accepting connections after a game ends or fails",
        )


async def _probe_heartbeats(report: Report, url: str, settings: Settings, limit: float | None) -> None:
    ws = await _open(url)
    try:
        await ws.send(json.dumps({"type": "setup", "board": ORIGIN_BOARD}))
        await ws.send(json.dumps({"type": "heartbeat", "waiting": False}))
        try:
            stray = await _next(ws, 0.5)
        except ConnectionClosed as exc:
            report.add(
                "heartbeat",
                FAIL,
                "closed the connection on heartbeat{waiting:false} between requests",
                sent=f"close {exc.rcvd.code if exc.rcvd else 1006}",
                expected="nothing: a heartbeat needs no answer",
                fix="ignore heartbeat packets with waiting false",
            )
            return
        if stray is not None:
            report.add(
                "heartbeat",
                FAIL,
                "answered a heartbeat",
                sent=json.dumps(stray),
                expected="nothing: a heartbeat needs no answer",
                fix="never send anything but move_response/eval_response, each once per request",
            )
            return
        await ws.send(json.dumps(_move_request("o", limit)))
        await ws.send(json.dumps({"type": "heartbeat", "waiting": True}))
        try:
            reply = await _next(ws, (settings.clock.seconds or 10.0) + react())
        except ConnectionClosed as exc:
            report.add(
                "heartbeat",
                FAIL,
                "closed the connection on heartbeat{waiting:true} while a move_request was open",
                sent=f"close {exc.rcvd.code if exc.rcvd else 1006}",
                expected="the move_response: waiting true is right while a request is open",
                fix="keep reading the socket while thinking; waiting true only means the server waits",
            )
            return
        if not (isinstance(reply, dict) and reply.get("type") == "move_response"):
            report.add(
                "heartbeat",
                FAIL,
                "no move_response to a move_request sent along with heartbeats",
                sent="nothing" if reply is None else json.dumps(reply),
                expected="a move_response",
                fix="answer the request; heartbeats do not replace it",
            )
            return
        report.add("heartbeat", PASS, "heartbeats between and during requests tolerated")
        # waiting:true sent before the server read the reply may follow it (the SDK and the starters forgive them);
        # after a waiting:false (the server read it) one means the server lost track, and the bot must close
        for waiting in (True, False, True):
            with contextlib.suppress(ConnectionClosed):
                await ws.send(json.dumps({"type": "heartbeat", "waiting": waiting}))
        if await _closes(ws, react()):
            report.add("heartbeat.stray", PASS, "closed the connection on waiting:true with no request open")
        else:
            report.add(
                "heartbeat.stray",
                WARN,
                "stayed connected after heartbeat{waiting:true} with no request open",
                sent="nothing (connection kept)",
                expected="the bot closes the connection: the server has lost track of the requests (spec)",
                fix="on waiting:true with no open request (beyond those crossing your reply), close the socket",
            )
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2.0)


async def _probe_after(
    report: Report, name: str, packet: JsonObject, url: str, settings: Settings, limit: float | None
) -> None:
    """Send ``packet`` (nope, end) after a move, then check the bot is quiet and serves a new game."""
    what = packet["type"]
    ws = await _open(url)
    answered: JsonValue = None
    try:
        await ws.send(json.dumps({"type": "setup", "board": ORIGIN_BOARD}))
        await _one_move(ws, settings, limit)
        await ws.send(json.dumps(packet))
        with contextlib.suppress(ConnectionClosed):
            answered = await _next(ws, 0.5)
    except ConnectionClosed:
        pass
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2.0)
    ws = await _open(url)
    try:
        await ws.send(json.dumps({"type": "setup", "board": ORIGIN_BOARD}))
        reply = await _one_move(ws, settings, limit)
    except ConnectionClosed:
        reply = None
    finally:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 2.0)
    if not (isinstance(reply, dict) and reply.get("type") == "move_response"):
        report.add(
            name,
            FAIL,
            f"after a {what} packet the bot server did not play a new game",
            sent="nothing" if reply is None else json.dumps(reply),
            expected=f"the game's connection ends after {what}; the next connection gets setup and a move_response",
            fix=f"treat {what} as the end of that game only: close its socket and keep serving new connections",
        )
    elif answered is not None:
        report.add(
            name,
            WARN,
            f"the bot sent a packet after {what}",
            sent=json.dumps(answered),
            expected=f"nothing: after {what} the game is over and the server closes the connection",
            fix=f"stop sending on a connection once {what} arrives",
        )
    else:
        report.add(name, PASS, f"{what} accepted quietly; a new game is served after it")


__all__ = ["check_capabilities", "diagnose", "free_positions", "run_htttx"]
