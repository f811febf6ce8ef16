# croupier: the two commands a new user needs are `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two installs, each with its stamp. The runtime one (`make demo`, `make install`): croupier with its mathematics and
# its table server, nothing else (no browser, no apt, no root). The dev one (`make test`, lint, typecheck, bench,
# screenshots): the dev extras too, and Debian's Chromium and CJK fonts for the browser tests. The dev install holds
# the runtime one, so it stamps both: `make test` then `make demo` installs nothing more.
RUNTIME_STAMP := $(VENV)/.installed-runtime
STAMP := $(VENV)/.installed
SHARED ?= ../shared
# `make demo DEMO_PORT=8080` serves elsewhere; DEMO_SECONDS=N stops the server after N s; DEMO_OFFLINE=no skips the
# sessions and odds and starts the server at once.
DEMO_PORT ?= 8000
DEMO_SECONDS ?=
DEMO_OFFLINE ?= yes
# The browser tests and screenshots drive Debian's Chromium through Playwright (no browser download of its own).
CHROMIUM := /usr/bin/chromium
# Chinese glyphs for the zh-Hant page (the screenshots otherwise show empty boxes).
CJK_FONT := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
# Debian's dieharder, which `croupier rng test` runs beside its own NIST battery (the tests run it too).
DIEHARDER := /usr/bin/dieharder

.PHONY: demo test lint typecheck scenarios bench clean install screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(RUNTIME_STAMP): $(BIN)/python pyproject.toml constraints.txt
	@if [ -f $(STAMP) ] && [ $(STAMP) -nt pyproject.toml ] && [ $(STAMP) -nt constraints.txt ]; then :; else \
	echo "Installing croupier and its runtime dependencies into $(VENV) (once; a minute or two)"; \
	$(BIN)/python -m pip install --quiet --upgrade pip && \
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[math,server]'; fi
	@touch $(RUNTIME_STAMP)

$(STAMP): $(BIN)/python pyproject.toml constraints.txt | $(CHROMIUM) $(CJK_FONT) $(DIEHARDER)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	touch $(STAMP) $(RUNTIME_STAMP)

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

# Debian's dieharder, installed only when it is missing (as root, or through sudo).
$(DIEHARDER):
	@if [ "$$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; \
	else echo "$(DIEHARDER) is missing: install Debian's dieharder package as root" >&2; exit 1; fi; \
	$$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends dieharder

install: $(RUNTIME_STAMP)

# The port checked and the browser's address printed, the offline sessions and exact figures, then the table server
# with demo accounts and tables (Ctrl+C stops everything).
demo: $(RUNTIME_STAMP)
	@$(BIN)/croupier demo --serve --port $(DEMO_PORT) $(if $(DEMO_SECONDS),--seconds $(DEMO_SECONDS)) \
	  $(if $(filter no false 0,$(DEMO_OFFLINE)),--no-offline)

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
