"""Match clocks: how long a seat may think for its next move, and what its move cost it.

Pure arithmetic on seconds given by the referee (the only place that reads the time), so it is easy to test.
"""

from __future__ import annotations

from typing import TypedDict

from hexarena.core.contract import ClockConfig
from hexarena.core.errors import ConfigError

#: Seconds a move may take in a match without a clock (``hexarena play --move-cap``, ``hexarena serve
#: --move-cap``): built-in bots think at most 60 s a move, so only a bot that went silent (or a very slow one)
#: meets it, and no match hangs forever.
DEFAULT_MOVE_CAP = 120.0


def capped(clock: ClockConfig, move_cap: float | None) -> ClockConfig:
    """The clock a match is played with: ``clock`` itself, or, when it has none, a turn clock of ``move_cap``
    seconds (None or 0: no cap). The one rule the command line and the server apply, so a silent bot loses on
    time in both instead of holding its match open forever."""
    if clock.kind != "none" or not move_cap:
        return clock
    return clock_from("turn", move_cap)


class ClockJson(TypedDict, total=False):
    """A clock as JSON (a tournament's config, a game job): what :func:`clock_from` takes (a client may leave any
    out), :class:`ClockConfig`'s fields once validated."""

    kind: str
    seconds: float | None
    increment: float


def clock_from(kind: str | None, seconds: float | None = None, increment: float | None = None) -> ClockConfig:
    """Build a validated ClockConfig from user input (API, CLI); errors say what to send instead."""
    kind = (kind or "none").strip().lower()
    if kind not in ClockConfig.KINDS:
        raise ConfigError(f"clock_type must be one of {', '.join(ClockConfig.KINDS)}; got {kind!r}")
    if kind == "none":
        return ClockConfig()
    if seconds is None:
        raise ConfigError(f"clock_type {kind!r} needs 'clock' (seconds)")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds > 0:
        raise ConfigError(f"'clock' must be a positive number of seconds; got {seconds!r}")
    inc = 0.0 if increment is None else increment
    if isinstance(inc, bool) or not isinstance(inc, int | float) or inc < 0:
        raise ConfigError(f"'increment' must be a non-negative number of seconds; got {increment!r}")
    if kind != "incremental" and inc:
        raise ConfigError("'increment' is only meaningful with clock_type 'incremental'")
    return ClockConfig(kind=kind, seconds=float(seconds), increment=float(inc))


class Clock:
    """Remaining time per seat under a ClockConfig."""

    def __init__(self, config: ClockConfig) -> None:
        self.config = config
        start = config.seconds if config.kind in ("match", "incremental") else None
        self.remaining: list[float | None] = [start, start]

    def budget(self, seat: int) -> float | None:
        """Seconds ``seat`` may use for its next move (None: unlimited)."""
        if self.config.kind == "none":
            return None
        if self.config.kind == "turn":
            return self.config.seconds
        return self.remaining[seat]

    def charge(self, seat: int, elapsed: float, margin: float = 0.0) -> bool:
        """Deduct a move's thinking time; False when it went over the budget by more than ``margin`` (a time
        forfeit). Like fastchess's ``timemargin``, the margin forgives lag spikes that aren't the bot's doing;
        time overspent within it is still taken from the clock (which stops at zero)."""
        kind = self.config.kind
        if kind == "none":
            return True
        if kind == "turn":
            assert self.config.seconds is not None
            return elapsed <= self.config.seconds + margin
        left = self.remaining[seat]
        assert left is not None
        left -= elapsed
        if left < -margin:
            self.remaining[seat] = 0.0
            return False
        left = max(left, 0.0)
        if kind == "incremental":
            left += self.config.increment
        self.remaining[seat] = left
        return True

    def snapshot(self) -> list[float | None]:
        return list(self.remaining)
