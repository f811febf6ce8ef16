"""Garbage in, a clean refusal out: ``replay`` only ever raises ``ScenarioError`` (SCENARIOS.md error object),
a rules loader only ever raises ``InvalidRules``, and the CLI exits 2 without a traceback.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier import rulesdoc
from croupier.errors import InvalidRules
from croupier.games import GAMES, infer_game
from croupier.replay import ScenarioError, replay, replay_file
from croupier.replay.core import CODES

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("SHARED", REPO.parent / "shared"))

# Two scenarios of SCENARIOS.md, so that the mutations have seeds even without shared/.
BUILTIN_SCENARIOS: list[dict[str, Any]] = [
    {
        "game": "roulette",
        "rules": {"chip_unit": 5, "min_bet": {"straight": 5}, "max_bet": 1000, "paytables": {"split": 16}},
        "rounds": [
            {
                "bets": [
                    {"player": "ana", "type": "split", "numbers": [0, 3], "amount": 100},
                    {"player": "bo", "type": "dozen", "index": 2, "amount": 50},
                    {"player": "bo", "type": "red", "amount": 50},
                    {"player": "cy", "type": "nine", "numbers": [1, 2, 3, 4, 5, 6, 7, 8, 9], "amount": 20},
                ],
                "results": ["void", 3],
            }
        ],
        "expect": [{"pocket": 3, "nets": [1600, -50, 50, 60]}],
    },
    {
        "game": "sicbo",
        "rules": {"paytables": {"total": {"4": 60}, "single": [1, 2, 3]}, "max_bet": {"triple": 50}},
        "rounds": [
            {
                "bets": [
                    {"player": "ana", "type": "single", "face": 3, "amount": 100},
                    {"player": "ana", "type": "total", "total": 11, "amount": 100},
                    {"player": "bo", "type": "triple", "face": 6, "amount": 10},
                    {"player": "bo", "type": "big", "amount": 100},
                ],
                "late_bets": [{"player": "cy", "type": "small", "amount": 100}],
                "results": ["void", [3, 3, 5]],
            }
        ],
    },
]


def _seed_scenarios() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    folder = SHARED / "scenarios"
    if folder.is_dir():
        for path in sorted(folder.glob("*.json")):
            if path.name.startswith(("roulette", "sicbo", "generated-roulette", "generated-sicbo")):
                found.append(json.loads(path.read_text(encoding="utf-8")))
    return BUILTIN_SCENARIOS + found


SEEDS = _seed_scenarios()

# -- junk -----------------------------------------------------------------------------------------------

BET_WORDS = [
    "straight", "split", "street", "corner", "six_line", "nine", "twelve_special", "column", "dozen", "low",
    "high", "odd", "even", "red", "black", "small", "big", "single", "triple", "any_triple", "total", "main",
]  # fmt: skip
KEY_WORDS = [
    "game", "rules", "rounds", "expect", "expect_error", "bets", "late_bets", "results", "player", "type",
    "amount", "numbers", "index", "face", "pocket", "dice", "preset", "chip_unit", "min_bet", "max_bet",
    "paytables", "nine_number_blocks", "decks", "_note", "title", "4", "17", "18", "3", *BET_WORDS,
]  # fmt: skip
INTERESTING = [
    "void", "roulette", "sicbo", "statute", "default", "", " ", "1/0", "0/5", "-3/2", "3/2", "1e3",
    "1.5", "nan", "inf", "10", 0, 1, -1, 2, 3, 4, 17, 18, 36, 37, 1_000_001, 2**63, -(2**63), 10**30, 0.5, 1.0,
    float("nan"), float("inf"), True, False, None, [], {}, [3, 3, 5], [0, 3], [1, 1], [7, 7, 7],
    [1, 2, 3, 4, 5, 6, 7, 8, 9], ["void"], ["void", "void"], {"4": 0}, {"4": "1/0"}, {"straight": 0},
    [[1, 2, 3, 4, 5, 6, 7, 8, 9]], *BET_WORDS,
]  # fmt: skip

LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=8),
    st.sampled_from(KEY_WORDS),
    st.sampled_from(INTERESTING),
)
JSON = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.one_of(st.sampled_from(KEY_WORDS), st.text(max_size=6)), inner, max_size=5),
    ),
    max_leaves=20,
)
ODDS_LIKE = st.one_of(
    st.integers(-3, 400),
    st.from_regex(r"\A-?[0-9]{1,3}(/[0-9]{1,2})?\Z"),
    st.sampled_from(["1/0", "0/1", "3/2", "1e3", "1.5", "nan", "", True, None, 1.5]),
    st.lists(st.integers(-1, 5), max_size=4),
)
PAYTABLE_LIKE = st.dictionaries(
    st.sampled_from([*BET_WORDS, "4", "17", "18", "x"]),
    st.one_of(ODDS_LIKE, st.dictionaries(st.sampled_from(["4", "10", "17", "18", "x", "3"]), ODDS_LIKE, max_size=3)),
    max_size=4,
)
TOML_LEAVES = st.one_of(st.datetimes(), st.dates(), st.times())


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]
    return doc


def _retype(value: Any) -> Any:
    """The same content in another JSON type."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return [value]
    if isinstance(value, str):
        return [value] if value else 0
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, dict):
        return list(value.values())
    return "null"


@st.composite
def mutated_scenarios(draw: st.DrawFn) -> Any:
    # Deep copies throughout: drawn values may be shared objects (INTERESTING, SEEDS) that must not change.
    doc: Any = copy.deepcopy(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(doc)))
        op = draw(st.sampled_from(["delete", "replace", "retype", "insert", "append", "nudge", "nudge"]))
        target = _get(doc, path)
        if op == "nudge" and path and isinstance(target, int | str):
            # A value of the right type, often just out of range: reaches the engines' own checks.
            if isinstance(target, bool | str):
                new: Any = draw(st.sampled_from([*BET_WORDS, "void", "ana", ""]))
            elif draw(st.booleans()):
                new = target + draw(st.integers(-40, 40))
            else:
                new = draw(st.sampled_from([0, -1, 37]))
            _get(doc, path[:-1])[path[-1]] = new
        elif op == "delete" and path:
            parent = _get(doc, path[:-1])
            del parent[path[-1]]
        elif op == "insert" and isinstance(target, dict):
            target[draw(st.sampled_from(KEY_WORDS))] = copy.deepcopy(draw(JSON))
        elif op == "append" and isinstance(target, list):
            target.insert(draw(st.integers(0, len(target))), copy.deepcopy(draw(JSON)))
        else:
            new = _retype(target) if op == "retype" else copy.deepcopy(draw(st.one_of(JSON, PAYTABLE_LIKE)))
            if not path:
                doc = new
            else:
                _get(doc, path[:-1])[path[-1]] = new
    return doc


def _check_replay(doc: Any) -> None:
    """``replay`` either runs (with printable output) or raises a ScenarioError with a SCENARIOS.md code."""
    try:
        out = replay(doc)
    except ScenarioError as exc:
        assert exc.code in CODES
        game = doc.get("game") if isinstance(doc, dict) else None
        if game in ("roulette", "sicbo"):
            assert exc.action is None  # roulette and sic bo scenarios have no actions
        rounds = doc.get("rounds") if isinstance(doc, dict) else None
        if exc.round is not None:
            assert isinstance(rounds, list)
            assert 0 <= exc.round < len(rounds)
        json.dumps(exc.as_object())
        return
    assert set(out) == {"game", "rounds", "totals"}
    json.dumps(out)


# -- replay() --------------------------------------------------------------------------------------------


@SETTINGS
@given(doc=JSON)
def test_replay_random_json_values(doc: Any) -> None:
    _check_replay(doc)


@SETTINGS
@given(
    game=st.sampled_from(["roulette", "sicbo"]),
    rules=st.one_of(JSON, st.dictionaries(st.sampled_from(KEY_WORDS), st.one_of(JSON, PAYTABLE_LIKE), max_size=4)),
    rounds=JSON,
)
def test_replay_random_games(game: str, rules: Any, rounds: Any) -> None:
    _check_replay({"game": game, "rules": rules, "rounds": rounds})


@SETTINGS
@given(doc=mutated_scenarios())
def test_replay_mutated_scenarios(doc: Any) -> None:
    _check_replay(doc)


@pytest.mark.parametrize("action", [["stand"], {"action": "stand"}])
def test_blackjack_action_name_of_wrong_type(action: Any) -> None:
    doc = {
        "game": "blackjack",
        "rounds": [
            {
                "boxes": [{"box": 1, "seated": "ana", "bets": [{"player": "ana", "main": 100}]}],
                "cards": ["5C", "9S", "TD", "6H", "8H"],
                "actions": [{"box": 1, "action": action}],
            }
        ],
    }
    _check_replay(doc)


def test_seed_scenarios_run() -> None:
    """The unmutated seeds are valid or fail the way their file says."""
    assert len(SEEDS) >= 2
    for doc in SEEDS:
        expected = doc.get("expect_error")
        if expected is None:
            replay(copy.deepcopy(doc))
            continue
        with pytest.raises(ScenarioError) as info:
            replay(copy.deepcopy(doc))
        assert (info.value.code, info.value.round) == (expected["code"], expected["round"])


# -- rules documents -------------------------------------------------------------------------------------

RULES_DOCS = st.one_of(
    JSON,
    st.dictionaries(
        st.sampled_from(["preset", "game", "chip_unit", "min_bet", "max_bet", "paytables", "nine_number_blocks"]),
        st.one_of(JSON, PAYTABLE_LIKE, TOML_LEAVES, st.lists(st.lists(st.integers(-1, 37), max_size=10), max_size=3)),
        max_size=4,
    ),
)


@SETTINGS
@given(game=st.sampled_from(sorted(GAMES)), doc=RULES_DOCS)
def test_rules_load_only_raises_invalid_rules(game: str, doc: Any) -> None:
    try:
        rules = GAMES[game].load(doc)
    except InvalidRules as exc:
        assert exc.problems
        return
    # What `rules check` prints must be printable.
    json.dumps(rulesdoc.document(rules))
    for d in rulesdoc.differences(rules, GAMES[game].presets["statute"]):
        json.dumps(d.value)


@pytest.mark.parametrize("odds", ["1e999999999", "3/0", "0/0", "9" * 5000, "-3/2", "1.5e2"])
def test_odds_text_is_refused_quickly(odds: str) -> None:
    """Regressions: Fraction() expanded exponents (minutes for "1e999999999") and raised ZeroDivisionError."""
    for game in ("roulette", "sicbo"):
        with pytest.raises(InvalidRules):
            GAMES[game].load({"paytables": {"big" if game == "sicbo" else "straight": odds}})


def test_odds_text_still_read() -> None:
    rules = GAMES["roulette"].load({"paytables": {"straight": "36", "split": "35/2", "street": " 11.5 "}})
    assert [str(rules.odds(t)) for t in ("straight", "split", "street")] == ["36", "35/2", "23/2"]


def _read(path: Path, data: bytes, reader: Callable[[Path], Any]) -> Any:
    path.write_bytes(data)
    return reader(path)


FILE_BYTES = st.one_of(
    st.binary(max_size=40),
    st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
    JSON.map(lambda v: json.dumps(v).encode()),
    st.integers(1, 5000).map(lambda n: ("[" * n + "]" * n).encode()),
    st.integers(1, 5000).map(lambda n: ("a = " + "[" * n + "]" * n).encode()),
    st.integers(4000, 5000).map(lambda n: ("1" * n).encode()),
    st.integers(4000, 5000).map(lambda n: ("chip_unit = " + "1" * n).encode()),
    st.sampled_from([b"", b"\xff\xfe", b"{", b"null", b'"x"', b'game = "roulette"\nchip_unit = "a"', b"\x00"]),
)


@SETTINGS
@given(data=FILE_BYTES, suffix=st.sampled_from([".json", ".toml", ".txt", ""]))
def test_rules_files_only_raise_invalid_rules(data: bytes, suffix: str) -> None:
    """`rules check`: read_document, then infer the game, then load: only InvalidRules."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            document = _read(Path(tmp) / f"rules{suffix}", data, rulesdoc.read_document)
            GAMES[infer_game(document).name].load(document)
        except InvalidRules:
            pass


@SETTINGS
@given(data=FILE_BYTES)
def test_replay_files_only_raise_scenario_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        try:
            _read(Path(tmp) / "scenario.json", data, replay_file)
        except ScenarioError as exc:
            assert exc.code in CODES


# -- the command line ------------------------------------------------------------------------------------

CROUPIER = str(Path(sys.executable).parent / "croupier")
DEEP_JSON = b"[" * 100_000
BIG_INT = b"1" * 5000
_HUGE = 10**2200
HUGE_NET = json.dumps(
    {
        "game": "roulette",
        "rules": {"max_bet": _HUGE, "paytables": {"straight": _HUGE}},
        "rounds": [{"bets": [{"player": "ana", "type": "straight", "numbers": [0], "amount": _HUGE}], "results": [0]}],
    }
).encode()


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([CROUPIER, *args], capture_output=True, text=True, timeout=60, check=False)


def _target(tmp_path: Path, kind: str, data: bytes | None) -> str:
    if kind == "missing":
        return str(tmp_path / "no-such-file.json")
    if kind == "dir":
        return str(tmp_path)
    path = tmp_path / f"garbage.{kind}"
    assert data is not None
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        ("json", b"\x00\x01not json at all {"),
        ("json", b"\xff\xfe\x80 invalid utf-8"),
        ("json", b""),
        ("dir", None),
        ("missing", None),
        ("json", DEEP_JSON),
        ("json", BIG_INT),
        ("json", HUGE_NET),
    ],
    ids=["not-json", "bad-utf8", "empty", "directory", "missing", "deep-nesting", "huge-int", "huge-net"],
)
def test_cli_replay_garbage(tmp_path: Path, kind: str, data: bytes | None) -> None:
    proc = _run("replay", _target(tmp_path, kind, data))
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2, proc.stderr
    error = json.loads(proc.stdout)["error"]
    assert error["code"] == "invalid_scenario"
    assert {"code", "message", "round", "action"} <= set(error)


@pytest.mark.parametrize(
    ("kind", "data"),
    [("toml", b"\xff\xfe\x80"), ("toml", b"a = " + DEEP_JSON)],
    ids=["bad-utf8", "deep-toml"],
)
def test_cli_rules_check_garbage(tmp_path: Path, kind: str, data: bytes | None) -> None:
    proc = _run("rules", "check", _target(tmp_path, kind, data))
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2, proc.stderr
