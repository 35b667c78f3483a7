"""Starting and stopping the real processes a test or a benchmark runs (a server, a bot server): one way to give
one a port, to wait for it to serve and to stop it, shared with ``bench/`` (which puts ``tests`` on its path)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

#: Times a server is started again on another port when the one it was given was taken before it could bind it.
PORT_TRIES = 5


def free_port() -> int:
    """A loopback port nobody holds now (any process may take it before the caller binds it: :func:`serving`)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _group(pgid: int) -> list[int]:
    """The processes of process group ``pgid`` (from ``/proc``)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError), open(f"/proc/{entry}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[2]) == pgid:  # the fields after the name: state ppid pgrp
                    pids.append(int(entry))
    return pids


def listens(pid: int, port: int, group: bool = False) -> bool | None:
    """Whether process ``pid`` (``group``: any process of the process group it leads) has a socket listening on
    TCP ``port`` (None where ``/proc`` does not tell)."""
    inodes = set()
    try:
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            with contextlib.suppress(FileNotFoundError), open(table) as f:
                for line in f.readlines()[1:]:
                    fields = line.split()
                    if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                        inodes.add(fields[9])
        fds = [f"/proc/{p}/fd/{fd}" for p in (_group(pid) if group else [pid]) for fd in os.listdir(f"/proc/{p}/fd")]
    except FileNotFoundError:
        return False if os.path.isdir("/proc/self/fd") else None  # the process is gone, or there is no /proc
    sockets = {f"socket:[{inode}]" for inode in inodes}
    for fd in fds:
        with contextlib.suppress(OSError):
            if os.readlink(fd) in sockets:
                return True
    return False


def port_taken(said: bytes) -> bool:
    """Whether a server's output says its port was taken (Python's, Go's, Node's and C++'s words for it)."""
    said = said.lower()
    return b"address already in use" in said or b"eaddrinuse" in said


def start_serving(
    command: Callable[[int], list[str]], log: Path, seconds: float = 120, **popen: Any
) -> tuple[subprocess.Popen[bytes], int]:
    """Start the server ``command(port)`` on a free port, its output appended to ``log``, and return it and its port
    once it listens there (``popen``: more ``subprocess.Popen`` arguments; with ``start_new_session``, any process
    of its group may be the one that listens, as a build script's server is).

    Why not wait until the port answers: between :func:`free_port` and the server's bind another test's server may
    take the port, and the answer would come from that one. A server that finds its port taken is started again on
    another (up to :data:`PORT_TRIES` times); one that exits otherwise, or does not listen within ``seconds``, fails
    the test with what it wrote."""
    group = bool(popen.get("start_new_session"))
    for _ in range(PORT_TRIES):
        port = free_port()
        start = log.stat().st_size if log.exists() else 0
        with open(log, "ab") as out:  # the child keeps its own descriptor
            proc = subprocess.Popen(command(port), stdout=out, stderr=subprocess.STDOUT, **popen)
        deadline = time.monotonic() + seconds
        while proc.poll() is None and time.monotonic() < deadline:
            said = listens(proc.pid, port, group)
            if said or (said is None and _answers(port)):
                return proc, port
            time.sleep(0.5 if group else 0.05)  # a group's scan reads every process's stat
        if proc.poll() is None:
            stop_process(proc, group=group)
            raise AssertionError(f"{proc.args} did not listen on port {port} within {seconds:g} s:\n{_tail(log)}")
        if not port_taken(log.read_bytes()[start:]):
            raise AssertionError(f"{proc.args} exited with {proc.returncode}:\n{_tail(log)}")
    raise AssertionError(f"{PORT_TRIES} ports in a row were taken before the server could bind them:\n{_tail(log)}")


@contextlib.contextmanager
def serving(command: Callable[[int], list[str]], log: Path, seconds: float = 120, **popen: Any) -> Iterator[int]:
    """:func:`start_serving` for a ``with`` block: its port, and the server stopped afterwards."""
    proc, port = start_serving(command, log, seconds, **popen)
    try:
        yield port
    finally:
        stop_process(proc, group=bool(popen.get("start_new_session")))


def _answers(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False


def _tail(log: Path, chars: int = 3000) -> str:
    return log.read_text(errors="replace")[-chars:]


def stop_process(proc: subprocess.Popen[bytes], grace: float = 10, group: bool = False) -> None:
    """SIGTERM, then SIGKILL if it has not exited after ``grace`` seconds: a server gets to shut down as it
    does in use (and write what it writes on exit, such as a profile), and one that hangs still goes. ``group``:
    to every process of the group it leads (started with ``start_new_session``: a build script's compiler too)."""

    def send(sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig) if group else proc.send_signal(sig)

    if proc.poll() is None or group:
        send(signal.SIGTERM)
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        send(signal.SIGKILL)
        proc.wait()


async def wait_up(url: str, seconds: float = 60) -> None:
    """Wait until a GET of ``url`` answers 200 (a server just started); fail after ``seconds``, a margin for a
    loaded machine rather than a measure."""
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient() as client:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(url)).status_code == 200:
                    return
            await asyncio.sleep(0.05)
    raise AssertionError(f"{url} did not come up within {seconds:g} s")
