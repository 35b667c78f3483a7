"""Game records as JSON for the API: from the store, or from a live match still in memory."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, NotRequired, TypedDict, TypeVar

from hexarena.core.game import Game, ParamValue, RecordFacts, headed_record
from hexarena.core.jsonvalue import JsonObject, JsonValue
from hexarena.core.registry import get_game
from hexarena.core.types import Outcome, Termination
from hexarena.referee.result import MatchResult, PlayedMove
from hexarena.server import messages
from hexarena.server.live import LiveMatch, utc
from hexarena.store.recorder import status_for

if TYPE_CHECKING:  # the store (and SQLAlchemy) load only when a server has a database
    from hexarena.store import Store
    from hexarena.store.records import GameFacts, GameRecord, MoveRecord

S = TypeVar("S")
M = TypeVar("M")


class GameFactsJson(TypedDict):
    """What a game in a list and a game's record both say, in this order (``moves`` comes after)."""

    game_id: str
    game: str
    params: Mapping[str, JsonValue]
    #: Each seat's ``name``, ``kind`` and ``spec`` (a live match's players say more: ``describe``).
    players: list[JsonObject]
    status: str
    winner: int | None
    #: From the store only (a match in memory leaves it out).
    winner_name: NotRequired[str | None]
    termination: str | None
    reason: str
    created_at: str | None
    finished_at: str | None


class GameSummary(GameFactsJson):
    """A game in a list (``GET /games``, the web UI's lists): how many moves it has (None: not counted)."""

    moves: int | None


class Notations(TypedDict):
    """A game's records as other tools read them (:func:`notations`)."""

    notation: str
    export: str


class GameRecordJson(GameFactsJson):
    """A game's record (``GET /games/{id}``, the replay's source): its moves and its records (:func:`notations`)."""

    moves: list[JsonObject]
    notation: str | None
    export: str | None


class LiveRecordJson(GameRecordJson):
    """The record of a match in memory: also its position."""

    state: JsonObject


class UnreadRecordJson(GameRecordJson):
    """The record of a stored game that no longer parses: no records (None), and why."""

    notation_error: str


def _move_json(m: MoveRecord | PlayedMove, timestamp: datetime) -> JsonObject:
    """One move as the API sends it, stored or live; ``timestamp`` is given because a live move holds epoch seconds."""
    return {
        "ply": m.ply,
        "seat": m.seat,
        "move": m.move,
        "timestamp": timestamp.isoformat(),
        "think_time": m.think_time,
        "evaluation": m.evaluation,
        "considerations": m.considerations,
    }


def summary_json(row: GameFacts) -> GameSummary:
    return {**_facts(row), "moves": getattr(row, "move_count", None)}


def _facts(row: GameFacts) -> GameFactsJson:
    return {
        "game_id": row.game_id,
        "game": row.game,
        "params": row.params,
        "players": [{"name": p.name, "kind": p.kind, "spec": p.spec} for p in row.players],
        "status": str(row.status),
        "winner": row.winner,
        "winner_name": row.winner_name,
        "termination": row.termination,
        "reason": row.reason,
        "created_at": row.created_at.isoformat() if row.created_at else None,
        "finished_at": row.finished_at.isoformat() if row.finished_at else None,
    }


def record_json(record: GameRecord) -> GameRecordJson:
    moves = [_move_json(m, m.timestamp) for m in record.moves]
    facts = RecordFacts(
        [p.name for p in record.players], record.termination, record.winner, record.finished_at, record.created_at
    )
    try:
        found = notations(get_game(record.game), record.params, [m.move for m in record.moves], facts)
    except Exception as exc:  # a stored game that no longer parses must still be served
        unread: UnreadRecordJson = {
            **_facts(record),
            "moves": moves,
            "notation": None,
            "export": None,
            "notation_error": str(exc),
        }
        return unread
    return {**_facts(record), "moves": moves, **found}


def notations(game: Game[S, M], params: Mapping[str, ParamValue], moves: list[str], facts: RecordFacts) -> Notations:
    """``notation``: the game's own record as other tools of the game read it (HTTTX Notation v1, Hive's UHP
    GameString, else the moves), unchanged for API clients that parse it; ``export``: the same under the header
    block (``headed_record``), what a replay's Copy and Download give and the analysis board reads back."""
    return {
        "notation": game.record_notation(params, moves, facts),
        "export": headed_record(game, params, moves, facts),
    }


def live_summary(live: LiveMatch) -> GameSummary:
    return {**_live_facts(live), "moves": len(live.moves)}


def _live_facts(live: LiveMatch) -> GameFactsJson:
    result = live.result
    return {
        "game_id": live.match_id,
        "game": live.game.name,
        "params": live.referee.params,
        "players": live.describe_players(),
        # what the store will say: an aborted or interrupted match is not "finished" (it has no result)
        "status": str(status_for(str(result.outcome.termination), len(live.moves))) if result else "running",
        "winner": result.outcome.winner if result else None,
        "termination": str(result.outcome.termination) if result else None,
        "reason": result.outcome.reason if result else "",
        "created_at": utc(live.created).isoformat(),
        "finished_at": utc(result.finished).isoformat() if result else None,
    }


def live_record(live: LiveMatch) -> LiveRecordJson:
    result = live.result
    facts = RecordFacts(
        [str(p.get("name")) for p in live.describe_players()],
        str(result.outcome.termination) if result else None,
        result.outcome.winner if result else None,
        utc(result.finished) if result else None,
        utc(live.created),
    )
    found = notations(live.game, live.referee.params, [m.move for m in live.moves], facts)
    moves = [_move_json(m, utc(m.timestamp)) for m in live.moves]
    return {**_live_facts(live), "moves": moves, "state": live.state_json(), **found}


async def stored_end_messages(store: Store | None, game_id: str) -> list[JsonObject] | None:
    """For a late spectator of a game no longer in memory: the final snapshot and ``end`` at once."""
    if store is None or len(game_id) > 64:
        return None
    record = await store.get_game(game_id)
    if record is None:
        return None
    game = get_game(record.game)
    state = game.new(**record.params)
    for m in record.moves:
        state = game.play(state, game.parse(m.move))
    players: list[JsonObject] = [{"name": p.name, "kind": p.kind, "seat": i} for i, p in enumerate(record.players)]
    snap = messages.snapshot(game_id, game, state, [], players)
    try:
        termination = Termination(record.termination or "aborted")
    except ValueError:
        termination = Termination.ABORTED
    result = MatchResult(
        match_id=game_id,
        game=record.game,
        params=record.params,
        players=players,
        outcome=Outcome(record.winner, termination, record.reason),
        moves=[],
        final_state=state,
        started=0.0,
        finished=0.0,
    )
    return [snap, messages.end(game, result)]
