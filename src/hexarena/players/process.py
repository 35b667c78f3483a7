"""Safe subprocess bots: one process per match, limited, watched, and always reaped.

Every stdin/stdout engine (UAIS Hex bots, HTP engines, UHP Hive engines, Trylobot stdio modules) runs through
``BotProcess``: its own process group and session, memory/CPU/core limits set before exec, ``PYTHONUNBUFFERED=1``
so Python bots that forget to flush still answer, bounded line length, a bounded tail of stderr kept for the match
log, and ``close()`` that asks, then terminates, then kills the whole group and waits for it.

The group is not the whole story: a child that calls ``setsid`` leaves it. So the bot's whole process tree is
contained too (``proctree``): the bot dies with the server (parent-death signal) and adopts its descendants'
orphans (child subreaper); its tree is recorded while the match runs (every ``Limits.watch_interval`` seconds and
before it is asked to quit) and on disk, every recorded process is killed at the match's end, and trees a crashed
server left behind are killed when ``hexarena serve`` starts next.

CPU: each bot process may use ``Limits.cpu_seconds`` of CPU time (RLIMIT_CPU; then SIGXCPU, a second later
SIGKILL), by default ``DEFAULT_CPU_SECONDS``, or ``$HEXARENA_BOT_CPU_SECONDS`` (``0`` or ``none``: no limit).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
import sys
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hexarena.core.errors import BotCrashed, BotTimeout, ConfigError, ProtocolViolation
from hexarena.players.proctree import ProcessTree, contain_child, registry_dir

#: CPU seconds a bot process may use in one match unless ``$HEXARENA_BOT_CPU_SECONDS`` says otherwise: an hour,
#: far beyond any sane game, yet a bot spinning forever in a day-long match is stopped.
DEFAULT_CPU_SECONDS = 3600
CPU_ENV = "HEXARENA_BOT_CPU_SECONDS"


def default_cpu_seconds() -> int | None:
    """The default CPU limit of a bot process: ``$HEXARENA_BOT_CPU_SECONDS`` (0 or ``none``: no limit)."""
    raw = os.environ.get(CPU_ENV, "").strip().lower()
    if not raw:
        return DEFAULT_CPU_SECONDS
    if raw in ("0", "none"):
        return None
    try:
        seconds = int(raw)
    except ValueError:
        raise ConfigError(f"${CPU_ENV} must be a whole number of seconds, 0 or none, not {raw!r}") from None
    if seconds < 0:
        raise ConfigError(f"${CPU_ENV} must not be negative, got {seconds}")
    return seconds


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits of a subprocess bot (None: no limit)."""

    memory_mb: int | None = 2048  # address space (RLIMIT_AS)
    cpu_seconds: int | None = field(default_factory=default_cpu_seconds)  # CPU time per process (RLIMIT_CPU)
    max_line: int = 64 * 1024  # longest stdout line accepted
    max_pending_lines: int = 256  # unread stdout lines before the bot counts as flooding
    stderr_lines: int = 200  # stderr lines kept for the match log
    startup_timeout: float = 10.0
    watch_interval: float = 0.5  # seconds between looks at the bot's process tree (0: only at the end)


def _limit_child(limits: Limits) -> None:  # pragma: no cover - runs in the child before exec
    import resource

    contain_child()

    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if limits.memory_mb is not None:
        size = limits.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))
    if limits.cpu_seconds is not None:
        resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))


def split_command(command: str | Sequence[str]) -> list[str]:
    """A command line as argv; a ``.py`` file runs with this Python."""
    argv = shlex.split(command) if isinstance(command, str) else list(command)
    if not argv:
        raise ConfigError("empty bot command")
    if argv[0].endswith(".py") and not os.access(argv[0], os.X_OK):
        argv = [sys.executable, *argv]
    return argv


class BotProcess:
    """A running bot executable with line-based stdin/stdout."""

    def __init__(
        self, argv: Sequence[str], limits: Limits | None = None, cwd: str | None = None, label: str = "bot"
    ) -> None:
        self.argv = list(argv)
        self.limits = limits or Limits()
        self.cwd = cwd
        self.label = label
        self.proc: asyncio.subprocess.Process | None = None
        self.stderr_tail: deque[str] = deque(maxlen=self.limits.stderr_lines)
        self.lines: asyncio.Queue[str | BaseException] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._watcher: asyncio.Task[None] | None = None
        #: The bot's process tree (recorded while it runs, killed when it closes).
        self.tree: ProcessTree | None = None
        self.returncode: int | None = None
        #: Called once when the bot dies, floods or overflows, so a player can report it at once.
        self.on_failure: Callable[[BaseException], None] | None = None

    def _put_failure(self, error: BaseException) -> None:
        self.lines.put_nowait(error)
        if self.on_failure is not None:
            self.on_failure(error)

    async def start(self) -> None:
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"
        limits = self.limits
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=self.cwd,
                env=env,
                start_new_session=True,
                limit=limits.max_line,
                preexec_fn=lambda: _limit_child(limits),
            )
        except (OSError, ValueError) as exc:
            raise BotCrashed(f"could not start {shlex.join(self.argv)}: {exc}") from None
        self._tasks = [asyncio.create_task(self._read_stdout()), asyncio.create_task(self._read_stderr())]
        self.tree = ProcessTree(self.proc.pid, self.argv, registry_dir())
        if limits.watch_interval > 0:
            self._watcher = asyncio.create_task(self._watch_tree(limits.watch_interval))

    async def _watch_tree(self, interval: float) -> None:
        """Record the bot's descendants now and then, so one that leaves the tree is still known at the end."""
        while self.tree is not None:
            with contextlib.suppress(OSError):
                self.tree.observe()
            await asyncio.sleep(interval)

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    async def _read_stdout(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        try:
            while True:
                try:
                    raw = await self.proc.stdout.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    self._put_failure(ProtocolViolation(f"output line longer than {self.limits.max_line} bytes"))
                    return
                if not raw:
                    code = await self.proc.wait()
                    self.returncode = code
                    self._put_failure(BotCrashed(self._exit_text(code)))
                    return
                if self.lines.qsize() >= self.limits.max_pending_lines:
                    self._put_failure(ProtocolViolation("too many output lines (flooding)"))
                    return
                self.lines.put_nowait(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # pragma: no cover - defensive
            self.lines.put_nowait(BotCrashed(f"reading the bot's output failed: {exc}"))

    async def _read_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        with contextlib.suppress(Exception):
            while True:
                raw = await self.proc.stderr.readline()
                if not raw:
                    return
                self.stderr_tail.append(raw.decode("utf-8", errors="replace").rstrip("\r\n")[:1000])

    def _exit_text(self, code: int) -> str:
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = str(-code)
            text = f"the bot was killed by {name}"
            if name in ("SIGXCPU", "SIGKILL") and self.limits.cpu_seconds is not None:
                text += " (CPU or memory limit?)"
        else:
            text = f"the bot exited with code {code}"
        tail = self.stderr_excerpt(3)
        return f"{text}; stderr: {tail}" if tail else text

    def stderr_excerpt(self, n: int = 20) -> str:
        return " | ".join(list(self.stderr_tail)[-n:])

    async def send(self, line: str) -> None:
        if self.proc is None or self.proc.stdin is None:
            raise BotCrashed("the bot is not running")
        stdin = self.proc.stdin
        try:
            if stdin.is_closing():  # uvloop raises RuntimeError ("the handler is closed") for a write then
                raise BrokenPipeError("the pipe to the bot is closed")
            stdin.write((line + "\n").encode())
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise BotCrashed(await self._gone(exc)) from None
        except RuntimeError as exc:
            if not stdin.is_closing():
                raise
            raise BotCrashed(await self._gone(exc)) from None

    async def _gone(self, exc: BaseException) -> str:
        """Why a write to the bot failed: its exit, when it has exited (an engine that quits at once is seen
        here first, racing the reader that would report it), else the pipe's own error."""
        assert self.proc is not None
        try:
            code = await asyncio.wait_for(self.proc.wait(), 1.0)
        except TimeoutError:
            return f"the bot closed its input: {exc}"
        self.returncode = code
        return self._exit_text(code)

    async def read_line(self, timeout: float | None, skip_blank: bool = True) -> str:
        """The next output line; BotTimeout when none comes in time, BotCrashed if the bot died."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            remaining = None if deadline is None else max(0.0, deadline - loop.time())
            try:
                item = await asyncio.wait_for(self.lines.get(), remaining)
            except TimeoutError:
                raise BotTimeout(f"no answer within {timeout:g} s") from None
            if isinstance(item, BaseException):
                self.lines.put_nowait(item)  # stays the answer to every later read
                raise item
            if skip_blank and not item.strip():
                continue
            return item

    async def say(self, line: str, who: str = "bot") -> None:
        """Send ``line`` once nothing unasked is waiting: a line-per-answer protocol is out of step as soon as the
        bot prints something nobody asked for, and reading on would pair every later answer with the wrong
        question, so that is a ProtocolViolation quoting the first stray line (``who`` names the speaker)."""
        extra = self.unread_lines()
        if extra:
            raise ProtocolViolation(f"the {who} printed unexpected output: {extra[0][:80]!r}")
        await self.send(line)

    def unread_lines(self) -> list[str]:
        """Lines the bot printed that nobody asked for (non-blank), removing them."""
        out = []
        while not self.lines.empty():
            item = self.lines.get_nowait()
            if isinstance(item, BaseException):
                self.lines.put_nowait(item)
                break
            if item.strip():
                out.append(item)
        return out

    async def close(self, grace: float = 1.0) -> int | None:
        """Wait ``grace`` for a clean exit, then SIGTERM, then SIGKILL the process group; always reaps."""
        proc = self.proc
        if proc is None:
            return None
        if self._watcher is not None:
            self._watcher.cancel()
        if self.tree is not None:
            with contextlib.suppress(OSError):
                self.tree.observe()  # before the bot may exit and leave its escapees to init
        if proc.stdin is not None:
            with contextlib.suppress(Exception):
                proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), grace)
        except TimeoutError:
            self._signal_group(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), 1.0)
            except TimeoutError:
                self._signal_group(signal.SIGKILL)
                await proc.wait()
        except asyncio.CancelledError:
            # The caller gave up on the polite exit (the referee's finish timeout, a server shutdown): the group
            # still dies now, and asyncio's child watcher reaps it, instead of outliving the match.
            self._signal_group(signal.SIGKILL)
            self._kill_tree()
            for task in self._tasks:
                task.cancel()
            raise
        self._signal_group(signal.SIGKILL)  # grandchildren left in the group
        self._kill_tree()  # and those that left it (setsid), wherever they are now
        # Let the readers see EOF (the group is dead, so the pipes close) so the transport closes cleanly.
        _, pending = await asyncio.wait(self._tasks, timeout=2.0) if self._tasks else (set(), set())
        for task in pending:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        transport = getattr(proc, "_transport", None)
        if transport is not None:
            transport.close()
        self.returncode = proc.returncode
        return proc.returncode

    def _kill_tree(self) -> None:
        if self.tree is not None:
            try:
                self.tree.kill()
            except OSError as exc:  # pragma: no cover - /proc unreadable
                self.stderr_tail.append(f"[hexarena] could not kill the bot's process tree: {exc}")

    def _signal_group(self, sig: int) -> None:
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, sig)
