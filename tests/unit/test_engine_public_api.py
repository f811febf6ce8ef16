"""Issue 17, the engine side: the public methods the service codes against (``Shoe.counts``,
``BlackjackRound.forfeit_streaks``, ``BlackjackRound.answer_stake``, the table's step API), the one parser of a
streak level, the checks on ``amount`` and ``hand`` in ``verify``, ``can_*`` that catch only the project's errors,
and the replay registry that imports without a cycle."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import croupier
from croupier.blackjack import round as round_module
from croupier.blackjack import rules as bj_rules
from croupier.blackjack.operations import Answered
from croupier.blackjack.round import BlackjackRound
from croupier.blackjack.rules import BlackjackRules, SideBet
from croupier.blackjack.sidebets import parse_streak_level
from croupier.blackjack.table import BlackjackTable
from croupier.cli import app
from croupier.errors import BetRejected, CroupierError, IllegalAction, OutOfTurn
from croupier.primitives.cards import parse_card
from croupier.primitives.chance import ScriptedSource
from croupier.primitives.pcg import SeededRandom
from croupier.primitives.shoe import Shoe
from croupier.roulette.round import RouletteRound
from croupier.roulette.rules import RouletteRules

SRC = Path(croupier.__file__).parent


def scripted(cards: list[str], rules: BlackjackRules | None = None) -> BlackjackRound:
    return BlackjackTable(rules or BlackjackRules(), ScriptedSource(cards=cards)).open_round()


# -- the streak level (BJ 13.5) ----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [2, 3, 4, 5, "2", "3", "4", "5"])
def test_bj_13_5_parse_streak_level_takes_ascii_strings_and_integers(value: object) -> None:
    assert parse_streak_level(value) == int(str(value))


@pytest.mark.parametrize("value", ["²", "02", "٢", "x", " 2", "2 ", "", "6", "1", 6, 1, 0, True, 2.0, None, [2]])
def test_bj_13_5_parse_streak_level_refuses_everything_else(value: object) -> None:
    with pytest.raises(BetRejected) as info:
        parse_streak_level(value)
    assert info.value.rule == "BJ 13.5"
    assert repr(value) in info.value.message


def test_bj_13_5_the_engine_takes_a_streak_level_written_as_text_and_records_it_as_an_integer() -> None:
    rnd = scripted([], BlackjackRules(side_bets_offered=frozenset({SideBet.STREAK})))
    op = rnd.place_bet(1, "ana", main=10, streak={"3": 5})
    assert op.streak == ((3, 5),)
    assert rnd.boxes[1].bettors["ana"].streak == {3: 5}
    with pytest.raises(BetRejected):
        rnd.place_bet(1, "bo", main=10, streak={"²": 5})


def test_replay_command_refuses_a_superscript_streak_level_with_exit_2_not_a_traceback(tmp_path: Path) -> None:
    scenario = {
        "game": "blackjack",
        "rules": {"side_bets_offered": ["streak"]},
        "rounds": [
            {
                "boxes": [{"box": 1, "bets": [{"player": "ana", "main": 10, "streak": {"²": 5}}]}],
                "cards": ["2C", "9S", "7H", "7D", "TC"],
                "actions": [{"box": 1, "action": "stand"}],
            }
        ],
    }
    path = tmp_path / "streak.json"
    path.write_text(json.dumps(scenario, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # not an uncaught error (exit 1 with a traceback)
    assert json.loads(result.stdout)["error"]["code"] == "bet_rejected"


def test_bj_3_a_bet_that_stakes_nothing_is_refused() -> None:
    rnd = scripted([])
    with pytest.raises(BetRejected) as info:
        rnd.place_bet(1, "ana", side={})
    assert info.value.rule == "BJ 3"
    assert rnd.boxes == {} and rnd.operations == []


# -- Shoe.counts ------------------------------------------------------------------------------------------------


def test_shoe_counts_of_a_random_shoe_are_the_cards_not_yet_dealt() -> None:
    shoe = Shoe(2, SeededRandom(3))
    out = [shoe.draw() for _ in range(10)]
    counts = shoe.counts()
    assert sum(counts.values()) == 104 - 10
    assert all(n > 0 for n in counts.values())
    for card in set(out):
        assert counts.get(card, 0) == 2 - out.count(card)


def test_shoe_counts_of_a_scripted_shoe_leave_out_the_cards_all_dealt() -> None:
    shoe = Shoe(1, ScriptedSource(cards=["AS", "KD"]))
    shoe.draw()
    shoe.draw()
    counts = shoe.counts()
    assert len(counts) == 50 and set(counts.values()) == {1}
    assert parse_card("AS") not in counts and parse_card("KD") not in counts


# -- forfeit_streaks (BJ 13.5.4) ----------------------------------------------------------------------------------


def test_bj_13_5_4_forfeit_streaks_removes_them_from_the_table_and_the_round() -> None:
    rules = BlackjackRules(side_bets_offered=frozenset({SideBet.STREAK}))
    # burn, ana 9S, dealer 7H, ana TD (19), dealer 8C (15) draws 9D: bust, ana wins; the streak stays open
    table = BlackjackTable(rules, ScriptedSource(cards=["2C", "9S", "7H", "TD", "8C", "9D"]))
    rnd = table.open_round()
    rnd.place_bet(1, "ana", main=10, streak={2: 5})
    rnd.close_betting()
    rnd.stand()
    assert [s.player for s in table.open_streaks] == ["ana"]
    nxt = table.open_round()
    nxt.forfeit_streaks("ana")
    assert table.open_streaks == [] and nxt._open_streaks == []
    nxt.place_bet(2, "bo", main=10)
    nxt.verify_close_betting()  # ana's streak no longer needs her main bet (BJ 13.5.4)


def test_bj_13_5_4_streaks_are_forfeited_before_betting_closes() -> None:
    rnd = scripted(["2C", "9S", "7H", "TD", "8C", "9D"])
    rnd.place_bet(1, "ana", main=10)
    rnd.close_betting()
    with pytest.raises(IllegalAction):
        rnd.forfeit_streaks("ana")


# -- answer_stake and amounts in verify ----------------------------------------------------------------------------

# burn, box 1 (ana 100, bo 50) 8S, dealer 6H, box 1 8D; split hands get TC and 3D (11 for a double)
PAIR = ["2C", "8S", "6H", "8D"]


def split_round() -> BlackjackRound:
    rnd = scripted([*PAIR, "TC", "3D", "9H", "TD", "5C"])
    rnd.place_bet(1, "ana", main=100, side={"any_pair": 10})
    rnd.place_bet(1, "bo", main=50)
    rnd.seat(1, "ana")
    rnd.close_betting()
    return rnd


def test_answer_stake_is_what_each_answer_adds() -> None:
    rnd = split_round()
    assert rnd.answer_stake("split", None) == 100
    assert rnd.answer_stake("double", None) == 100
    assert rnd.answer_stake("hit", None) == 0
    rnd.split()
    assert rnd.pending is not None and rnd.pending.kind == "follow"
    assert rnd.answer_stake("follow", None) == 50  # after a split: bo's main bet
    rnd.follow(player="bo")
    assert rnd.pending is not None and rnd.pending.kind == "any_pair"
    assert rnd.answer_stake("any_pair", None) == 20  # two new stakes equal to ana's Any Pair bet
    rnd.decline()
    rnd.stand()  # hand 0: 8 T
    assert rnd.pending is not None and rnd.pending.hand == 1  # hand 1: 8 3 = 11
    rnd.double()
    assert rnd.pending is not None and rnd.pending.kind == "follow"
    assert rnd.answer_stake("follow", None) == 50  # after a double: bo's stake on that hand
    assert rnd.answer_stake("insurance", 7) == 7
    assert rnd.answer_stake("decline", None) == 0


def test_answer_stake_needs_a_pending_question() -> None:
    with pytest.raises(IllegalAction):
        scripted([]).answer_stake("hit", None)


@pytest.mark.parametrize(
    ("action", "amount", "rule"), [("split", 50, "BJ 16.2"), ("double", 200, "BJ 17.1"), ("split", True, None)]
)
def test_an_amount_with_double_or_split_must_be_the_stake_it_adds(action: str, amount: Any, rule: str | None) -> None:
    rnd = split_round()
    before = list(rnd.operations)
    with pytest.raises(BetRejected) as info:
        rnd.act(action, amount=amount)
    if rule is not None:
        assert info.value.rule == rule
    assert rnd.operations == before
    assert not rnd.can(action, amount=amount)
    assert rnd.can(action, amount=100)
    rnd.act(action, amount=100)


def test_an_amount_with_follow_must_be_the_followers_stake() -> None:
    rnd = split_round()
    rnd.act("split", amount=100)
    with pytest.raises(BetRejected) as info:
        rnd.act("follow", player="bo", amount=100)
    assert info.value.rule == "BJ 20.1"
    rnd.act("follow", player="bo", amount=50)
    assert rnd.boxes[1].hands[1].stakes == {"ana": 100, "bo": 50}


def test_an_insurance_answer_for_another_hand_is_out_of_turn() -> None:
    # burn, ana 9S, dealer AH, ana 7D: the insurance offer is for box 1's only hand
    rnd = scripted(["2C", "9S", "AH", "7D", "6C", "TC"])
    rnd.place_bet(1, "ana", main=10)
    rnd.close_betting()
    with pytest.raises(OutOfTurn):
        rnd.act("insurance", hand=1, amount=5)
    assert rnd.can("insurance", hand=0, amount=5)


def test_bj_12_1_insurance_with_the_minimum_above_the_cap_is_a_refused_bet() -> None:
    rules = bj_rules.load({"min_bet": {"main": 2, "insurance": 10}})
    rnd = scripted(["2C", "9S", "AH", "7D", "6C", "TC"], rules)
    rnd.place_bet(1, "ana", main=10)
    rnd.close_betting()
    assert rnd.pending is not None and rnd.pending.actions == ("decline",)
    for amount in (5, 10):
        with pytest.raises(BetRejected):
            rnd.act("insurance", amount=amount)


# -- can_* catch only the project's errors -------------------------------------------------------------------------


class Bug(ValueError):
    """An internal error that happens to be a ValueError: never a reason to say "no"."""


def test_can_place_bet_does_not_swallow_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kwargs: object) -> int:
        raise Bug("a bug")

    rnd = scripted([])
    assert rnd.can_place_bet(1, "ana", main=3) is False  # an odd main bet: a refusal, so False
    monkeypatch.setattr(round_module, "check_stake", broken)
    with pytest.raises(Bug):
        rnd.can_place_bet(1, "ana", main=3)


def test_can_does_not_swallow_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = split_round()
    assert rnd.can("surrender", player="bo") is False

    def broken(self: BlackjackRound, q: object, action: str, amount: object) -> int:
        raise Bug("a bug")

    monkeypatch.setattr(BlackjackRound, "_answer_stake", broken)
    with pytest.raises(Bug):
        rnd.can("split", amount=100)


def test_wager_can_place_bet_does_not_swallow_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    rnd = RouletteRound(RouletteRules())
    assert rnd.can_place_bet("ana", "purple", 10) is False

    def broken(*args: object, **kwargs: object) -> object:
        raise Bug("a bug")

    monkeypatch.setattr(RouletteRound, "_make_bet", broken)
    with pytest.raises(Bug):
        rnd.can_place_bet("ana", "red", 10)


# -- the round keeps to the table's public API, and undoes a refused step without a deep copy ---------------------


def test_the_round_calls_no_private_method_of_the_table_and_makes_no_deep_copy() -> None:
    source = (SRC / "blackjack" / "round.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    private = [
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "table"
        and node.attr.startswith("_")
    ]
    assert private == []
    assert "deepcopy" not in source
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert "copy" not in imported


def test_the_table_step_api_undoes_a_refused_card() -> None:
    # A scripted shoe that runs out mid-step: the step is undone and the card read goes back to the source.
    source = ScriptedSource(cards=["2C", "TS", "6H", "5D"])
    table = BlackjackTable(BlackjackRules(), source)
    rnd = table.open_round()
    rnd.place_bet(1, "ana", main=10)
    rnd.close_betting()
    ops = list(rnd.operations)
    with pytest.raises(LookupError):
        rnd.hit()  # no card for the hit
    assert rnd.operations == ops and source.cards_left == 0
    source.add_cards(["3C", "TD"])
    rnd.hit()  # the same answer, tried again once the card is there
    assert [str(c) for c in rnd.boxes[1].hands[0].cards] == ["TS", "5D", "3C"]


# -- the replay registry ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "first",
    ["croupier.replay", "croupier.replay.core", "croupier.replay.blackjack", "croupier.replay.wager",
     "croupier.replay.explain", "croupier.replay.common"],
)  # fmt: skip
def test_every_replay_module_imports_first_without_a_cycle(first: str) -> None:
    code = f"import {first}\nfrom croupier.replay.core import RUNNERS\nprint(sorted(RUNNERS))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['blackjack', 'roulette', 'sicbo']"


def test_the_replay_registry_is_one_table_imported_at_module_level() -> None:
    from croupier.replay import blackjack, wager
    from croupier.replay.core import RUNNERS

    assert RUNNERS == {"blackjack": blackjack.RUNNER, "roulette": wager.ROULETTE, "sicbo": wager.SICBO}
    tree = ast.parse((SRC / "replay" / "core.py").read_text(encoding="utf-8"))
    nested = [
        node
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef)
        for node in ast.walk(fn)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    assert nested == []


def test_croupier_errors_are_the_refusals_can_reports() -> None:
    assert issubclass(BetRejected, CroupierError) and issubclass(OutOfTurn, CroupierError)


def test_bj_1_decks_and_boxes_above_what_croupier_takes_say_so() -> None:
    with pytest.raises(CroupierError) as info:
        bj_rules.load({"decks": 101, "boxes": 101})
    assert "decks 101 is more than croupier takes (100" in info.value.message
    assert "boxes 101 is more than croupier takes (100" in info.value.message


def test_an_answer_records_the_question_it_answered() -> None:
    rnd = split_round()
    rnd.split()
    rnd.decline(player="bo")
    rnd.decline()
    answers = [(op.action, op.question) for op in rnd.operations if isinstance(op, Answered)]
    assert answers == [("split", "play"), ("decline", "follow"), ("decline", "any_pair")]


def test_bj_2_2_a_random_shoe_that_runs_out_mid_round_is_restocked_from_its_discards() -> None:
    from collections import Counter

    from croupier.blackjack.operations import Burned, Dealt, Shuffled

    table = BlackjackTable(BlackjackRules(decks=1, surrender=False), SeededRandom(7))
    restocked = 0
    for _ in range(60):
        rnd = table.open_round()
        for box in range(1, 8):
            rnd.place_bet(box, f"p{box}", main=10)
        rnd.close_betting()
        while (q := rnd.pending) is not None:
            rnd.act("hit" if "hit" in q.actions else ("stand" if "stand" in q.actions else "decline"))
        ops = rnd.operations
        if any(isinstance(op, Shuffled) and op.discards for op in ops):
            restocked += 1
            at = next(i for i, op in enumerate(ops) if isinstance(op, Shuffled) and op.discards)
            in_play = [op.card for op in ops[:at] if isinstance(op, Dealt)]  # on the table when the shoe ran out
            after = [op.card for op in ops[at:] if isinstance(op, Dealt | Burned)]
            assert max(Counter(after).values()) == 1  # one deck: every card once
            assert not set(after) & set(in_play)  # only the discards went back in
    assert restocked > 0
