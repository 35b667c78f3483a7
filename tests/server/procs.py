"""Real processes for fault-injection tests: a ``hexarena serve`` to kill, a private PostgreSQL to stop.

The private PostgreSQL cluster (``initdb`` into a temporary folder, its own port) lets a test stop and start the
database server for real without touching the shared one that every other test uses.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from fakes.procs import PORT_TRIES, free_port, listens, port_taken, serving

#: ``hexarena serve``'s exit status when its port is taken (uvicorn's)
PORT_TAKEN = 3

#: ``hexarena`` as a command, run by this Python
HEXARENA = (sys.executable, "-m", "hexarena.cli")
#: the tests' folder
TESTS = Path(__file__).resolve().parents[1]


#: Seconds a lease lives in the fault tests' clusters (``hexarena serve --cluster-lease``; 4 by default).
FAST_LEASE = 2.0
#: ``hexarena serve`` options for the fault tests' instances: leases of :data:`FAST_LEASE` renewed every 0.25 s
#: (eight renewals a lease: an owner must stall for 2 s to lose one) and scans every 0.25 s, so that a takeover
#: comes within about 2.5 s of a death instead of 4-7 s. The takeovers go through the same code either way.
FAST_CLUSTER = ("--cluster-lease", str(FAST_LEASE), "--cluster-renew", "0.25", "--cluster-scan", "0.25")


class ServeProcess:
    """``python -m hexarena.cli serve`` on a free port, started and killed at will (the same data folder)."""

    def __init__(
        self, database_url: str, data_dir: Path, log: Path, log_level: str = "warning", extra: tuple[str, ...] = ()
    ) -> None:
        self.database_url = database_url
        self.extra = extra  # more ``serve`` options (e.g. --redis-url)
        self.data_dir = data_dir
        self.log = log
        self.log_level = log_level
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self._log_start = 0  # where the log of the latest start begins

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    async def start(self, timeout: float = 60.0) -> None:
        """Start the server and wait until it answers on its port. ``free_port`` only finds a port free a moment
        before: another test's server may bind it first. Then that server's answer is not taken for this one's
        (the listening socket must be this process's), and when this one exits for the taken port (status 3) it
        starts again on another."""
        self.proc = self._spawn()
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient() as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    if self._port_was_taken():
                        self.port = free_port()
                        self.proc = self._spawn()
                        continue
                    raise AssertionError(f"hexarena serve exited with {self.proc.returncode}:\n{self.log.read_text()}")
                with contextlib.suppress(httpx.HTTPError):
                    r = await client.get(f"{self.url}/healthz", timeout=2)
                    if r.status_code in (200, 503) and listens(self.proc.pid, self.port) is not False:
                        return
                await asyncio.sleep(0.1)
        raise AssertionError(f"hexarena serve did not answer within {timeout} s:\n{self.log.read_text()}")

    def _port_was_taken(self) -> bool:
        """Whether the process that just exited found its port taken (uvicorn's status and log line for it)."""
        assert self.proc is not None
        said = self.log.read_bytes()[self._log_start :]
        return self.proc.returncode == PORT_TAKEN and port_taken(said)

    def _spawn(self) -> subprocess.Popen[bytes]:
        self._log_start = self.log.stat().st_size if self.log.exists() else 0
        cmd = [sys.executable, "-m", "hexarena.cli", "serve", "--port", str(self.port)]
        cmd += ["--database-url", self.database_url, "--data-dir", str(self.data_dir), "--log-level", self.log_level]
        cmd += list(self.extra)
        with open(self.log, "ab") as log:
            return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    async def scans(self, of: str) -> int:
        """The scans for ``of`` (``matches``, ``tournaments``) nobody holds this instance completed (``/metrics``)."""
        from prometheus_client.parser import text_string_to_metric_families

        text = (await self.get("/metrics")).text
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                if sample.name == "hexarena_cluster_scans_total" and sample.labels.get("of") == of:
                    return int(sample.value)
        raise AssertionError(f"no hexarena_cluster_scans_total of {of} in /metrics:\n{text[:2000]}")

    async def until_scanned(self, of: str, times: int = 2, timeout: float = 60.0) -> None:
        """Until this instance completed ``times`` scans for ``of`` more than it had when asked: whatever it would
        take over, it had every chance to."""
        target = await self.scans(of) + times
        deadline = time.monotonic() + timeout
        while await self.scans(of) < target:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.url} did not scan for {of} {times} times within {timeout} s")
            await asyncio.sleep(0.05)

    async def get(self, path: str) -> httpx.Response:
        async with httpx.AsyncClient() as client:
            return await client.get(self.url + path, timeout=10)

    async def post(self, path: str, body: dict[str, Any], headers: dict[str, str] | None = None) -> httpx.Response:
        async with httpx.AsyncClient() as client:
            return await client.post(self.url + path, json=body, headers=headers, timeout=30)


# ----- two people playing HTTTX over /ws -----------------------------------------------------------------------


def stones(seat: int, turn: int) -> list[dict[str, int]]:
    """Two stones for ``seat``'s ``turn``-th turn that never line up: each side's stones differ by multiples of
    (2, 1), which lies on none of the three axes, so nobody ever wins and the game can go on as long as needed."""
    base = 2 * turn
    row = 5 if seat == 1 else -5
    return [{"q": 2 * base, "r": base + row}, {"q": 2 * (base + 1), "r": base + 1 + row}]


class Person:
    """One HTTTX seat over ``/ws``: answers each move request with the next two stones of :func:`stones` that are
    both free (an opponent that plays at random may have taken one: the pair is skipped, so the seat never
    loses by an illegal move; the skipped pairs lie on the same line of (2, 1) steps, so it still never wins)."""

    def __init__(self, ws: ClientConnection, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.turns = 0
        self.requests = 0
        self._pair = 0  # the next pair of stones() to try
        self._board: set[tuple[int, int]] = set()  # the cells taken, from the last request's board

    def next_stones(self) -> list[dict[str, int]]:
        """The pieces of this seat's next answer (counted as played: ``turns`` goes up by one)."""
        while True:
            pieces = stones(self.seat, self._pair)
            self._pair += 1
            if not any((p["q"], p["r"]) in self._board for p in pieces):
                self.turns += 1
                return pieces

    def _read(self, packet: dict[str, object]) -> None:
        board = packet.get("board")
        if isinstance(board, dict):
            self._board = {(c["q"], c["r"]) for c in board.get("cells", [])}

    async def play(self, turns: int) -> None:
        """Answer ``turns`` more move requests, then stop answering (the socket stays open)."""
        target = self.turns + turns
        while self.turns < target:
            packet = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
            if packet["type"] == "end":
                return
            if packet["type"] != "move_request":
                continue
            self.requests += 1
            self._read(packet)
            await self.ws.send(json.dumps({"type": "move_response", "move": {"pieces": self.next_stones()}}))

    async def answer_pending_then(self, turns: int) -> None:
        """Answer the request :meth:`wait_request` read and left open, then ``turns - 1`` more."""
        await self.ws.send(json.dumps({"type": "move_response", "move": {"pieces": self.next_stones()}}))
        await self.play(turns - 1)

    async def wait_request(self) -> None:
        """Until the next move request arrives: the referee accepted the opponent's last move."""
        while True:
            packet = json.loads(await asyncio.wait_for(self.ws.recv(), 30))
            if packet["type"] == "move_request":
                self.requests += 1
                self._read(packet)
                return


async def people_game(server: ServeProcess) -> tuple[str, Person, Person]:
    """A new HTTTX game between two people on ``server``; returns its id and both seats (x, o) connected."""
    r = await server.post("/game/new", {"player_x": {"type": "human"}, "player_o": {"type": "human"}})
    assert r.status_code == 200, r.text
    body = r.json()
    x = await connect(server.ws(f"/ws?token={body['token_x']}"))
    o = await connect(server.ws(f"/ws?token={body['token_o']}"))
    return body["game_id"], Person(x, 0), Person(o, 1)


async def play_turns(x: Person, o: Person, turns: int) -> int:
    """Both people play ``turns`` more turns each (O opens: X's origin stone is automatic); returns the plies the
    referee acknowledged in all, i.e. those followed by the other seat's move request.

    O's pending request (from an earlier call) counts: O answers it first, then X, and so on; at the end, X's
    last turn is acknowledged by O's next request, which is read here and left unanswered.
    """
    first = o.turns == 0
    await asyncio.gather(o.play(turns) if first else o.answer_pending_then(turns), x.play(turns))
    await o.wait_request()  # X's last turn was accepted: O is asked again
    return o.turns + x.turns


# ----- a private PostgreSQL ----------------------------------------------------------------------------------


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


class PostgresFailed(AssertionError):
    """A PostgreSQL command of :class:`PrivatePostgres` failed: what it and the server's log said."""


class PrivatePostgres:
    """A PostgreSQL cluster of its own in ``root``, on its own port: stopped and started by the test."""

    def __init__(self, root: Path) -> None:
        binary = pg_bin()
        assert binary is not None, "PostgreSQL's server binaries are not installed"
        self.bin = binary
        self.root = root
        self.data = root / "pgdata"
        self.port = free_port()
        self.started = False
        self.as_postgres = os.geteuid() == 0  # PostgreSQL refuses to run as root

    def _run(self, *args: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, timeout=120)
        if done.returncode:
            log = self.root / "pg.log"
            said = log.read_text(errors="replace")[-3000:] if log.exists() else ""
            raise PostgresFailed(f"{args[0]} exited with {done.returncode}: {done.stderr.decode()[-2000:]}\n{said}")

    def init(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        if self.as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
        # --no-sync: a throwaway cluster (its server runs with fsync=off too) need not wait for the disk
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")

    def start(self) -> None:
        """Start the server; the first time, on another port should its own have been taken since
        :func:`free_port` found it (later starts keep the port the test's servers know)."""
        for _ in range(PORT_TRIES):
            opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
            try:
                self._run("pg_ctl", "-D", str(self.data), "-o", opts, "-l", str(self.root / "pg.log"), "-w", "start")
                self.started = True
                return
            except PostgresFailed as e:
                if self.started or "address already in use" not in str(e).lower():
                    raise
            self.port = free_port()
        raise PostgresFailed(f"{PORT_TRIES} ports in a row were taken before PostgreSQL could bind them")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def _signal_all(self, sig: signal.Signals) -> None:
        from hexarena.players.proctree import descendants

        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        for pid in [postmaster, *(p.pid for p in descendants(postmaster))]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)

    def freeze(self) -> None:
        """Stop every process of the cluster (SIGSTOP): connections stay open and nothing answers, a database
        that hangs rather than one that is down."""
        self._signal_all(signal.SIGSTOP)

    def thaw(self) -> None:
        self._signal_all(signal.SIGCONT)

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"


@contextlib.contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    """A fresh cluster in a folder of its own under /tmp (pytest's folders are private to root, and PostgreSQL
    runs as the postgres user there); stopped and removed at the end."""
    root = Path(tempfile.mkdtemp(prefix="hexarena-pg-"))
    pg = PrivatePostgres(root)
    try:
        pg.init()
        pg.start()
        yield pg
    finally:
        with contextlib.suppress(subprocess.SubprocessError, PostgresFailed, OSError):
            pg.stop()
        shutil.rmtree(root, ignore_errors=True)


def bot_serve(bot: str) -> Callable[[int], list[str]]:
    """The command of ``hexarena bot serve --bot BOT`` on a given port (for :func:`fakes.procs.serving`)."""
    return lambda port: [*HEXARENA, "bot", "serve", "--bot", bot, "--port", str(port)]


@contextlib.contextmanager
def bot_server(bot: str, log: Path) -> Iterator[str]:
    """``hexarena bot serve`` as a subprocess: its URL once it listens; stopped afterwards."""
    with serving(bot_serve(bot), log) as port:
        yield f"http://127.0.0.1:{port}"


@contextlib.contextmanager
def paced_bot_server(gate: Path, log: Path, opening_only: bool = False) -> Iterator[str]:
    """``paced_bot.py``: an HTTTX bot (bws and stateless) that moves at a steady pace and never wins until the file
    ``gate`` exists (see its docstring); ``opening_only``: it declares bws without ``free_setup``. Its URL once it
    listens; stopped afterwards."""
    script = [sys.executable, str(Path(__file__).with_name("paced_bot.py"))]
    opening = ["--opening-only"] if opening_only else []
    # tests/ on its path too: procs, which it imports, imports fakes.procs
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(TESTS), os.environ.get("PYTHONPATH")])))
    with serving(lambda port: [*script, str(port), str(gate), *opening], log, env=env) as port:
        yield f"http://127.0.0.1:{port}"


#: A turn clock for matches between paced bots: they move in a fixed tenth of a second, so no load uses it up.
PACED_CLOCK = {"type": "turn", "seconds": 60.0}


class PrivateRedis:
    """A ``redis-server`` of its own on a free port, without persistence: killed and started again empty by the
    test (never the shared one on 6379)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.pidfile = Path(tempfile.gettempdir()) / f"hexarena-redis-{self.port}.pid"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None, "redis-server is not installed"
        cmd = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise AssertionError(f"redis-server on port {self.port} did not answer within {timeout} s")

    def freeze(self) -> None:
        """SIGSTOP: connections stay open and nothing answers (a Redis that hangs rather than one that is gone)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        """Kill it at once (its data is gone: it keeps none on disk)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None


@contextlib.contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()
