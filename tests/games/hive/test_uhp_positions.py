"""nokamute's UHP test positions: every listed GameString replays, and ``validmoves`` matches exactly.

MoveStrings name a cell relative to a reference piece, so the same move has several spellings; lists are
compared after resolving each MoveString to ``(piece, cell)`` on the position.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hexarena.core.errors import IllegalMove
from hexarena.games.hive.notation import (
    format_move,
    parse_game_string,
    resolve,
    state_string,
    valid_moves_string,
)

# copied from shared/testdata/hive (MIT, see tests/data/hive/SOURCE)
DATA = Path(__file__).resolve().parents[2] / "data" / "hive" / "nokamute_uhp_tests.txt"


def _cases() -> list[tuple[str, str, str | None]]:
    """(title, GameString, validmoves or None) from the file's ``# title / gamestring / moves`` blocks."""
    out: list[tuple[str, str, str | None]] = []
    title = ""
    lines = [ln.strip() for ln in DATA.read_text(encoding="utf-8").splitlines()]
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("#"):
            title = ln.lstrip("# ").strip()
        elif ln:
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if nxt and not nxt.startswith("#"):
                out.append((title, ln, nxt))
                i += 1
            else:
                out.append((title, ln, None))
        i += 1
    return out


CASES = _cases()
# nokamute ends games on threefold repetition; UHP and Mzinga (docs/games/hive.md) have no such rule.
REPETITION = "Draw by threefold repetition"


def test_file_parsed() -> None:
    assert len(CASES) >= 18
    assert sum(1 for c in CASES if c[2] is not None) >= 14


@pytest.mark.parametrize(("title", "gs", "expected"), [c for c in CASES if c[2] is not None], ids=lambda x: x)
def test_validmoves(title: str, gs: str, expected: str) -> None:
    board, _ = parse_game_string(gs)
    got = {resolve(board, m) for m in valid_moves_string(board).split(";")}
    want = {resolve(board, m) for m in expected.split(";")}
    assert len(want) == len(expected.split(";"))  # the expected list has no two spellings of one move
    assert got == want, (
        sorted(format_move(board, m) for m in got - want),
        sorted(format_move(board, m) for m in want - got),
    )


@pytest.mark.parametrize(("title", "gs"), [(c[0], c[1]) for c in CASES if c[2] is None], ids=lambda x: x)
def test_finished_states(title: str, gs: str) -> None:
    if title == REPETITION:
        board, _ = parse_game_string(gs, check_state=False)
        assert state_string(board) == "InProgress"
        with pytest.raises(IllegalMove, match="disagrees"):
            parse_game_string(gs)
        return
    board, _ = parse_game_string(gs)  # checks the State field against the replay
    assert board.moves() == []
