"""A local append-only journal of writes the database has not taken yet, so an outage loses nothing.

The recorder writes here only what it could not write to the database (and everything that arrives while the
database is away); a restart replays it before anything else touches the games table. Each process owns one
file, ``journal-<pid>-<random>.jsonl`` in the data directory, under an exclusive ``flock`` held for the life of
the process: at start-up every journal whose lock can be taken belongs to a process that is gone (a crash, a
``kill -9``), and is replayed and removed. Several servers can therefore share one data directory.

A line is one JSON object in ASCII (every other character escaped): a write may carry any string a bot sent, a
lone surrogate included, which UTF-8 cannot encode; escaped, it cannot make the journal unwritable. A torn last line (the process died mid-write) is skipped on reading. Lines are
flushed and ``fsync``-ed before :meth:`Journal.append` returns: the journal is written only while the database
is failing, so its cost is paid only then.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

log = logging.getLogger(__name__)

PATTERN = "journal-*.jsonl"


class Journal:
    """This process's journal file; created on first use, removed when closed empty."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / f"journal-{os.getpid()}-{secrets.token_hex(4)}.jsonl"
        self._file: IO[str] | None = None
        self.entries = 0

    def _open(self) -> IO[str]:
        if self._file is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            f = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - held open for the process's life
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            self._file = f
        return self._file

    def append(self, entries: list[dict[str, Any]]) -> None:
        """Write ``entries`` durably (flush + fsync) before returning."""
        if not entries:
            return
        f = self._open()
        f.write("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in entries))
        f.flush()
        os.fsync(f.fileno())
        self.entries += len(entries)

    def clear(self) -> None:
        """Everything journaled has reached the database: start the file afresh."""
        if self._file is not None and self.entries:
            self._file.truncate(0)
            self._file.seek(0)
            os.fsync(self._file.fileno())
        self.entries = 0

    def close(self) -> None:
        """Release the lock; an empty journal is removed, a non-empty one waits for the next start."""
        if self._file is None:
            return
        f, self._file = self._file, None
        empty = self.entries == 0
        if empty:
            with contextlib.suppress(OSError):
                self.path.unlink()
        f.close()


def read_lines(path: Path) -> list[dict[str, Any]]:
    """The entries of a journal file; a torn or unreadable line (a crash mid-write) is skipped with a warning."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                log.warning("journal %s: line %d is torn or corrupt and is skipped", path, n)
                continue
            if isinstance(entry, dict):
                out.append(entry)
    return out


@contextlib.contextmanager
def orphans(directory: Path) -> Iterator[list[tuple[Path, list[dict[str, Any]]]]]:
    """Journals left by processes that are gone, with their entries, locked while the caller replays them.

    The files are removed when the block exits without an error; on an error they stay for the next start.
    """
    held: list[tuple[Path, IO[str]]] = []
    found: list[tuple[Path, list[dict[str, Any]]]] = []
    try:
        for path in sorted(directory.glob(PATTERN)) if directory.is_dir() else []:
            f = open(path, encoding="utf-8")  # noqa: SIM115 - closed in the finally below
            try:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                f.close()  # a live process owns it
                continue
            held.append((path, f))
            found.append((path, read_lines(path)))
        yield found
        for path, _ in held:
            with contextlib.suppress(OSError):
                path.unlink()
    finally:
        for _, held_file in held:
            held_file.close()


__all__ = ["PATTERN", "Journal", "orphans", "read_lines"]
