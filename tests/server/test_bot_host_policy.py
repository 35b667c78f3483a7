"""The public-mode bot-host check judged on address literals: nothing here resolves or dials anything.

Deny by default: an address passes only when it is globally reachable (``is_global``, not multicast) and so is
every IPv4 address embedded in it (6to4, Teredo, NAT64, IPv4-mapped), since that embedded address is where the
packets end up.
"""

from __future__ import annotations

import pytest

from hexarena.core.errors import ConfigError
from hexarena.players.policy import SpecPolicy, allowed_bot_host, check_remote_spec

REFUSED = [
    "100.64.0.1",  # shared address space (CGNAT)
    "100.100.100.200",  # a cloud metadata address, inside 100.64.0.0/10
    "100.127.255.254",
    "198.18.0.1",  # benchmarking
    "192.0.2.1",  # documentation
    "240.0.0.1",  # reserved
    "255.255.255.255",
    "224.0.0.1",  # multicast
    "[ff0e::1]",  # multicast, global scope
    "[2002:7f00:1::]",  # 6to4 of 127.0.0.1
    "[2002:a00:1::1]",  # 6to4 of 10.0.0.1
    "[2002:a9fe:a9fe::1]",  # 6to4 of 169.254.169.254
    "[2002:6464:64c8::1]",  # 6to4 of 100.100.100.200
    "[2001:0:4136:e378:8000:63bf:80ff:fffe]",  # Teredo, client 127.0.0.1
    "[2001:0:5db8:d70e:8000:63bf:80ff:fffe]",  # Teredo, public server, client 127.0.0.1
    "[64:ff9b::7f00:1]",  # NAT64 of 127.0.0.1
    "[64:ff9b::a9fe:a9fe]",  # NAT64 of 169.254.169.254
    "[64:ff9b::6464:64c8]",  # NAT64 of 100.100.100.200
    "[64:ff9b:1::a00:1]",  # local-use NAT64 (RFC 8215)
    "[64:ff9b:1:5db8:d70e::]",  # local-use NAT64 with a public v4 still names a local translator
    "[::ffff:127.0.0.1]",  # IPv4-mapped
    "[::ffff:100.64.0.1]",
    "[::127.0.0.1]",  # IPv4-compatible (deprecated)
    "[::5db8:d70e]",  # IPv4-compatible of a public v4: no such destination exists any more
    "[::]",
    "[::1]",
    "[fc00::1]",  # unique local
    "[fe80::1]",
    "[2001:db8::1]",  # documentation
]

ALLOWED = [
    "93.184.215.14",
    "1.1.1.1",
    "[2606:4700::1111]",
    "[2002:5db8:d70e::1]",  # 6to4 of a public v4
    "[64:ff9b::5db8:d70e]",  # NAT64 of a public v4
    "[::ffff:93.184.215.14]",
]


@pytest.mark.parametrize("host", REFUSED)
def test_public_mode_refuses_every_address_that_is_not_global(host: str) -> None:
    assert allowed_bot_host(f"http://{host}:8000/bot", []) is False
    with pytest.raises(ConfigError, match="allow-bot-host"):
        check_remote_spec(f"bws:http://{host}:8000/", SpecPolicy(bot_hosts=[]))


@pytest.mark.parametrize("host", ALLOWED)
def test_public_mode_allows_global_addresses(host: str) -> None:
    assert allowed_bot_host(f"http://{host}:8000/bot", []) is True


def test_the_operator_can_still_allow_a_shared_address_network() -> None:
    assert allowed_bot_host("http://100.64.1.2/", ["100.64.0.0/10"]) is True
    assert allowed_bot_host("http://100.100.100.200/", ["100.64.1.0/24"]) is False
