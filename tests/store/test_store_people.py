"""People rated on the leaderboard (issue 33), on SQLite and PostgreSQL: a person is rated under the key their
browser's identity gives (never their display name), only in a game created rated, appears once such a game is
over, and the store rates a bounded number of people."""

from __future__ import annotations

from pathlib import Path

import pytest
from store_helpers import move

from hexarena.core.person import SECRET_LENGTH, claims_person, is_person_key, person_key
from hexarena.store import PlayerRecord, Store, new_id
from hexarena.store import people as people_module
from hexarena.store.recorder import GameEnd, NewGame, Recorder, rating_keys

ANN = person_key("A" * SECRET_LENGTH)
OTHER_ANN = person_key("B" * SECRET_LENGTH)
BOT = PlayerRecord("builtin:random", "builtin", "builtin:random")


def person(name: str, key: str) -> PlayerRecord:
    return PlayerRecord(name, "human", key)


async def play(recorder: Recorder, seats: tuple[PlayerRecord, PlayerRecord], *, people: bool, winner: int = 0) -> None:
    gid = new_id()
    await recorder.open_game(NewGame(game_id=gid, game="hex", params={"size": 5}, players=seats))
    moves = (move(0, "a1"), move(1, "b2"))
    recorder.finish(GameEnd(gid, "hex", winner, "normal", "over", moves, players=seats, people=people))
    await recorder.flush(10)


def test_a_person_key_is_a_hash_of_the_secret_and_bad_secrets_are_refused() -> None:
    assert is_person_key(ANN) and ANN != OTHER_ANN and "A" * 8 not in ANN
    assert person_key("A" * SECRET_LENGTH) == ANN  # stable: the same browser is the same person
    for bad in ("", "A" * (SECRET_LENGTH - 1), "A" * (SECRET_LENGTH + 1), "A" * 42 + "=", "A" * 42 + "\n"):
        with pytest.raises(ValueError, match="43 characters"):
            person_key(bad)
    assert claims_person("person:whatever") and not is_person_key("person:whatever")


def test_who_is_rated_under_which_key() -> None:
    assert rating_keys([BOT, person("Ann", ANN)], people=True) == ("builtin:random", ANN)
    assert rating_keys([BOT, person("Ann", ANN)], people=False) is None  # a casual game
    assert rating_keys([BOT, person("Ann", "browser")], people=True) is None  # a person without an identity
    assert rating_keys([person("Ann", ANN), person("Ann", ANN)], people=True) is None  # against oneself
    assert rating_keys([person("Ann", ANN), person("Ann", OTHER_ANN)], people=True) == (ANN, OTHER_ANN)
    impostor = PlayerRecord(ANN, "bws", "ws://x.example/")  # a bot calling itself by Ann's key
    assert rating_keys([impostor, BOT], people=True) is None
    assert rating_keys([BOT, PlayerRecord("builtin:best", "builtin")]) == ("builtin:random", "builtin:best")


async def test_a_rated_game_rates_the_person_under_their_key_with_their_name(store: Store, recorder: Recorder) -> None:
    await play(recorder, (BOT, person("Ann", ANN)), people=False)  # casual: kept, not rated
    assert await store.list_ratings("hex") == [] and await store.person_names([ANN]) == {}
    await play(recorder, (BOT, person("Ann", ANN)), people=True, winner=1)
    rows = {r.key: r for r in await store.list_ratings("hex")}
    assert set(rows) == {"builtin:random", ANN} and rows[ANN].rating > 1500 > rows["builtin:random"].rating
    assert await store.person_names([ANN, "builtin:random"]) == {ANN: "Ann"}
    await play(recorder, (person("Annie", ANN), BOT), people=True)  # the name she plays under now
    assert await store.person_names([ANN]) == {ANN: "Annie"}
    assert (await store.get_rating(ANN, "hex")).games == 2  # type: ignore[union-attr]


async def test_two_people_with_one_name_are_two_rows(store: Store, recorder: Recorder) -> None:
    await play(recorder, (person("Ann", ANN), person("Ann", OTHER_ANN)), people=True)
    rows = {r.key: r for r in await store.list_ratings("hex")}
    assert set(rows) == {ANN, OTHER_ANN} and rows[ANN].rating > rows[OTHER_ANN].rating
    assert await store.person_names([ANN, OTHER_ANN]) == {ANN: "Ann", OTHER_ANN: "Ann"}


async def test_the_store_rates_at_most_max_people(
    store: Store, recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(people_module, "MAX_PEOPLE", 2)
    keys = [person_key(c * SECRET_LENGTH) for c in "CDE"]
    await play(recorder, (BOT, person("c", keys[0])), people=True)
    await play(recorder, (person("d", keys[1]), BOT), people=True)
    await play(recorder, (BOT, person("e", keys[2])), people=True)  # a third person: kept unrated
    assert await store.person_names(keys) == {keys[0]: "c", keys[1]: "d"}
    rated = {r.key: r.games for r in await store.list_ratings("hex")}
    assert rated == {"builtin:random": 2, keys[0]: 1, keys[1]: 1}
    await play(recorder, (person("c", keys[0]), person("d", keys[1])), people=True)  # known people still are
    assert {r.key: r.games for r in await store.list_ratings("hex")}[keys[0]] == 2
    long_name = "x" * 500  # longer than the web UI allows: cut, not refused (the result must not be lost)
    await play(recorder, (person(long_name, keys[0]), BOT), people=True)
    assert len((await store.person_names([keys[0]]))[keys[0]]) == 64


async def test_the_cli_leaderboard_tells_two_people_of_one_name_apart(
    store: Store, recorder: Recorder, migrated_database_url: str
) -> None:
    import asyncio

    from click.testing import CliRunner

    from hexarena.cli import main

    await play(recorder, (person("Ann", ANN), person("Ann", OTHER_ANN)), people=True)
    out = await asyncio.to_thread(
        CliRunner().invoke, main, ["tournament", "leaderboard", "hex", "--database-url", migrated_database_url]
    )
    assert out.exit_code == 0, out.output
    assert f"Ann (person {ANN[7:15]})" in out.output and f"Ann (person {OTHER_ANN[7:15]})" in out.output


async def test_a_rated_game_with_people_journaled_during_an_outage_is_rated_when_replayed(
    store: Store, tmp_path: Path
) -> None:
    import json

    from hexarena.store.recorder import _Op, _to_json

    gid = new_id()
    seats = (BOT, person("Ann", ANN))
    end = GameEnd(gid, "hex", 1, "normal", "over", (move(0, "a1"),), players=seats, people=True)
    entries = [
        _to_json(_Op("create", gid, NewGame(game_id=gid, game="hex", params={"size": 5}, players=seats))),
        _to_json(_Op("finish", gid, end)),
    ]
    (tmp_path / "journal-1-outage.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    replayed = Recorder(store, tmp_path)
    await replayed.start()  # replays the journal before anything else
    await replayed.close()
    assert {r.key for r in await store.list_ratings("hex")} == {"builtin:random", ANN}
    assert await store.person_names([ANN]) == {ANN: "Ann"}
