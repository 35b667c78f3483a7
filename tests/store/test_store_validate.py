"""The pure checks applied before a write: secrets stripped from specs, bot JSON cleaned, ids bounded."""

from __future__ import annotations

import math
import sys
from datetime import UTC, datetime

import pytest

from hexarena.store import InvalidRecord, redact_spec
from hexarena.store.validate import check_id, check_text, clean_json, utc


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("ws://bots.example:8080/", "ws://bots.example:8080/"),
        ("https://u:pw@h.example/x", "https://u:REDACTED@h.example/x"),
        ("wss://h/ws?token=abc&depth=3", "wss://h/ws?token=REDACTED&depth=3"),
        ("http://h/?api_key=k1&Authorization=z", "http://h/?api_key=REDACTED&Authorization=REDACTED"),
        ("./bot --token abc --depth 3", "./bot --token REDACTED --depth 3"),
        ("./bot --bot-secret=s1", "./bot --bot-secret=REDACTED"),
        ("python -m mybot --password   pw", "python -m mybot --password   REDACTED"),
        ("random", "random"),
        # a player's spec names its protocol before the URL (it is stored so, to be built again)
        ("stateless:http://u:pw@h/x?token=abc", "stateless:http://u:REDACTED@h/x?token=REDACTED"),
        ("bws:https://:pw@h.example/", "bws:https://REDACTED@h.example/"),
        ("bws:http://127.0.0.1:8002", "bws:http://127.0.0.1:8002"),
    ],
)
def test_redact_spec(spec: str, expected: str) -> None:
    assert redact_spec(spec) == expected


def test_clean_json_keeps_data_and_drops_what_json_cannot_hold() -> None:
    value = {"a": [1, 2.5, True, None, "x"], "b": {"c": (1, 2)}, 7: math.inf, "n": -math.nan, "s": "\x00"}
    assert clean_json(value, "v") == {
        "a": [1, 2.5, True, None, "x"],
        "b": {"c": [1, 2]},
        "7": None,
        "n": None,
        "s": "\ufffd",
    }
    with pytest.raises(InvalidRecord, match="set"):
        clean_json({"a": {1, 2}}, "evaluation")
    deep: list[object] = []
    cursor = deep
    for _ in range(5000):
        cursor.append([])
        cursor = cursor[0]  # type: ignore[assignment]
    with pytest.raises(InvalidRecord, match="nested too deeply"):
        clean_json(deep, "considerations")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20_000)  # as a library may (mypy does) for the whole process
    try:
        with pytest.raises(InvalidRecord, match="nested too deeply"):
            clean_json(deep, "considerations")
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.parametrize("bad", ["", "x" * 65, "a\nb", 12, None])
def test_check_id_refuses(bad: object) -> None:
    with pytest.raises(InvalidRecord, match="game id"):
        check_id(bad, "game id")


def test_utc_refuses_naive_and_converts_aware() -> None:
    with pytest.raises(InvalidRecord, match="2026-01-01T00:00:00"):
        utc(datetime(2026, 1, 1), "t")
    aware = datetime.fromisoformat("2026-01-01T05:00:00+05:00")
    assert utc(aware, "t") == datetime(2026, 1, 1, tzinfo=UTC) and utc(aware, "t").tzinfo is UTC


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("[1,2][3,4]", "[1,2][3,4]"),  # plain ASCII: kept as it is (the fast path)
        ("a\x00b", "a\ufffdb"),  # a NUL in ASCII text
        ("héx ☗", "héx ☗"),  # other Unicode is kept
        ("d\ud800e\x00", "d\ufffde\ufffd"),  # a lone surrogate and a NUL beside Unicode
    ],
)
def test_text_keeps_what_databases_store_and_replaces_the_rest(text: str, stored: str) -> None:
    assert check_text(text, "move") == stored
    assert clean_json({"k": [text]}, "evaluation") == {"k": [stored]}
