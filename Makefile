# croupier: the two commands a new user needs are `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SHARED ?= ../shared

.PHONY: demo test lint typecheck scenarios bench clean install

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# The offline sessions and exact figures, then the table server with demo accounts and tables (Ctrl+C stops it;
# DEMO_SECONDS=N stops it after N seconds).
demo: $(STAMP)
	$(BIN)/croupier demo
	$(BIN)/croupier serve --demo $(if $(DEMO_SECONDS),--seconds $(DEMO_SECONDS))

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

test: $(STAMP) lint typecheck
	$(BIN)/python -m pytest -n 2 -q

scenarios: $(STAMP)
	$(PYTHON) $(SHARED)/tools/check_scenarios.py $(SHARED)/scenarios
	$(PYTHON) $(SHARED)/tools/check_scenarios.py tests/scenarios/files

bench: $(STAMP)
	$(BIN)/python bench/bench_engines.py
	$(BIN)/python bench/bench_blackjack.py
	$(BIN)/python bench/bench_ca.py
	$(BIN)/python bench/bench_simulate.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
