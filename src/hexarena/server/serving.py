"""How ``hexarena serve`` runs uvicorn: a deadline for request headers, and a shutdown that always ends.

**Header deadline.** uvicorn has no header-read timeout: ``timeout_keep_alive`` is armed only after a response and
is cancelled by every byte received, so a client that trickles a request line one byte at a time (slowloris) holds
its connection, and a few hundred of them hold the server's sockets, for as long as it likes. ASGI middleware cannot
help, since it runs only once the headers are complete. So the HTTP protocol class is wrapped
(``HeaderDeadline``): a timer armed when a connection opens and again when a response completes, disarmed as soon
as the next request's headers are parsed (a new request cycle exists) or the connection became a WebSocket; when it
fires the connection is closed. Requests being served, streaming responses and WebSockets are never affected.

**Shutdown.** On SIGINT uvicorn stops accepting, waits for open connections (forever, by default: a spectator's
event stream never ends), runs the app's shutdown (live matches are cancelled) and then ``asyncio.run`` joins the
worker threads, where a built-in bot may still be searching. ``ArenaServer`` bounds the first with
``timeout_graceful_shutdown``, asks every built-in search to stop (``bots.stopping.stop_all``) so the threads end,
and, as a last resort for anything that still refuses, ends the process ``force_exit_after`` seconds after the
shutdown began, saying what was still running.
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import logging
import os
import threading
from typing import Any, Literal

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from hexarena.bots.stopping import stop_all
from hexarena.server.log_format import uvicorn_log_config
from hexarena.server.sockets import WS_MAX_SIZE
from hexarena.server.ws_deflate import ws_protocol

log = logging.getLogger(__name__)

#: Seconds a client has to send a request's headers (from connecting, or from the previous response).
HEADER_TIMEOUT = 10.0
#: Seconds open connections get to finish once shutdown begins (then their tasks are cancelled).
GRACEFUL_SHUTDOWN = 2
#: Seconds each shutdown step that waits on the database or Redis may wait, each time: the live matches (the moves
#: of those handed over, their leases), the recorder (queued writes, games being created), the cluster (queued
#: events, the homes). What the database has not taken by then is journaled and written at the next start.
RECORDER_CLOSE_TIMEOUT = 0.75
#: Seconds the last step, closing the database's connections, may wait for the database to acknowledge them.
#: Longer than the others: the recorder has journaled what the database did not take by then, so waiting loses
#: nothing, while a close left unfinished leaves connections open, and a healthy but loaded database can be slow
#: to acknowledge.
DATABASE_CLOSE_TIMEOUT = 2.0
#: Seconds after shutdown began when the process ends whatever still runs (``hexarena serve`` only). The
#: connections' grace and the bounded steps above come to about 6 s with a database that hangs (what
#: ``tests/server/test_shutdown_degraded.py`` stops the server under); the rest is for a loaded machine, where
#: those steps take longer than their waits, so that a database that hangs never turns a stop into a forced exit.
#: Under Docker's default stop grace (10 s), so the process ends by itself before it is killed.
FORCE_EXIT_AFTER = 8.0
#: Exit status of a forced exit.
FORCED_EXIT_STATUS = 70


class HeaderDeadline(asyncio.Protocol):
    """Mixed in before a uvicorn HTTP protocol: closes a connection whose request headers take longer than
    ``header_timeout`` seconds (see the module docstring)."""

    header_timeout: float = HEADER_TIMEOUT
    _header_timer: asyncio.TimerHandle | None = None
    _armed_cycle: Any = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._header_timer is not None and (self._cycle() is not self._armed_cycle or self._upgraded()):
            self._disarm()  # the headers are in (a request cycle began) or the connection is a WebSocket now

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        cycle = self._cycle()
        if not self._transport().is_closing() and (cycle is None or cycle.response_complete):
            self._arm()  # the next request's headers are due within the deadline too

    def _cycle(self) -> Any:
        return getattr(self, "cycle", None)

    def _transport(self) -> asyncio.Transport:
        transport: asyncio.Transport = getattr(self, "transport")  # noqa: B009 - set by the uvicorn protocol
        return transport

    def _upgraded(self) -> bool:
        return self._transport().get_protocol() is not self

    def _arm(self) -> None:
        self._disarm()
        self._armed_cycle = self._cycle()
        self._header_timer = asyncio.get_running_loop().call_later(self.header_timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        transport = self._transport()
        if self._cycle() is self._armed_cycle and not self._upgraded() and not transport.is_closing():
            log.info("closing a connection that sent no complete request headers in %g s", self.header_timeout)
            transport.close()


class H11WithHeaderDeadline(HeaderDeadline, H11Protocol):
    """uvicorn's h11 protocol with the header deadline."""


def http_protocol(header_timeout: float = HEADER_TIMEOUT, implementation: str = "auto") -> type[asyncio.Protocol]:
    """The HTTP protocol class for uvicorn's ``http=``: httptools when installed (uvicorn's own choice for
    ``auto``), else h11, with a ``header_timeout`` deadline."""
    base: type[HeaderDeadline] = H11WithHeaderDeadline
    if implementation in ("auto", "httptools"):
        try:
            from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
        except ImportError:  # pragma: no cover - httptools is part of uvicorn[standard]
            if implementation == "httptools":
                raise
        else:

            class HttpToolsWithHeaderDeadline(HeaderDeadline, HttpToolsProtocol):
                """uvicorn's httptools protocol with the header deadline."""

            base = HttpToolsWithHeaderDeadline
    return type(f"{base.__name__}{header_timeout:g}s", (base,), {"header_timeout": header_timeout})


def server_config(
    app: Any,
    host: str,
    port: int,
    *,
    log_level: str = "info",
    header_timeout: float = HEADER_TIMEOUT,
    lifespan: Literal["auto", "on", "off"] = "auto",
    ws_max_size: int = WS_MAX_SIZE,
) -> uvicorn.Config:
    """uvicorn's configuration for every port ``hexarena serve`` listens on."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        log_config=uvicorn_log_config(),  # ``--log-format``: text, or JSON lines (server.log_format)
        lifespan=lifespan,
        ws_max_size=ws_max_size,
        http=http_protocol(header_timeout),
        ws=ws_protocol(),  # spectators' big boards compressed at zlib level 1 (see ws_deflate)
        timeout_keep_alive=5,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN,
    )


class ArenaServer(uvicorn.Server):
    """A uvicorn server whose shutdown stops every built-in search, and with ``force_exit_after``, always ends."""

    def __init__(self, config: uvicorn.Config, force_exit_after: float | None = None) -> None:
        super().__init__(config)
        self.force_exit_after = force_exit_after

    async def shutdown(self, sockets: list[Any] | None = None) -> None:
        if self.force_exit_after is not None:
            _start_watchdog(self.force_exit_after)
        stop_all()
        try:
            await super().shutdown(sockets)
        finally:
            stop_all()  # searches the app's shutdown left behind: asyncio.run joins their threads next


def _start_watchdog(seconds: float) -> None:
    def force_exit() -> None:
        busy = [t.name for t in threading.enumerate() if t is not threading.current_thread() and not t.daemon]
        message = f"forcing exit: still busy {seconds:g} s after shutdown began (threads: {', '.join(busy)})"
        log.error(message)
        print(message, flush=True)
        # where each thread is, the event loop's included: what held the shutdown up, for whoever reads the log
        with contextlib.suppress(Exception):
            faulthandler.dump_traceback(all_threads=True)
        os._exit(FORCED_EXIT_STATUS)

    timer = threading.Timer(seconds, force_exit)
    timer.daemon = True
    timer.name = "hexarena-shutdown-watchdog"
    timer.start()
