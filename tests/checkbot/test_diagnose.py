"""What a failed HTTTX move is called in the report: the cell and the rule, in the bot author's terms."""

from __future__ import annotations

from click.testing import CliRunner

from hexarena.checkbot.htttx import diagnose
from hexarena.cli import main
from hexarena.games.htttx import HTTTX


def test_occupied_origin() -> None:
    sent, expected, fix = diagnose(HTTTX.new(), ((0, 0), (1, 0)))
    assert "played (0, 0), which is occupied by X: X's first stone is placed at the origin for it" in sent
    assert "view_distance (8)" in expected
    assert "empty cell within view_distance of a stone" in fix


def test_the_origin_twice_is_named_as_occupied() -> None:
    """The case measured before check-bot: the referee only said "the two pieces are the same cell (0, 0)"."""
    sent, _, _ = diagnose(HTTTX.new(), ((0, 0), (0, 0)))
    assert "occupied by X: X's first stone is placed at the origin for it" in sent


def test_same_cell_twice() -> None:
    sent, _, fix = diagnose(HTTTX.new(), ((1, 0), (1, 0)))
    assert "the same cell twice" in sent and "different cells" in fix


def test_out_of_view() -> None:
    sent, _, fix = diagnose(HTTTX.new(), ((1, 0), (20, 0)))
    assert "(20, 0) is 19 steps from the nearest stone" in sent  # (1, 0) counts: the first piece stands
    assert "at most 8 hex steps" in fix


def test_occupied_by_o_after_a_turn() -> None:
    state = HTTTX.play(HTTTX.new(), ((1, 0), (2, 0)))
    sent, _, _ = diagnose(state, ((3, 0), (2, 0)))
    assert "played (2, 0), which is occupied by O" in sent and "origin" not in sent


def test_help_names_the_options() -> None:
    result = CliRunner().invoke(main, ["check-bot", "--help"])
    assert result.exit_code == 0
    for option in ("--json", "--games", "--clock", "--opponent", "--max-plies", "--heartbeat"):
        assert option in result.output
