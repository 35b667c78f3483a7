"""Capabilities schema (bot-api-v1) with Hivemaker's class names, plus the stateless capability.

Pydantic models like Hivemaker's, so bots can build and mutate them (``caps.meta = Meta(...)``). ``to_wire``
produces the spec's JSON (``"v1-alpha"`` keys, unset fields omitted) and is checked against the shared msgspec
schema in ``hexarena_sdk.wire.htttx`` so what we serve always decodes on the game-server side.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from hexarena_sdk.wire import htttx as wire


class Meta(BaseModel):
    """Free-form bot information; the spec allows extra fields, so they are kept."""

    model_config = ConfigDict(extra="allow")

    name: str | None = None
    description: str | None = None
    authors: list[str] | None = None
    version: str | None = None
    tags: list[str] | None = None


class BwsV1AlphaCapability(BaseModel):
    api_root: str | None = None  # default "bws/v1-alpha"
    move_time_limit: bool = False
    evaluation_time_limit: bool = False
    config: dict[str, Any] | None = None  # {} = supported, {"dynamic": True} = after any turn
    free_setup: bool = False
    move_skips: bool = False
    dual_sided: bool = False
    free_move_order: bool = False
    evaluation: bool = False
    resettable_state: bool = False
    interruptible: bool = False


class StatelessV1AlphaCapability(BaseModel):
    api_root: str | None = None  # default "stateless/v1-alpha"
    move_time_limit: bool = False


class BasicWebsocketVersions(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    v1_alpha: BwsV1AlphaCapability | None = None


class StatelessVersions(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    v1_alpha: StatelessV1AlphaCapability | None = None


class BasicWebsocketCapability(BaseModel):
    versions: BasicWebsocketVersions


class StatelessCapability(BaseModel):
    versions: StatelessVersions


class Capabilities(BaseModel):
    meta: Meta | None = None
    stateless: StatelessCapability | None = None
    basic_websocket: BasicWebsocketCapability | None = None

    @property
    def bws(self) -> BwsV1AlphaCapability | None:
        """The declared bws v1-alpha features, or None when bws is not offered."""
        if self.basic_websocket is None:
            return None
        return self.basic_websocket.versions.v1_alpha

    @property
    def stateless_v1(self) -> StatelessV1AlphaCapability | None:
        if self.stateless is None:
            return None
        return self.stateless.versions.v1_alpha

    def to_wire(self) -> dict[str, Any]:
        """The capabilities.json document, validated against the shared wire schema."""
        out: dict[str, Any] = {}
        if self.meta is not None:
            out["meta"] = self.meta.model_dump(exclude_none=True)
        if self.stateless is not None:
            st = self.stateless.versions.v1_alpha
            out["stateless"] = {"versions": {} if st is None else {"v1-alpha": st.model_dump(exclude_none=True)}}
        if self.basic_websocket is not None:
            bws = self.basic_websocket.versions.v1_alpha
            versions = {} if bws is None else {"v1-alpha": bws.model_dump(exclude_none=True)}
            out["basic_websocket"] = {"versions": versions}
        wire.decode_capabilities(wire.encode(out))  # raises ProtocolViolation if we'd serve nonsense
        return out

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        """Hivemaker serialises capabilities with ``model_dump``; keep that spelling working."""
        return self.to_wire()

    def bws_api_root(self) -> str:
        bws = self.bws
        root = bws.api_root if bws is not None and bws.api_root else wire.DEFAULT_BWS_API_ROOT
        return root.strip("/")

    def stateless_api_root(self) -> str:
        st = self.stateless_v1
        root = st.api_root if st is not None and st.api_root else wire.DEFAULT_STATELESS_API_ROOT
        return root.strip("/")


def default_capabilities(
    bws: BwsV1AlphaCapability | None = None,
    stateless: StatelessV1AlphaCapability | None = None,
) -> Capabilities:
    """Capabilities declaring bws v1-alpha (Hivemaker's builder) and, in hexarena, stateless v1-alpha too.

    Our bot server answers stateless ``turn`` requests for every bot, so it is declared by default; the SDK's
    deadline fallback makes any bot honour ``time_limit``, hence ``move_time_limit`` mirrors the bws flag.
    ``config`` is declared too: the SDK itself reads the ``x-view_distance`` / ``x-win_distance`` extensions into
    the match (and hands the rest to ``on_config``), so every SDK bot can be told a match's rules.
    """
    bws = bws or BwsV1AlphaCapability()
    if bws.config is None:
        bws = bws.model_copy(update={"config": {}})
    if stateless is None:
        stateless = StatelessV1AlphaCapability(move_time_limit=bws.move_time_limit)
    return Capabilities(
        basic_websocket=BasicWebsocketCapability(versions=BasicWebsocketVersions(v1_alpha=bws)),
        stateless=StatelessCapability(versions=StatelessVersions(v1_alpha=stateless)),
    )
