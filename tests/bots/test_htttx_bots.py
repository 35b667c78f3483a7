"""Reference HTTTX bots: legality, strength against random, immediate wins and blocks."""

from __future__ import annotations

import random
from itertools import product

import pytest

from hexarena.bots.base import EngineBot
from hexarena.bots.htttx import BOTS, HeuristicBot, RandomBot, SearchBot
from hexarena.games.htttx import HTTTX, HtttxState

AXES = ((1, 0), (0, 1), (1, -1))
W = 6


def play_game(x: EngineBot, o: EngineBot, seed: int, max_turns: int = 80) -> int | None:
    rng = random.Random(seed)
    state = HTTTX.new()
    bots = (x, o)
    for _ in range(max_turns):
        seat = state.to_move_seat
        if seat is None:
            break
        state = HTTTX.play(state, bots[seat].choose(HTTTX, state, None, rng))
    return state.winner


def threats(cells: dict[tuple[int, int], int], seat: int) -> list[set[tuple[int, int]]]:
    """Brute force, independent of the bots: the empty cells of every window of 6 holding >= 4 of ``seat``'s
    stones and none of the other side's (``seat`` wins next turn by filling one)."""
    if not cells:
        return []
    qs = [q for q, _ in cells]
    rs = [r for _, r in cells]
    out = []
    for q, r in product(range(min(qs) - W, max(qs) + W), range(min(rs) - W, max(rs) + W)):
        for dq, dr in AXES:
            window = [(q + i * dq, r + i * dr) for i in range(W)]
            owners = [cells.get(c) for c in window]
            if owners.count(1 - seat) == 0 and owners.count(seat) >= W - 2:
                out.append({c for c, s in zip(window, owners, strict=True) if s is None})
    return out


def has_two_stone_win(cells: dict[tuple[int, int], int], seat: int) -> bool:
    return bool(threats(cells, seat))


def one_block_suffices(cells: dict[tuple[int, int], int], seat: int) -> bool:
    """True if a single stone against ``seat`` spoils every one of its threat windows."""
    found = threats(cells, seat)
    return any(all(c in t for t in found) for c in set().union(*found))


def test_every_bot_is_registered_and_plays_legal_games() -> None:
    assert set(BOTS) == {"random", "center", "heuristic", "search"}
    for name, factory in BOTS.items():
        bot = factory()
        assert isinstance(bot, EngineBot) and bot.name == name
    factories = {**BOTS, "search": lambda: SearchBot(max_nodes=300)}  # a node budget: no clock in these games
    for a, b in product(factories, repeat=2):
        play_game(factories[a](), factories[b](), seed=hash((a, b)) % 1000, max_turns=15)  # HTTTX.play checks legality


def test_heuristic_beats_random_nearly_always() -> None:
    wins = 0
    for game in range(20):
        h_seat = game % 2
        bots = (HeuristicBot(), RandomBot()) if h_seat == 0 else (RandomBot(), HeuristicBot())
        if play_game(bots[0], bots[1], seed=1000 + game) == h_seat:
            wins += 1
    assert wins >= 18


def _window(rng: random.Random, near: tuple[int, int]) -> list[tuple[int, int]]:
    dq, dr = rng.choice(AXES)
    q0, r0 = near[0] + rng.randint(-3, 3), near[1] + rng.randint(-3, 3)
    return [(q0 + i * dq, r0 + i * dr) for i in range(W)]


def _position(
    rng: random.Random, seat: int, missing: int, to_move: int, rival: bool = False
) -> tuple[HtttxState, list[tuple[int, int]]] | None:
    """A random position, ``to_move`` to play, where ``seat`` owns W - missing stones of one window whose other
    cells are empty; with ``rival`` the other side has such a window too (elsewhere)."""
    window = _window(rng, (0, 0))
    holes = rng.sample(window, missing)
    cells: dict[tuple[int, int], int] = {c: seat for c in window if c not in holes}
    reserved = set(window)
    if rival:
        other = _window(rng, (0, 7))
        if reserved & set(other):
            return None
        other_holes = rng.sample(other, 2)
        cells.update({c: 1 - seat for c in other if c not in other_holes})
        reserved |= set(other)
    while len(cells) < len(reserved) + 12 - 2 * missing:
        c = (rng.randint(-6, 6), rng.randint(-6, 10))
        if c not in cells and c not in reserved:
            cells[c] = len(cells) % 2
    try:
        state = HTTTX.from_cells(((q, r, s) for (q, r), s in cells.items()), to_move)
    except ValueError:  # the noise made a line already
        return None
    return state, holes


@pytest.mark.parametrize("rival", [False, True], ids=["alone", "rival-threat"])
@pytest.mark.parametrize("missing", [1, 2])
def test_heuristic_always_takes_an_immediate_win(missing: int, rival: bool) -> None:
    rng = random.Random(missing)
    tried = 0
    while tried < 60:
        seat = rng.randint(0, 1)
        made = _position(rng, seat, missing, seat, rival)
        if made is None:
            continue
        tried += 1
        state, _ = made
        after = HTTTX.play(state, HeuristicBot().choose(HTTTX, state, None, rng))
        assert after.winner == seat, dict(state.cells)


def test_heuristic_always_blocks_a_two_stone_loss() -> None:
    rng = random.Random(7)
    tried = 0
    while tried < 60:
        seat = rng.randint(0, 1)
        made = _position(rng, 1 - seat, rng.choice([1, 2]), seat)  # the opponent threatens
        if made is None:
            continue
        state, _ = made
        cells = dict(state.cells)
        if has_two_stone_win(cells, seat) or not one_block_suffices(cells, 1 - seat):
            continue  # we could win instead (another test), or the loss cannot be stopped by one stone
        tried += 1
        after = HTTTX.play(state, HeuristicBot().choose(HTTTX, state, None, rng))
        assert after.winner is None
        assert not has_two_stone_win(dict(after.cells), 1 - seat), cells


def test_heuristic_blocks_two_separate_threats() -> None:
    # O has two fours, each closed at one end by X: each needs one stone, so both stones must block
    o = [(q, 3) for q in range(0, 4)] + [(q, -4) for q in range(1, 5)]
    x = [(0, 0), (-1, 3), (5, -4), (3, 0), (-3, -1), (2, 5)]
    state = HTTTX.from_cells([(q, r, 1) for q, r in o] + [(q, r, 0) for q, r in x], 0)
    assert [sorted(t) for t in threats(dict(state.cells), 1)] == [[(-1, -4), (0, -4)], [(4, 3), (5, 3)]]
    after = HTTTX.play(state, HeuristicBot().choose(HTTTX, state, None, random.Random(1)))
    assert not has_two_stone_win(dict(after.cells), 1)
