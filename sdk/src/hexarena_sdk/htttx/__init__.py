"""The HTTTX engine pieces a bot needs: the mutable ``Board`` (C accelerator when built, else pure Python) and the
heuristic move the SDK falls back on. The game's referee-side rules stay in the arena server (``hexarena.games``)."""
