# croupier: the two commands a new user needs are `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SHARED ?= ../shared
# The browser tests and screenshots drive Debian's Chromium through Playwright (no browser download of its own).
CHROMIUM := /usr/bin/chromium
# Chinese glyphs for the zh-Hant page (the screenshots otherwise show empty boxes).
CJK_FONT := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc

.PHONY: demo test lint typecheck scenarios bench clean install screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml constraints.txt | $(CHROMIUM) $(CJK_FONT)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP)

# Debian's Chromium, installed only when it is missing (as root, or through sudo).
$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; \
	else echo "$(CHROMIUM) is missing: install Debian's chromium package as root" >&2; exit 1; fi; \
	$$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium

# Debian's Noto CJK fonts, installed only when they are missing (as root, or through sudo).
$(CJK_FONT):
	@if [ "$$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; \
	else echo "$(CJK_FONT) is missing: install Debian's fonts-noto-cjk package as root" >&2; exit 1; fi; \
	$$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends fonts-noto-cjk

install: $(STAMP)

# The offline sessions and exact figures, then the table server with demo accounts and tables (Ctrl+C stops it;
# DEMO_SECONDS=N stops it after N seconds).
demo: $(STAMP)
	$(BIN)/croupier demo
	$(BIN)/croupier serve --demo $(if $(DEMO_SECONDS),--seconds $(DEMO_SECONDS))

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools

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

# PNGs of the browser table (lobby, each game, the dealer console; desktop and phone) into docs/screenshots/.
screenshots: $(STAMP) | $(CJK_FONT)
	$(BIN)/python tools/screenshots.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
