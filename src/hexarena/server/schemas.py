"""Request bodies of the HTTP API (pydantic: validated, documented in the OpenAPI schema)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class SeatSpec(BaseModel):
    """A seat in Hivemaker's ``POST /game/new``: ``{"type":"bot","bot_url":...}`` or ``{"type":"human"}``.

    hexarena also accepts ``{"type":"builtin","name":"heuristic"}``, ``{"type":"stateless","bot_url":...}``
    and ``{"type":"spec","spec":"builtin:random"}`` (any player spec the server knows).
    """

    model_config = ConfigDict(extra="ignore")
    type: Literal["bot", "human", "builtin", "stateless", "bws", "spec"]
    bot_url: str | None = Field(default=None, max_length=2048)
    name: str | None = Field(default=None, max_length=200)
    spec: str | None = Field(default=None, max_length=2048)


class HtttxMatchConfig(BaseModel):
    model_config = ConfigDict(extra="ignore")
    heartbeat: int = Field(default=5000, ge=0, le=600_000, description="ms between heartbeats (0: none)")
    view_distance: int = Field(default=8, ge=1, le=64)
    win_distance: int = Field(default=6, ge=2, le=32)
    turn_limit: int | None = Field(default=None, ge=1)
    clock_type: Literal["none", "turn", "match", "incremental"] = "none"
    clock: float | None = Field(default=None, gt=0, le=86400)
    increment: float | None = Field(default=None, ge=0, le=3600)
    depth: int | None = Field(default=None, description="sent to bots declaring config")


class NewGameRequest(BaseModel):
    """Hivemaker's ``POST /game/new`` body."""

    model_config = ConfigDict(extra="ignore")
    player_x: SeatSpec
    player_o: SeatSpec
    match_config: HtttxMatchConfig = Field(default_factory=HtttxMatchConfig)


class ClockSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["none", "turn", "match", "incremental"] = "none"
    seconds: float | None = Field(default=None, gt=0, le=86400)
    increment: float | None = Field(default=None, ge=0, le=3600)


class NewMatchRequest(BaseModel):
    """``POST /api/matches``: any game, any two players."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    params: dict[str, Any] = Field(default_factory=dict)
    players: list[str] = Field(min_length=2, max_length=2, description="two player specs, seat 0 first")
    clock: ClockSpec = Field(default_factory=ClockSpec)
    heartbeat: int = Field(default=5000, ge=0, le=600_000)
