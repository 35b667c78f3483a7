"""The WebSockets of people: ``/ws`` (a person's HTTTX seat) and ``/spectate/{id}`` (anyone watching a game).

The seat token is single-use: a second connection is refused by the player (``nope``, close 1008) and neither
acts nor forfeits the seat; the first leaving before the end forfeits. A browser seat's token belongs to
``/api/play`` (``server.ui.play``) and is refused here without being spent.
"""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from hexarena.players.human import HtttxHumanPlayer
from hexarena.server import records
from hexarena.server.services import ServicesDep
from hexarena.server.sockets import serve_seat, serve_spectator

router = APIRouter()


async def refuse(websocket: WebSocket, reason: str) -> None:
    """``nope`` with the reason, then close 1008 (policy violation)."""
    await websocket.send_json({"type": "nope", "reason": reason})
    await websocket.close(code=1008)


@router.websocket("/ws")
async def human_socket(websocket: WebSocket, services: ServicesDep, token: str = "") -> None:
    """A person's HTTTX seat (see the module docstring)."""
    await websocket.accept()
    found = services.manager.seat_of(token) if 0 < len(token) <= 200 else None
    if found is None and services.cluster is not None and 0 < len(token) <= 200:
        from hexarena.server.seat_relay import relay_seat

        if await relay_seat(websocket, services.cluster, "/ws", token):  # a match another instance plays
            return
    if found is None:
        await refuse(websocket, "unknown or expired token")
        return
    live, seat = found
    player = live.players[seat]
    if not isinstance(player, HtttxHumanPlayer):
        # a browser seat's token: leave it usable where it belongs
        await refuse(websocket, "this seat is played through /api/play, not /ws")
        return
    # every frame goes to the player, which judges it at once; leaving before the end forfeits (detach)
    await serve_seat(
        websocket,
        attach=player.attach,
        handle=player.receive,
        detach=lambda _send: player.detach(),
        done=player.done,
    )


#: What ``/spectate/{id}?updates=`` may ask for: each move with the board (the default, Hivemaker's packets), or
#: the move alone for a client that keeps its own position (``server.messages``).
UPDATES = ("board", "moves")


@router.websocket("/spectate/{game_id}")
async def spectate(websocket: WebSocket, game_id: str, services: ServicesDep, updates: str = "board") -> None:
    """A live game's updates as they happen; a finished game's end messages from the store."""
    await websocket.accept()
    if updates not in UPDATES:
        await refuse(websocket, f"updates={updates[:40]!r}: use updates=board (the default) or updates=moves")
        return
    moves_only = updates == "moves"
    manager = services.manager
    live = manager.get(game_id)
    if live is None and services.cluster is not None and services.store is not None and len(game_id) <= 64:
        # several instances: a match played elsewhere, from the store and its Redis channel
        from hexarena.server.remote_watch import RemoteWatch

        watch = RemoteWatch(services.cluster, services.store, game_id, websocket.send_text, moves_only=moves_only)
        if await watch.start():
            try:
                await serve_spectator(websocket, watch.spectator)
            finally:
                await watch.stop()
            return
    if live is None:
        stored = await records.stored_end_messages(services.store, game_id)
        if stored is None:
            await refuse(websocket, f"no game {game_id!r}")
            return
        for msg in stored:
            await websocket.send_json(msg)
        await websocket.close()
        return
    spectator = await manager.spectate(live, websocket.send_text, moves_only=moves_only)
    try:
        await serve_spectator(websocket, spectator)
    finally:
        live.spectators.discard(spectator)


__all__ = ["refuse", "router"]
