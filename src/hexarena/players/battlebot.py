"""A bot connected IN over the battlebot WebSocket protocol, as a referee Player (docs/protocols/battlebot.md).

The server's socket handler authenticates the bot and wraps the socket in a :class:`BattlebotConnection`; the
lobby (or ``POST /api/matches`` with ``battlebot:BOT_ID``) binds it to a :class:`BattlebotPlayer`, and the
referee runs the match like any other. The rules that belong to this protocol and not to the referee live here:

- on the wire the bot is always its ``bot_id`` (``players``, ``nextPlayer``, ``victor``, a turn's ``player``),
  even where the match names it otherwise (a ladder entry's own name): the bot waits for its id;
- the turn is validated here (``shape.parse`` + ``game.play``) and only valid moves reach the referee; an invalid
  turn is answered to its sender alone, ``{state (unchanged), turn: {...turn, player, time, valid: false}}``;
- a turn sent when it is not the bot's turn is invalid too (a bot can never play for the other seat: ``player``
  is always set by the server from the authenticated socket);
- the third invalid turn of a game loses it (``IllegalMove``: the referee records the loss);
- no valid turn within ``turn_seconds`` (3 s) loses (``BotTimeout``);
- a disconnect loses ``grace`` (0.5 s) later, unless the other bot of a two-battlebot match went too within that
  time: then the match is a draw (:class:`DisconnectJudge`).

Valid turns are echoed to both bots as ``{state, turn: {...turn, player, time, valid: true}}``; the final state
(``complete``, ``victor``, ``reason``) goes to both, then the server closes the socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TypeAlias, cast

from hexarena.core.contract import M, MatchInfo, MoveReply, MoveRequest, PlayerResult, S
from hexarena.core.contract import MatchEnded as MatchEnd  # ends a match with an outcome; see DisconnectJudge
from hexarena.core.errors import BotCrashed, BotTimeout, IllegalMove, InvalidMove
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.types import Outcome, Seat, Termination
from hexarena.players.base import BasePlayer
from hexarena.wire.battlebot import Shape, check_turn

log = logging.getLogger(__name__)

SendText = Callable[[str], Awaitable[None]]
CloseSocket = Callable[[int, str], Awaitable[None]]

STRIKES = 3
TURN_SECONDS = 3.0
GRACE = 0.5
#: Longest frame a battlebot bot may send (a login or a turn: a few short fields); larger is an invalid turn.
MAX_TURN_CHARS = 64 * 1024


class _Draw:
    """The inbox's wake-up call: the judge declared a draw (both bots disconnected) while this bot waits."""


_DRAW = _Draw()


class _Garbage:
    """A frame that is not JSON; kept so the bot is told which frame was refused."""

    def __init__(self, text: str, too_large: bool = False) -> None:
        self.text = text
        self.too_large = too_large


#: What a bot sent as a turn: a JSON value, or the frame that was not one.
Turn: TypeAlias = "JsonValue | _Garbage"


class BattlebotConnection:
    """One authenticated socket. Sends never raise: a dead socket is reported once through ``lost()``."""

    def __init__(
        self, bot_id: str, game: str, contest: str | None, send_text: SendText, close_socket: CloseSocket
    ) -> None:
        self.id = secrets.token_hex(8)
        self.bot_id = bot_id
        self.game = game  # hexarena game name
        self.contest = contest
        self._send_text = send_text
        self._close_socket = close_socket
        self.player: BattlebotPlayer | None = None
        self.closed = False
        self.connected_at = time.monotonic()

    async def send(self, message: JsonObject) -> None:
        if self.closed:
            return
        try:
            await self._send_text(json.dumps(message))
        except Exception:
            self.lost()

    async def deliver(self, text: str) -> None:
        """A frame from the bot. Before a match it is ignored (the original did the same)."""
        if self.player is not None:
            await self.player.receive(text)

    def lost(self) -> None:
        """The socket is gone (closed by the bot, or a send failed)."""
        if self.closed:
            return
        self.closed = True
        if self.player is not None:
            self.player.on_disconnect()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """Close from the server side (after a match, an idle drop, a failed login)."""
        self.closed = True
        with contextlib.suppress(Exception):
            await self._close_socket(code, reason)


class DisconnectJudge:
    """Applies the disconnect rule of one match: the leaver loses after ``grace``, both leaving is a draw."""

    def __init__(self, grace: float = GRACE) -> None:
        self.grace = grace
        self.players: list[BattlebotPlayer | None] = [None, None]
        self.gone: dict[Seat, float] = {}
        self.verdict: Outcome | None = None
        self._timers: dict[Seat, asyncio.TimerHandle] = {}

    def disconnected(self, seat: Seat) -> None:
        if self.verdict is not None or seat in self.gone:
            return
        loop = asyncio.get_running_loop()
        self.gone[seat] = loop.time()
        if 1 - seat in self.gone:
            for timer in self._timers.values():
                timer.cancel()
            self.verdict = Outcome(
                None, Termination.DISCONNECT, f"both bots disconnected within {self.grace * 1000:.0f} ms"
            )
            for player in self.players:
                if player is not None:
                    player.inbox.put_nowait(_DRAW)
            return
        self._timers[seat] = loop.call_later(self.grace, self._expire, seat)

    def _expire(self, seat: Seat) -> None:
        player = self.players[seat]
        if self.verdict is None and player is not None:
            self.verdict = Outcome(1 - seat, Termination.DISCONNECT, f"{player.name} disconnected")
            player.fail(BotCrashed(f"{player.name} disconnected"))

    def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()


class BattlebotPlayer(BasePlayer[S, M]):
    """The referee's view of one battlebot connection (see the module docstring)."""

    kind = "battlebot"

    def __init__(
        self,
        conn: BattlebotConnection,
        shape: Shape[S, M],
        *,
        judge: DisconnectJudge | None = None,
        turn_log: dict[int, JsonObject] | None = None,
        strikes: int = STRIKES,
        turn_seconds: float = TURN_SECONDS,
    ) -> None:
        super().__init__()
        self.conn = conn
        self.shape = shape
        self.name = conn.bot_id
        self.judge = judge or DisconnectJudge()
        self.turn_log = turn_log if turn_log is not None else {}
        self.max_strikes = strikes
        self.turn_seconds = turn_seconds
        self.strikes = 0
        self.seat: Seat = 0
        self.players: tuple[str, str] = (conn.bot_id, "")
        self.state: S | None = None
        self.started = False
        self.inbox: asyncio.Queue[tuple[Turn, int] | _Draw] = asyncio.Queue()
        self._seen = 0
        self._state_json: JsonObject | None = None
        self._sent_complete = False
        conn.player = self

    def describe(self) -> JsonObject:
        return {"name": self.name, "kind": self.kind, "spec": f"battlebot:{self.conn.bot_id}"}

    # ----- referee side -----

    async def start(self, info: MatchInfo[S, M]) -> None:
        self.info = info
        self.seat = info.seat
        names = [info.opponent, info.opponent]
        names[info.seat] = self.conn.bot_id  # the bot knows itself by its id, whatever the match calls it
        self.players = (names[0], names[1])
        self.judge.players[self.seat] = self
        self.state = info.initial_state
        self.started = True
        if self.conn.closed:
            self.on_disconnect()
        self._state_json = self.shape.state(self.state, self.players)
        await self.conn.send({"state": self._state_json})

    async def move(self, request: MoveRequest[S, M]) -> MoveReply[M]:
        self.state = request.state
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.turn_seconds
        while True:
            if self.judge.verdict is not None and self.judge.verdict.winner is None:
                raise MatchEnd(self.judge.verdict)
            remaining = deadline - loop.time()
            try:
                if remaining <= 0:
                    raise TimeoutError
                item = await asyncio.wait_for(self.inbox.get(), remaining)
            except TimeoutError:
                raise BotTimeout(f"no valid turn within {self.turn_seconds:g} s") from None
            if isinstance(item, _Draw):
                continue
            value, ms = item
            try:
                move, _ = self._check(value, request.state)
            except (InvalidMove, IllegalMove) as exc:
                if await self._invalid(value, ms, exc.reason):
                    raise IllegalMove(f"{self.strikes} invalid turns; the last: {exc.reason}") from None
                continue
            self.turn_log[len(request.history)] = self._echo(value, ms, True)
            return MoveReply(move=move)

    async def observe(self, seat: Seat, move: M, state: S) -> None:
        before, self.state = self.state, state
        index = self._seen
        self._seen += 1
        turn = self.turn_log.get(index)
        if turn is None:  # a player of another protocol moved: echo the turn a battlebot bot would have sent
            turn = self.shape.turn(move, seat, cast("S", before))  # set by ``start``, which comes first
            turn.update(player=self.players[seat], time=_now_ms(), valid=True)
            self.turn_log[index] = turn
        self._state_json = self.shape.state(state, self.players, last_seat=seat)
        self._sent_complete = bool(self._state_json["complete"])
        await self.conn.send({"state": self._state_json, "turn": turn})
        if self.shape.game.to_move(state) != self.seat:  # turns queued in a hurry are now out of turn
            while not self.inbox.empty():
                item = self.inbox.get_nowait()
                if not isinstance(item, _Draw):
                    await self._out_of_turn(*item)

    async def finish(self, result: PlayerResult[S]) -> None:
        try:
            self.judge.close()
            outcome = result.outcome
            if not (self._sent_complete and outcome.termination in (Termination.NORMAL, Termination.TURN_LIMIT)):
                final = self.shape.state(result.final_state, self.players, outcome=outcome)
                await self.conn.send({"state": final})
        except Exception:
            log.exception("could not send the final state to %s", self.name)
        finally:
            await self.conn.close(1000, "game over")

    # ----- socket side -----

    async def receive(self, text: str) -> None:
        """A frame from the bot: queued in its turn, refused at once out of turn."""
        ms = _now_ms()
        value: Turn
        if len(text) > MAX_TURN_CHARS:
            value = _Garbage(text[:80], too_large=True)
        else:
            try:
                value = json.loads(text)
            except ValueError:
                value = _Garbage(text[:80])
        state = self.state
        if not self.started or (state is not None and self.shape.game.to_move(state) == self.seat):
            self.inbox.put_nowait((value, ms))
        else:
            await self._out_of_turn(value, ms)

    def on_disconnect(self) -> None:
        if self.started:
            self.judge.disconnected(self.seat)

    # ----- helpers -----

    def _check(self, value: Turn, state: S) -> tuple[M, S]:
        if isinstance(value, _Garbage):
            if value.too_large:
                raise InvalidMove(f"turn is larger than {MAX_TURN_CHARS} characters")
            raise InvalidMove(f"turn {value.text!r} is not JSON")
        return check_turn(self.shape, value, self.seat, state)

    async def _out_of_turn(self, value: Turn, ms: int) -> None:
        if self.state is not None and self.shape.game.to_move(self.state) is None:
            return  # the game is over: late turns are ignored
        if await self._invalid(value, ms, "it is not your turn"):
            self.fail(IllegalMove(f"{self.strikes} invalid turns; the last: it was not its turn"))

    def _echo(self, value: Turn, ms: int, valid: bool, error: str | None = None) -> JsonObject:
        turn: JsonObject = dict(value) if isinstance(value, dict) else {}
        turn.update(player=self.conn.bot_id, time=ms, valid=valid)
        if error is not None:
            turn["error"] = error
        return turn

    async def _invalid(self, value: Turn, ms: int, reason: str) -> bool:
        """Answer an invalid turn to this bot only; True when it was the losing strike."""
        self.strikes += 1
        state = self._state_json if self._state_json is not None else {}
        await self.conn.send({"state": state, "turn": self._echo(value, ms, False, reason)})
        return self.strikes >= self.max_strikes


def _now_ms() -> int:
    return int(time.time() * 1000)
