"""Fixtures shared by every test area.

``database_url`` gives each test its own empty database: a SQLite file under ``tmp_path`` always, and a fresh
PostgreSQL database (created while the test before runs, dropped while the next one runs: ``_PostgresDatabases``)
when ``HEXARENA_TEST_DATABASE_URL`` is set, e.g. ``postgresql+asyncpg://postgres@127.0.0.1:5432/test`` (its
database is only used to run CREATE/DROP DATABASE).
Without the variable there is no PostgreSQL variant at all, rather than one skip line per test.

Under pytest-xdist (``-n 2``) each worker gets a Redis database number of its own (``_worker_redis_url``), its own
temporary directories (pytest's ``tmp_path`` already is) and its own data directory; docs/guide/testing.md lists
the rules a new test follows so that it can run next to any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import shutil
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from worker_isolation import REDIS_ENV, worker_redis_url

PG_ENV = "HEXARENA_TEST_DATABASE_URL"
# Set when this module is imported, before any test module reads the variable at its own import.
if os.environ.get(REDIS_ENV):
    os.environ[REDIS_ENV] = worker_redis_url(os.environ[REDIS_ENV], os.environ.get("PYTEST_XDIST_WORKER"))
# Every store a test opens (its servers' and subprocesses' too) keeps a small pool: four workers, each with a few
# stores open at once, stay under PostgreSQL's default max_connections of 100, which pools of 10 (30 in a burst)
# can exceed ("sorry, too many clients already"). A test of the pool's own size sets it itself.
os.environ.setdefault("HEXARENA_DATABASE_POOL_SIZE", "4")

#: Tests between two full collections of what earlier tests left behind (see ``pytest_runtest_protocol``).
#: ``HEXARENA_TEST_COLLECT_EVERY=1`` collects after every test, so a resource a test leaves unclosed (an unclosed
#: connection's ResourceWarning, raised when it is collected) is reported at that test and not up to 100 later.
COLLECT_EVERY = int(os.environ.get("HEXARENA_TEST_COLLECT_EVERY", "100"))
_tests_run = 0


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Each test runs with everything older than it frozen out of the garbage collector, and the old heap is
    collected between tests instead.

    Why: after a thousand tests the pytest process holds millions of objects, and a full collection, which the
    interpreter starts whenever enough survivors have piled up, walked all of them for 0.4-0.7 s at an arbitrary
    moment of an arbitrary test. A CI run lost a Hive match on time that way (a 0.333 s search measured at
    0.735 s by the referee); reproduced with a 3-million-object heap, and gone with it frozen (full collections
    of 5-15 ms). The servers do the same at startup (``hexarena.core.gc_tuning``).
    """
    global _tests_run
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
        _tests_run += 1
        if _tests_run % COLLECT_EVERY == 0:
            gc.collect()


#: set on a test item while pytest reports its failure (``pytest_exception_interact``)
_REPORTING_A_FAILURE = pytest.StashKey[bool]()


@pytest.hookimpl(hookwrapper=True)
def pytest_exception_interact(node: pytest.Item, call: Any, report: Any) -> Iterator[None]:
    node.stash[_REPORTING_A_FAILURE] = True
    try:
        yield
    finally:
        node.stash[_REPORTING_A_FAILURE] = False


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_cancel_timer(item: pytest.Item) -> bool | None:
    """A failed test keeps its pytest-timeout timer through its teardown (unless ``--pdb`` asked for a debugger).

    Why: pytest-timeout stops the timer as soon as a test's failure is reported, for the post-mortem debugger, and
    the teardown that follows then runs without a bound. A failed test can leave a task that never ends (a server's
    loop that was never stopped): pytest-asyncio's teardown waits for every task of the test's event loop, and the
    whole run hung there, not failed. The timer is still stopped with the test's end, as always."""
    if item.stash.get(_REPORTING_A_FAILURE, False) and not item.config.getoption("usepdb"):
        return True  # handled: the timer runs on
    return None


async def _pg_admin(base_url: str, sql: str) -> None:
    import asyncpg
    from sqlalchemy.engine import make_url

    url = make_url(base_url)
    conn = await asyncpg.connect(
        host=url.host or "127.0.0.1",
        port=url.port or 5432,
        user=url.username or "postgres",
        password=url.password,
        database=url.database or "postgres",
    )
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


class _PostgresDatabases:
    """Creates and drops the tests' PostgreSQL databases in a thread of its own, while the tests run.

    Why: ``CREATE DATABASE`` and ``DROP DATABASE`` wait for the server's disk writes, and every test of the
    ``postgresql`` variant waited for both in its setup and teardown. Now the next test's database is created
    while the current test runs, and a finished test's is dropped while the next one runs; each test still gets a
    new, empty database of its own. Each runs on an event loop of its own in that thread, so it cannot disturb the
    test's loop. Drops have a thread of their own: a ``DROP DATABASE`` waits for the server's disk longer than a
    copy of the template does, and a short test's next database must not queue behind the last one's drop.
    Whatever is left (the spare, the last drops) is dropped at the end of the session, where a failed drop is
    reported.
    """

    def __init__(self, base_url: str, *, migrated: bool = False) -> None:
        self.base_url = base_url
        self.migrated = migrated
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="pg-databases")
        self._dropping = ThreadPoolExecutor(1, thread_name_prefix="pg-drops")
        self._spare: Future[str] | None = None
        self._drops: list[Future[None]] = []
        self._template: str | None = None  # (``migrated``) the database each new one is a copy of

    def url(self, name: str) -> str:
        from sqlalchemy.engine import make_url

        url = make_url(self.base_url).set(drivername="postgresql+asyncpg", database=name)
        return url.render_as_string(hide_password=False)

    def _create(self) -> str:
        name = f"hexarena_test_{uuid.uuid4().hex[:16]}"
        if self.migrated and self._template is None:
            template = f"hexarena_template_{uuid.uuid4().hex[:16]}"
            asyncio.run(_pg_admin(self.base_url, f'CREATE DATABASE "{template}"'))
            self._template = template  # (dropped by close, even if migrating it fails)
            asyncio.run(_migrate(self.url(template)))
        template = f' TEMPLATE "{self._template}"' if self.migrated else ""
        asyncio.run(_pg_admin(self.base_url, f'CREATE DATABASE "{name}"{template}'))
        return name

    def _drop(self, name: str) -> None:
        asyncio.run(_pg_admin(self.base_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    def take(self) -> str:
        """A new database's name (and the next one started)."""
        ready = self._spare if self._spare is not None else self._pool.submit(self._create)
        self._spare = self._pool.submit(self._create)
        return ready.result(timeout=120)

    def give_back(self, name: str) -> None:
        """Drop ``name`` (after the test: its connections are ended by force)."""
        self._drops = [d for d in self._drops if not d.done() or d.exception() is not None]
        self._drops.append(self._dropping.submit(self._drop, name))

    def close(self) -> None:
        if self._spare is not None:
            with contextlib.suppress(Exception):
                self.give_back(self._spare.result(timeout=120))
        self._pool.shutdown(wait=True)
        if self._template is not None:  # after its copies: a template being copied cannot be dropped
            self._drops.append(self._dropping.submit(self._drop, self._template))
        self._dropping.shutdown(wait=True)
        for drop in self._drops:
            drop.result()  # raises what a drop raised


async def _migrate(url: str) -> None:
    """Bring the database at ``url`` to the newest migration, as ``Store.open`` does."""
    from hexarena.store import Store

    store = await Store.open(url)
    await store.close()


@pytest.fixture(scope="session")
def _postgres_databases() -> Iterator[Callable[[bool], _PostgresDatabases]]:
    """The session's :class:`_PostgresDatabases` (``get(migrated)``: empty ones, or copies of a migrated one), each
    started by the first test that asks for it."""
    started: dict[bool, _PostgresDatabases] = {}

    def get(migrated: bool) -> _PostgresDatabases:
        if migrated not in started:
            started[migrated] = _PostgresDatabases(os.environ[PG_ENV], migrated=migrated)
        return started[migrated]

    yield get
    for databases in started.values():
        databases.close()


def _fresh_postgres(databases: _PostgresDatabases) -> Iterator[str]:
    name = databases.take()
    try:
        yield databases.url(name)
    finally:
        databases.give_back(name)


_BACKENDS = [pytest.param("sqlite", id="sqlite")]
if os.environ.get(PG_ENV):
    _BACKENDS.append(pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres))


@pytest.fixture(params=_BACKENDS)
def database_url(
    request: pytest.FixtureRequest,
    tmp_path: os.PathLike[str],
    _postgres_databases: Callable[[bool], _PostgresDatabases],
) -> Iterator[str]:
    """The URL of a fresh, empty database for this test (see the module docstring)."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{os.fspath(tmp_path)}/hexarena.sqlite3"
    else:
        yield from _fresh_postgres(_postgres_databases(False))


@pytest.fixture(scope="session")
def _sqlite_migrated(tmp_path_factory: pytest.TempPathFactory) -> Callable[[], Path]:
    """``get()``: a SQLite file at the newest migration, made by the first test that asks (once per worker)."""
    made: list[Path] = []

    def get() -> Path:
        if not made:
            path = tmp_path_factory.mktemp("migrated") / "hexarena.sqlite3"
            with ThreadPoolExecutor(1) as pool:  # a loop of its own: the asking test's may be running
                pool.submit(asyncio.run, _migrate(f"sqlite+aiosqlite:///{path}")).result(timeout=120)
            made.append(path)
        return made[0]

    return get


@pytest.fixture(params=_BACKENDS)
def migrated_database_url(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    _postgres_databases: Callable[[bool], _PostgresDatabases],
    _sqlite_migrated: Callable[[], Path],
) -> Iterator[str]:
    """The URL of a fresh database of this test's own whose schema is at the newest migration, as ``Store.open``
    leaves an empty one (the ``postgres`` variant too, as in ``database_url``).

    Why: migrating a new database is most of a store test's setup, on PostgreSQL above all. So the schema is migrated
    once per worker, and each test gets a copy (``CREATE DATABASE ... TEMPLATE``, a copy of the SQLite file); a
    test of the migrations themselves takes ``database_url``.
    """
    if request.param == "sqlite":
        yield _migrated_sqlite_copy(tmp_path, _sqlite_migrated)
    else:
        yield from _fresh_postgres(_postgres_databases(True))


@pytest.fixture
def migrated_sqlite_url(tmp_path: Path, _sqlite_migrated: Callable[[], Path]) -> str:
    """``migrated_database_url``'s SQLite variant alone (no parameter, so the test's id stays as it is): for a test
    that runs on SQLite only and does not test the migrations."""
    return _migrated_sqlite_copy(tmp_path, _sqlite_migrated)


def _migrated_sqlite_copy(tmp_path: Path, migrated: Callable[[], Path]) -> str:
    path = tmp_path / "hexarena.sqlite3"
    shutil.copyfile(migrated(), path)
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture(autouse=True, scope="session")
def _data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep what code under test writes to the data directory (e.g. records of running bot processes) out of the
    checkout; subprocesses started by tests inherit it."""
    old = os.environ.get("HEXARENA_DATA_DIR")
    os.environ["HEXARENA_DATA_DIR"] = os.fspath(tmp_path_factory.mktemp("data"))
    yield
    if old is None:
        os.environ.pop("HEXARENA_DATA_DIR", None)
    else:
        os.environ["HEXARENA_DATA_DIR"] = old


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """(pytest-xdist, in the controller) Tell each worker the terminal width variables the run was started with,
    and whether the run distributes by group."""
    node.workerinput["hexarena_environ"] = {name: os.environ.get(name) for name in _TERMINAL_VARIABLES}
    node.workerinput["hexarena_loadgroup"] = node.config.option.dist == "loadgroup"


#: pytest-xdist's workers start with ``COLUMNS=80`` set: rich then folds the wide tables the command line prints
#: (piped, it prints them whole: ``hexarena.terminal``), which tests read back. A worker gets the controller's.
_TERMINAL_VARIABLES = ("COLUMNS", "LINES")


def pytest_configure(config: pytest.Config) -> None:
    workerinput = getattr(config, "workerinput", {})
    if workerinput.get("hexarena_loadgroup"):  # a worker reads --dist from the command line: ``pytest_cmdline_main``
        # ``loadgroup`` is the flag pytest-xdist's own ``pytest_cmdline_main`` sets from ``--dist``, not a documented
        # option. Should a release drop it, a plain ``-n`` run ignores the groups again (as xdist's ``load`` does);
        # ``make test`` passes ``--dist loadgroup`` itself and never depends on this.
        config.option.loadgroup = True
    started_with = workerinput.get("hexarena_environ")
    if started_with is None:
        return
    for name, value in started_with.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


#: The browser tests (``tests/ui``): each module is an xdist group of its own (``_browser_group``).
UI_TESTS = Path(__file__).resolve().parent / "ui"

#: The xdist group of every ``fault`` test (``--dist loadgroup``): they run one at a time, in one worker.
FAULT_GROUP = "fault"


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """``-n N`` without ``--dist`` means ``--dist loadgroup`` (as ``make test`` runs), not pytest-xdist's ``load``,
    which ignores the groups: the fault tests would run side by side, and every worker would start a chromium for
    each browser module. (Before pytest-xdist's own hook, which reads ``--dist``; a ``--dist`` given is kept.)"""
    option = config.option
    grouped = getattr(option, "dist", None) == "no" and not getattr(option, "distload", False)
    if getattr(option, "numprocesses", None) and grouped:
        option.dist = "loadgroup"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The fault tests stop and restart servers and time how the rest recovers: two of them at once on a 2-core
    machine make each other's recoveries late. So they share one xdist group (one worker, one after another),
    next to the ordinary tests of the other workers. Each browser test module is a group too: its chromium starts
    in one worker only. (First, before pytest-xdist reads the groups.)

    In an xdist worker the ``slow`` tests also move to the front: the controller hands out work in the order the
    workers collected it (``--dist loadgroup``: the groups first, largest first, then the single tests), so a long
    test collected late would start last and end the run alone while the other workers sit idle. (Only there: a
    serial run keeps each module's tests together, its module fixtures made once.)"""
    if not config.pluginmanager.hasplugin("xdist"):
        return  # pytest-xdist is not installed: no groups to give
    for item in items:
        if item.get_closest_marker("fault") is not None:
            item.add_marker(pytest.mark.xdist_group(FAULT_GROUP))
        elif item.get_closest_marker("xdist_group") is None and _is_browser_test(item):
            item.add_marker(pytest.mark.xdist_group(_browser_group(item)))
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: the rest keep their order


def _is_browser_test(item: pytest.Item) -> bool:
    return UI_TESTS in item.path.resolve().parents


def _browser_group(item: pytest.Item) -> str:
    """A browser test module is a group of its own: its chromium, Playwright driver and module servers start in one
    worker, not in each worker that got one of its tests."""
    return "ui/" + item.path.stem
