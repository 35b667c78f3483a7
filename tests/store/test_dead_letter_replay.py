"""``hexarena dead-letters``: an operator lists the writes the database refused, mends them and replays them.

The dead letters here are made the way a server makes them: a journal replayed at start-up with a game the
database refuses, and a game's end refused while the game was live (which a restart then marks interrupted).
"""

from __future__ import annotations

import asyncio
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from store_helpers import move

from hexarena.cli import main
from hexarena.store import GameStatus, MoveRecord, PlayerRecord, Store, new_id
from hexarena.store.recorder import GameEnd, NewGame, Recorder, _Op, _to_json

TOO_LONG = "a game name far too long to be stored"
PLAYERS = (PlayerRecord("alice", "builtin", "builtin:random"), PlayerRecord("bob", "builtin", "builtin:best"))


def _end(gid: str, moves: tuple[MoveRecord, ...]) -> GameEnd:
    return GameEnd(gid, "hex", 1, "normal", "connected", moves, PLAYERS)


async def _cli(url: str, *args: str, stdin: str | None = None) -> Result:
    """The command as an operator runs it, in a thread of its own: it runs its own event loop (asyncio.run), and
    this test's loop and the main thread's event loop policy stay as they are."""
    command = ["dead-letters", *args, "--database-url", url]
    return await asyncio.to_thread(CliRunner().invoke, main, command, input=stdin)


async def _rows(url: str) -> list[list[str]]:
    """The rows of ``list`` (click before 8.2 mixes stderr into a result's stdout: the rows are found by shape)."""
    listed = await _cli(url, "list")
    return [line.split() for line in listed.output.splitlines() if re.match(r"\s*\d+\s", line)]


def _entry(result: Result) -> Any:
    """The JSON ``show`` prints on stdout, after its one line on stderr (mixed in before click 8.2)."""
    text = result.stdout
    return json.loads(text[text.index("{") :])


async def _poisoned(url: str, data: Path) -> tuple[str, str]:
    """Two refused writes of each kind a server sets aside: (a game refused at creation, a live game's end)."""
    never, live = new_id(), new_id()
    entries: list[dict[str, Any]] = [
        _to_json(_Op("create", never, NewGame(never, TOO_LONG, {"size": 5}, PLAYERS))),
        _to_json(_Op("finish", never, _end(never, tuple(move(i) for i in range(3))))),
    ]
    (data / "journal-1-dead.jsonl").write_text("".join(json.dumps(e) + "\n" for e in entries))
    store = await Store.open(url)
    recorder = Recorder(store, data, interval=0.01)
    await recorder.start()  # the journal's game is refused: its creation and its end are set aside
    await recorder.open_game(NewGame(live, "hex", {"size": 5}, PLAYERS))
    recorder.move(live, move(0))
    await recorder.flush(30)  # stored while the game is live
    overflow = MoveRecord(2**70, 1, "b2", datetime.now(UTC), 0.1)  # no database stores a ply this big
    await recorder.finish(_end(live, (move(0), overflow)))
    await recorder.flush(30)
    assert recorder.health()["dead_letters"] == 3
    await recorder.close()
    await store.mark_unfinished_as_interrupted()  # the next start: the live game lost its result
    await store.close()
    return never, live


async def _game(url: str, gid: str) -> Any:
    store = await Store.open(url)
    try:
        return await store.get_game(gid)
    finally:
        await store.close()


async def test_refused_writes_are_listed_mended_and_replayed(database_url: str, tmp_path: Path) -> None:
    never, live = await _poisoned(database_url, tmp_path)
    listed = await _cli(database_url, "list")
    assert listed.exit_code == 0, listed.output
    ids = {(row[1], row[2]): int(row[0]) for row in await _rows(database_url)}
    assert set(ids) == {("create", never), ("finish", never), ("finish", live)}

    # As they are, each is refused again and kept, with the reason and what to do
    again = await _cli(database_url, "replay", "--all")
    assert again.exit_code == 1
    assert "still not written" in again.output and "--entry" in again.output
    assert len(await _rows(database_url)) == 3

    # The game's end can't come before its creation: the operator is told to replay that first
    early = await _cli(database_url, "replay", str(ids["finish", never]))
    assert early.exit_code == 1 and "replay its creation first" in early.output

    # Mended: the creation with a name the database takes, then the end as it is
    shown = await _cli(database_url, "show", str(ids["create", never]))
    assert shown.exit_code == 0 and TOO_LONG in shown.stdout
    entry = _entry(shown)
    entry["game"] = "hex"
    (tmp_path / "create.json").write_text(json.dumps(entry))
    mended = await _cli(database_url, "replay", str(ids["create", never]), "--entry", str(tmp_path / "create.json"))
    assert mended.exit_code == 0, mended.output
    ended = await _cli(database_url, "replay", str(ids["finish", never]))
    assert ended.exit_code == 0, ended.output
    record = await _game(database_url, never)
    assert record.status == GameStatus.FINISHED and record.winner == 1 and len(record.moves) == 3

    # The live game's end, mended, gives the game the restart marked interrupted its result after all
    assert (await _game(database_url, live)).status == GameStatus.INTERRUPTED
    entry = _entry(await _cli(database_url, "show", str(ids["finish", live])))
    entry["moves"][1]["ply"] = 1
    (tmp_path / "finish.json").write_text(json.dumps(entry))
    restored = await _cli(database_url, "replay", str(ids["finish", live]), "--entry", str(tmp_path / "finish.json"))
    assert restored.exit_code == 0, restored.output
    record = await _game(database_url, live)
    assert record.status == GameStatus.FINISHED and record.winner == 1 and [m.ply for m in record.moves] == [0, 1]

    # Each letter that landed is gone; replaying the end again would change nothing
    assert "no dead letters" in (await _cli(database_url, "list")).output and not await _rows(database_url)


async def test_a_letter_given_up_on_is_dropped_and_bad_requests_say_what_to_do(
    database_url: str, tmp_path: Path
) -> None:
    await _poisoned(database_url, tmp_path)
    first = int((await _rows(database_url))[0][0])
    assert (await _cli(database_url, "drop", str(first), stdin="n\n")).exit_code == 1  # asked, and refused: kept
    assert len(await _rows(database_url)) == 3
    dropped = await _cli(database_url, "drop", str(first), "--yes")
    assert dropped.exit_code == 0 and "dropped 1" in dropped.output
    assert len(await _rows(database_url)) == 2

    missing = await _cli(database_url, "show", str(first))
    assert missing.exit_code == 1 and f"no dead letter {first}" in missing.output
    assert "LETTER_ID" in (await _cli(database_url, "replay")).output  # neither ids nor --all
    (tmp_path / "bad.json").write_text("[1, 2")
    both = await _cli(database_url, "replay", "1", "2", "--entry", str(tmp_path / "bad.json"))
    assert both.exit_code == 2 and "exactly one" in both.output
    bad = await _cli(database_url, "replay", "2", "--entry", str(tmp_path / "bad.json"))
    assert bad.exit_code == 2 and "not a JSON file" in bad.output
    (tmp_path / "other.json").write_text('{"op": "resign"}')
    other = await _cli(database_url, "replay", "2", "--entry", str(tmp_path / "other.json"))
    assert other.exit_code == 1 and "not a write hexarena journals" in other.output


@pytest.mark.parametrize("command", ["list", "show", "replay", "drop"])
def test_every_command_explains_itself(command: str) -> None:
    result = CliRunner().invoke(main, ["dead-letters", command, "--help"])
    assert result.exit_code == 0 and "--database-url" in result.output
