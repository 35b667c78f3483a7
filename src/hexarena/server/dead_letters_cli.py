"""``hexarena dead-letters``: the writes the database refused, for an operator to look at, mend and replay.

The recorder sets a refused write aside (:mod:`hexarena.store.dead_letters`) so the writes behind it go on; this
is the other half: ``list`` them, ``show`` one's entry as JSON (to a file, to mend it), ``replay`` them (as they
are, or one from a mended file) and ``drop`` those given up on. A replayed letter that lands is dropped; one the
database still refuses stays, with the new reason printed. Replays go in id order, so a game's creation lands
before its moves and its end.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from hexarena.core.jsonvalue import JsonObject
from hexarena.server.store_cli import database_option, with_store

if TYPE_CHECKING:
    from hexarena.store import Store
    from hexarena.store.records import DeadLetter

#: Characters of an error shown per row of ``list`` (``show`` prints it whole).
ERROR_WIDTH = 70


@click.group("dead-letters")
def dead_letters() -> None:
    """Writes the database refused (counted in /healthz): list, show, replay or drop them."""


@dead_letters.command("list")
@click.option("--limit", default=100, show_default=True, type=click.IntRange(1, 1000), help="Newest this many.")
@database_option
def list_letters(limit: int, database_url: str | None) -> None:
    """The newest dead letters: id, what was refused, its game, when, and why."""
    letters = with_store(database_url, lambda store: store.list_dead_letters(limit=limit))
    if not letters:
        click.echo("no dead letters: every write the server made was stored")
        return
    click.echo(f"{'id':>6}  {'kind':<9} {'game':<32} {'set aside (UTC)':<19}  error")
    for d in letters:
        error = " ".join(d.error.split())
        error = error if len(error) <= ERROR_WIDTH else error[: ERROR_WIDTH - 3] + "..."
        when = d.created_at.strftime("%Y-%m-%d %H:%M:%S")
        click.echo(f"{d.letter_id:>6}  {d.kind:<9} {d.game_id[:32]:<32} {when:<19}  {error}")
    click.echo("`hexarena dead-letters show ID` prints one's entry; `replay ID` writes it again", err=True)


@dead_letters.command("show")
@click.argument("letter_id", type=int)
@database_option
def show(letter_id: int, database_url: str | None) -> None:
    """Print a dead letter's entry as JSON on stdout (its error on stderr): `show 7 > 7.json` to mend it."""
    letter = with_store(database_url, lambda store: store.get_dead_letter(letter_id))
    if letter is None:
        _no_letter(letter_id)
    click.echo(f"dead letter {letter.letter_id} ({letter.kind}, game {letter.game_id}): {letter.error}", err=True)
    try:
        click.echo(json.dumps(json.loads(letter.entry), indent=2, ensure_ascii=False))
    except ValueError:
        click.echo(letter.entry)  # a journal line that was not JSON: shown as it was kept


@dead_letters.command("replay")
@click.argument("letter_ids", type=int, nargs=-1)
@click.option("--all", "replay_all", is_flag=True, help="Every dead letter (the newest 1,000), oldest first.")
@click.option(
    "--entry",
    "entry_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Write this JSON file (a mended `show` output) instead of the letter's own entry; one LETTER_ID only.",
)
@database_option
def replay(letter_ids: tuple[int, ...], replay_all: bool, entry_file: Path | None, database_url: str | None) -> None:
    """Write dead letters to the database again; each that lands is dropped. Exit status 1 if any is refused."""
    if bool(letter_ids) == replay_all:
        raise click.UsageError("give the dead letters' ids (see `hexarena dead-letters list`) or --all")
    if entry_file is not None and len(letter_ids) != 1:
        raise click.UsageError("--entry replaces one dead letter's entry: give exactly one LETTER_ID")
    mended = _read_entry(entry_file) if entry_file is not None else None
    failed = with_store(database_url, lambda store: _replay(store, letter_ids, replay_all, mended))
    if failed:
        click.echo(
            f"{failed} not written: mend with `show ID > f.json`, edit, then `replay ID --entry f.json`", err=True
        )
        sys.exit(1)


@dead_letters.command("drop")
@click.argument("letter_ids", type=int, nargs=-1, required=True)
@click.confirmation_option(prompt="Drop these dead letters? The writes they hold are lost.")
@database_option
def drop(letter_ids: tuple[int, ...], database_url: str | None) -> None:
    """Forget dead letters given up on (the writes they hold are lost)."""

    async def run(store: Store) -> list[int]:
        return [i for i in letter_ids if not await store.drop_dead_letter(i)]

    missing = with_store(database_url, run)
    click.echo(f"dropped {len(letter_ids) - len(missing)}")
    if missing:
        _no_letter(missing[0])


async def _replay(store: Store, ids: tuple[int, ...], replay_all: bool, mended: JsonObject | None) -> int:
    from hexarena.store import StoreError
    from hexarena.store.errors import Conflict, InvalidRecord, NotFound
    from hexarena.store.recorder import write_entry

    found: list[tuple[int, DeadLetter | None]]
    if replay_all:
        found = [(d.letter_id, d) for d in reversed(await store.list_dead_letters(limit=1000))]
    else:
        found = [(i, await store.get_dead_letter(i)) for i in sorted(set(ids))]
    failed = 0
    for letter_id, letter in found:
        if letter is None:
            click.echo(f"{letter_id}: no such dead letter")
            failed += 1
            continue
        try:
            entry = mended if mended is not None else json.loads(letter.entry)
            if not isinstance(entry, dict):
                raise ValueError("the entry is not a JSON object")
            done = await write_entry(store, entry)
        except (ValueError, InvalidRecord, NotFound, Conflict) as exc:
            click.echo(f"{letter.letter_id}: still not written: {exc}")
            failed += 1
            continue
        except StoreError:
            raise  # the database itself failed: stop, nothing more can be written now
        await store.drop_dead_letter(letter.letter_id)
        click.echo(f"{letter.letter_id}: {done}")
    return failed


def _read_entry(path: Path) -> JsonObject:
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise click.BadParameter(f"{path} is not a JSON file ({exc})", param_hint="--entry") from None
    if not isinstance(entry, dict):
        raise click.BadParameter(f"{path} holds no JSON object (as `show` prints)", param_hint="--entry")
    return entry


def _no_letter(letter_id: int) -> NoReturn:
    click.echo(f"error: no dead letter {letter_id} (see `hexarena dead-letters list`)", err=True)
    sys.exit(1)
