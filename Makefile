# hexarena: `make serve` runs the server, `make test` runs every test (and the import layers: lint-imports). Both set up .venv by themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: serve test lint bench setup clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $(STAMP)

setup: $(STAMP)

serve: $(STAMP)
	$(BIN)/hexarena serve --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(BIN)/ruff check src tests bench examples
	$(BIN)/mypy
	$(BIN)/mypy examples/nim/hexarena_nim  # the plugin example, checked against the Game protocol
	$(BIN)/lint-imports --no-logo
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

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
