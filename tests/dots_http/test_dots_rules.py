"""The turn-token protocol's edges: bad data, 404/410, tokens (missing, unknown, stale), illegal lines, time,
captures, observers, and that every game ends and is stored."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import turntoken_client as client


async def new_game(http: httpx.AsyncClient, base: str, rows: int = 3, cols: int = 5) -> str:
    r = await http.post(f"{base}/", json={"rows": rows, "cols": cols})
    assert r.status_code == 201
    return base + r.headers["Location"].removeprefix("/dots")


def line(a: tuple[int, int], b: tuple[int, int]) -> list[dict[str, int]]:
    return [{"row": a[0], "col": a[1]}, {"row": b[0], "col": b[1]}]


async def seated(http: httpx.AsyncClient, url: str) -> tuple[str, asyncio.Task[httpx.Response]]:
    """Join A then B; returns A's first token and B's blocked join."""
    a = asyncio.create_task(http.post(f"{url}/players", json={"name": "A"}))
    await asyncio.sleep(0.1)
    b = asyncio.create_task(http.post(f"{url}/players", json={"name": "B"}))
    ra = await a
    assert ra.status_code == 200 and ra.json()["state"] == "in play"
    assert ra.json()["players"] == [{"name": "A", "score": 0}, {"name": "B", "score": 0}]
    return ra.headers["X-Turn-Token"], b


async def stored(app: Any) -> Any:
    for _ in range(100):
        games = await app.state.services.store.list_games()
        if games and all(g.status == "finished" for g in games):
            return await app.state.services.store.get_game(games[0].game_id)
        await asyncio.sleep(0.05)
    raise AssertionError("no finished game stored")


@pytest.mark.parametrize(
    "body",
    [
        b"{nope",
        b'{"rows": 4, "cols": 5}',
        b'{"rows": "5", "cols": 5}',
        b"[5, 5]",
        b'{"rows": 1, "cols": 5}',
        b"{" + b" " * 10_000 + b"}",
    ],
)
async def test_bad_game_data_is_403(dots: Any, body: bytes) -> None:
    async with httpx.AsyncClient() as http:
        r = await http.post(f"{dots.port_base}/", content=body)
    assert r.status_code == 403 and r.json()["error"].startswith("invalid game data")


async def test_listing_404_and_full_410(dots: Any) -> None:
    async with httpx.AsyncClient(timeout=10) as http:
        url = await new_game(http, dots.dots)
        assert (await http.get(f"{dots.dots}/")).json() == [{"id": url.rsplit("/", 1)[1], "state": "initiating"}]
        assert (await http.get(url)).json()["state"] == "initiating"
        assert (await http.get(f"{dots.dots}/nope")).status_code == 404
        assert (await http.post(f"{dots.dots}/nope/players", json={"name": "x"})).status_code == 404
        assert (await http.post(f"{dots.dots}/nope/moves", json=[])).status_code == 404
        assert (await http.post(url + "/players", json={"name": 5})).status_code == 400
        _, b = await seated(http, url)
        r = await http.post(url + "/players", json={"name": "C"})
        assert r.status_code == 410
        assert (await http.get(url)).json()["state"] == "in play"
        b.cancel()


async def test_token_rules_and_illegal_line(dots: Any) -> None:
    async with httpx.AsyncClient(timeout=10) as http:
        url = await new_game(http, dots.dots)
        token, b = await seated(http, url)
        assert (await http.post(url + "/moves", json=line((0, 0), (0, 1)))).status_code == 403  # no token
        r = await http.post(url + "/moves", json=line((0, 0), (0, 1)), headers={"X-Turn-Token": "guess"})
        assert r.status_code == 403 and r.json()["error"] == "unknown turn token"  # nobody disqualified
        a_move = asyncio.create_task(
            http.post(url + "/moves", json=line((0, 0), (0, 1)), headers={"X-Turn-Token": token})
        )
        rb = await b
        assert rb.status_code == 200 and len(rb.json()["lines"]) == 1
        b_token = rb.headers["X-Turn-Token"]
        assert b_token != token
        # B draws A's line again: illegal, B is disqualified at once
        r = await http.post(url + "/moves", json=line((0, 1), (0, 0)), headers={"X-Turn-Token": b_token})
        assert r.status_code == 403 and "line already placed" in r.json()["error"]
        ra = await a_move
        assert ra.status_code == 200 and "X-Turn-Token" not in ra.headers
        delta = ra.json()
        assert delta["state"] == "completed"
        assert delta["players"] == [{"name": "A", "score": 0}, {"name": "B", "score": "disqualified"}]
        # the spent token is refused; the game is over
        r = await http.post(url + "/moves", json=line((1, 0), (1, 1)), headers={"X-Turn-Token": token})
        assert r.status_code == 410
    record = await stored(dots.app)
    assert record.termination == "illegal_move" and record.winner == 0 and len(record.moves) == 1


async def test_replayed_token_disqualifies(dots: Any) -> None:
    async with httpx.AsyncClient(timeout=10) as http:
        url = await new_game(http, dots.dots)
        token, b = await seated(http, url)
        a_move = asyncio.create_task(
            http.post(url + "/moves", json=line((0, 0), (0, 1)), headers={"X-Turn-Token": token})
        )
        await b
        r = await http.post(url + "/moves", json=line((1, 0), (1, 1)), headers={"X-Turn-Token": token})
        assert r.status_code == 403 and "stale turn token" in r.json()["error"]
        ra = await a_move
        assert ra.json()["players"][0]["score"] == "disqualified" and "X-Turn-Token" not in ra.headers
    record = await stored(dots.app)
    assert record.termination == "protocol" and record.winner == 1


@pytest.mark.parametrize(
    "body",
    [
        b"garbage",
        b"[]",
        b'[{"row": 0}, {"row": 0, "col": 1}]',
        b'[{"row": 9, "col": 9}, {"row": 9, "col": 8}]',
        b"[" + b"1," * 5000 + b"1]",
    ],
)
async def test_bad_lines_disqualify_with_a_reason(dots: Any, body: bytes) -> None:
    async with httpx.AsyncClient(timeout=10) as http:
        url = await new_game(http, dots.dots)
        token, b = await seated(http, url)
        r = await http.post(url + "/moves", content=body, headers={"X-Turn-Token": token})
        assert r.status_code == 403 and "disqualified" in r.json()["error"]
        rb = await b
        assert rb.status_code == 200 and "X-Turn-Token" not in rb.headers
        assert rb.json()["players"][0]["score"] == "disqualified" and rb.json()["state"] == "completed"
    assert (await stored(dots.app)).winner == 1


async def test_missing_the_turn_limit_disqualifies(make_dots: Any) -> None:
    async with make_dots(turn_seconds=0.3) as srv, httpx.AsyncClient(timeout=10) as http:
        url = await new_game(http, srv.dots)
        token, b = await seated(http, url)
        rb = await b  # A never moves
        assert rb.status_code == 200 and "X-Turn-Token" not in rb.headers
        assert rb.json()["players"][0]["score"] == "disqualified"
        late = await http.post(url + "/moves", json=line((0, 0), (0, 1)), headers={"X-Turn-Token": token})
        assert late.status_code == 403 and "did not move" in late.json()["error"]
        record = await stored(srv.app)
        assert record.termination == "time" and record.winner == 1


async def test_a_capture_answers_at_once_with_a_new_token_and_observers_see_everything(dots: Any) -> None:
    ring = client.neighbours(3, 5, (1, 1))
    sides = [(ring[i], ring[(i + 1) % 6]) for i in range(6)]
    async with httpx.AsyncClient(timeout=10) as http:
        url = await new_game(http, dots.dots)
        stream_lines: list[dict[str, Any]] = []

        async def observe() -> None:
            async with http.stream("POST", url + "/observers") as r:
                async for text in r.aiter_lines():
                    if text:
                        stream_lines.append(json.loads(text))

        watcher = asyncio.create_task(observe())
        token, b = await seated(http, url)
        tokens = {"A": token}
        waiting: dict[str, asyncio.Task[httpx.Response]] = {"B": b}
        mover = "A"
        for i, (p, q) in enumerate(sides):  # A, B, A, B, A, B: B closes the hexagon
            other = "B" if mover == "A" else "A"
            task = asyncio.create_task(
                http.post(url + "/moves", json=line(p, q), headers={"X-Turn-Token": tokens[mover]})
            )
            if i < 5:
                r = await waiting.pop(other)
                tokens[other] = r.headers["X-Turn-Token"]
                waiting[mover] = task
                mover = other
            else:
                r = await task  # the capture: answered at once, B moves again
                assert r.status_code == 200 and r.headers.get("X-Turn-Token")
                delta = r.json()
                assert len(delta["lines"]) == 1 and delta["hexagons"][0]["center"] == {"row": 1, "col": 1}
                assert delta["players"][1]["score"] == 1
                assert not waiting["A"].done()
        game = (await http.get(url)).json()
        assert len(game["lines"]) == 6 and game["hexagons"][0]["owner"]["name"] == "B"
        await http.post(url + "/moves", content=b"oops", headers={"X-Turn-Token": r.headers["X-Turn-Token"]})
        await waiting["A"]
        await asyncio.wait_for(watcher, 5)
    assert stream_lines[0]["rows"] == 3 and stream_lines[0]["state"] == "initiating"
    deltas = stream_lines[1:]
    assert sum(len(d["lines"]) for d in deltas) == 6 and deltas[-1]["state"] == "completed"


COMET = "<script type='text/javascript'>myUpdater(%s);</script>\n"


async def _observe_a_short_game(http: httpx.AsyncClient, url: str, **kwargs: Any) -> httpx.Response:
    """Open an observer stream as the contest's viewer does, end the game (A's garbage line disqualifies A),
    and return the whole streamed answer."""

    async def observe() -> httpx.Response:
        async with http.stream("POST", url + "/observers", **kwargs) as r:
            await r.aread()
            return r

    watcher = asyncio.create_task(observe())
    token, b = await seated(http, url)
    await http.post(url + "/moves", content=b"oops", headers={"X-Turn-Token": token})
    await b
    return await asyncio.wait_for(watcher, 5)


async def test_observer_stream_is_multi_json_and_honours_the_wrapper(dots: Any) -> None:
    """The contest server streamed `application/x-multi-json` with an `X-Observer-Token`, and printed each
    one-line document (newline included) into the payload's `wrapper` at its first %s (docs/protocols/hexdots.md)."""
    async with httpx.AsyncClient(timeout=10) as http:
        plain = await _observe_a_short_game(http, await new_game(http, dots.dots))
        assert plain.headers["content-type"].split(";")[0] == "application/x-multi-json"
        assert plain.headers.get("x-observer-token")
        docs = plain.text.split("\n")
        assert docs[-1] == "" and len(docs) >= 3  # the Game, at least one Delta, each ending in a newline
        assert json.loads(docs[0])["state"] == "initiating" and json.loads(docs[-2])["state"] == "completed"

        wrapped = await _observe_a_short_game(http, await new_game(http, dots.dots), json={"wrapper": COMET})
        assert wrapped.headers["content-type"].split(";")[0] == "application/x-multi-json"
        head, tail = COMET.split("%s")
        chunks = wrapped.text.split(tail)
        assert chunks[-1] == "" and len(chunks) >= 3, wrapped.text
        documents = []
        for chunk in chunks[:-1]:
            assert chunk.startswith(head) and chunk.endswith("\n"), chunk
            documents.append(json.loads(chunk.removeprefix(head)))
        assert documents[0]["state"] == "initiating" and documents[-1]["state"] == "completed"


@pytest.mark.parametrize("payload", [{"wrapper": 5}, {"wrapper": "no placeholder"}, {"wrapper": "%s" * 3000}])
async def test_observer_wrapper_that_cannot_wrap_is_refused(dots: Any, payload: dict[str, Any]) -> None:
    async with httpx.AsyncClient(timeout=10) as http:
        url = await new_game(http, dots.dots)
        r = await http.post(url + "/observers", json=payload)
    assert r.status_code == 400 and "wrapper" in r.json()["error"]
