"""The cluster's lease and intervals (``server.cluster_timing``): production's defaults, and the settings refused
because a lease would lapse between two renewals or the loops would spin."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from hexarena.cli import main
from hexarena.server.cluster_timing import ClusterTiming


def test_the_defaults_are_production_s() -> None:
    timing = ClusterTiming()
    assert (timing.lease, timing.renew, timing.scan, timing.lease_ms) == (4.0, 1.0, 2.0, 4000)


@pytest.mark.parametrize(
    ("lease", "renew", "scan"),
    [(1.0, 0.6, 0.25), (0.04, 0.02, 0.25), (2.0, 0.25, 0.0), (float("inf"), 1.0, 2.0), (float("nan"), 1.0, 2.0)],
    ids=["renewal-past-half-a-lease", "lease-too-short", "scan-zero", "lease-infinite", "lease-nan"],
)
def test_a_lease_that_could_lapse_or_a_spinning_loop_is_refused(lease: float, renew: float, scan: float) -> None:
    with pytest.raises(ValueError):
        ClusterTiming(lease=lease, renew=renew, scan=scan)


def test_serve_refuses_a_renewal_longer_than_half_a_lease() -> None:
    result = CliRunner().invoke(main, ["serve", "--cluster-lease", "1", "--cluster-renew", "0.6"])
    assert result.exit_code != 0 and "half a lease" in result.output, result.output
