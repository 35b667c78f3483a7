"""SDK pieces without sockets: helpers, models, capabilities, the session state machine, the adapter."""

from __future__ import annotations

import random
import threading
import time
from itertools import product

import pytest

from hexarena.bots.sdk import (
    BaseBot,
    BwsV1AlphaCapability,
    Cell,
    CenterBot,
    Coord,
    GameStatus,
    Match,
    Meta,
    Player,
    bot_class_for,
    check_win,
    default_capabilities,
    evaluate_status,
    hex_distance,
    place_piece,
    valid_placement_cells,
)
from hexarena.core.errors import ConfigError
from hexarena_sdk.moves import check, fallback_move
from hexarena_sdk.runner import INLINE_AFTER, BotRunner, safety_margin, soft_deadline
from hexarena_sdk.session import SessionState
from hexarena_sdk.wire import htttx as wire


def _naive_valid(cells: list[Cell], view: int) -> set[tuple[int, int]]:
    occ = {(c.q, c.r) for c in cells}
    out = set()
    for (q, r), dq, dr in product(occ, range(-view, view + 1), range(-view, view + 1)):
        if hex_distance(0, 0, dq, dr) <= view and (q + dq, r + dr) not in occ:
            out.add((q + dq, r + dr))
    return out


def test_valid_placement_cells_matches_hivemakers_definition() -> None:
    rng = random.Random(5)
    assert valid_placement_cells([], 8) == [Coord(q=0, r=0)]
    for _ in range(20):
        cells = [Cell(q=rng.randint(-9, 9), r=rng.randint(-9, 9), p=rng.choice(list(Player))) for _ in range(12)]
        uniq = list({(c.q, c.r): c for c in cells}.values())
        view = rng.randint(1, 4)
        got = valid_placement_cells(uniq, view)
        assert {(c.q, c.r) for c in got} == _naive_valid(uniq, view)
        assert len(got) == len(set(got))


def test_check_win_and_status() -> None:
    line = [Cell(q=i, r=2, p=Player.O) for i in range(5)]
    assert not check_win(line, Player.O, 6)
    six = place_piece(line, Coord(q=5, r=2), Player.O)
    assert len(line) == 5 and len(six) == 6  # place_piece does not mutate
    assert check_win(six, Player.O, 6) and not check_win(six, Player.X, 6)
    assert evaluate_status(six, 6) is GameStatus.O_WINS
    diag = [Cell(q=i, r=-i, p=Player.X) for i in range(6)]
    assert evaluate_status(diag, 6) is GameStatus.X_WINS
    broken = [Cell(q=i, r=-i, p=Player.X) for i in range(7) if i != 3]
    assert evaluate_status(broken, 6) is GameStatus.IN_PROGRESS


def test_models_behave_like_hivemakers() -> None:
    assert Coord(q=1, r=2) == Coord(q=1, r=2) and len({Coord(q=1, r=2), Coord(q=1, r=2)}) == 1
    assert Cell.from_wire({"q": 1, "r": -1, "p": "o"}).to_wire() == {"q": 1, "r": -1, "p": "o"}
    assert Player("x") is Player.X and Player.X.other is Player.O
    assert Match().view_distance == 8 and Match().clock_type == "none" and Match().increment is None


def test_capabilities_are_mutable_and_valid_wire() -> None:
    caps = default_capabilities(BwsV1AlphaCapability(evaluation=True, config={}))
    caps.meta = Meta(name="Mine", tags=["minimax"], homepage="https://example.org")  # type: ignore[call-arg]
    doc = caps.to_wire()
    assert doc["meta"]["homepage"] == "https://example.org"
    decoded = wire.decode_capabilities(wire.encode(doc))
    assert decoded.basic_websocket is not None and decoded.basic_websocket.versions.v1_alpha is not None
    assert decoded.basic_websocket.versions.v1_alpha.evaluation is True
    assert decoded.basic_websocket.versions.v1_alpha.config == wire.ConfigCapability(dynamic=False)
    assert caps.model_dump() == doc
    assert caps.bws_api_root() == "bws/v1-alpha" and caps.stateless_api_root() == "stateless/v1-alpha"


def _req(side: str, previous: list[wire.Move], board: wire.Board | None = None) -> wire.MoveRequestPacket:
    return wire.MoveRequestPacket(side=side, previous=previous, board=board)  # type: ignore[arg-type]


def _mv(side: str, *pieces: tuple[int, int]) -> wire.Move:
    return wire.Move(side=side, pieces=[wire.Coord(q=q, r=r) for q, r in pieces])  # type: ignore[arg-type]


def test_session_rollback_and_move_skips() -> None:
    s = SessionState()
    assert s.cells == {(0, 0): Player.X}  # the standard start before any setup
    s.commit_own_move(Player.O, [Coord(q=1, r=0), Coord(q=2, r=0)])
    before = s.begin_move_request(_req("o", [_mv("x", (5, 5), (6, 6))]))
    assert s.cells[(5, 5)] is Player.X and s.cells[(1, 0)] is Player.O
    s.rollback(before)
    assert (5, 5) not in s.cells
    skipping = SessionState(BwsV1AlphaCapability(move_skips=True))
    skipping.commit_own_move(Player.O, [Coord(q=1, r=0), Coord(q=2, r=0)])
    assert (1, 0) not in skipping.cells


def test_session_dual_sided_free_order() -> None:
    s = SessionState(BwsV1AlphaCapability(dual_sided=True, free_move_order=True, free_setup=True))
    s.apply_setup(wire.Board(cells=[wire.Cell(q=3, r=3, p="o")]))
    s.begin_move_request(_req("o", [_mv("o", (4, 3), (5, 3)), _mv("o", (6, 3), (7, 3))]))
    assert s.cells == {(q, 3): Player.O for q in range(3, 8)}


def test_engine_adapter_and_fallback() -> None:
    cls = bot_class_for("heuristic")
    bot = cls()
    cells = [Cell(q=0, r=0, p=Player.X), *(Cell(q=i, r=1, p=Player.O) for i in range(4))]
    a, b = bot.choose_move(cells, Player.X, Match())
    cellmap = {(c.q, c.r): c.p for c in cells}
    assert check(cellmap, (a, b), Player.X, Match()) is None
    blocked = {(a.q, a.r), (b.q, b.r)}
    assert blocked & {(-1, 1), (-2, 1)} and blocked & {(4, 1), (5, 1)}  # both ends of the open four
    assert check(cellmap, fallback_move(cellmap, Player.X, Match()), Player.X, Match()) is None
    with pytest.raises(ConfigError, match=r"'nope'.*heuristic"):
        bot_class_for("nope")
    caps = cls.capabilities().to_wire()
    assert caps["meta"]["name"] == "hexarena-heuristic"


def test_check_reasons_quote_the_cell() -> None:
    cells = {(0, 0): Player.X}
    assert check(cells, (Coord(q=0, r=0), Coord(q=1, r=0)), Player.O, Match()) == "(0,0) is occupied"
    reason = check(cells, (Coord(q=1, r=0), Coord(q=30, r=0)), Player.O, Match())
    assert reason is not None and "(30,0)" in reason
    assert check(cells, (Coord(q=1, r=0), Coord(q=1, r=0)), Player.O, Match()) == "both pieces are on (1,0)"
    assert check(cells, (Coord(q=8, r=0), Coord(q=16, r=0)), Player.O, Match()) is None  # 2nd near the 1st


def test_soft_deadline_leaves_a_margin() -> None:
    assert soft_deadline(10.0, None) is None
    for limit in (0.1, 0.3, 1.0, 5.0, 60.0):
        soft = soft_deadline(10.0, limit)
        assert soft is not None and 10.0 <= soft < 10.0 + limit
        assert soft == pytest.approx(10.0 + limit - safety_margin(limit))


def test_center_bot_is_deterministic() -> None:
    a, b = CenterBot().choose_move([Cell(q=0, r=0, p=Player.X)], Player.O, Match())
    assert (a.q, a.r, b.q, b.r) == (-1, 0, -1, 1)


def _board(*stones: tuple[int, int, str]) -> wire.Board:
    return wire.Board(cells=[wire.Cell(q=q, r=r, p=p) for q, r, p in stones])  # type: ignore[arg-type]


def test_session_follows_the_engine_board_and_reuses_cell_models() -> None:
    s = SessionState()
    s.begin_move_request(_req("o", [_mv("x", (0, 0))], _board((0, 0, "x"))))
    board = s.engine_board(Match())
    models = s.cell_list()
    s.commit_own_move(Player.O, [Coord(q=1, r=0), Coord(q=2, r=0)])
    s.cells_untouched()
    stones = [(0, 0, "x"), (1, 0, "o"), (2, 0, "o"), (3, 0, "x"), (4, 0, "x")]
    s.begin_move_request(_req("o", [_mv("o", (1, 0), (2, 0)), _mv("x", (3, 0), (4, 0))], _board(*stones)))
    assert s.engine_board(Match()) is board and board.cells == {(q, r): "xo".index(p) for q, r, p in stones}
    again = s.cell_list()
    assert again is not models and again[0] is models[0]  # a fresh list of the same (unchanged) models
    assert [(c.q, c.r, c.p.value) for c in again] == stones
    # check() leaves the followed board exactly as it was
    assert check(s.cells, (Coord(q=5, r=0), Coord(q=6, r=0)), Player.O, Match(), board) is None
    assert len(board) == 5 and (5, 0) not in board.cells
    # a bot that alters a model gets fresh ones next time
    again[1].p = Player.X
    s.cells_untouched()
    fresh = s.cell_list()
    assert fresh[1] is not again[1] and fresh[1].p is Player.O
    # a board that disagrees with previous wins, and the engine board is rebuilt from it
    s.begin_move_request(_req("o", [_mv("x", (7, 0), (8, 0))], _board(*stones, (9, 9, "x"), (10, 9, "x"))))
    assert (9, 9) in s.cells and (7, 0) not in s.cells
    rebuilt = s.engine_board(Match())
    assert rebuilt is not board and (9, 9) in rebuilt.cells and (7, 0) not in rebuilt.cells
    assert [(c.q, c.r) for c in s.cell_list()][-2:] == [(9, 9), (10, 9)]


class VirtualCallTime:
    """The runner's call-duration clock (``time.perf_counter`` in ``hexarena_sdk.runner``) made virtual: a call
    takes exactly what the bot says it does, so a loaded machine that stalls a fast call's thread for a
    millisecond cannot make it count as slow (the inline decision is about the bot, not the machine)."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now

    def __getattr__(self, name: str) -> object:
        return getattr(time, name)  # every other use of ``time`` (the deadlines' monotonic clock) stays real


class CallRecorder(BaseBot):
    """Records, for every call, the thread it ran on and the stop event its job held then; ``slow`` calls take
    5 ms of the virtual clock, the others none."""

    slow = False

    def __init__(self, clock: VirtualCallTime) -> None:
        self.calls: list[tuple[str, object]] = []
        self.clock = clock

    def choose_move(self, cells: list[Cell], player: Player, match: Match) -> tuple[Coord, Coord]:
        assert self._job is not None
        self.calls.append((threading.current_thread().name, self._job._stop))
        if self.slow:
            self.clock.now += 0.005
        return Coord(q=1, r=0), Coord(q=2, r=0)


async def _runner_after(calls: int, monkeypatch: pytest.MonkeyPatch) -> tuple[CallRecorder, BotRunner]:
    """A recording bot's runner after ``calls`` fast calls (the first ``INLINE_AFTER`` in a thread)."""
    import hexarena_sdk.runner

    clock = VirtualCallTime()
    monkeypatch.setattr(hexarena_sdk.runner, "time", clock)
    bot = CallRecorder(clock)
    runner = BotRunner(bot)
    for _ in range(calls):
        assert (await runner.call(bot.choose_move, [], Player.X, Match())).kind == "done"
    return bot, runner


async def test_runner_calls_instant_bots_inline_and_slow_ones_in_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    bot, runner = await _runner_after(INLINE_AFTER + 2, monkeypatch)
    main = threading.current_thread().name
    threads = [name for name, _ in bot.calls]
    assert threads[:INLINE_AFTER] != [main] * INLINE_AFTER and threads[-1] == main and runner.inline_calls == 2
    bot.slow = True  # one slow inline call: back to the thread
    await runner.call(bot.choose_move, [], Player.X, Match())
    await runner.call(bot.choose_move, [], Player.X, Match())
    threads = [name for name, _ in bot.calls]
    assert threads[-2] == main and threads[-1] != main and runner.inline_calls == 3


async def test_a_threaded_call_shares_its_stop_event_and_an_inline_one_makes_it_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A call in a worker thread: its stop event exists before the call starts, so the bot's thread and the loop
    # (which sets it at the soft deadline) hold the same one. An inline call makes none unless asked: an Event
    # and its Condition for every move of an instant bot were ~3 % of its server's CPU.
    bot, runner = await _runner_after(INLINE_AFTER + 1, monkeypatch)
    main = threading.current_thread().name
    threaded, inline = bot.calls[:INLINE_AFTER], bot.calls[INLINE_AFTER:]
    assert all(name != main and isinstance(stop, threading.Event) for name, stop in threaded), threaded
    assert inline == [(main, None)]
    assert not bot.should_stop()  # asked: made then, on the loop's thread, and not set
    assert bot._job is not None and isinstance(bot._job._stop, threading.Event)
    assert bot.stop_flag() == b"\x00"  # the same request as one byte, for a native search to read
    runner.stop()
    assert bot.should_stop()
    assert bot.stop_flag() == b"\x01"


def test_a_requests_match_is_a_fresh_copy_with_its_limit_and_deadline() -> None:
    # Made without pydantic's model_copy (see SessionState.match_for), and equal to what it made.
    s = SessionState()
    s.match = Match(heartbeat=1000, win_distance=32, clock_type="fischer", clock=60.0, increment=1.0)
    m = s.match_for(1.5, 123.25)
    expected = s.match.model_copy(update={"move_time_limit": 1.5, "deadline": 123.25})
    assert m == expected and m.model_dump() == expected.model_dump()
    assert m.model_fields_set == expected.model_fields_set
    m.win_distance = 5  # the bot may change its copy: the session's match stays
    assert s.match.win_distance == 32 and s.match.move_time_limit is None
    assert s.match_for(None, None).deadline is None


def test_board_cache_parses_only_the_new_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    from hexarena.games.htttx import HTTTX
    from hexarena.players.htttx_common import BoardJson
    from hexarena_sdk.session import BoardCache

    full_decodes: list[bytes] = []
    real = wire.decode_board
    monkeypatch.setattr(wire, "decode_board", lambda raw: full_decodes.append(raw) or real(raw))
    state, rng, history = HTTTX.new(turn_limit=50, win_distance=32), random.Random(5), []
    encoder, cache = BoardJson(state), BoardCache()
    for _ in range(20):
        seat, move = HTTTX.to_move(state), HTTTX.random_move(state, rng)
        state = HTTTX.play(state, move)
        history.append((seat, move))
        cells = cache.cells_of(encoder.encode(history))
        assert cells is not None and list(cells.items()) == [
            ((q, r), Player.X if s == 0 else Player.O) for (q, r), s in state.cells.items()
        ]
    assert len(full_decodes) == 1  # the first board; every later one only had its new cells parsed
    # not an extension of the last board, or not canonical: decoded in full
    assert cache.cells_of(b'{"cells":[{"q":0,"r":0,"p":"x"}]}') == {(0, 0): Player.X}
    spaced = b'{"cells": [{"q":0,"r":0,"p":"x"}]}'
    assert cache.cells_of(spaced) == {(0, 0): Player.X}
    grown = b'{"cells": [{"q":0,"r":0,"p":"x"},{"q":1,"r":0,"p":"o"}]}'
    assert cache.cells_of(grown) == {(0, 0): Player.X, (1, 0): Player.O} and len(full_decodes) == 4
    # an appended part that is not just more cells is never taken for cells: the whole board is decoded
    canonical = b'{"cells":[{"q":0,"r":0,"p":"x"},{"q":1,"r":0,"p":"o"}]}'
    assert cache.cells_of(canonical) == {(0, 0): Player.X, (1, 0): Player.O} and len(full_decodes) == 5
    tricky = canonical[:-2] + b',{"q":2,"r":0,"p":"x"}],"x":[{"q":9,"r":9,"p":"o"}]}'
    assert cache.cells_of(tricky) == {(0, 0): Player.X, (1, 0): Player.O, (2, 0): Player.X}
    assert len(full_decodes) == 6
    assert cache.cells_of(b'{"cells":[{"q":0,"r":0,"p":"x"},{"q":1,"r":0,"p":"o"},{"q":2}]}') is None


def test_session_confirms_an_appended_board_from_its_new_stones_only() -> None:
    """A board that extends the last one by exactly the stones the session added since (its own answer and the
    moves of ``previous``) is taken without comparing every stone: the cells, the engine board and the reused
    cell models all carry on; a board that extends it differently still wins, and is followed from then on."""
    from hexarena.games.htttx import HTTTX
    from hexarena.players.htttx_common import BoardJson
    from hexarena_sdk.session import BoardCache

    state, rng, history = HTTTX.new(turn_limit=50, win_distance=32), random.Random(7), []
    encoder, cache, s = BoardJson(state), BoardCache(), SessionState()
    models = None
    for turn in range(12):
        seat, move = HTTTX.to_move(state), HTTTX.random_move(state, rng)
        state = HTTTX.play(state, move)
        history.append((seat, move))
        if seat == 0:  # our opponent (x) played: the request carries its move and the board
            board = cache.cells_of(encoder.encode(history))
            s.begin_move_request(_req("o", [_mv("x", *move)], None), board)
            assert list(s.cells.items()) == [((q, r), Player("xo"[p])) for (q, r), p in state.cells.items()]
            assert s.cells is not board  # ours to change; the cache builds the next board from its own
            again = s.cell_list()
            if models is not None and turn > 2:
                assert again[0] is models[0]  # nothing disagreed: the same models
            models = again
            s.cells_untouched()
        else:  # our answer
            s.commit_own_move(Player.O, [Coord(q=q, r=r) for q, r in move])
    # the server's board says something else than previous: the board wins and the models are rebuilt
    stones = [(q, r, "xo"[p]) for (q, r), p in state.cells.items()]
    odd = cache.cells_of(_board_bytes(*stones, (40, 40, "x"), (41, 40, "x")))
    assert odd is not None and odd.added == [(40, 40, Player.X), (41, 40, Player.X)]
    s.begin_move_request(_req("o", [_mv("x", (30, 30), (31, 30))], None), odd)
    assert (40, 40) in s.cells and (30, 30) not in s.cells and s.cell_list()[0] is not models[0]


def _board_bytes(*stones: tuple[int, int, str]) -> bytes:
    return wire.encode(_board(*stones))


def test_a_games_boards_share_one_dict_and_never_change_once_returned() -> None:
    """An appended board is made by appending its new cells to the dict the last board shares (no copy of every
    stone a request, no dict of every stone freed a request), and a board already returned (a request waiting in
    the queue) reads the same after later boards are decoded; a cell given again gets a dict of its own."""
    from hexarena_sdk.session import BoardCache

    cache = BoardCache()
    stones = [(0, 0, "x"), (1, 0, "o"), (2, 0, "o")]
    first = cache.cells_of(_board_bytes(*stones))
    second = cache.cells_of(_board_bytes(*stones, (3, 0, "x"), (4, 0, "x")))
    third = cache.cells_of(_board_bytes(*stones, (3, 0, "x"), (4, 0, "x"), (5, 0, "o"), (6, 0, "o")))
    assert first is not None and second is not None and third is not None
    assert first._shared is second._shared is third._shared  # one dict, grown in place
    assert third.base is second and third.added == [(5, 0, Player.O), (6, 0, Player.O)]
    assert len(first) == 3 and (3, 0) not in first and dict(first) == {(0, 0): "x", (1, 0): "o", (2, 0): "o"}
    assert len(second) == 5 and (5, 0) not in second and list(second)[-1] == (4, 0)
    assert second == {**dict(first), (3, 0): Player.X, (4, 0): Player.X} and second != third
    # a cell the board already holds, given again: a board of its own; the earlier ones are as they were
    again = cache.cells_of(
        _board_bytes(*stones, (3, 0, "x"), (4, 0, "x"), (5, 0, "o"), (6, 0, "o"), (0, 0, "o"), (7, 0, "o"))
    )
    assert again is not None and again.base is None and again._shared is not third._shared
    assert again[(0, 0)] is Player.O and third[(0, 0)] is Player.X and len(again) == 8 and len(third) == 7
    # a cell given twice within the new part: no extension, and still nothing earlier changes
    twice = cache.cells_of(
        _board_bytes(
            *stones,
            (3, 0, "x"),
            (4, 0, "x"),
            (5, 0, "o"),
            (6, 0, "o"),
            (0, 0, "o"),
            (7, 0, "o"),
            (8, 0, "x"),
            (8, 0, "o"),
        )
    )
    assert twice is not None and twice.base is None and twice[(8, 0)] is Player.O and len(twice) == 9
    assert len(again) == 8 and (8, 0) not in again


def test_a_rolled_back_request_restores_the_cells_a_disagreeing_board_replaced() -> None:
    """``previous`` is applied to the session's cells in place; an interrupted request restores them exactly,
    also when the request's board disagreed and replaced them."""
    from hexarena_sdk.session import BoardCache

    s, cache = SessionState(), BoardCache()
    s.begin_move_request(_req("o", [_mv("x", (0, 0))]), cache.cells_of(_board_bytes((0, 0, "x"))))
    s.commit_own_move(Player.O, [Coord(q=1, r=0), Coord(q=2, r=0)])
    held = dict(s.cells)
    undo = s.begin_move_request(_req("o", [_mv("x", (3, 0), (1, 0))]))  # (1, 0) changes sides
    assert s.cells[(1, 0)] is Player.X and s.cells[(3, 0)] is Player.X
    s.rollback(undo)
    assert s.cells == held and list(s.cells) == list(held)
    odd = cache.cells_of(_board_bytes((0, 0, "x"), (9, 9, "o")))
    undo = s.begin_move_request(_req("o", [_mv("x", (3, 0), (4, 0))]), odd)
    assert s.cells == {(0, 0): Player.X, (9, 9): Player.O}  # the board wins
    s.rollback(undo)
    assert s.cells == held and list(s.cells) == list(held)


def test_cell_models_are_rebuilt_after_any_cell_is_changed() -> None:
    s = SessionState()
    s.begin_move_request(_req("o", [_mv("x", (0, 0))], _board((0, 0, "x"))))
    models = s.cell_list()
    s.cells_untouched()
    assert s.cell_list()[0] is models[0]
    s.cells_untouched()
    del models[0].p  # deleting a field counts as much as assigning one
    s.cells_untouched()
    fresh = s.cell_list()
    assert fresh[0] is not models[0] and fresh[0].p is Player.X


async def test_our_servers_move_requests_are_read_without_decoding_their_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every move request the game server's bws adapter writes takes the by-position path: no decoder ever sees
    the whole packet, and the cells the session gets are the position's."""
    from hexarena.games.htttx import HTTTX
    from hexarena.players.htttx_common import BoardJson, move_request_json, wire_move
    from hexarena_sdk.connection import BwsSession

    seen: list[int] = []
    real = wire.decode_lazy_move_request
    monkeypatch.setattr(wire, "decode_lazy_move_request", lambda raw: seen.append(len(raw)) or real(raw))
    monkeypatch.setattr(wire, "decode_head", lambda raw: pytest.fail("a head was decoded"))
    session = BwsSession(None, CenterBot(), CenterBot.capabilities())  # type: ignore[arg-type]
    state, rng, history = HTTTX.new(turn_limit=60, win_distance=32), random.Random(3), []
    encoder = BoardJson(state)
    for _ in range(40):
        seat, move = HTTTX.to_move(state), HTTTX.random_move(state, rng)
        state = HTTTX.play(state, move)
        history.append((seat, move))
        packet = move_request_json("o", [wire_move(seat, move)], encoder.parts(history), 1.5)
        assert session._fast_move_request(packet.decode())
        req, _ = session.queue.get_nowait()
        assert req.board == {(q, r): Player("xo"[p]) for (q, r), p in state.cells.items()}
        assert req.packet.move_time_limit == 1.5 and len(req.packet.previous) == 1
    assert max(seen) < 400  # the packet without its board, never the board


def test_a_session_without_boards_remembers_no_stones_to_match() -> None:
    """Requests without a board (the spec's dialect) leave nothing to confirm a later board against: the session
    keeps no growing list of the game's stones for it."""
    s = SessionState()
    for i in range(1, 30):
        s.begin_move_request(_req("o", [_mv("x", (i, 0), (i, 1))]))
        s.commit_own_move(Player.O, [Coord(q=-i, r=0), Coord(q=-i, r=1)])
    assert len(s.cells) == 1 + 4 * 29 and s._since == []
