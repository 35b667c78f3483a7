"""The game server: one ASGI app for every protocol family, the REST API, spectators and the web UI."""
