"""Conformance of engines (``uais:``, ``htp:``, ``uhp:``, ``hiveai:``): start, answer, legal moves, timing, exit.

Games run through the protocol's own adapter, from the start and from positions a few random plies in (every
one of these protocols can be told a position: UAIS ``sety``/``seto``, HTP ``play``, UHP ``newgame GameString``,
a Trylobot module the whole ``game_state``).
After each game the engine was told ``quit``; an engine that had to be killed, or exited with an error code,
fails ``clean-exit``.
"""

from __future__ import annotations

import functools
from typing import TypeVar

from hexarena.checkbot.games import Settings, plans_of, play_checked
from hexarena.checkbot.opponents import opponent_player
from hexarena.checkbot.report import FAIL, PASS, SKIP, Report
from hexarena.core.game import Game
from hexarena.core.types import Termination
from hexarena.players.base import BasePlayer
from hexarena.players.spec import make_player

#: The game each stdio protocol plays when ``--game`` is not given.
GAME_OF = {"uais": "hex", "htp": "hex", "uhp": "hive", "hiveai": "hive", "hiveai-stdio": "hive"}


#: Why the reconnection check does not apply to an engine's protocol.
NO_RECONNECTION = {
    "uais": "not applicable: a stdin/stdout engine has no connection to drop (a crash is `stays-up`)",
    "hiveai": "not applicable: every Trylobot request opens a connection of its own (every move reconnects)",
}

S = TypeVar("S")
M = TypeVar("M")


def no_reconnection(report: Report) -> None:
    report.add("reconnection", SKIP, NO_RECONNECTION.get(report.protocol, NO_RECONNECTION["uais"]))


async def run_engine(
    report: Report, spec: str, game: Game[S, M], games: int, settings: Settings, opponents: list[str]
) -> None:
    plans = plans_of(game, games, settings, opponents)
    for k, plan in enumerate(plans):
        plan.seat = k % 2
        player = await make_player(spec, game.name)
        result = await play_checked(
            report,
            game,
            player,
            await opponent_player(plan.opponent, game.name),
            plan,
            settings,
            stderr=functools.partial(_stderr, player),
        )
        if result.outcome.termination == Termination.ABORTED:
            return  # it never started: the next games would only repeat it
        proc = player.engine_process
        code = None if proc is None else proc.returncode
        if proc is None:  # a module reached over TCP: its process is its operator's
            report.add("clean-exit", SKIP, "no process of ours to exit (a network bot)")
        elif code == 0:
            report.add("clean-exit", PASS, "exited with code 0 after quit")
        elif result.culprit == plan.seat:
            continue  # it already failed this game; how it ended is that failure, not a second one
        else:
            report.add(
                "clean-exit",
                FAIL,
                f"after the game ({plan.label}) the engine did not exit cleanly",
                sent="killed (no exit within a second of quit)" if code is None or code < 0 else f"exit code {code}",
                expected="exit code 0 soon after `quit` (or the end of its input)",
                fix="on `quit` or end of input, flush and exit(0); catch errors on the way out" + _tail(player),
            )


def _stderr(player: BasePlayer) -> str:
    return player.stderr


def _tail(player: BasePlayer) -> str:
    text = player.stderr.strip()
    return f" (its stderr ends: {text[-200:]!r})" if text else ""


__all__ = ["GAME_OF", "no_reconnection", "run_engine"]
