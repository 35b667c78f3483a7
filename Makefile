# hexarena: `make serve` runs the server, `make test` runs every test (and the import layers: lint-imports). Both set up .venv by themselves.
PYTHON ?= python3
# Every Python these targets start may keep its compiled modules (__pycache__, ignored by git): with
# PYTHONDONTWRITEBYTECODE set, as container images often set it, each test worker's collection and each server
# or CLI a test starts compiled the sources again, and the test-lowest venv, installed without compiling, its
# dependencies too (bench/bytecode_cost.py prints what it costs).
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
# `make serve` installs the runtime only, plus the extras asked for (EXTRAS=postgres,cluster: the PostgreSQL and
# Redis drivers); `make test` everything the tests need. Each has its own stamp, so either may come first.
EXTRAS ?=
comma := ,
SERVE_STAMP := $(VENV)/.installed-serve$(if $(EXTRAS),-$(subst $(comma),-,$(EXTRAS)))
TEST_STAMP := $(VENV)/.installed-test
STAMP := $(TEST_STAMP)
HOST ?= 127.0.0.1
PORT ?= 8000
# `make test-lowest`: the lowest releases pyproject.toml allows (constraints/lowest.txt), in a venv of its own
LOWEST_VENV := .venv-lowest
# pytest-xdist: two workers a core (a test spends much of its time waiting on a browser, a database or a subprocess,
# so one a core leaves the CPUs idle much of the run), at most 4 (each takes a Redis database of its own: tests/conftest.py);
# `make test JOBS=1` runs serially. The fault tests (servers stopped, killed and timed while they recover) run one
# at a time, beside the suite, with `make test-lowest` (its venv's install, then the protocol and store tests) and
# the static checks (test-static); docs/guide/testing.md says what a test must do to run next to the others.
JOBS ?= $(shell n=$$(( 2 * $$(nproc 2>/dev/null || echo 1) )); [ $$n -gt 4 ] && n=4; echo $$n)
XDIST := $(if $(filter-out 0 1,$(JOBS)),-n $(JOBS) --dist loadgroup)
SIDE_JOBS := $(if $(filter-out 0 1,$(JOBS)),-j3,-j1)
LOWEST_TESTS := tests/players/test_bws.py tests/players/test_bws_frames.py tests/bots/sdk tests/store tests/test_private_internals_fallback.py \
  tests/server/test_cluster_lease.py tests/server/test_cluster_stall.py

.PHONY: serve test test-checks test-lint test-static test-suite test-lowest check faults docs lint bench bench-page setup clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

# the test install holds every extra: serving needs nothing more then
# The bot SDK is a distribution of its own (sdk/, hexarena-sdk) the server depends on: each install takes both.
$(SERVE_STAMP): pyproject.toml sdk/pyproject.toml $(C_SOURCES) | $(VENV)/bin/python
	@if [ $(TEST_STAMP) -nt pyproject.toml ] && [ $(TEST_STAMP) -nt sdk/pyproject.toml ]; then echo "test install present: it has every extra"; \
	else $(TWICE) $(BIN)/python -m pip install -q -e ./sdk -e '.$(if $(EXTRAS),[$(EXTRAS)])'; fi
	@touch $@

# the C accelerators are built in place by the editable install: a changed source reinstalls, never a stale module
C_SOURCES := setup.py $(wildcard src/hexarena/*/*/_c*.c)

# $(call UV_BOOTSTRAP,VENV) installs uv (a bounded release) into VENV with the pip the venv came with;
# $(call UV_INSTALL,VENV,WHAT) is its `uv pip install WHAT` into VENV, saying what to do when uv fails. uv
# byte-compiles nothing: Python compiles what is imported as it is imported.
# $(TWICE) CMD runs CMD again once if it fails (tools/twice.sh says why).
TWICE := bash tools/twice.sh
UV_RELEASES := uv>=0.8,<1
UV_BOOTSTRAP = $(TWICE) $(1)/bin/python -m pip install -q '$(UV_RELEASES)'
UV_INSTALL = $(TWICE) $(1)/bin/uv pip install -q --python $(1)/bin/python $(2) || { echo "uv could not install into $(1) (above: why). uv reads no pip.conf: behind a private index, set UV_INDEX_URL to it as well, then run make again." >&2; exit 1; }

# The test installs go through uv's pip interface, bootstrapped into each venv by pip (UV_BOOTSTRAP): it resolves,
# builds and installs them in a small part of pip's time (docs/guide/testing.md has the figures).
$(TEST_STAMP): pyproject.toml sdk/pyproject.toml $(C_SOURCES) | $(VENV)/bin/python
	@# pip upgraded too: the packaging tests install wheels with this venv's pip, as a user would
	$(call UV_BOOTSTRAP,$(VENV)) --upgrade pip
	$(call UV_INSTALL,$(VENV),-e ./sdk -e '.[test$(comma)postgres$(comma)cluster]')
	@touch $@

setup: $(TEST_STAMP)

serve: $(SERVE_STAMP)
	$(BIN)/hexarena serve --host $(HOST) --port $(PORT)

# everything CI runs: ruff (a broken tree fails in seconds), then the suite, with the static checks, the fault
# tests and `make test-lowest` beside it from the start (tools/beside.sh says why; their output comes once the
# suite has ended)
# (through SUBMAKE: make runs a recipe line that names $(MAKE) itself even under -n, and `make -n test` must only
# print what it would run)
SUBMAKE = $(MAKE)
test: $(TEST_STAMP)
	@bash tools/beside.sh build/beside.log \
		"$(SUBMAKE) --no-print-directory $(SIDE_JOBS) --output-sync=target test-static faults test-lowest" \
		"$(SUBMAKE) --no-print-directory test-lint" "$(SUBMAKE) --no-print-directory test-suite"

# lint, types, import layers and the docs build, as `make test` runs them
test-checks: test-lint test-static

test-lint: $(STAMP)
	$(BIN)/ruff check src sdk tests bench examples tools

# types, import layers and the docs build: mostly one core for most of a minute, so beside the suite
test-static: $(STAMP)
	$(BIN)/mypy
	$(BIN)/mypy examples/nim/hexarena_nim  # the plugin example, checked against the Game protocol
	$(BIN)/lint-imports --no-logo
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# the suite without the fault tests, on pytest-xdist
test-suite: $(STAMP)
	$(BIN)/python -m pytest -q $(XDIST) -m "not fault" $(PYTEST_ARGS)

# The inner loop: lint, types and the tests that need no browser, cluster or long games (a couple of minutes).
check: $(STAMP)
	$(BIN)/ruff check src sdk tests bench examples tools
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo
	$(BIN)/python -m pytest -q -x $(XDIST) -m "not slow" tests/games tests/referee tests/tournament tests/test_*.py $(PYTEST_ARGS)

# The fault suite alone: PostgreSQL stopped, Redis restarted empty, kill -9 of an instance or a runner, a bot server
# crash, a poisoned journal (each asserts no healthy match ends and no result is lost). `make test` runs it too.
faults: $(STAMP)
	$(BIN)/python -m pytest -q -m fault $(PYTEST_ARGS)

# The docs site (mkdocs-material) into build/site; `$(BIN)/mkdocs serve` previews it while you write.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# (its own stamp name: a venv installed before pytest-timeout was in this list gets it)
# CC=false: the C accelerators build against no dependency, so this venv compiles none of them and uses those
# `make test`'s install built in place (src/, sdk/src/; the pure-Python code where there are none): a failed
# compile is a warning (setup.py: optional=True) and leaves them as they are.
$(LOWEST_VENV)/.installed-timeout: pyproject.toml sdk/pyproject.toml constraints/lowest.txt
	@test -x $(LOWEST_VENV)/bin/python || $(PYTHON) -m venv $(LOWEST_VENV)
	$(call UV_BOOTSTRAP,$(LOWEST_VENV))
	export CC=false LDSHARED=false; $(call UV_INSTALL,$(LOWEST_VENV),-c constraints/lowest.txt -e ./sdk -e '.[postgres$(comma)cluster]' \
		'pytest>=8$(comma)<9.2' pytest-asyncio pytest-xdist pytest-timeout hypothesis)
	@touch $@

test-lowest: $(LOWEST_VENV)/.installed-timeout
	$(LOWEST_VENV)/bin/python -m pytest -q -p no:cacheprovider $(XDIST) $(LOWEST_TESTS) $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src sdk tests bench examples
	$(BIN)/ruff format --check src sdk tests bench examples
	$(BIN)/mypy
	$(BIN)/mypy examples/nim/hexarena_nim  # the plugin example, checked against the Game protocol
	$(BIN)/lint-imports --no-logo

# helpers the benchmarks start themselves (a bot server, a profiler wrapper): not benchmarks of their own
BENCH_HELPERS := bench/instant_bot.py bench/profiled.py

bench: $(STAMP)
	@for b in $(filter-out $(BENCH_HELPERS),$(wildcard bench/*.py)); do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# docs/benchmarks.md: every benchmark run briefly, its headline figure, the load and the command (tools/bench_page.py)
bench-page: $(STAMP)
	$(BIN)/python tools/bench_page.py

clean:
	rm -rf $(VENV) $(LOWEST_VENV) .mypy_cache .ruff_cache .pytest_cache .grimp_cache .import_linter_cache
