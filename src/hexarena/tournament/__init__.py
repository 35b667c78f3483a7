"""Tournaments: pairings, statistics and SPRT (pure), the resumable runner, executors (local, Ray), ratings.

Modules, from pure to IO:

* ``stats``      Elo with 95% error bars (trinomial, pentanomial), LOS, draw ratio, SPRT (fishtest's GSPRT)
* ``pairings``   round robin, gauntlet, Swiss, knockout
* ``openings``   random (optionally balanced) openings, opening files
* ``standings``  standings, crosstable, failure counts per bot
* ``executors``  where games run: ``LocalExecutor`` (asyncio, worker processes), ``RayExecutor``
* ``runner``     ``TournamentConfig`` and ``Runner`` (state in the store, resumable, SPRT stop)
* ``ratings``    persistent per-game Glicko-2 behind the leaderboard
* ``report``     self-contained HTML report with SVG plots
* ``cli``        ``hexarena tournament ...`` (the HTTP API is the server's: ``hexarena.server.tournaments``)

Kept import-free so that ``import hexarena.tournament.stats`` pulls in nothing else.
"""
