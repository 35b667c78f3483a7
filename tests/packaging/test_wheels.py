"""The two distributions as a user gets them: ``python -m build`` makes an sdist and a wheel of each (the wheel
from the sdist, so a file missing from the sdist fails here), installed into clean venvs.

- the arena server's wheels: two ``hexarena bot serve`` bot servers play an HTTTX match (``hexarena play``);
- the SDK's wheel alone: none of the server's dependencies come with it, and the README's bot, built without a C
  compiler (the pure-Python board), plays a match.

The dependencies come from pip's configured index, fetched once into a wheelhouse both venvs install from; the two
distributions only from the wheels built here.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import tarfile
import time
import tomllib
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from fakes.procs import serving

#: the builds and venvs are module fixtures, made once by each worker that runs a test of the module: one worker
#: runs them all, so each is made once a run
pytestmark = [pytest.mark.slow, pytest.mark.packaging, pytest.mark.xdist_group("packaging")]

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "sdk"
#: what a bot author must not get with the SDK: the server's web framework, database and cluster layers
SERVER_ONLY = {"fastapi", "sqlalchemy", "alembic", "asyncpg", "redis", "strawberry-graphql"}
BUILD_TIMEOUT = 600
INSTALL_TIMEOUT = 900
MATCH_TIMEOUT = 300


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without anything that would import the checkout instead of the installed wheels."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HEXARENA_PURE_PYTHON", "VIRTUAL_ENV")}
    return env | extra


def run(cmd: list[str], cwd: Path, timeout: float, **env: str) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=clean_env(**env), capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{cmd} exited with {proc.returncode}:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return proc.stdout


def one(folder: Path, pattern: str) -> Path:
    found = sorted(folder.glob(pattern))
    assert len(found) == 1, f"{pattern} in {folder}: {[p.name for p in folder.iterdir()]}"
    return found[0]


def pip(bin_dir: Path) -> list[str]:
    """This checkout's pip, installing into (or listing) the venv of ``bin_dir``: the venvs are made without a pip of
    their own, since bootstrapping one (``ensurepip``) costs each venv seconds of CPU and installs nothing a test
    uses. What gets installed is the same: pip resolves against the venv's interpreter and site-packages."""
    return [sys.executable, "-m", "pip", "--python", str(bin_dir / "python")]


def make_venv(where: Path, *requirements: str | Path, wheelhouse: Path | None = None) -> Path:
    """A venv of its own holding ``requirements`` and their dependencies; returns its ``bin`` folder. With
    ``wheelhouse``, pip finds everything there and asks no index (``--no-index``): it still resolves each wheel's
    dependencies from its metadata, so a dependency the wheel does not declare is missing from the venv as before.

    ``--no-compile``: pip would otherwise byte-compile every module of every dependency, most of an install's CPU,
    and no test here reads the compiled files (Python compiles what a test imports, as it imports it)."""
    run([sys.executable, "-m", "venv", "--without-pip", str(where)], cwd=where.parent, timeout=INSTALL_TIMEOUT)
    bin_dir = where / "bin"
    local = ["--no-index", "--find-links", str(wheelhouse)] if wheelhouse else []
    cmd = [*pip(bin_dir), "install", "-q", "--no-compile", *local, *map(str, requirements)]
    run(cmd, cwd=where.parent, timeout=INSTALL_TIMEOUT)
    return bin_dir


def build(build_bin: Path, source: Path, outdir: Path, *args: str, **env: str) -> None:
    """``python -m build`` in the build venv: ``--no-isolation`` builds with what that venv holds, and build first
    checks that it holds every requirement the project declares (``build-system.requires`` and the backend's own),
    refusing the build otherwise."""
    cmd = [str(build_bin / "python"), "-m", "build", "--no-isolation", *args, "--outdir", str(outdir), str(source)]
    run(cmd, cwd=outdir.parent, timeout=BUILD_TIMEOUT, **env)


def installed(bin_dir: Path, cwd: Path) -> set[str]:
    out = run([*pip(bin_dir), "list", "--format=json"], cwd=cwd, timeout=120)
    return {re.sub(r"[-_.]+", "-", d["name"]).lower() for d in json.loads(out)}


@contextlib.contextmanager
def bot_server(cmd: list[str], cwd: Path, log: Path) -> Iterator[str]:
    """The bot server ``cmd`` followed by a port, its URL once its capabilities.json answers; stopped on exit."""
    with serving(lambda port: [*cmd, str(port)], log, cwd=cwd, env=clean_env()) as port:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), urllib.request.urlopen(f"{url}/capabilities.json", timeout=5) as r:
                if r.status == 200:
                    break
            assert time.monotonic() < deadline, f"{cmd} did not answer within 60 s:\n{log.read_text()}"
            time.sleep(0.2)
        yield url


def play(bin_dir: Path, cwd: Path, x: str, o: str) -> str:
    cmd = [str(bin_dir / "hexarena"), "play", "htttx", "--x", x, "--o", o, "--quiet"]
    return run(cmd, cwd=cwd, timeout=MATCH_TIMEOUT)


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("packaging")


def build_requires(project: Path) -> list[str]:
    return sorted(tomllib.loads((project / "pyproject.toml").read_text())["build-system"]["requires"])


@pytest.fixture(scope="module")
def build_bin(work: Path) -> Path:
    """The venv every build here runs in: the build frontend and the ``build-system.requires`` of the projects,
    nothing else, so a module ``setup.py`` imports that no requirement brings fails the build as in the isolated
    environment a user's pip or build makes. One venv for all the builds instead of one a build (``python -m build``
    makes two a project, the sdist's and the wheel's): each would install setuptools anew, from the index."""
    requires = build_requires(SDK)
    assert build_requires(ROOT) == requires, "the two projects build with different requirements: one venv each"
    return make_venv(work / "build-venv", "build", *requires)


@pytest.fixture(scope="module")
def dist(work: Path, build_bin: Path) -> Path:
    """``python -m build`` of each distribution: an sdist, and a wheel built from it."""
    out = work / "dist"
    out.mkdir()
    for project in (SDK, ROOT):
        build(build_bin, project, out)
    return out


@pytest.fixture(scope="module")
def wheelhouse(work: Path, dist: Path) -> Path:
    """The two wheels and every dependency of the server's, from pip's configured index: resolved from the index
    once, for both venvs (the SDK's dependencies are a part of the server's)."""
    house = work / "wheelhouse"
    wheels = [one(dist, "hexarena_sdk-*.whl"), one(dist, "hexarena-*.whl")]
    download = [sys.executable, "-m", "pip", "download", "-q", "-d", str(house), *map(str, wheels)]
    try:
        run(download, cwd=work, timeout=INSTALL_TIMEOUT)
    except AssertionError:  # a download cut short fails once (pip does not retry a wheel whose hash differs)
        run(download, cwd=work, timeout=INSTALL_TIMEOUT)
    return house


@pytest.fixture(scope="module")
def server_venv(work: Path, dist: Path, wheelhouse: Path) -> Path:
    wheels = (one(dist, "hexarena_sdk-*.whl"), one(dist, "hexarena-*.whl"))
    return make_venv(work / "server-venv", *wheels, wheelhouse=wheelhouse)


def test_each_distribution_has_an_sdist_and_a_wheel(dist: Path) -> None:
    sdk_wheel, server_wheel = one(dist, "hexarena_sdk-*.whl"), one(dist, "hexarena-*.whl")
    one(dist, "hexarena_sdk-*.tar.gz")
    one(dist, "hexarena-*.tar.gz")
    with zipfile.ZipFile(sdk_wheel) as z:
        sdk_files = z.namelist()
        sdk_meta = z.read(one_name(sdk_files, r"\.dist-info/METADATA$")).decode()
    with zipfile.ZipFile(server_wheel) as z:
        server_files = z.namelist()
        server_meta = z.read(one_name(server_files, r"\.dist-info/METADATA$")).decode()
    # the board's C accelerator goes with the board, in the SDK; one copy of each module
    assert any(re.fullmatch(r"hexarena_sdk/htttx/_cboard\..*\.so", f) for f in sdk_files), sdk_files
    assert "hexarena_sdk/htttx/board.py" in sdk_files and "hexarena_sdk/server.py" in sdk_files
    assert not any(f.startswith("hexarena_sdk/") for f in server_files)
    assert not any("_cboard" in f for f in server_files)
    assert re.search(r"^Requires-Dist: hexarena-sdk", server_meta, re.M), server_meta
    sdk_requires = {m.lower() for m in re.findall(r"^Requires-Dist: ([A-Za-z0-9_.-]+)", sdk_meta, re.M)}
    assert sdk_requires and not sdk_requires & SERVER_ONLY, sdk_requires


def one_name(names: list[str], pattern: str) -> str:
    found = [n for n in names if re.search(pattern, n)]
    assert len(found) == 1, found
    return found[0]


def test_the_installed_server_plays_a_match_between_two_bot_servers(work: Path, server_venv: Path) -> None:
    code = "from hexarena.games.htttx import accel; print(accel.IMPLEMENTATION)"
    assert run([str(server_venv / "python"), "-c", code], cwd=work, timeout=60).strip() == "C"
    # the random bot against the heuristic one: a match of a few moves (two heuristic bots play one of hundreds)
    serve = [str(server_venv / "hexarena"), "bot", "serve"]
    with (
        bot_server([*serve, "--bot", "heuristic", "--port"], work, work / "bot1.log") as x,
        bot_server([*serve, "--bot", "random", "--port"], work, work / "bot2.log") as o,
    ):
        out = play(server_venv, work, x, o)
    assert re.search(r"wins after|\bdraw", out, re.I), out


def test_the_sdk_alone_brings_no_server_and_its_readme_bot_plays_without_a_compiler(
    work: Path, dist: Path, build_bin: Path, wheelhouse: Path, server_venv: Path
) -> None:
    # a wheel built from the SDK's sdist where no C compiler runs: the board falls back on pure Python
    with tarfile.open(one(dist, "hexarena_sdk-*.tar.gz")) as sdist:
        sdist.extractall(work / "sdk-sdist", filter="data")
    nocc = work / "dist-nocc"
    nocc.mkdir()
    build(build_bin, one(work / "sdk-sdist", "hexarena_sdk-*"), nocc, "--wheel", CC="false", LDSHARED="false")
    wheel = one(nocc, "hexarena_sdk-*.whl")
    with zipfile.ZipFile(wheel) as z:
        assert not any("_cboard" in f and not f.endswith(".c") for f in z.namelist()), z.namelist()
    sdk_venv = make_venv(work / "sdk-venv", wheel, wheelhouse=wheelhouse)
    names = installed(sdk_venv, work)
    assert "hexarena-sdk" in names and "hexarena" not in names, names
    assert not names & SERVER_ONLY, names & SERVER_ONLY
    code = "from hexarena_sdk.htttx import accel; print(accel.IMPLEMENTATION)"
    assert run([str(sdk_venv / "python"), "-c", code], cwd=work, timeout=60).strip() == "Python"

    readme = (SDK / "README.md").read_text()
    found = re.search(r"## A bot in 20 lines\n\n```python\n(.*?)```", readme, re.S)
    assert found, "sdk/README.md has no bot"
    bot_code = found.group(1)
    assert len(bot_code.strip().splitlines()) <= 20
    bot_file = work / "crowd_bot.py"
    bot_file.write_text(bot_code)
    with bot_server([str(sdk_venv / "python"), str(bot_file)], work, work / "readme-bot.log") as url:
        out = play(server_venv, work, url, "builtin:heuristic")
    assert re.search(r"wins after|\bdraw", out, re.I), out
