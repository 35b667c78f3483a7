"""How fast the instances of a cluster notice that one of them is gone: a lease's life, and how often an instance
renews its leases and scans for what nobody holds (``server.cluster``, ``server.failover``).

Why settings rather than constants: a lease's life is both how long a match waits for a new owner after its
instance died and how long a stalled owner may go without renewing before another instance takes its matches.
The defaults suit production (an owner stalled for a couple of seconds loses nothing, a takeover comes within
seconds); an operator may trade one for the other, and the fault tests start their instances with short ones so
that each takeover they wait for comes sooner, through the same code.

This module imports no Redis client: the settings exist before the ``cluster`` extra is known to be installed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: The shortest interval accepted (seconds): below it the renewals and scans would be a busy loop on Redis.
SHORTEST = 0.05


@dataclass(frozen=True)
class ClusterTiming:
    """A lease's life and the renewal and scan intervals, in seconds (``hexarena serve --cluster-lease`` etc.)."""

    #: Seconds a lease lives without renewal: an owner silent this long loses its matches, tournaments and homes.
    lease: float = 4.0
    #: Seconds between two renewals of every lease an instance holds: at most half a lease's life, so that one
    #: late renewal never loses a lease.
    renew: float = 1.0
    #: Seconds between two scans for the matches and tournaments nobody holds (with the lease, the bound on a
    #: takeover).
    scan: float = 2.0

    def __post_init__(self) -> None:
        for name, value in (("lease", self.lease), ("renew", self.renew), ("scan", self.scan)):
            if not (math.isfinite(value) and value >= SHORTEST):
                raise ValueError(f"the cluster's {name} interval must be at least {SHORTEST} s, not {value}")
        if 2 * self.renew > self.lease:
            raise ValueError(
                f"a lease of {self.lease} s renewed every {self.renew} s would lapse after one late renewal: "
                "renew at most every half a lease's life"
            )

    @property
    def lease_ms(self) -> int:
        return round(self.lease * 1000)


__all__ = ["SHORTEST", "ClusterTiming"]
