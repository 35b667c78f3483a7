"""Games for a conformance run: the bot against built-in opponents through the real referee and adapters.

Why the referee and not a checker of its own: what a bot must survive is exactly what a match does to it (the
same packets, clocks, heartbeats and legality checks); a second referee would drift from it. The player under
test is wrapped only to remember what it answered, so a failure can show what the bot sent next to why it lost.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from hexarena.checkbot.report import FAIL, MAX_EVALUATIONS, PASS, WARN, Report
from hexarena.core.contract import ClockConfig, MoveReply, MoveRequest, Player
from hexarena.core.game import Game
from hexarena.core.types import Seat, Termination
from hexarena.referee.match import MatchConfig, Referee
from hexarena.referee.result import MatchResult, PlayedMove

#: Fewest and most random plies played from the start to make a "varied" starting position.
VARIED_PLIES = (2, 8)

S = TypeVar("S")
M = TypeVar("M")


class Recorded(Generic[S, M]):
    """The player under test, unchanged, remembering the last request and what it answered to it.

    Everything but ``move`` goes to the wrapped player (``__getattr__``), so the referee sees the adapter's own
    failure signal, ``observe``, ``seated`` and flags exactly as in a real match.
    """

    def __init__(self, inner: Player[S, M]) -> None:
        self.inner = inner
        self.name: str = inner.name
        self.last_request: MoveRequest[S, M] | None = None
        self.last_reply: MoveReply[M] | None = None
        self.moves_asked = 0

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.inner, attr)

    async def move(self, request: MoveRequest[S, M]) -> MoveReply[M]:
        self.last_request, self.last_reply = request, None
        self.moves_asked += 1
        reply = await self.inner.move(request)
        self.last_reply = reply
        return reply


#: What the bot sent in answer to a request, quoted in a well-formedness failure (None: not known).
Raw = Callable[[MoveRequest | None], Awaitable[str | None]]
#: (state before the move, the move the bot sent) -> (what it sent, what was expected, how to fix), in words.
Diagnose = Callable[[S, M], tuple[str, str, str]]


@dataclass(slots=True)
class Plan(Generic[S]):
    """How one game is played: the opponent, the bot's seat, where it starts and what it is called."""

    opponent: str
    seat: Seat
    initial_state: S | None = None
    label: str = "start"


@dataclass(slots=True)
class Settings:
    """What every game of a run shares."""

    clock: ClockConfig
    max_plies: int = 40
    heartbeat_ms: int = 5000
    start_timeout: float = 30.0
    params: dict[str, Any] = field(default_factory=dict)


def varied_positions(game: Game[S, M], n: int, seed: int, params: Mapping[str, object]) -> list[S]:
    """``n`` positions a few random plies into a game, the same for the same seed; games already over are skipped."""
    rng = random.Random(seed)
    out: list[S] = []
    for _ in range(n * 4):
        if len(out) == n:
            break
        state = game.new(**params)
        for _ in range(rng.randint(*VARIED_PLIES)):
            if game.outcome(state) is not None:
                break
            state = game.play(state, _random_move(game, state, rng))
        if game.outcome(state) is None:
            out.append(state)
    return out


def plans_of(game: Game[S, M], games: int, settings: Settings, opponents: list[str]) -> list[Plan[S]]:
    """``games`` games from the start against each opponent, then ``games`` from varied positions (seat 0 for now:
    the caller alternates seats)."""
    plans: list[Plan[S]] = [Plan(opp, 0, None, "start") for _ in range(games) for opp in opponents]
    for i, state in enumerate(varied_positions(game, games, 7, settings.params)):
        plans.append(Plan(opponents[i % len(opponents)], 0, state, f"position {i + 1}"))
    return plans


def _random_move(game: Game[S, M], state: S, rng: random.Random) -> M:
    pick: Callable[[S, random.Random], M] | None = getattr(game, "random_move", None)
    if pick is not None:
        return pick(state, rng)
    return rng.choice(list(game.legal(state)))


async def play_checked(
    report: Report,
    game: Game[S, M],
    bot: Player[S, M],
    opponent: Player[S, M],
    plan: Plan[S],
    settings: Settings,
    *,
    raw: Raw | None = None,
    diagnose: Diagnose[S, M] | None = None,
    stderr: Callable[[], str] = lambda: "",
) -> MatchResult[S]:
    """Play one game and record its verdicts: start, legal moves, well-formed answers, the clock, staying up."""
    recorded = Recorded(bot)
    players: list[Player[S, M]] = [opponent, opponent]
    players[plan.seat] = recorded
    config = MatchConfig(
        game=game,
        params=dict(settings.params),
        initial_state=plan.initial_state,
        clock=settings.clock,
        heartbeat_ms=settings.heartbeat_ms,
        max_plies=settings.max_plies,
        start_timeout=settings.start_timeout,
    )
    result = await Referee(config, players).run()
    outcome = result.outcome
    mine = [m for m in result.moves if m.seat == plan.seat]
    where = f"{plan.label}, as {game.seat_names[plan.seat]} against {plan.opponent}"
    report.games.append(
        {
            "position": plan.label,
            "seat": game.seat_names[plan.seat],
            "opponent": plan.opponent,
            "moves": len(result.moves),
            "termination": str(outcome.termination),
            "reason": outcome.reason,
            "bot_at_fault": result.culprit == plan.seat,
            "max_think": max((m.think_time for m in mine), default=0.0),
        }
    )
    for m in mine:
        if m.evaluation and len(report.evaluations) < MAX_EVALUATIONS:
            report.evaluations.append(m.evaluation)
    culprit_is_bot = result.culprit == plan.seat
    term = outcome.termination
    tail = _stderr_tail(stderr())
    if term == Termination.ABORTED:
        if culprit_is_bot or result.culprit is None:
            report.add(
                "starts",
                FAIL,
                f"{where}: the game could not start",
                sent=outcome.reason,
                expected="the bot gets ready for a game (connects, or starts and reads its first message)",
                fix=START_HINT.get(report.protocol, "run the bot by hand with the same spec and read its errors")
                + tail,
            )
        return result
    report.add("starts", PASS, "every game started")
    if not culprit_is_bot:
        for name, text in (
            ("legal-moves", "every move legal"),
            ("well-formed", "every answer well-formed"),
            ("stays-up", "stayed connected to the end"),
        ):
            report.add(name, PASS, text)
        _clock_verdict(report, settings.clock, mine, where)
        if result.culprit is not None:
            report.add("opponent", WARN, f"{where}: the built-in opponent lost by {term}: {outcome.reason}")
        return result
    if term == Termination.ILLEGAL_MOVE:
        before, reply = recorded.last_request, recorded.last_reply
        if diagnose is not None and before is not None and reply is not None:
            what, expected, fix = diagnose(before.state, reply.move)
        else:
            quoted = await raw(before) if raw is not None and reply is None else None
            what = game.format(reply.move) if reply is not None else quoted or outcome.reason
            expected = _some_legal(game, before.state if before is not None else None)
            fix = "keep the bot's board in step with every move it is told, and play only legal moves"
        report.add(
            "legal-moves",
            FAIL,
            f"{where}, move {recorded.moves_asked}: the referee said {outcome.reason!r}",
            sent=what,
            expected=expected,
            fix=fix,
        )
    elif term == Termination.PROTOCOL:
        sent = await raw(recorded.last_request) if raw is not None else None
        report.add(
            "well-formed",
            FAIL,
            f"{where}, move {recorded.moves_asked}: {outcome.reason}",
            sent=sent or outcome.reason,
            expected=EXPECTED_ANSWER.get(report.protocol, "an answer the protocol defines"),
            fix="send exactly one answer per request, encoded as the protocol says (see "
            + PROTOCOL_DOC.get(report.protocol, "docs/protocols/index.md")
            + ")"
            + tail,
        )
    elif term == Termination.TIME:
        allowed = recorded.last_request.time_limit if recorded.last_request else None
        report.add(
            "clock",
            FAIL,
            f"{where}, move {recorded.moves_asked}: {outcome.reason}",
            sent="no answer in time",
            expected=f"an answer within {allowed:g} s" if allowed else "an answer within the clock",
            fix=CLOCK_HINT.get(
                report.protocol,
                "stop thinking before the time limit (the request says it when the bot declares move_time_limit) "
                "and keep a margin for the network; a bot that hangs needs a watchdog",
            )
            + tail,
        )
    else:
        report.add(
            "stays-up",
            FAIL,
            f"{where}, move {recorded.moves_asked}: {outcome.reason}",
            sent=outcome.reason,
            expected="the bot stays connected (or running) until the game ends",
            fix="catch exceptions in the move code and keep serving; read the bot's log for the crash" + tail,
        )
    return result


EXPECTED_ANSWER = {
    "bws": '{"type":"move_response","move":{"pieces":[{"q":1,"r":0},{"q":2,"r":0}]}} as one text frame',
    "stateless": 'HTTP 200 with {"move":{"pieces":[{"q":1,"r":0},{"q":2,"r":0}]}}',
    "uais": "one line: a cell such as a1, or swap",
    "htp": "= <cell> then an empty line",
    "uhp": "a MoveString line then ok",
    "battlebot": 'one JSON object per turn, the game\'s own shape (e.g. {"mark": "X", "space": [1, 1]}) or '
    '{"move": "<the game\'s notation>"}',
}


#: What a bot that never gets a game going most often has wrong.
START_HINT = {
    "bws": "serve the WebSocket at <folder of capabilities.json>/<api_root, default bws/v1-alpha>/game and accept "
    "a connection per game",
    "stateless": "serve POST <folder of capabilities.json>/<api_root, default stateless/v1-alpha>/turn",
}
#: Where each protocol's answers are described.
PROTOCOL_DOC = {
    "bws": "docs/protocols/bws.md",
    "stateless": "docs/protocols/bws.md",
    "uais": "docs/protocols/uais.md",
    "htp": "docs/protocols/uais.md, HTP engines",
    "uhp": "docs/protocols/uhp.md",
    "battlebot": "docs/protocols/battlebot.md",
}
#: Why a stdin/stdout engine seems silent, most often: its answer sits in a buffer, or is not framed as expected.
_FLUSH = "flush stdout after every answer (Python: print(..., flush=True)) and stop thinking before the clock"
CLOCK_HINT = {
    "uais": _FLUSH,
    "htp": "end every answer with an empty line ('= a1' then '') and " + _FLUSH,
    "uhp": "end every answer with a line 'ok' and " + _FLUSH,
    "battlebot": "after every message, if state.nextPlayer is your bot_id and state.complete is false, send a turn "
    "within the turn time (3 s on a battlebot server)",
}


def _some_legal(game: Game[S, M], state: S | None) -> str:
    """The words "a legal move, e.g. ..." with a few of the position's legal moves, so the author sees their form."""
    if state is None:
        return "a legal move"
    examples: list[str] = []
    try:
        for move in game.legal(state):
            examples.append(game.format(move))
            if len(examples) == 4:
                break
    except Exception:  # a game whose listing fails says less, nothing worse
        return "a legal move"
    return f"a legal move, e.g. {', '.join(examples)}" if examples else "a legal move"


def _clock_verdict(report: Report, clock: ClockConfig, mine: list[PlayedMove], where: str) -> None:
    if not mine:
        return
    slowest = max(m.think_time for m in mine)
    mean = sum(m.think_time for m in mine) / len(mine)
    shown = f"think time {mean:.3f} s on average, {slowest:.3f} s at most"
    if clock.kind == "turn" and clock.seconds and slowest > 0.8 * clock.seconds:
        report.add(
            "clock",
            WARN,
            f"{where}: {shown}, close to the {clock.seconds:g} s a move",
            sent=f"an answer after {slowest:.3f} s",
            expected=f"answers well within {clock.seconds:g} s",
            fix="leave a margin of a fifth of the time limit for the network and a loaded server",
        )
    else:
        report.add("clock", PASS, shown)


def _stderr_tail(text: str) -> str:
    text = text.strip()
    return f" (its stderr ends: {text[-200:]!r})" if text else ""


__all__ = ["Plan", "Recorded", "Settings", "play_checked", "varied_positions"]
