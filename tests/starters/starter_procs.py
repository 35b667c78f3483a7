"""Running the starter bots (starters/<language>/) as real processes, and skipping only when a toolchain is missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from fakes.procs import start_serving, stop_process
from hexarena.newbot import STARTERS

#: Seconds a starter may take to build and answer: a cold C++ build under heavy CPU load takes minutes.
READY_TIMEOUT = 600.0

#: What each language needs, and what to install when it is missing (starters/install-toolchains does it all).
TOOLCHAINS: dict[str, tuple[list[str], list[str], str]] = {
    # language: (commands, files, what to install)
    "node": (["node", "npm"], [], "apt-get install nodejs npm (node >= 18), or run starters/install-toolchains"),
    "go": (
        ["go"],
        ["/usr/share/gocode/src/github.com/gorilla/websocket/conn.go"],
        "apt-get install golang-go golang-github-gorilla-websocket-dev, or run starters/install-toolchains",
    ),
    "cpp": (
        ["g++"],
        ["/usr/include/websocketpp/server.hpp", "/usr/include/nlohmann/json.hpp", "/usr/include/boost/asio.hpp"],
        "apt-get install g++ libwebsocketpp-dev libboost-dev nlohmann-json3-dev, or run starters/install-toolchains",
    ),
}
BWS_LANGUAGES = sorted(TOOLCHAINS)


def need_toolchain(language: str) -> None:
    """Skip the test, naming what to install, when ``language``'s toolchain is missing; nothing else skips."""
    commands, files, install = TOOLCHAINS[language]
    missing = [c for c in commands if shutil.which(c) is None] + [f for f in files if not Path(f).is_file()]
    if language == "node" and (STARTERS / "node" / "node_modules" / "ws").is_dir():
        missing = [m for m in missing if m != "npm"]  # `ws` is installed already: npm is not needed
    if missing:
        pytest.skip(f"the {language} toolchain is missing ({', '.join(missing)}): {install}")


class StarterServer:
    """``<folder>/serve PORT`` in its own process group (a build's compiler is stopped with it)."""

    def __init__(self, folder: Path, log: Path) -> None:
        self.log = log
        self.proc, self.port = start_serving(
            lambda port: [str(folder / "serve"), str(port)],
            log,
            READY_TIMEOUT,  # a cold build comes first
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            env={**os.environ, "HOST": "127.0.0.1"},
        )
        self.url = f"http://127.0.0.1:{self.port}"

    def wait_ready(self) -> dict[str, object]:
        """Poll ``/capabilities.json`` until it answers; returns the document. Fails if the process exits."""
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"{self.proc.args} exited with {self.proc.returncode}:\n{self.log.read_text()[-3000:]}")
            try:
                r = httpx.get(f"{self.url}/capabilities.json", timeout=5.0)
                if r.status_code == 200:
                    doc: dict[str, object] = r.json()
                    return doc
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        pytest.fail(f"{self.proc.args} did not answer within {READY_TIMEOUT:g} s:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        stop_process(self.proc, 30, group=True)
