"""OpenSpiel's C++ MCTS bot as a Hive player of hexarena, for ``bench/strength.py``.

Why a bridge: OpenSpiel's ``hive`` names bugs as they are placed by any number (``wA3`` may enter before
``wA1``), ours always places the lowest number in hand, so the same game has different MoveStrings on the two
sides. The bridge keeps OpenSpiel's state in step with ours and a map between the two sets of piece names,
built as pieces enter: an OpenSpiel MoveString is read by renaming its pieces to ours (the moving piece, if it
is entering, becomes our next bug of that kind) and resolving it on our board; one of ours is found among
OpenSpiel's legal actions as the action that reads back to the same ``(piece, cell)`` move.

Two OpenSpiel differences are handled and counted (``OpenSpielMcts.stats``), as ``tests/games/hive/
test_openspiel_crosscheck.py`` documents them: OpenSpiel sometimes offers a move that breaks the one-hive rule
(its best child that is legal for us is played instead: ``illegal_skipped``), and it declares a draw when the
hive outgrows its board (radius 8; then a random legal move is played: ``off_board``).

``register()`` adds the player scheme ``openspiel:mcts`` (local only, in-process) so the tournament runner meets
it like any built-in: ``openspiel:mcts`` thinks for as long as ``alphabeta`` would on the same offer
(``max_wall_clock_time``; it overruns by up to one random rollout, tens of milliseconds), ``openspiel:mcts@N`` runs exactly N simulations a move instead.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any, ClassVar

import pyspiel

from hexarena.bots.hive.alphabeta import AlphaBetaBot
from hexarena.games.hive.board import KIND_LETTERS, NAME, PASS, Board, Move
from hexarena.games.hive.game import HiveGame, HiveState
from hexarena.games.hive.notation import resolve

_NAME = re.compile(r"[wb][QSBGAMLP][123]?")
#: UCT exploration constant (OpenSpiel's examples use 2 with random rollouts).
UCT_C = 2.0
#: Simulations cap when thinking by time (the wall clock ends the search long before).
MANY = 10**9


def openspiel_game(expansions: str) -> Any:
    """OpenSpiel's ``hive`` with the same expansion bugs."""
    params = {f"uses_{n}": x in expansions for x, n in (("M", "mosquito"), ("L", "ladybug"), ("P", "pillbug"))}
    return pyspiel.load_game("hive", params)


class Bridge:
    """One game followed on both engines: ``sync(state)`` catches OpenSpiel up with hexarena's state."""

    def __init__(self, expansions: str) -> None:
        self.reset(expansions)

    def reset(self, expansions: str) -> None:
        """Back to the initial position."""
        self.game = openspiel_game(expansions)
        self.state = self.game.new_initial_state()
        self.board = Board(expansions)
        self.played: tuple[str, ...] = ()
        self.ours: dict[str, int] = {}  # OpenSpiel piece name -> our piece id

    # ------------------------------------------------------------------ names
    def _our_text(self, text: str) -> tuple[str, int] | None:
        """An OpenSpiel MoveString in our names and the piece it moves (None: ``pass``)."""
        if text.strip() == "pass":
            return None
        mover = text.split()[0]
        pid = self.ours.get(mover)
        if pid is None:  # entering: our next bug of that colour and kind
            pid = self.board.next_piece("wb".index(mover[0]), KIND_LETTERS.index(mover[1]))
            if pid < 0:
                raise ValueError(f"{text!r}: no such bug left in hand")
        renamed = _NAME.sub(lambda m: NAME[pid] if m.group(0) == mover else NAME[self.ours[m.group(0)]], text)
        return renamed, pid

    def to_ours(self, action: int) -> Move:
        """Our ``(piece, cell)`` move for an OpenSpiel action on the current position."""
        read = self._our_text(self.state.action_to_string(action))
        if read is None:
            return PASS
        return resolve(self.board, read[0])

    def to_openspiel(self, move: Move) -> int:
        """The OpenSpiel action for our move on the current position (ValueError if it has none)."""
        for action in self.state.legal_actions():
            text = self.state.action_to_string(action)
            if (text.strip() == "pass") != (move == PASS):
                continue
            if move == PASS:
                return int(action)
            if text.split()[0][:2] != NAME[move[0]][:2]:
                continue
            if self.to_ours(action) == move:
                return int(action)
        raise ValueError(f"OpenSpiel has no action for {NAME[move[0]] if move[0] >= 0 else 'pass'} -> {move[1]}")

    def apply(self, move: Move) -> None:
        """Play our move on both sides (OpenSpiel's names map to ours as pieces enter)."""
        if self.state.is_terminal():  # OpenSpiel's board edge: only ours goes on
            self.board.play(move)
            return
        action = self.to_openspiel(move)
        mover = self.state.action_to_string(action).split()[0]
        if move != PASS and mover not in self.ours:
            self.ours[mover] = move[0]
        self.state.apply_action(action)
        self.board.play(move)

    def sync(self, state: HiveState) -> None:
        """Catch up with ``state`` (restarting when it is not a continuation of the moves already followed)."""
        if state.moves[: len(self.played)] != self.played or state.expansions != self.board.expansions:
            self.reset(state.expansions)
        for text in state.moves[len(self.played) :]:
            self.apply(resolve(self.board, text))
        self.played = state.moves


class OpenSpielMcts:
    """EngineBot: OpenSpiel's C++ ``MCTSBot`` with a random-rollout evaluator, through a ``Bridge``."""

    name = "openspiel-mcts"
    #: ``stats`` summed over every instance of the process (the runner makes a player per game).
    totals: ClassVar[dict[str, float]] = {}

    def __init__(self, simulations: int | None = None, seed: int = 0) -> None:
        self.simulations = simulations
        self.seed = seed
        self.bridge: Bridge | None = None
        self.stats = {"moves": 0, "simulations": 0, "illegal_skipped": 0, "off_board": 0, "seconds": 0.0}

    def _count(self, what: str, n: float = 1) -> None:
        self.stats[what] += n
        self.totals[what] = self.totals.get(what, 0) + n

    def choose(self, game: HiveGame, state: HiveState, time_limit: float | None, rng: random.Random) -> Any:
        if self.bridge is None or self.bridge.board.expansions != state.expansions:
            self.bridge = Bridge(state.expansions)
        bridge = self.bridge
        bridge.sync(state)
        legal = set(bridge.board.copy().moves())
        if bridge.state.is_terminal():
            self._count("off_board")
            return game.move_of(bridge.board, rng.choice(sorted(legal)))
        # by time: exactly the search time alphabeta would take for this move (its share, its lag reserve)
        seconds = -1.0 if self.simulations is not None else AlphaBetaBot().deadlines(time_limit, 0.0)[0]
        bot = pyspiel.MCTSBot(
            bridge.game,
            pyspiel.RandomRolloutEvaluator(1, rng.randrange(1 << 30)),
            UCT_C,
            self.simulations or MANY,
            1000,
            True,
            rng.randrange(1 << 30),
            False,
            pyspiel.ChildSelectionPolicy.UCT,
            seconds,
        )
        began = time.monotonic()
        root = bot.mcts_search(bridge.state)
        self._count("seconds", time.monotonic() - began)
        self._count("moves")
        self._count("simulations", root.explore_count)
        # most visited first, as MCTSBot itself chooses (its solver's proven wins carry their visits along)
        children = sorted(root.children, key=lambda c: (c.explore_count, c.total_reward))
        for child in reversed(children):
            move = bridge.to_ours(child.action)
            if move in legal:
                return game.move_of(bridge.board, move)
            self._count("illegal_skipped")
        return game.move_of(bridge.board, rng.choice(sorted(legal)))


def register() -> None:
    """Add the ``openspiel:mcts[@SIMULATIONS]`` player scheme (in-process, local only)."""
    from hexarena.players.inprocess import InProcessPlayer
    from hexarena.players.spec import register_scheme

    async def factory(game: str, rest: str) -> Any:
        if game != "hive":
            raise ValueError("openspiel: only Hive is bridged")
        kind, _, sims = rest.partition("@")
        if kind != "mcts":
            raise ValueError(f"openspiel:{rest}: only 'mcts' is bridged")
        return InProcessPlayer(OpenSpielMcts(int(sims) if sims else None), name=f"openspiel:{rest}")

    register_scheme("openspiel", factory, "openspiel:mcts[@SIMS]  OpenSpiel's C++ MCTS (bench only)")


__all__ = ["Bridge", "OpenSpielMcts", "openspiel_game", "register"]
