"""A distribution made by hand: a ``.dist-info`` folder with ``entry_points.txt`` and the modules it names.

This is all ``importlib.metadata`` reads, so a folder put on ``PYTHONPATH`` is, for hexarena's registries, an
installed plugin: the tests use it for plugins that are broken on purpose (an installable, working plugin is
``examples/nim``, installed for real with pip in ``test_nim_plugin.py``).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def fake_dist(root: Path, name: str, entry_points: dict[str, dict[str, str]], modules: dict[str, str]) -> Path:
    """Write distribution ``name`` (version 0.1) under ``root``: its entry points by group, its modules by file
    name. Returns ``root``, the folder to put on ``PYTHONPATH``."""
    info = root / f"{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    lines = []
    for group, entries in entry_points.items():
        lines.append(f"[{group}]")
        lines += [f"{k} = {v}" for k, v in entries.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    for filename, source in modules.items():
        (root / filename).write_text(source)
    return root


def run_with(path: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` with ``path`` on ``PYTHONPATH`` (hexarena's own source after it), in a fresh process so the
    registries load the entry points as a real start would."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(path), str(SRC)]))
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, env=env)


EXAMPLE_NIM = Path(__file__).resolve().parents[2] / "examples" / "nim"


def install_nim(dest: Path) -> Path:
    """``pip install --no-deps --target DEST/site examples/nim`` from a copy (the build leaves ``build/`` and
    ``*.egg-info`` behind): the plugin installed for real, as its own distribution. Returns the site folder."""
    source = dest / "nim-source"
    shutil.copytree(EXAMPLE_NIM, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    site = dest / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    return site


def shared_nim_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``install_nim`` once for the whole test run, every xdist worker of it: the first caller installs under a
    file lock and the others wait for it, then all put the same site folder on their ``PYTHONPATH`` (the tests
    only read it). The build and install run for real as before, once instead of once per module."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the workers' temporary folders share this run's parent
        root = root.parent
    dest = root / "nim-installed"
    with open(root / "nim-installed.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (dest / "done").exists():
            shutil.rmtree(dest, ignore_errors=True)
            dest.mkdir()
            install_nim(dest)
            (dest / "done").touch()
    return dest / "site"


#: A plugin game with a board of its own: nim (from examples/nim) under another name, its board an ES module among
#: its package's files. The board imports the web UI's helpers by their absolute URL, as a plugin's board must.
BOARD_GAME = """
from typing import ClassVar
from hexarena_nim import NimGame

class NimOnItsBoard(NimGame):
    name: ClassVar[str] = "nimboard"
    title: ClassVar[str] = "Nim on a board of its own"
    board_module: ClassVar[str | None] = "hexarena_nimboard:board.js"

class NimMissingBoard(NimGame):
    name: ClassVar[str] = "nimnoboard"
    title: ClassVar[str] = "Nim whose board file is missing"
    board_module: ClassVar[str | None] = "hexarena_nimboard:missing.js"

GAME = NimOnItsBoard()
MISSING = NimMissingBoard()
"""

BOARD_JS = """
import { h } from "/ui/js/api.js";

// each heap a row of stones: a click on a stone takes it and every stone after it
export function make() {
  const el = h("div.nimboard", { dataset: { pluginBoard: "nimboard" } });
  let io = null;
  let heaps = [];
  function draw() {
    el.replaceChildren(...heaps.map((n, i) => h("div", { role: "group", "aria-label": `heap ${i + 1}` },
      Array.from({ length: n }, (_, k) => h("button.secondary", {
        type: "button", disabled: !io, dataset: { take: `${i + 1}:${n - k}` },
        "aria-label": `take ${n - k} from heap ${i + 1}`, onclick: () => io && io.move(`${i + 1}:${n - k}`),
      }, "o")))));
  }
  return {
    el,
    render(state) { heaps = state.heaps || []; draw(); },
    setTurn(legal, handlers) { io = legal ? handlers : null; draw(); },
  };
}
"""


def board_plugin(root: Path) -> Path:
    """Write the ``nimboard`` plugin (and ``nimnoboard``, whose board file is missing) under ``root``: put it on
    ``PYTHONPATH`` after ``install_nim``'s folder. Returns ``root``."""
    package = root / "hexarena_nimboard"
    package.mkdir(parents=True)
    fake_dist(
        root,
        "hexarena-nimboard",
        {
            "hexarena.games": {"nimboard": "hexarena_nimboard:GAME", "nimnoboard": "hexarena_nimboard:MISSING"},
            "hexarena.bots": {"nimboard": "hexarena_nim.bots"},  # nim's bots play it: the rules are nim's
        },
        {"hexarena_nimboard/__init__.py": BOARD_GAME, "hexarena_nimboard/board.js": BOARD_JS},
    )
    return root


@contextlib.contextmanager
def serve_board_plugins(tmp: Path, nim_site: Path) -> Iterator[str]:
    """``hexarena serve`` with examples/nim installed for real (in ``nim_site``: ``shared_nim_site``) and the
    ``board_plugin`` games; yields its URL."""
    from cli.serving import start_serve, stop

    proc, url = start_serve(tmp, pythonpath=(nim_site, board_plugin(tmp / "boardplugin")))
    try:
        yield url
    finally:
        stop(proc)
