"""Scenario files (shared/spec/SCENARIOS.md) replayed in-process and compared with their expectations.

Two sets of files:
- the shared examples in ``../shared/scenarios/`` (hand-written and ``generated-*``);
- the project's own hand-computed files in ``tests/scenarios/files/``.

``compare`` mirrors ``shared/tools/check_scenarios.py``: only what an ``expect`` block lists is compared.
Two extensions, checked only when a file carries them (the shared checker ignores them): ``void_spins`` /
``void_rolls`` inside an expected round, and a top-level ``_totals`` object (free text to the replay format)
holding the expected ``totals`` over all rounds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from croupier.replay import ScenarioError, replay
from croupier.replay.core import _runners

HERE = Path(__file__).resolve().parent
OWN_DIR = HERE / "files"
REPO = Path(__file__).resolve().parents[2]
SHARED_DIR = Path(__file__).resolve().parents[3] / "shared" / "scenarios"
CHECKER = SHARED_DIR.parent / "tools" / "check_scenarios.py"


def _files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def compare(exp: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """The differences between an expected round and an output round, as check_scenarios.py finds them."""
    errs: list[str] = []
    players = got.get("players") or {}
    for p, v in (exp.get("players") or {}).items():
        if players.get(p, 0) != v:
            errs.append(f"player {p}: net {players.get(p)} != {v}")
    dealer_total = (got.get("dealer") or {}).get("total")
    if "dealer_total" in exp and dealer_total != exp["dealer_total"]:
        errs.append(f"dealer total {dealer_total} != {exp['dealer_total']}")
    results = {str(b.get("box")): b.get("result") for b in got.get("boxes") or []}
    for bx, r in (exp.get("box_results") or {}).items():
        if results.get(bx) != r:
            errs.append(f"box {bx}: result {results.get(bx)} != {r}")
    nets: dict[tuple[Any, Any, Any], int] = {}
    for b in got.get("boxes") or []:
        for bt in b.get("bets") or []:
            key = (b.get("box"), bt.get("player"), bt.get("kind"))
            nets[key] = nets.get(key, 0) + (bt.get("net") or 0)
    for e in exp.get("bets") or []:
        key = (e["box"], e["player"], e["kind"])
        if nets.get(key) != e["net"]:
            errs.append(f"bet {key}: net {nets.get(key)} != {e['net']}")
    if "pocket" in exp and got.get("pocket") != exp["pocket"]:
        errs.append(f"pocket {got.get('pocket')} != {exp['pocket']}")
    if "dice" in exp and sorted(got.get("dice") or []) != sorted(exp["dice"]):
        errs.append(f"dice {got.get('dice')} != {exp['dice']}")
    if "nets" in exp:
        by_index = {b.get("index"): b.get("net") for b in got.get("bets") or []}
        for i, v in enumerate(exp["nets"]):
            if by_index.get(i) != v:
                errs.append(f"bet #{i}: net {by_index.get(i)} != {v}")
    if "payment_order" in exp and got.get("payment_order") != exp["payment_order"]:
        errs.append(f"payment_order {got.get('payment_order')} != {exp['payment_order']}")
    # Extensions (not in check_scenarios.py): the number of void spins / rolls.
    for key in ("void_spins", "void_rolls"):
        if key in exp and got.get(key) != exp[key]:
            errs.append(f"{key} {got.get(key)} != {exp[key]}")
    return errs


def check_error(expected: dict[str, Any], err: ScenarioError) -> list[str]:
    """The differences between an ``expect_error`` block and the error raised."""
    codes = expected["code"] if isinstance(expected["code"], list) else [expected["code"]]
    errs = [] if err.code in codes else [f"error code {err.code} not in {codes} ({err.message})"]
    if "round" in expected and err.round != expected["round"]:
        errs.append(f"error round {err.round} != {expected['round']} ({err.message})")
    return errs


def run_scenario(path: Path) -> None:
    """Replay one file in-process and fail with every difference from its expectations."""
    sc = json.loads(path.read_text(encoding="utf-8"))
    if sc.get("game") == "blackjack" and "blackjack" not in _runners():
        pytest.skip("blackjack replay lands with issue 3")
    try:
        got = replay(sc)
    except ScenarioError as exc:
        if "expect_error" not in sc:
            pytest.fail(f"{path.name}: unexpected {exc.code} (round {exc.round}): {exc.message}")
        errs = check_error(sc["expect_error"], exc)
        assert not errs, f"{path.name}: " + "; ".join(errs)
        return
    assert "expect_error" not in sc, f"{path.name}: expected {sc['expect_error']}, but the scenario ran"
    rounds = got.get("rounds") or []
    errs: list[str] = []
    for i, exp in enumerate(sc.get("expect") or []):
        if i >= len(rounds):
            errs.append(f"round {i} missing from output")
        else:
            errs += [f"round {i}: {e}" for e in compare(exp, rounds[i])]
    if "_totals" in sc and got.get("totals") != sc["_totals"]:
        errs.append(f"totals {got.get('totals')} != {sc['_totals']}")
    assert not errs, f"{path.name}: " + "; ".join(errs)


@pytest.mark.parametrize("path", _files(SHARED_DIR), ids=lambda p: p.name)
def test_shared_scenario(path: Path) -> None:
    run_scenario(path)


@pytest.mark.parametrize("path", _files(OWN_DIR), ids=lambda p: p.name)
def test_own_scenario(path: Path) -> None:
    run_scenario(path)


def test_own_scenarios_have_expectations() -> None:
    paths = _files(OWN_DIR)
    games = [json.loads(p.read_text())["game"] for p in paths]
    assert games.count("roulette") + games.count("sicbo") >= 25
    assert games.count("blackjack") >= 60
    for path in paths:
        sc = json.loads(path.read_text(encoding="utf-8"))
        assert sc.get("game") in {"roulette", "sicbo", "blackjack"}, path.name
        assert isinstance(sc.get("description"), str), path.name
        assert ("expect" in sc) != ("expect_error" in sc), path.name


@pytest.mark.skipif(not CHECKER.is_file(), reason="shared/tools/check_scenarios.py is not there")
def test_checker_cli_on_own_scenarios(tmp_path: Path) -> None:
    """The shared checker, driving the installed ``croupier`` command, passes a sample of our own folder.

    Every file is already compared in-process above; this proves the command-line path (JSON on stdout, exit
    status 2 with the error object) on every sixth file, to keep a process per file affordable.
    """
    cli = Path(sys.executable).parent / "croupier"
    if not cli.exists():
        pytest.skip(f"no croupier command next to {sys.executable}")
    for path in sorted(OWN_DIR.glob("*.json"))[::6]:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    r = subprocess.run(
        [sys.executable, str(CHECKER), str(tmp_path), "--cli", str(cli)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
        check=False,
    )
    lines = r.stdout.strip().splitlines()
    assert lines, r.stderr
    assert lines[-1].endswith(" 0 failed"), r.stdout[-3000:]
    assert r.returncode == 0, r.stdout[-3000:]
