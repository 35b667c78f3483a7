"""stateless v1-alpha: one ``POST <api_root>/turn`` per move, with the full board each time."""

from __future__ import annotations

import httpx

from hexarena.core.contract import MatchInfo, MoveReply, MoveRequest, PlayerResult
from hexarena.core.errors import BotCrashed, BotTimeout, ConfigError, ProtocolViolation
from hexarena.core.jsonvalue import JsonObject
from hexarena.players.base import BasePlayer
from hexarena.players.htttx_common import (
    bot_capabilities,
    capabilities_url,
    check_board_size,
    check_setup_size,
    considerations_of,
    evaluation_of,
    http_client,
    http_failure,
    move_of,
    read_limited,
    resolve,
    rule_extras,
    stateless_board_of,
    untold_rules,
)
from hexarena.wire import htttx as w


class StatelessPlayer(BasePlayer):
    """A bot answering stateless turn requests at ``url`` (its folder or its capabilities.json)."""

    kind = "stateless"

    def __init__(self, url: str, name: str | None = None, request_timeout: float | None = None) -> None:
        super().__init__()
        capabilities_url(url)  # a malformed URL is the caller's error (ConfigError, HTTP 400), not a forfeit
        self.url = url
        self.name = name or url
        self.request_timeout = request_timeout
        self.client: httpx.AsyncClient | None = None
        self.turn_url = ""
        self.caps: w.StatelessV1Alpha | None = None
        self._setup_stones = 0  # stones of the starting position (see check_board_size)

    def describe(self) -> JsonObject:
        # the spec that builds this player again (another instance taking the match over reads it): a bare URL
        # would be played over bws when the bot declares both protocols
        return {"name": self.name, "kind": self.kind, "spec": f"stateless:{self.url}"}

    async def start(self, info: MatchInfo) -> None:
        self.info = info
        self._setup_stones = check_setup_size(info.initial_state)
        rules = rule_extras(info.params)
        if rules:  # checked before any request: nothing to tell them with
            raise untold_rules(rules, "a stateless turn request carries no rules")
        self.client = http_client()
        caps_url, caps = await bot_capabilities(self.url, 10.0)
        v1 = caps.stateless.versions.v1_alpha if caps.stateless else None
        if v1 is None:
            raise ConfigError(f"the bot at {caps_url} does not declare stateless v1-alpha")
        self.caps = v1
        if caps.meta is not None and caps.meta.name and self.name == self.url:
            self.name = caps.meta.name
        self.turn_url = resolve(caps_url, v1.api_root, w.DEFAULT_STATELESS_API_ROOT, "turn", websocket=False)

    async def move(self, request: MoveRequest) -> MoveReply:
        assert self.client is not None and self.caps is not None
        check_board_size(self._setup_stones, len(request.history) - self.info.played)
        limit = request.time_limit if self.caps.move_time_limit else None
        body = w.encode(w.StatelessRequest(board=stateless_board_of(request.state), time_limit=limit))
        timeout = self.request_timeout
        try:
            async with self.client.stream(
                "POST",
                self.turn_url,
                content=body,
                headers={"content-type": "application/json"},
                timeout=httpx.Timeout(timeout, connect=10.0),
            ) as response:
                data = await read_limited(response, "turn response")
        except httpx.TimeoutException:
            raise BotTimeout(f"no answer from {self.turn_url}") from None
        except httpx.HTTPError as exc:
            raise BotCrashed(f"POST {self.turn_url} failed: {http_failure(exc)}") from None
        if response.status_code != 200:
            snippet = data[:200].decode(errors="replace")
            raise ProtocolViolation(f"POST {self.turn_url} answered HTTP {response.status_code}: {snippet!r}")
        reply = w.decode_stateless_response(data)
        return MoveReply(
            move=move_of(reply.move),
            evaluation=evaluation_of(reply.move),
            considerations=considerations_of(reply.considerations),
        )

    async def finish(self, result: PlayerResult) -> None:
        if self.client is not None:
            await self.client.aclose()
