"""The data behind GraphQL and its REST twin: game types, bots, contests with rankings, games with turns.

Plain dicts built from the store (the TypedDicts below name their keys), so ``/graphql`` and
``/api/gametypes/...`` serve exactly the same data. Game
types are the battlebot wire ids of every hexarena game (``noughtsandcrosses`` for tic-tac-toe); a game's turns
are replayed through the rules to show each in its battlebot turn shape with its time.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import TYPE_CHECKING, NotRequired, TypeAlias

# typing_extensions' TypedDict: some are the REST twin's response models, which pydantic reads on Python 3.11 only so
from typing_extensions import TypedDict

from hexarena.core.errors import HexarenaError
from hexarena.core.jsonvalue import JsonObject
from hexarena.core.registry import get_game
from hexarena.core.types import Outcome, Termination
from hexarena.server.graphql.limits import MAX_PAGE
from hexarena.store.contests import METHODS, Ranking, contest_key, find_games, rankings
from hexarena.store.records import BotRecord, ContestRecord, GameFacts, GameRecord
from hexarena.wire.battlebot import Shape, shape_for, shapes, wire_id_of, wire_reason

if TYPE_CHECKING:
    from hexarena.store import Store


#: An id that GraphQL serves as an ``ID`` (the schema builds its types from these dicts: ``schema.fields_of``).
Id: TypeAlias = str


class GameTypeJson(TypedDict):
    """A game type: its battlebot wire ``id``, hexarena ``name`` and ``title``."""

    id: Id
    name: str
    title: str


class BotJson(TypedDict):
    id: Id
    gameType: str
    owner: str
    dateRegistered: str | None


class ContestJson(TypedDict):
    id: Id
    name: str
    gameType: str
    created: str | None
    #: Only in the REST twin's one contest (GraphQL asks for rankings as a field of their own).
    rankings: NotRequired[list[Ranking]]


class TurnJson(TypedDict):
    player: str
    time: str | None
    move: str
    thinkTime: float
    #: The turn in its battlebot shape; None when the rules could not replay the record.
    turn: JsonObject | None


class GameJson(TypedDict):
    """A game; a game replayed (:func:`game_json`) also has its turns, their count and its final state.

    GraphQL's ``Game`` is built from these keys, in their order (``schema.fields_of``, like the types of the other
    dicts here): a key added here is a field there, and a ``NotRequired`` one a nullable field.
    """

    id: Id
    gameType: str
    players: list[str]
    kinds: list[str]
    status: str
    victor: str | None
    reason: str | None
    detail: str
    termination: str | None
    startTime: str | None
    endTime: str | None
    contest: str | None
    params: JsonObject
    turns: NotRequired[list[TurnJson]]
    turnCount: NotRequired[int]
    state: NotRequired[JsonObject | None]


class GameFilters(TypedDict, total=False):
    """The seed's filters of a list of games; a missing or None one filters nothing (limit 50, offset 0)."""

    limit: int | None
    offset: int | None
    victor: str | None
    contest: str | None
    anyPlayers: list[str] | None
    players: list[str] | None


def _iso(ts: datetime | None) -> str | None:
    return None if ts is None else ts.astimezone(UTC).isoformat()


def game_type(wire_id: str) -> GameTypeJson | None:
    """``{id, name, title}`` of a game type by wire id, hexarena name or alias; None if unknown."""
    try:
        shape = shape_for(wire_id)
    except HexarenaError:
        return None
    return {"id": shape.wire_id, "name": shape.game.name, "title": shape.game.title}


def game_types() -> list[GameTypeJson]:
    """Every registered game that the battlebot protocol offers (``Game.battlebot_shape``), the original's first."""
    return [{"id": s.wire_id, "name": s.game.name, "title": s.game.title} for s in shapes()]


def bot_json(bot: BotRecord) -> BotJson:
    """A bot without its secret (BotRecord has no pass_hash field at all)."""
    return {
        "id": bot.bot_id,
        "gameType": wire_id_of(bot.game),
        "owner": bot.owner,
        "dateRegistered": _iso(bot.date_registered),
    }


async def bots(store: Store, game: str, owner: str | None = None) -> list[BotJson]:
    return [bot_json(b) for b in await store.list_bots(game=game, owner=owner)]


def _contest_json(c: ContestRecord) -> ContestJson:
    return {"id": c.name, "name": c.name, "gameType": wire_id_of(c.game), "created": _iso(c.created_at)}


async def contests(store: Store, game: str) -> list[ContestJson]:
    return [_contest_json(c) for c in await store.list_contests(game=game)]


async def contest(store: Store, game: str, name: str) -> ContestJson | None:
    try:
        found = await store.get_contest(contest_key(game, name))
    except HexarenaError:
        return None
    return None if found is None else _contest_json(found)


async def contest_rankings(store: Store, game: str, name: str, method: str = "AMBITIOUS") -> list[Ranking]:
    if method.upper() not in METHODS:
        raise ValueError(f"ranking method {method!r} is not one of {', '.join(METHODS)}")
    return await rankings(store, game, contest_key(game, name), method)


def _outcome(record: GameFacts) -> Outcome | None:
    if record.termination is None:
        return None
    try:
        termination = Termination(record.termination)
    except ValueError:
        termination = Termination.ERROR
    return Outcome(record.winner, termination, record.reason)


def _summary(record: GameFacts, shape: Shape) -> GameJson:
    outcome = _outcome(record)
    contest_id = record.contest_id
    return {
        "id": record.game_id,
        "gameType": shape.wire_id,
        "players": [p.name for p in record.players],
        "kinds": [p.kind for p in record.players],
        "status": str(record.status),
        "victor": record.winner_name,
        "reason": None if outcome is None else wire_reason(outcome),
        "detail": record.reason,
        "termination": record.termination,
        "startTime": _iso(record.started_at or record.created_at),
        "endTime": _iso(record.finished_at),
        "contest": contest_id.split(":", 1)[1] if contest_id and ":" in contest_id else contest_id,
        "params": record.params,
    }


async def games(store: Store, game: str, filters: GameFilters | None = None) -> list[GameJson]:
    """Games of a type with the seed's filters: limit, offset, victor, contest, anyPlayers, players."""
    f: GameFilters = filters or {}
    contest_name = f.get("contest")
    found = await find_games(
        store,
        game,
        limit=min(int(f.get("limit") or 50), MAX_PAGE),
        offset=int(f.get("offset") or 0),
        victor=f.get("victor"),
        contest_id=contest_key(game, contest_name) if contest_name else None,
        any_players=f.get("anyPlayers"),
        players=f.get("players"),
    )
    shape = shape_for(game)
    return [_summary(g, shape) for g in found]


async def game_record(store: Store, game: str | None, game_id: str) -> GameRecord | None:
    """The stored game (players and moves) if it exists and is of type ``game`` (any type for None)."""
    if len(game_id) > 64:
        return None
    record = await store.get_game(game_id)
    if record is None or (game is not None and record.game != get_game(game).name):
        return None
    return record


async def one_game(store: Store, game: str | None, game_id: str) -> GameJson | None:
    """One game with its turns (battlebot shapes, times) and final state; None if unknown or of another type."""
    record = await game_record(store, game, game_id)
    return None if record is None else await replayed(record)


#: Replays run here, off the event loop: a long game takes tens of milliseconds to replay and shape, and a
#: query may ask for several. Two workers (the machine's cores) also bound the replays a cancelled query leaves
#: running behind it.
_REPLAYS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphql-replay")


async def replayed(record: GameRecord) -> GameJson:
    """:func:`game_json` in a worker thread."""
    return await asyncio.get_running_loop().run_in_executor(_REPLAYS, game_json, record)


def game_json(record: GameRecord) -> GameJson:
    """A game replayed through its rules: every turn in its battlebot shape with its time, and the final state.

    ``turns`` holds every turn (callers page it) and ``turnCount`` how many there are.
    """
    shape = shape_for(record.game)
    out = _summary(record, shape)
    names = tuple(p.name for p in record.players)
    padded = (*names, "", "")  # "" for a seat the record lacks
    players = (padded[0], padded[1])
    rules = shape.game
    turns: list[TurnJson] = []
    state = None
    try:
        state = rules.new(**record.params)
        for m in record.moves:
            move = rules.parse(m.move)
            turn = shape.turn(move, m.seat, state)
            turn.update(player=players[m.seat], time=_iso(m.timestamp), valid=True)
            turns.append(
                {
                    "player": players[m.seat],
                    "time": _iso(m.timestamp),
                    "move": m.move,
                    "thinkTime": m.think_time,
                    "turn": turn,
                }
            )
            state = rules.play(state, move)
    except HexarenaError:  # a record the rules cannot replay: show the turns as stored
        turns.extend(
            {
                "player": players[m.seat],
                "time": _iso(m.timestamp),
                "move": m.move,
                "thinkTime": m.think_time,
                "turn": None,
            }
            for m in record.moves[len(turns) :]
        )
    out["turns"] = turns
    out["turnCount"] = len(turns)
    last_seat = record.moves[-1].seat if record.moves else None
    out["state"] = None if state is None else shape.state(state, players, outcome=_outcome(record), last_seat=last_seat)
    return out
