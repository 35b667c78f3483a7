"""The battlebot protocol (PROTOCOLS.md 3): bots connect IN over a WebSocket, log in, are matched and play.

``shapes`` (state/turn JSON of every game, pure), ``lobby`` (matchmaking), ``routes`` (HTTP + socket, and
``install(app)``). The Player adapter is ``hexarena.players.battlebot``. Import ``routes`` for ``install``; this
package itself imports nothing heavy so that the adapter can use ``shapes``.
"""
