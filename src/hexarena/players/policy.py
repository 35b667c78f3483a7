"""Which player specs a remote client may use: the one check every network entry point goes through.

Specs that start a program on the server (``uais:``, ``htp:``, ``uhp:``, ``hiveai-stdio:``) would let anyone
who can reach the server run commands there. Each scheme declares what it does where it is registered
(``register_scheme(..., starts_program=, remote=, address=)``); :func:`check_remote_spec` applies those
declarations, refusing whatever is not declared remote-safe (a new scheme is refused until its author says
otherwise). The operator registers program-starting engines by name when starting the server (``hexarena serve
--engine mybot=uais:./mybot``) and clients ask for ``engine:mybot``: the only way a client reaches a subprocess.

Bot addresses (``http(s)://``, ``bws:``, ``stateless:``, ``hiveai:HOST:PORT``) go through the same function.
With ``SpecPolicy.bot_hosts`` set (what a public server sets), loopback, private and link-local hosts are refused
unless listed there, so a client cannot point the server at its own network (SSRF); in the default local mode
(``bot_hosts=None``) bots on this machine are the normal case and every host is allowed.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from hexarena.core.errors import ConfigError
from hexarena.players.base import BasePlayer
from hexarena.players.spec import make_player, registered_schemes, scheme_of, unknown_spec


@dataclass(frozen=True)
class SpecPolicy:
    """What a server lets its remote clients name: its registered engines and, when on, the bot-host check."""

    #: Operator-registered engines, ``NAME -> player spec`` (``engine:NAME`` for clients).
    engines: Mapping[str, str] = field(default_factory=dict)
    #: None: bots may be anywhere (local mode). A list: public hosts only, plus these hosts or networks.
    bot_hosts: Sequence[str] | None = None


class _RefusedRemotely:
    """``scheme in LOCAL_ONLY_SCHEMES``: the schemes a remote client may not use, read live from the registry."""

    def __contains__(self, scheme: object) -> bool:
        info = registered_schemes().get(str(scheme))
        return info is None or not info.remote_allowed

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(n for n, s in registered_schemes().items() if not s.remote_allowed))


#: Kept for callers of the old deny-list; the declarations at ``register_scheme`` are the source of truth.
LOCAL_ONLY_SCHEMES = _RefusedRemotely()


def parse_engine_option(option: str) -> tuple[str, str]:
    """``NAME=SPEC`` from the command line."""
    name, sep, spec = option.partition("=")
    name = name.strip()
    if not sep or not name or not spec.strip():
        raise ConfigError(f"--engine takes NAME=SPEC (e.g. mybot=uais:./mybot), got {option!r}")
    if not name.replace("-", "").replace("_", "").isalnum():
        raise ConfigError(f"engine name {name!r} may only use letters, digits, '-' and '_'")
    return name, spec.strip()


def check_remote_spec(spec: str, policy: SpecPolicy) -> str:
    """The spec to build for a spec that came from a remote client, or ConfigError saying why it is refused.

    ``engine:NAME`` becomes the operator's spec for that engine; everything else must name a scheme declared
    remote-safe (or be a bare bot URL), and any bot address must pass :func:`allowed_bot_host` when the policy
    checks hosts.
    """
    spec = spec.strip()
    if spec.startswith(("http://", "https://")):
        _check_address(spec, spec, policy)
        return spec
    scheme_name, sep, rest = spec.partition(":")
    if scheme_name == "engine" and sep:
        if rest not in policy.engines:
            known = ", ".join(sorted(policy.engines)) or "none (start the server with --engine NAME=SPEC)"
            raise ConfigError(f"no engine named {rest!r} on this server; registered engines: {known}")
        return policy.engines[rest]
    scheme = scheme_of(spec)
    if scheme is None:
        raise unknown_spec(spec)
    if not scheme.remote_allowed:
        what = "start programs on the server" if scheme.starts_program is not False else "are not declared remote-safe"
        raise ConfigError(
            f"{scheme.name}: players {what} and can't be created over the network; "
            "the operator can register one with `hexarena serve --engine NAME=SPEC`, then use engine:NAME"
        )
    if scheme.address:
        _check_address(spec, rest, policy)
    return spec


async def vet_remote_spec(spec: str, policy: SpecPolicy) -> str:
    """:func:`check_remote_spec` for async callers: with the bot-host check on, a host name is resolved, which
    blocks, so the check runs in a thread (a client's slow DNS name must not stall the event loop)."""
    if policy.bot_hosts is None:
        return check_remote_spec(spec, policy)
    return await asyncio.to_thread(check_remote_spec, spec, policy)


async def make_remote_player(spec: str, game: str, policy: SpecPolicy) -> BasePlayer:
    """``make_player`` for specs that came from a remote client: :func:`check_remote_spec` first."""
    resolved = await vet_remote_spec(spec, policy)
    player = await make_player(resolved, game)
    if resolved != spec.strip():  # an engine: show the name the client used, not the operator's command
        player.name = spec.strip()
        player.public_spec = spec.strip()
    return player


#: Seconds a bot gets to answer its capabilities when a match naming it is created.
CAPABILITIES_TIMEOUT = 5.0


async def make_answering_player(spec: str, game: str, policy: SpecPolicy) -> BasePlayer:
    """:func:`make_remote_player` for a match about to be created: a bot named by its URL must answer its
    capabilities first, declaring the protocol it is to be played over.

    Why: a mistyped URL used to create a match whose other seat "won" (or that ended aborted) a moment later;
    asking up front turns it into a ConfigError (HTTP 400) that names the URL and what failed, before any match
    exists. Tournaments do not call this (a bot down mid-run ends its games aborted, see the preflight).
    """
    from hexarena.core.errors import HexarenaError
    from hexarena.players.bws import BwsPlayer
    from hexarena.players.htttx_common import bot_capabilities
    from hexarena.players.stateless import StatelessPlayer

    try:
        player = await make_remote_player(spec, game, policy)
    except ConfigError:
        raise
    except HexarenaError as exc:  # a bare URL is asked which protocol it speaks while it is made
        raise ConfigError(f"the bot at {spec.strip()[:200]} did not answer: {exc}") from None
    if not isinstance(player, BwsPlayer | StatelessPlayer):
        return player
    url = player.url
    try:
        caps_url, caps = await bot_capabilities(url, CAPABILITIES_TIMEOUT)
    except HexarenaError as exc:
        raise ConfigError(f"the bot at {url[:200]} did not answer its capabilities: {exc}") from None
    if isinstance(player, BwsPlayer):
        if caps.basic_websocket is None or caps.basic_websocket.versions.v1_alpha is None:
            raise ConfigError(f"the bot at {caps_url[:200]} does not declare basic_websocket v1-alpha (try stateless:)")
    elif caps.stateless is None or caps.stateless.versions.v1_alpha is None:
        raise ConfigError(f"the bot at {caps_url[:200]} does not declare stateless v1-alpha (try bws:)")
    return player


def _check_address(spec: str, address: str, policy: SpecPolicy) -> None:
    if policy.bot_hosts is not None and not allowed_bot_host(address, policy.bot_hosts):
        raise ConfigError(
            f"{spec[:200]!r}: bots on addresses that are not public (loopback, private, link-local, shared) are refused on this server "
            "(the operator can allow a host with --allow-bot-host)"
        )


def allowed_bot_host(url: str, allow: Sequence[str]) -> bool:
    """Whether a bot at ``url`` (a URL or ``HOST:PORT``) may be contacted when private hosts are refused.

    Refused: every address that is not globally reachable unicast (loopback, private, link-local and shared
    address space, where cloud metadata lives, reserved, multicast) or that embeds such an IPv4 address
    (6to4, Teredo, NAT64, IPv4-mapped), and names that resolve to one, unless the host, one of its addresses, or a network holding it is
    in ``allow``. A name that does not resolve is refused (nothing can be said about it). Note: the check is
    made when the spec is accepted; a name whose address changes later (DNS rebinding) is not caught here.
    """
    host = _host_of(url)
    if not host:
        return False
    if host.lower() in {a.lower() for a in allow}:
        return True
    networks = []
    for entry in allow:
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            continue
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        try:
            infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
        except (OSError, UnicodeError):
            return False
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
    if not addresses:
        return False
    return all(_public(a) or any(a in n for n in networks) for a in addresses)


def _host_of(url: str) -> str | None:
    try:
        parts = urlsplit(url if "://" in url else f"//{url}")
        host = parts.hostname
        _ = parts.port  # raises on a malformed port
    except ValueError:
        return None
    if host is None or not host or any(c.isspace() for c in host):
        return None
    return host


#: NAT64's well-known prefix (RFC 6052): the IPv4 address translated to is the last 32 bits.
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
#: Denied whatever they embed: local-use NAT64 (RFC 8215) names a translator inside the operator's network, and
#: IPv4-compatible addresses (deprecated by RFC 4291; ``::1`` and ``::`` live there too) name no real destination.
_ALWAYS_REFUSED = (ipaddress.IPv6Network("64:ff9b:1::/48"), ipaddress.IPv6Network("::/96"))


def _public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Deny by default: only a globally reachable unicast address passes, and an IPv6 address that carries an
    IPv4 one (IPv4-mapped, 6to4, Teredo, NAT64) passes only if that IPv4 address does too, because that is
    where the packets go. Python's ``is_global`` alone is not enough: it calls 6to4 of 127.0.0.1 global."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return _public(address.ipv4_mapped)
        if any(address in net for net in _ALWAYS_REFUSED):
            return False
        embedded = [v4 for v4 in (address.sixtofour, *(address.teredo or ())) if v4 is not None]
        if address in _NAT64:
            embedded.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if not all(_public(v4) for v4 in embedded):
            return False
    return address.is_global and not address.is_multicast


__all__ = [
    "LOCAL_ONLY_SCHEMES",
    "SpecPolicy",
    "allowed_bot_host",
    "check_remote_spec",
    "make_answering_player",
    "make_remote_player",
    "parse_engine_option",
    "vet_remote_spec",
]
