"""The battlebot protocol (docs/protocols/battlebot.md): bots connect IN over a WebSocket, log in, are matched and play.

``lobby`` (matchmaking), ``routes`` (HTTP + socket: its ``router`` and ``lifespan``). The state/turn JSON of every game is
``hexarena.wire.battlebot`` (pure, shared with the Player adapter ``hexarena.players.battlebot``, which must not
import the server).
"""
