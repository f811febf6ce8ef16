"""``croupier verify FILE`` on what a player or an auditor downloads: a good export, recall and fairness record
(exit 0), a tampered seed, commitment, outcome or blackjack card (exit 1, saying which), missing fields and an
unreadable file (exit 2, naming them)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from croupier.service.casino_memory import MemoryCasinoStore
from croupier.service.memory import MemoryLedgerStore
from fair.support import ONE_DECK, FairWorld
from service.test_casino_support import play_until_settled
from support import invoke


@pytest.fixture(scope="module")
def docs() -> dict[str, Any]:
    """A settled roulette round's export, recall and fairness record, and a blackjack export of an ended shoe."""
    world = FairWorld(MemoryLedgerStore(), MemoryCasinoStore())
    world.fund("ana")
    c, ana = world.casino, world.users["ana"]
    c.open_table(world.admin, table_id="R", game="roulette")
    c.place_bet(ana, "R", {"type": "straight", "numbers": [7], "amount": 10, "client_seed": "seven"}, "k")
    world.wait(16)
    out: dict[str, Any] = {
        "scenario": c.export_scenario(world.admin, "R", "R.1"),
        "recall": c.recall(world.admin, "R", last=1 + 1)[:1],
        "record": c.fair_record(ana, "R", "R.1"),
    }
    c.open_table(world.admin, table_id="B", game="blackjack", rules=ONE_DECK)
    for i in range(12):
        c.place_bet(ana, "B", {"box": 1, "main": 10}, f"b{i}")
        world.wait(16)
        play_until_settled(world, "B")
        if c.table_view(ana, "B")["fair"]["label"] != "B.shoe1":
            break
    last = [r for r in world.store.rounds("B") if r.state.fair and r.state.fair["label"] == "B.shoe1"][-1]
    out["blackjack"] = c.export_scenario(world.admin, "B", last.round_id)
    return out


def run(tmp_path: Path, doc: object, name: str = "round.json") -> Any:
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return invoke("verify", str(path))


@pytest.mark.parametrize("which", ["scenario", "recall", "record", "blackjack"])
def test_a_good_file_verifies(tmp_path: Path, docs: dict[str, Any], which: str) -> None:
    result = run(tmp_path, docs[which])
    assert result.exit_code == 0, result.output
    assert "✓ commitment" in result.output and "Verified" in result.output
    assert "✗" not in result.output


def test_a_tampered_seed_or_commitment_is_reported(tmp_path: Path, docs: dict[str, Any]) -> None:
    for key, value in (("seed", "ab" * 32), ("commitment", "cd" * 32)):
        doc = copy.deepcopy(docs["scenario"])
        doc["fair"][key] = value
        result = run(tmp_path, doc)
        assert result.exit_code == 1, result.output
        assert "✗ commitment" in result.output and "the seed or the commitment was changed" in result.output


def test_a_tampered_outcome_is_reported(tmp_path: Path, docs: dict[str, Any]) -> None:
    scenario = copy.deepcopy(docs["scenario"])
    real = scenario["fair"]["result"]
    scenario["rounds"][0]["results"] = [(real + 1) % 37]
    record = copy.deepcopy(docs["record"])
    record["result"] = (real + 5) % 37
    recalled = copy.deepcopy(docs["recall"])
    recalled[0]["outcome"]["pocket"] = (real + 2) % 37
    for doc in (scenario, record, recalled):
        result = run(tmp_path, doc)
        assert result.exit_code == 1, result.output
        assert "✓ commitment" in result.output
        assert "the recorded outcome is not the one derived from the seed" in result.output
        assert f"derived {real}" in result.output


def test_a_tampered_blackjack_card_is_reported(tmp_path: Path, docs: dict[str, Any]) -> None:
    for where in ("fair", "rounds"):
        doc = copy.deepcopy(docs["blackjack"])
        cards = doc["fair"]["cards"] if where == "fair" else doc["rounds"][-1]["cards"]
        cards[-1] = "AS" if cards[-1] != "AS" else "KD"
        result = run(tmp_path, doc)
        assert result.exit_code == 1, result.output
        assert "the recorded outcome is not the one derived" in result.output


def test_missing_fields_are_named(tmp_path: Path, docs: dict[str, Any]) -> None:
    record = copy.deepcopy(docs["record"])
    del record["seed"], record["commitment"]
    result = run(tmp_path, record)
    assert result.exit_code == 2 and "lacks commitment, seed" in result.output
    unrevealed = {**docs["record"], "seed": None, "revealed": False}
    result = run(tmp_path, unrevealed)
    assert result.exit_code == 2 and "lacks seed" in result.output and "revealed" in result.output
    result = run(tmp_path, {"game": "roulette", "rules": {}, "rounds": []})
    assert result.exit_code == 2 and "lacks fair" in result.output


def test_an_unreadable_file(tmp_path: Path) -> None:
    result = invoke("verify", str(tmp_path / "nope.json"))
    assert result.exit_code == 2 and "cannot read" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    result = invoke("verify", str(bad))
    assert result.exit_code == 2 and "is not JSON" in result.output
