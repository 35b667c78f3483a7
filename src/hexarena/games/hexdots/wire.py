"""JSON shapes of the original Hexagon dots HTTP protocol (docs/protocols/hexdots.md), built from ``DotsState``.

Pure functions, no IO: the HTTP adapter calls them and adds status codes and headers.

- Game ``{rows, cols, lines[], hexagons[], players[], state}``; Delta ``{lines, hexagons, players, state}``.
- Line ``{endpoints: [c1, c2], owner}``, Hexagon ``{center, owner}``, Coordinate ``{row, col}``,
  Player ``{name, score}`` with ``score`` an int or ``"disqualified"``; state ``initiating | in play | completed``.

Decisions (documented because the seed is thin):

- ``owner`` is the full Player object ``{name, score}`` of the seat that drew the line / captured the hexagon,
  with that player's score at the time of serialisation. The seed types it ``<Player>``, and the original
  server serialised its live player object the same way, so clients that read ``owner["name"]`` work.
- "Coordinates in responses will always be sorted in row-major order": the two endpoints of every line are
  sorted row-major. The ``lines`` and ``hexagons`` lists keep the order in which they were drawn / captured,
  as the original server's did (clients replay them in that order; a Delta starts with the mover's own line).
- ``players`` lists the joined players in seat order (the first to join moves first).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from hexarena.core.errors import ConfigError, InvalidMove
from hexarena.core.jsonvalue import JsonObject
from hexarena.games.hexdots.board import Line
from hexarena.games.hexdots.game import GAME, DotsState
from hexarena.games.hexdots.geometry import MAX_SIZE, Coord

INITIATING = "initiating"
IN_PLAY = "in play"
COMPLETED = "completed"


def coord_json(coord: Coord) -> dict[str, int]:
    return {"row": coord[0], "col": coord[1]}


def status_of(state: DotsState, n_players: int = 2, disqualified: Collection[int] = ()) -> str:
    """``initiating`` until both players joined, ``completed`` once over or someone was disqualified."""
    if disqualified or state.over:
        return COMPLETED
    return INITIATING if n_players < 2 else IN_PLAY


def players_json(state: DotsState, player_names: Sequence[str], disqualified: Collection[int] = ()) -> list[JsonObject]:
    """Player objects in seat order; a disqualified seat's score is the string ``"disqualified"``."""
    return [
        {"name": name, "score": "disqualified" if seat in disqualified else state.scores[seat]}
        for seat, name in enumerate(player_names[:2])
    ]


def _owner(players: list[JsonObject], seat: int) -> JsonObject | None:
    return players[seat] if seat < len(players) else None


def _line_json(state: DotsState, lid: int, seat: int, players: list[JsonObject]) -> JsonObject:
    a, b = state.geo.line_coords[lid]
    return {"endpoints": [coord_json(a), coord_json(b)], "owner": _owner(players, seat)}


def _hex_json(state: DotsState, h: int, seat: int, players: list[JsonObject]) -> JsonObject:
    return {"center": coord_json(state.geo.coords[state.geo.hex_center[h]]), "owner": _owner(players, seat)}


def _changes(state: DotsState, since_ply: int, players: list[JsonObject]) -> tuple[list[JsonObject], list[JsonObject]]:
    lines: list[JsonObject] = []
    hexagons: list[JsonObject] = []
    for s in state.moves_since(since_ply):
        lines.append(_line_json(s, s.last_line, s.last_seat, players))
        hexagons.extend(_hex_json(s, h, s.last_seat, players) for h in s.last_captured)
    return lines, hexagons


def game_json(
    state: DotsState,
    player_names: Sequence[str],
    status: str | None = None,
    disqualified: Collection[int] | None = None,
) -> JsonObject:
    """The Game object. ``status`` defaults to ``status_of(state, len(player_names), disqualified)``.

    ``player_names`` in seat order (fewer than two while the game is ``initiating``); ``disqualified`` seats
    get the score ``"disqualified"``.
    """
    disqualified = disqualified or ()
    players = players_json(state, player_names, disqualified)
    lines, hexagons = _changes(state, 0, players)
    return {
        "rows": state.rows,
        "cols": state.cols,
        "lines": lines,
        "hexagons": hexagons,
        "players": players,
        "state": status or status_of(state, len(player_names), disqualified),
    }


def delta_json(
    since_ply: int,
    state: DotsState,
    player_names: Sequence[str],
    status: str | None = None,
    disqualified: Collection[int] | None = None,
) -> JsonObject:
    """The Game Delta: lines and hexagons added after ply ``since_ply`` (the ply when the request began).

    For ``POST /<id>/moves`` that is the ply before the mover's own line, so the Delta holds the mover's line,
    then the opponent's lines up to the mover's next turn (the original clients rely on it).
    """
    disqualified = disqualified or ()
    players = players_json(state, player_names, disqualified)
    lines, hexagons = _changes(state, since_ply, players)
    return {
        "lines": lines,
        "hexagons": hexagons,
        "players": players,
        "state": status or status_of(state, len(player_names), disqualified),
    }


def _load(body: object, what: str, error: type[Exception]) -> object:
    if isinstance(body, bytes | bytearray | str):
        try:
            return json.loads(body)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise error(f"invalid {what} data: body is not JSON: {body[:80]!r}") from None
    return body


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def parse_move_body(body: object) -> Line:
    """A ``POST /<id>/moves`` body (decoded JSON, or raw bytes/str) as a normalised line.

    Shape errors raise InvalidMove starting with the original's reason ``invalid line data``. Whether the line
    is on the board, adjacent and free is the engine's business (``GAME.play``).
    """
    data = _load(body, "line", InvalidMove)
    if not isinstance(data, list) or len(data) != 2:
        raise InvalidMove(f"invalid line data: expected [{{row, col}}, {{row, col}}], got {data!r}")
    ends: list[Coord] = []
    for end in data:
        if not isinstance(end, dict) or not _is_int(end.get("row")) or not _is_int(end.get("col")):
            raise InvalidMove(f"invalid line data: {end!r} is not a coordinate {{row: int, col: int}}")
        ends.append((end["row"], end["col"]))
    a, b = ends
    return (a, b) if a <= b else (b, a)


def move_body(line: Line) -> list[dict[str, int]]:
    """The JSON body a client posts for ``line`` (the inverse of ``parse_move_body``)."""
    return [coord_json(line[0]), coord_json(line[1])]


def parse_new_game(body: object) -> dict[str, int]:
    """A ``POST /`` body as game params; ConfigError starting with ``invalid game data`` otherwise.

    The original accepted any integers with an odd ``rows``; hexarena also enforces 3 <= size <= MAX_SIZE.
    """
    data = _load(body, "game", ConfigError)
    if not isinstance(data, dict) or not _is_int(data.get("rows")) or not _is_int(data.get("cols")):
        raise ConfigError(f"invalid game data: expected {{rows: int, cols: int}}, got {data!r}")
    rows, cols = data["rows"], data["cols"]
    if rows % 2 == 0 or not 3 <= rows <= MAX_SIZE or not 3 <= cols <= MAX_SIZE:
        raise ConfigError(f"invalid game data: rows must be odd and 3 <= rows, cols <= {MAX_SIZE}, got {rows}x{cols}")
    return {"rows": rows, "cols": cols}


def state_from_game_json(doc: dict[str, Any]) -> DotsState:
    """Rebuild a state from a Game object (what a client holds after merging Deltas), for SDK bots.

    Lines are replayed in list order (play order, as the server sends them), each for the seat of its owner's
    name in ``players`` (the side to move when the owner is missing or unknown). InvalidMove/IllegalMove if the
    document does not describe a reachable position.
    """
    try:
        state = GAME.new(rows=doc["rows"], cols=doc["cols"])
        names = [p.get("name") if isinstance(p, dict) else p for p in doc.get("players", [])]
        for line in doc.get("lines", []):
            move = parse_move_body(line["endpoints"])
            owner = line.get("owner")
            name = owner.get("name") if isinstance(owner, dict) else owner
            seat = names.index(name) if name in names else state.turn
            state = GAME.play_id(state, GAME.line_id(state, move), seat=seat)
    except (KeyError, TypeError, AttributeError) as exc:
        raise InvalidMove(f"invalid game data: {exc!r}") from None
    return state
