"""``ReportsSearch`` names what a search bot tells its hosts (``last_evaluation`` / ``last_considerations``): the
built-in searches are ones, a bot that reports nothing is not, and the in-process player passes on exactly what
the bot reported (nothing for a bot without them). Hosts read them through the protocol, not by attribute name.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy_snippet import check

from hexarena.bots.base import EngineBot, ReportsSearch
from hexarena.bots.registry import make_builtin
from hexarena.core.contract import MatchInfo, MoveRequest
from hexarena.core.registry import get_game
from hexarena.players.inprocess import InProcessPlayer


@pytest.mark.parametrize(
    ("game", "bot"), [("hex", "mcts"), ("htttx", "search"), ("hive", "alphabeta"), ("tictactoe", "perfect")]
)
def test_the_built_in_searches_report(game: str, bot: str) -> None:
    assert isinstance(make_builtin(game, bot), ReportsSearch)


@pytest.mark.parametrize(("game", "bot"), [("tictactoe", "random"), ("hex", "random")])
def test_a_random_bot_reports_nothing(game: str, bot: str) -> None:
    assert not isinstance(make_builtin(game, bot), ReportsSearch)


async def _reply(bot: EngineBot) -> tuple[object, object]:
    game = get_game("tictactoe")
    player = InProcessPlayer(bot, seed=1, threaded=False)
    state = game.new()
    await player.start(MatchInfo(match_id="m", game=game, params={}, seat=0, initial_state=state))
    reply = await player.move(MoveRequest(state=state, history=[], time_limit=None))
    return reply.evaluation, reply.considerations


async def test_the_in_process_player_passes_on_what_the_bot_reported() -> None:
    bot = make_builtin("tictactoe", "perfect")
    evaluation, considerations = await _reply(bot)
    assert isinstance(bot, ReportsSearch)
    assert evaluation is bot.last_evaluation and evaluation is not None and evaluation["proven"] == "draw"
    assert considerations is bot.last_considerations and considerations is not None and len(considerations) == 9


async def test_the_in_process_player_reports_nothing_for_a_bot_without_a_search() -> None:
    assert await _reply(make_builtin("tictactoe", "random")) == (None, None)


SNIPPET = """
from hexarena.bots.base import ReportsSearch
from hexarena.bots.hex.mcts import MctsHexBot
from hexarena.bots.tictactoe import PerfectTicTacToeBot, RandomTicTacToeBot

searches: list[ReportsSearch] = [PerfectTicTacToeBot(), MctsHexBot()]
nothing: ReportsSearch = RandomTicTacToeBot()  # WRONG
"""


def test_mypy_sees_which_bots_report(tmp_path: Path) -> None:
    errors, wrong, out = check(SNIPPET, tmp_path / "reporting.py")
    assert errors == wrong, out
