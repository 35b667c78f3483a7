"""Containment of a subprocess bot's whole process tree, and of trees a crashed server left behind.

A process group is not enough: a bot's child that calls ``setsid`` leaves the group, and a killed group leaves
such escapees running forever; and when the server itself dies (``kill -9``, a crash) nobody kills anything.
cgroups would contain both, but need a writable cgroup v2 hierarchy, which servers in containers rarely have. So
this module uses what every Linux has:

- the bot is started as a **child subreaper** (``PR_SET_CHILD_SUBREAPER``): whatever its descendants do (setsid,
  double fork), an orphan is re-parented to the bot, not to init, so the tree stays one tree while the bot lives;
- with a **parent-death signal** (``PR_SET_PDEATHSIG``, SIGKILL): if the server dies, the bot dies with it;
- ``ProcessTree`` **records** the tree while the match runs (walking ``/proc/PID/task/TID/children`` from the
  bot, cheap; a full ``/proc`` scan where that file is missing) with each process's start time, so a recycled pid
  is never mistaken for a bot's process; at the match's end ``kill()`` stops (SIGSTOP, so nobody forks while we
  look) and then SIGKILLs every recorded process still alive, plus every process of the bot's session;
- the record is kept on disk (``registry_dir()``: one JSON file per bot under the data directory, with the owning
  server's pid and start time) and removed when the tree is killed; ``sweep_orphans()``, run when ``hexarena
  serve`` starts, kills the trees of owners that are gone;
- a **watchdog** process per owner and registry (``orphan_watch``, started with the first recorded tree) holds
  the read end of a pipe the owner never writes to: when the owner dies, even by ``kill -9``, the pipe ends and
  the watchdog sweeps at once, so the processes a bot started (no parent-death signal reaches them) die too.

Start times are the ``starttime`` field of ``/proc/PID/stat`` (clock ticks since boot): a pid plus its start time
names one process for good.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import logging
import os
import signal
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def data_dir() -> Path:
    """The server's data directory (``$HEXARENA_DATA_DIR``, default ``./data``)."""
    return Path(os.environ.get("HEXARENA_DATA_DIR", "data"))


def registry_dir() -> Path:
    """Where running bot process trees are recorded, so the next server start can end the ones a crash left."""
    return data_dir() / "engines"


@dataclass(frozen=True, slots=True)
class ProcInfo:
    """One process as ``/proc/PID/stat`` describes it."""

    pid: int
    ppid: int
    sid: int
    start: int  # clock ticks since boot
    state: str


def read_proc(pid: int) -> ProcInfo | None:
    """The process ``pid``, or None when there is none."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read().decode("ascii", "replace")
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    fields = raw.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces and parentheses
    return ProcInfo(pid=pid, ppid=int(fields[1]), sid=int(fields[3]), start=int(fields[19]), state=fields[0])


def is_alive(pid: int, start: int) -> bool:
    """True when the process ``pid`` started at ``start`` is running (a zombie counts as gone)."""
    info = read_proc(pid)
    return info is not None and info.start == start and info.state != "Z"


def all_processes() -> list[ProcInfo]:
    """Every process visible in ``/proc`` (none where there is no ``/proc``)."""
    out = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if name.isdigit():
            info = read_proc(int(name))
            if info is not None:
                out.append(info)
    return out


def _children(pid: int) -> list[int] | None:
    """Direct children of ``pid`` from ``/proc/PID/task/*/children``; None where the kernel lacks that file."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return []
    out: list[int] = []
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out.extend(int(p) for p in f.read().split())
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}/task/{tid}"):
                continue  # the thread ended meanwhile
            return None
        except (ProcessLookupError, PermissionError):
            continue
    return out


def descendants(root: int) -> list[ProcInfo]:
    """Every process below ``root`` (children, their children, ...)."""
    found: list[ProcInfo] = []
    todo = [root]
    seen = {root}
    by_parent: dict[int, list[int]] | None = None
    while todo:
        pid = todo.pop()
        kids = _children(pid)
        if kids is None:  # no children files: index a full scan once
            if by_parent is None:
                by_parent = {}
                for p in all_processes():
                    by_parent.setdefault(p.ppid, []).append(p.pid)
            kids = by_parent.get(pid, [])
        for kid in kids:
            if kid in seen:
                continue
            seen.add(kid)
            info = read_proc(kid)
            if info is not None:
                found.append(info)
                todo.append(kid)
    return found


def contain_child() -> None:  # pragma: no cover - runs in the child between fork and exec
    """In a freshly forked bot: die with the server, and adopt every orphan of its own descendants."""
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the server died before the signal was armed
        os._exit(1)


def _self_identity() -> tuple[int, int]:
    info = read_proc(os.getpid())
    return os.getpid(), info.start if info is not None else 0


#: registry -> (pid, write end of its pipe) of this process's watchdog over it: the fd is never written nor closed,
#: so the pipe ends exactly when this process does, however it ends. A bare pid and fd, not a ``Popen``: one left
#: running at exit is the point, not a leak to warn about.
_watchdogs: dict[Path, tuple[int, int]] = {}


def watch_for_orphans(registry: Path) -> None:
    """Start, once per registry, the watchdog that sweeps this process's bot trees when this process dies."""
    key = registry.resolve()
    running = _watchdogs.get(key)
    if running is not None:
        info = read_proc(running[0])
        if info is not None and info.state != "Z":
            return
        os.close(running[1])
    read_end, write_end = os.pipe()  # both close-on-exec: bots started later never hold the write end
    try:
        pid = os.posix_spawn(
            sys.executable,
            [sys.executable, "-m", "hexarena.players.orphan_watch", str(key)],
            os.environ,
            file_actions=[(os.POSIX_SPAWN_DUP2, read_end, 0), (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)],
            setsid=True,  # not in the owner's group: a Ctrl-C or group kill of the owner spares it
        )
    except OSError as exc:
        os.close(write_end)
        log.warning("cannot start the bot process watchdog (%s): a crash would leave bots' children running", exc)
        return
    finally:
        os.close(read_end)
    _watchdogs[key] = (pid, write_end)


class ProcessTree:
    """The processes one bot started, recorded while it runs, all killed by ``kill()``.

    ``registry`` is the directory holding the on-disk record (None: memory only).
    """

    def __init__(self, pid: int, argv: Iterable[str] = (), registry: Path | None = None) -> None:
        info = read_proc(pid)
        self.pid = pid
        self.start = info.start if info is not None else -1
        self.argv = list(argv)
        self.members: dict[int, int] = {}  # pid -> start time, the bot excluded
        self.registry = registry
        owner, owner_start = _self_identity()
        self.owner = (owner, owner_start)
        self._path: Path | None = None
        if registry is not None:
            self._path = registry / f"{owner}-{pid}.json"
            self._save()
            watch_for_orphans(registry)

    def observe(self) -> int:
        """Record the bot's current descendants (forgetting those that ended); how many are known now.

        While the bot itself is gone its record is left as it is: its escapees are no longer below it."""
        if not is_alive(self.pid, self.start):
            return len(self.members)
        known = {p: s for p, s in self.members.items() if is_alive(p, s)}  # the dead stay dead: keep the record small
        new = len(known) != len(self.members)
        self.members = known
        for p in descendants(self.pid):
            if p.state != "Z" and self.members.get(p.pid) != p.start:
                self.members[p.pid] = p.start
                new = True
        if new:
            self._save()
        return len(self.members)

    def kill(self) -> int:
        """SIGKILL the bot, every recorded process still alive and every process of its session; how many."""
        self.observe()
        killed = kill_tree(self.pid, self.start, self.members)
        self._forget()
        return killed

    def _save(self) -> None:
        if self._path is None:
            return
        record = {
            "owner": {"pid": self.owner[0], "start": self.owner[1]},
            "pid": self.pid,
            "start": self.start,
            "argv": self.argv[:20],
            "members": {str(p): s for p, s in self.members.items()},
        }
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self._path.with_suffix(".tmp")
            tmp.write_text(json.dumps(record))
            tmp.replace(self._path)
        except OSError as exc:
            log.warning(
                "cannot record bot process %d under %s (%s): a crash would leave it running",
                self.pid,
                self._path.parent,
                exc,
            )
            self._path = None

    def _forget(self) -> None:
        if self._path is not None:
            with contextlib.suppress(OSError):
                self._path.unlink()


def kill_tree(root: int, root_start: int, members: dict[int, int]) -> int:
    """Stop, then kill: the root (if it is still the same process), the recorded ``members`` still alive, the
    root's live descendants and every process of the root's session. Stopping first means nobody forks between
    the last look and the kill. How many processes were killed."""
    targets: dict[int, int] = {}
    for _ in range(50):
        found = dict(_tree_now(root, root_start, members))
        fresh = {p: s for p, s in found.items() if targets.get(p) != s}
        if not fresh:
            break
        for pid in fresh:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGSTOP)
        targets.update(fresh)
    killed = 0
    for pid, start in targets.items():
        if is_alive(pid, start):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
                killed += 1
    return killed


def _tree_now(root: int, root_start: int, members: dict[int, int]) -> Iterable[tuple[int, int]]:
    """The processes of a bot's tree alive now, as (pid, start)."""
    root_info = read_proc(root)
    root_is_ours = root_info is not None and root_info.start == root_start
    if root_is_ours and root_info is not None and root_info.state != "Z":
        yield root, root_start
    for pid, start in members.items():
        if is_alive(pid, start):
            yield pid, start
    if root_is_ours:
        for p in descendants(root):
            if p.state != "Z":
                yield p.pid, p.start
    # The session the bot led: a pid is not reused while a session of that id has members, so any process in
    # session ``root`` is the bot's, unless ``root`` now names a different live process (a new session).
    if root_info is None or root_is_ours:
        for p in all_processes():
            if p.sid == root and p.state != "Z" and p.pid != os.getpid():
                yield p.pid, p.start


def sweep_orphans(registry: Path | None = None) -> int:
    """Kill the bot trees recorded by servers that are gone (crashed, killed); how many processes were killed.

    A record whose owner still runs (another server on the same data directory) is left alone."""
    directory = registry if registry is not None else registry_dir()
    try:
        paths = sorted(directory.glob("*.json"))
    except OSError:
        return 0
    me = _self_identity()
    killed = 0
    for path in paths:
        try:
            record = json.loads(path.read_text())
            owner = (int(record["owner"]["pid"]), int(record["owner"]["start"]))
            root, root_start = int(record["pid"]), int(record["start"])
            members = {int(p): int(s) for p, s in record.get("members", {}).items()}
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("ignoring an unreadable bot process record %s (%s)", path, exc)
            continue
        if owner != me and is_alive(*owner):
            continue
        killed += kill_tree(root, root_start, members)
        with contextlib.suppress(OSError):
            path.unlink()
    if killed:
        log.warning("killed %d bot process(es) left running by an earlier server", killed)
    return killed
