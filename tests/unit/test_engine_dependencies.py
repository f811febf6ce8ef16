"""The engine packages stay plain Python (issue 4: "no numba import anywhere in the engine packages"): the math
extras (numba, numpy, matplotlib) are for the analysis and the reports only, the server extras (sqlalchemy, alembic,
argon2, psycopg) for the service's storage and accounts only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import croupier

ENGINE = ("blackjack", "primitives", "roulette", "sicbo", "replay")
ENGINE_MODULES = ("wagering.py", "games.py", "money.py", "statute.py", "rulesdoc.py", "errors.py")
HEAVY = ("numba", "numpy", "matplotlib", "llvmlite", "sqlalchemy", "alembic", "argon2", "psycopg")


def engine_files() -> list[Path]:
    root = Path(croupier.__file__).parent
    files = [path for package in ENGINE for path in (root / package).rglob("*.py")]
    return files + [root / name for name in ENGINE_MODULES]


def test_no_engine_source_mentions_the_math_extras_in_an_import() -> None:
    offenders = []
    for path in engine_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith(("import ", "from ")) and any(name in stripped.split()[1] for name in HEAVY):
                offenders.append(f"{path.name}:{number}: {stripped}")
    assert offenders == []


def test_playing_every_game_loads_none_of_them() -> None:
    code = (
        "import sys\n"
        "import croupier.blackjack.table, croupier.roulette.round, croupier.sicbo.round, croupier.replay.core\n"
        "from croupier.replay.core import replay\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
