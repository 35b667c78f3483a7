# hexarena: `make serve` runs the server, `make test` runs every test (and the import layers: lint-imports). Both set up .venv by themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: serve test check docs lint bench setup clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $(STAMP)

setup: $(STAMP)

serve: $(STAMP)
	$(BIN)/hexarena serve --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(BIN)/ruff check src tests bench examples tools
	$(BIN)/mypy
	$(BIN)/mypy examples/nim/hexarena_nim  # the plugin example, checked against the Game protocol
	$(BIN)/lint-imports --no-logo
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

# The inner loop: lint, types and the tests that need no browser, cluster or long games (a couple of minutes).
check: $(STAMP)
	$(BIN)/ruff check src tests bench examples tools
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo
	$(BIN)/python -m pytest -q -x -m "not slow" tests/games tests/referee tests/tournament tests/test_*.py $(PYTEST_ARGS)

# The docs site (mkdocs-material) into build/site; `$(BIN)/mkdocs serve` previews it while you write.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/ruff format --check src tests bench examples
	$(BIN)/mypy
	$(BIN)/mypy examples/nim/hexarena_nim  # the plugin example, checked against the Game protocol
	$(BIN)/lint-imports --no-logo

# helpers the benchmarks start themselves (a bot server, a profiler wrapper): not benchmarks of their own
BENCH_HELPERS := bench/instant_bot.py bench/profiled.py

bench: $(STAMP)
	@for b in $(filter-out $(BENCH_HELPERS),$(wildcard bench/*.py)); do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .grimp_cache .import_linter_cache
