"""How large a position one analysis request may make the server build: the operator's setting.

Its own module, below both the analysis API (``server.analysis``, which enforces it) and the server's settings
(``server.services``, which carry it), so neither has to import the other to name it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Candidate cells (empty cells within view_distance of a stone) the board of one analysis may track: about
#: 25 MB and 30 ms to build. Any compact position of the most stones a request may send fits; stones scattered far
#: apart fit up to about 1,150 at the default view distance 8 and about 300 at 16.
MAX_REGION = 250_000


@dataclass(frozen=True)
class AnalysisLimits:
    """The per-server bound on position size (stones and view distance are fixed by the request model)."""

    max_region: int = MAX_REGION


__all__ = ["MAX_REGION", "AnalysisLimits"]
