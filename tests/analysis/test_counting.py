"""Card counting's data side (issue 15, item 3): the built-in systems against a second published table, the
count the kernel bets by, bet ramps, index plays and their tables, the example files, every refusal with the
value it names — and the systems' betting and insurance correlations computed from croupier's own exact
analysis against the published figures."""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import typer

from croupier import cli
from croupier.analysis import _sim_kernels as sk
from croupier.analysis import counting as c
from croupier.analysis.chart import DOUBLE_HIT, HIT, STAND, Chart
from croupier.blackjack.rules import STATUTE, DealerSoft17, SplitPairBy
from croupier.errors import InvalidInput

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "counting"

# == counting systems ========================================================================================

SECOND_SOURCE = {
    #              A   2    3  4  5    6  7    8  9     ten
    "hi-lo": (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
    "ko": (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1),
    "hi-opt-i": (0, 0, 1, 1, 1, 1, 0, 0, 0, -1),
    "hi-opt-ii": (0, 1, 1, 2, 2, 1, 1, 0, 0, -2),
    "omega-ii": (0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
    "zen": (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2),
    "wong-halves": (-1, 0.5, 1, 1, 1.5, 1, 0.5, 0, -0.5, -1),
}
"""The tags as a second source prints them: Blackjack Apprenticeship, "Card Counting Systems"
(blackjackapprenticeship.com/resources/card-counting-systems), checked against the comparison table of
lifesagambol.com/card-counting-systems.html (sourced from QFIT and the Blackjack Review encyclopedia)."""


@pytest.mark.parametrize("name", list(SECOND_SOURCE))
def test_built_in_tags_match_a_second_published_table(name: str) -> None:
    system = c.SYSTEMS[name]
    assert system.tags == tuple(Fraction(str(t)) for t in SECOND_SOURCE[name])
    assert c.count_system(name) is system


def test_every_built_in_but_ko_is_balanced_and_ko_is_four_a_deck() -> None:
    for name, system in c.SYSTEMS.items():
        assert system.balanced is (name != "ko")
        assert system.uses_true_count is system.balanced
    assert c.SYSTEMS["ko"].imbalance_per_deck == 4
    assert c.SYSTEMS["hi-lo"].initial_running_count(6) == 0


@pytest.mark.parametrize(("decks", "irc"), [(1, 0), (2, -4), (6, -20), (8, -28)])
def test_ko_initial_running_count_is_its_published_4_minus_4_per_deck(decks: int, irc: int) -> None:
    # Vancura and Fuchs, Knock-Out Blackjack (1998): IRC = 4 - 4 x decks.
    assert c.SYSTEMS["ko"].initial_running_count(decks) == irc == 4 - 4 * decks


def test_wong_halves_is_counted_in_half_units() -> None:
    halves = c.SYSTEMS["wong-halves"]
    assert halves.scale == 2
    assert halves.scaled_tags() == (-2, 1, 2, 2, 3, 2, 1, 0, -1, -2)
    assert all(s.scale == 1 for n, s in c.SYSTEMS.items() if n != "wong-halves")
    assert halves.running_count([5, 5, 10], decks=6) == 3 + 3 - 2


@pytest.mark.parametrize("alias", ["hilo", "Hi-Lo", " HI_LO ", "halves", "Wong Halves", "omega-2", "knock-out"])
def test_aliases_name_the_built_in_systems(alias: str) -> None:
    assert c.count_system(alias) in c.SYSTEMS.values()


def test_an_unknown_system_lists_the_known_ones() -> None:
    with pytest.raises(InvalidInput, match=r"unknown counting system 'red-7'.*hi-lo, ko, hi-opt-i"):
        c.count_system("red-7")


def test_a_tags_file_loads_with_fractions_and_a_fixed_irc(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('name = "Mine"\ntags = [-1, "1/2", 1, 1, 1.5, 1, 0.5, 0, -0.5, -1]\ninitial_running_count = -3\n')
    system = c.count_system(path)
    assert system.name == "Mine"
    assert system.tags == c.SYSTEMS["wong-halves"].tags
    assert system.initial_running_count(6) == -6  # -3 in half units
    js = tmp_path / "mine.json"
    js.write_text('{"tags": [-1, 1, 1, 1, 1, 1, 1, 0, 0, -1]}')
    assert c.count_system(str(js)).imbalance_per_deck == 4
    assert c.count_system(js).name == "mine"


def test_the_example_tags_file_is_uston_apc_balanced() -> None:
    system = c.count_system(EXAMPLES / "tags.toml")
    assert system.name == "Uston APC"
    assert system.scaled_tags() == (0, 1, 2, 2, 3, 2, 2, 1, -1, -3)
    assert system.balanced


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("tags = [-1, 1, 1, 1, 1, 0, 0, 0, -1]", r"has 9 tags; it needs 10, one per card value: ace, 2, 3"),
        ("tags = [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1, 0]", r"has 11 tags; it needs 10"),
        ('tags = [-1, 1, 1, 1, "x", 1, 0, 0, 0, -1]', r"the tag of 5 must be a number, not 'x'"),
        ("tags = [-1, 1, 1, 1, true, 1, 0, 0, 0, -1]", r"the tag of 5 must be a number, not True"),
        ("tags = 3", r"tags 3 .* must be a list of 10 numbers"),
        ('name = "x"', r"has no tags"),
        ("tags = [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1]\nbalance = 0", r"unknown key 'balance'"),
        ('tags = ["1/2", 1, 1, 1, 1, 1, 0, 0, 0, -1]\ninitial_running_count = 0.25', r"initial running count 1/4"),
        ("tags = [-1, 1, 1", r"is not valid TOML"),
        ('tags = [-1, "1/1001", 1, 1, 1, 1, 0, 0, 0, -1]', r"whole only in units of 1/1001"),
    ],
)
def test_a_bad_tags_file_is_refused_naming_the_value(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(InvalidInput, match=message):
        c.count_system(path)


def test_an_unreadable_tags_file_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match=r"cannot read the tags file '.*missing\.toml'"):
        c.count_system(tmp_path / "missing.toml")


def test_the_cli_reports_a_counting_error_with_exit_2(capsys: pytest.CaptureFixture[str], wide: None) -> None:
    with pytest.raises(InvalidInput) as caught:
        c.count_system("red-7")
    exit_ = cli._fail(caught.value)
    assert isinstance(exit_, typer.Exit)
    assert exit_.exit_code == 2
    assert "unknown counting system 'red-7'" in capsys.readouterr().err


# == the round's count =======================================================================================


def test_the_true_count_is_floored_by_exact_cards_or_half_decks() -> None:
    hilo, ko, halves = c.SYSTEMS["hi-lo"], c.SYSTEMS["ko"], c.SYSTEMS["wong-halves"]
    assert hilo.count(7, 156) == 2  # 7 / 3 decks = 2.33
    assert hilo.count(-7, 156) == -3  # -2.33 floors to -3
    assert hilo.count(6, 156) == 2
    assert hilo.count(5, 130, "exact") == 2  # 5 / 2.5
    assert hilo.count(5, 140, "half_deck") == 2  # 140 cards are 2.69 decks, rounded to 2.5
    assert hilo.count(5, 140, "exact") == 1  # 5 / 2.69 = 1.86
    assert hilo.count(5, 1, "half_deck") == 10  # at least half a deck
    assert hilo.count(3, 39, "half_deck") == 3  # three quarters of a deck round up to one deck
    assert hilo.count(3, 38, "half_deck") == 6  # just under: half a deck
    assert hilo.count(10**6, 52) == c.COUNT_MAX
    assert hilo.count(-(10**6), 52) == c.COUNT_MIN
    assert halves.count(-7, 104) == -2  # -3.5 points / 2 decks = -1.75
    assert ko.count(-21, 52) == -21  # the running count itself
    assert ko.count(-99, 52) == c.COUNT_MIN


def test_the_count_modes_are_the_kernels() -> None:
    assert c.SYSTEMS["ko"].count_mode("half_deck") == c.TC_RUNNING == 0
    assert c.SYSTEMS["zen"].count_mode("exact") == c.TC_EXACT == 1
    assert c.SYSTEMS["zen"].count_mode("half_deck") == c.TC_HALF_DECK == 2
    assert (c.COUNT_MIN, c.COUNT_MAX, c.NO_INDEX) == (sk.COUNT_MIN, sk.COUNT_MAX, sk.NO_INDEX)
    assert (c.T_INS, c.T_ROWS) == (112, 113)
    with pytest.raises(InvalidInput, match=r"true-count method 'decks' is not one of exact, half_deck"):
        c.SYSTEMS["hi-lo"].count(1, 52, "decks")
    with pytest.raises(InvalidInput, match=r"cards left 0"):
        c.SYSTEMS["hi-lo"].count(1, 0)


def test_the_kernels_count_agrees_with_the_reference() -> None:
    g = np.zeros(sk.G_SIZE, np.int64)
    for name, method in itertools.product(("hi-lo", "ko", "wong-halves"), ("exact", "half_deck")):
        system = c.SYSTEMS[name]
        g[sk.G_SCALE] = system.scale
        g[sk.G_TRUE] = system.count_mode(method)
        for running, left in itertools.product(range(-75, 76, 7), (1, 12, 13, 14, 25, 26, 39, 40, 52, 311, 416)):
            assert sk._count_of(g, running, left) == system.count(running, left, method), (name, method)


# == ramps ===================================================================================================


def test_the_example_ramp_loads_and_tabulates_its_units() -> None:
    ramp = c.load_ramp(EXAMPLES / "ramp.toml")
    assert ramp.steps == ((-30, 1), (2, 2), (3, 4), (4, 8), (5, 12))
    table = ramp.units_table()
    assert len(table) == c.COUNT_MAX - c.COUNT_MIN + 1
    assert [table[k - c.COUNT_MIN] for k in (-30, 0, 1, 2, 3, 4, 5, 30)] == [1, 1, 1, 2, 4, 8, 12, 12]
    assert (ramp.wong_in, ramp.wong_out, ramp.enter_at, ramp.leave_below) == (None, -1, -1, -1)
    assert ramp.side_bets == (("over_13", 3),)
    assert ramp.side_bet_thresholds() == (c.NO_INDEX, c.NO_INDEX, 3, c.NO_INDEX, c.NO_INDEX)


def test_below_the_first_step_the_first_units_are_bet() -> None:
    ramp = c.Ramp(steps=((1, 2), (3, 5)))
    assert ramp.units_table()[: 30 + 2] == [2] * 32
    assert ramp.units_at(2) == 2
    assert ramp.units_at(3) == 5


def test_flat_bets_one_unit_always_and_never_wongs() -> None:
    assert set(c.FLAT.units_table()) == {1}
    assert c.FLAT.starts_in
    assert all(c.FLAT.plays(k, playing) for k in range(c.COUNT_MIN, c.COUNT_MAX + 1) for playing in (True, False))
    assert c.FLAT.side_bet_thresholds() == (c.NO_INDEX,) * 5
    assert c.ramp("flat") is c.FLAT


def test_wonging_in_and_out_with_a_gap() -> None:
    ramp = c.Ramp(steps=((-30, 1),), wong_in=2, wong_out=-1)
    assert not ramp.starts_in  # back-counts from the top of the shoe
    assert not ramp.plays(1, playing=False)
    assert ramp.plays(2, playing=False)
    assert ramp.plays(-1, playing=True)
    assert not ramp.plays(-2, playing=True)
    assert not ramp.plays(0, playing=False)  # out stays out until the count reaches wong_in again
    only_in = c.Ramp(steps=((-30, 1),), wong_in=-2)
    assert only_in.starts_in
    assert only_in.leave_below == c.COUNT_MIN


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"steps": ((-30, 1), (2, 4), (3, 2))},
            r"units fall from 4 at count 2 to 2 at count 3: units must not decrease",
        ),
        ({"steps": ((-30, 1), (2, 2), (2, 4))}, r"counts must strictly increase: count 2 follows count 2"),
        ({"steps": ((-30, 1), (3, 2), (1, 4))}, r"count 1 follows count 3"),
        ({"steps": ((-30, 0),)}, r"step 1: units 0 must be at least 1"),
        ({"steps": ((-30, 1.5),)}, r"step 1: units 1.5 must be a whole number"),
        ({"steps": ((0.5, 1),)}, r"step 1: count 0.5 must be a whole number"),
        ({"steps": ((True, 1),)}, r"step 1: count True must be a whole number"),
        ({"steps": ((-40, 1),)}, r"count -40 is outside the counts -30..30"),
        ({"steps": ()}, r"ramp steps \(\) must be a non-empty list"),
        ({"steps": ((1, 2, 3),)}, r"ramp step 1 \(1, 2, 3\) must be a \[count, units\] pair"),
        ({"steps": ((-30, 1),), "wong_in": 1, "wong_out": 2}, r"wong_out 2 is above wong_in 1"),
        ({"steps": ((-30, 1),), "wong_out": 1.0}, r"wong_out 1.0 must be a whole number"),
        ({"steps": ((-30, 1),), "side_bets": (("streak", 3),)}, r"unknown side bet 'streak' \(the side bets: any_pair"),
        ({"steps": ((-30, 1),), "side_bets": (("sevens", "3"),)}, r"side bet 'sevens': count '3' must be a whole"),
        ({"steps": ((-30, 1),), "side_units": 0}, r"side_units 0 must be at least 1"),
    ],
)
def test_a_bad_ramp_is_refused_naming_the_value(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        c.Ramp(**kwargs)  # type: ignore[arg-type]


def test_every_problem_of_a_ramp_is_reported_at_once() -> None:
    with pytest.raises(InvalidInput, match=r"2 problems in the ramp 'ramp': .*units 0.*wong_out 3 is above wong_in 1"):
        c.Ramp(steps=((-30, 0),), wong_in=1, wong_out=3)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("steps = [[-30, 1], [2, 4], [3, 2]]", r"units fall from 4 at count 2 to 2 at count 3"),
        ("steps = [[-30, 1]]\n[side_bets]\nblackjack = 2", r"unknown side bet 'blackjack'"),
        ("steps = [[-30, 1]]\nspread = 12", r"unknown key 'spread' in the ramp file"),
        ("wong_out = 1", r"has no steps"),
        ("steps = [[-30, 1]]\nside_bets = 3", r"side_bets 3 .* must be a table"),
    ],
)
def test_a_bad_ramp_file_is_refused_naming_the_value(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "ramp.toml"
    path.write_text(text)
    with pytest.raises(InvalidInput, match=message):
        c.ramp(path)


def test_a_json_ramp_loads(tmp_path: Path) -> None:
    path = tmp_path / "ramp.json"
    path.write_text('{"steps": [[-30, 1], [1, 3]], "wong_in": 1, "side_bets": {"perfect_pairs": 4}, "side_units": 2}')
    ramp = c.ramp(path)
    assert ramp.units_at(1) == 3
    assert ramp.side_bet_thresholds()[4] == 4
    assert ramp.side_units == 2
    with pytest.raises(InvalidInput, match=r"cannot read the ramp file"):
        c.ramp(tmp_path / "none.toml")


# == index plays =============================================================================================


def test_the_example_index_file_loads() -> None:
    plays = c.load_indices(EXAMPLES / "indices.toml")
    assert [p.hand for p in plays] == ["insurance", "hard 16", "hard 12", "pair 10", "hard 11", "surrender hard 15"]
    assert plays[0] == c.IndexPlay("insurance", 0, 1, 3, "insure")
    assert plays[2].below == "hit"
    assert plays[4].up == 1
    assert plays[5].row == c.T_SUR_HARD + 15


def test_the_built_in_sets() -> None:
    i18, fab4 = c.load_indices("illustrious18"), c.load_indices("fab4")
    assert len(i18) == 18
    assert len(fab4) == 4
    assert c.load_indices("i18+fab4") == i18 + fab4
    assert c.load_indices("I18") is i18
    assert c.load_indices("none") == ()
    by_hand = {(p.hand, p.up): p for p in i18 + fab4}
    assert by_hand[("insurance", 1)].at == 3
    assert by_hand[("hard 16", 10)].at == 0
    assert by_hand[("pair 10", 5)].at == 5
    assert by_hand[("hard 13", 3)] == c.IndexPlay("hard", 13, 3, -2, "stand", "hit")
    assert by_hand[("surrender hard 14", 10)].at == 3
    with pytest.raises(InvalidInput, match=r"unknown index set 'illustrious19': the built-in sets are illustrious18"):
        c.load_indices("illustrious19")


def _index_file(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "indices.toml"
    path.write_text(body)
    return path


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('hand = "double 11"\nup = 10\nat = 1\nabove = "double"', r"unknown decision in hand 'double 11'"),
        ('hand = "hard"\nup = 10\nat = 1\nabove = "stand"', r"unknown decision in hand 'hard'"),
        ('hand = "pair 1"\nup = 10\nat = 1\nabove = "split"', r"hand 'pair 1': '1' is not a pair \(A, 2..10\)"),
        ('hand = "hard 23"\nup = 10\nat = 1\nabove = "stand"', r"'23' is not a hard \(4..21\)"),
        (
            'hand = "pair 8"\nup = 10\nat = 1\nabove = "stand"',
            r"'stand' is an action that does not fit the hand 'pair 8'",
        ),
        ('hand = "hard 16"\nup = 10\nat = 1\nabove = "fold"', r"'fold' is an unknown action .*hit, stand, double"),
        ('hand = "hard 16"\nup = 10\nat = 0\nabove = "stand"\nbelow = "insure"', r"below = 'insure' is an action"),
        ('hand = "hard 16"\nup = 11\nat = 0\nabove = "stand"', r"up card 11 is outside A-10"),
        ('hand = "hard 16"\nup = 1\nat = 0\nabove = "stand"', r"up card 1 is outside A-10"),
        ('hand = "hard 16"\nup = "K"\nat = 0\nabove = "stand"', r"up card 'K' is outside A-10"),
        ('hand = "hard 16"\nat = 0\nabove = "stand"', r"has no 'up' card"),
        ('hand = "insurance"\nup = 10\nat = 3\nabove = "insure"', r"insurance is offered only against an ace"),
        ('hand = "hard 16"\nup = 10\nat = 0.5\nabove = "stand"', r"at 0.5 must be a whole number"),
        ('hand = "hard 16"\nup = 10\nat = 31\nabove = "stand"', r"index of hard 16 against 10 31 is outside"),
        ('hand = "hard 16"\nup = 10\nat = 0\nabove = "stand"\nbelow = "stand"', r"plays stand both sides"),
        ('hand = "hard 16"\nup = 10\nat = 0\nabove = "stand"\nwhen = 1', r"unknown key 'when' in index play 1"),
        ('hand = "hard 16"\nup = 10\nabove = "stand"', r"index play 1 of .* has no 'at'"),
    ],
)
def test_a_bad_index_play_is_refused_naming_the_value(tmp_path: Path, entry: str, message: str) -> None:
    with pytest.raises(InvalidInput, match=message):
        c.load_indices(_index_file(tmp_path, f"[[play]]\n{entry}\n"))


def test_a_duplicate_index_play_is_refused(tmp_path: Path) -> None:
    entry = '[[play]]\nhand = "hard 16"\nup = 10\nat = {}\nabove = "stand"\n'
    with pytest.raises(InvalidInput, match=r"index play for hard 16 against 10 is given twice"):
        c.load_indices(_index_file(tmp_path, entry.format(0) + entry.format(1)))
    with pytest.raises(InvalidInput, match=r"insurance against A is given twice"):
        c.load_indices([*c.ILLUSTRIOUS_18, c.IndexPlay("insurance", 0, 1, 2, "insure")])


def test_an_unknown_decision_is_refused_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], wide: None
) -> None:
    path = _index_file(tmp_path, '[[play]]\nhand = "split 8"\nup = 10\nat = 0\nabove = "split"\n')
    with pytest.raises(InvalidInput) as caught:
        c.load_indices(path)
    assert cli._fail(caught.value).exit_code == 2
    assert "unknown decision in hand 'split 8'" in capsys.readouterr().err


# == the kernel's tables =====================================================================================


def _small_chart() -> Chart:
    hard = np.full((22, 11), HIT, np.int8)
    hard[17:] = STAND
    hard[12:17, 2:7] = STAND
    hard[11] = DOUBLE_HIT
    soft = np.full((22, 11), HIT, np.int8)
    soft[19:] = STAND
    split = np.zeros((11, 11), np.bool_)
    split[1] = split[8] = True
    sur_hard = np.zeros((22, 11), np.bool_)
    sur_hard[15, 10] = True
    return Chart(hard=hard, soft=soft, split=split, surrender_hard=sur_hard)


def test_pack_chart_places_every_part_and_never_insures() -> None:
    chart = _small_chart()
    table = c.pack_chart(chart)
    assert table.shape == (c.T_ROWS, 11)
    assert table.dtype == np.int8
    assert (table[c.T_HARD : c.T_HARD + 22] == chart.hard).all()
    assert (table[c.T_SPLIT : c.T_SPLIT + 11] == chart.split).all()
    assert table[c.T_SUR_HARD + 15, 10] == 1
    assert not table[c.T_INS].any()


def test_an_index_changes_exactly_its_cell() -> None:
    table = c.pack_chart(_small_chart())
    play = c.IndexPlay("hard", 16, 10, 0, "stand")
    at, above, below = c.index_tables([play], table, even_money_on_ten=False)
    assert at.dtype == np.int64
    assert above.dtype == below.dtype == np.int8
    assert at.shape == above.shape == below.shape == (c.T_ROWS, 11)
    changed = np.argwhere(at != c.NO_INDEX)
    assert changed.tolist() == [[c.T_HARD + 16, 10]]
    assert (above != table).sum() == 1
    assert above[c.T_HARD + 16, 10] == STAND
    assert (below == table).all()  # no below: the chart's hit


def test_an_index_with_below_changes_both_sides() -> None:
    table = c.pack_chart(_small_chart())
    plays = [c.IndexPlay("hard", 12, 4, 0, "stand", "hit"), c.IndexPlay("pair", 8, 10, 3, "no_split", "split")]
    at, above, below = c.index_tables(plays, table, False)
    assert at[c.T_HARD + 12, 4] == 0
    assert (above[c.T_HARD + 12, 4], below[c.T_HARD + 12, 4]) == (STAND, HIT)
    assert (above[c.T_SPLIT + 8, 10], below[c.T_SPLIT + 8, 10]) == (0, 1)
    assert (above != table).sum() == 1  # 12 v 4 stands in the chart already
    assert (below != table).sum() == 1


@pytest.mark.parametrize("even_money_on_ten", [False, True])
def test_even_money_against_an_ace_follows_the_insurance_index(even_money_on_ten: bool) -> None:
    chart = _small_chart()
    at, above, below = c.index_tables([c.IndexPlay("insurance", 0, 1, 3, "insure")], chart, even_money_on_ten)
    assert at[c.T_INS, 1] == at[c.T_EVEN, 1] == 3
    assert above[c.T_INS, 1] == above[c.T_EVEN, 1] == 1
    assert below[c.T_INS, 1] == below[c.T_EVEN, 1] == 0
    # Against a ten the dealer's blackjack is a hole ace, which a count of tens does not measure.
    assert at[c.T_EVEN, 10] == c.NO_INDEX
    assert above[c.T_EVEN, 10] == below[c.T_EVEN, 10] == 0
    assert (at != c.NO_INDEX).sum() == 2


def test_the_illustrious_18_and_fab_4_fill_their_cells() -> None:
    at, above, below = c.index_tables(c.load_indices("i18+fab4"), _small_chart(), True)
    assert (at != c.NO_INDEX).sum() == 18 + 4 + 1  # and even money with insurance
    assert at[c.T_SPLIT + 10, 6] == 4
    assert above[c.T_SPLIT + 10, 6] == 1
    assert at[c.T_SUR_HARD + 15, 10] == 0
    assert (above[c.T_SUR_HARD + 15, 10], below[c.T_SUR_HARD + 15, 10]) == (1, 0)
    assert (above[c.T_HARD + 11, 1], below[c.T_HARD + 11, 1]) == (DOUBLE_HIT, DOUBLE_HIT)


def test_index_tables_refuse_a_table_of_another_shape() -> None:
    with pytest.raises(InvalidInput, match=r"chart table has shape \(112, 11\); the kernel's is \(113, 11\)"):
        c.index_tables([], np.zeros((112, 11), np.int8), False)


# == betting and insurance correlations ======================================================================

PUBLISHED = {
    # system: (BC, IC)
    "hi-lo": (0.97, 0.76),
    "ko": (0.98, 0.78),
    "hi-opt-i": (0.88, 0.85),
    "hi-opt-ii": (0.91, 0.91),
    "omega-ii": (0.92, 0.85),
    "zen": (0.96, 0.85),
    "wong-halves": (0.99, 0.72),
}
"""The betting and insurance correlations as lifesagambol.com/card-counting-systems.html tabulates them from QFIT
and the Blackjack Review encyclopedia (the same figures in Blackjack Apprenticeship's "Card Counting Systems"),
to two decimals. They go back to Griffin's method (The Theory of Blackjack): the correlation, over the 52 cards
of a deck, between the tags and the single-deck effects of removal of the basic-strategy player, for the
Las Vegas Strip game (dealer stands on soft 17, hole card and peek, double on any two cards, no double after a
split, no surrender)."""

GRIFFIN_GAME = dataclasses.replace(
    STATUTE,
    decks=1,
    procedure=3,
    peek=True,
    dealer_soft_17=DealerSoft17.STAND,
    surrender=False,
    five_card_payment=False,
    special_bonus=False,
    double_after_split=False,
    max_split_hands=2,
    resplit_aces=False,
    split_pair_by=SplitPairBy.VALUE,
)
"""The published figures' game in croupier's rules: one deck, procedure 3 with the peek, dealer stands on soft 17,
double on any two, no double after split, one split, no surrender, none of the Macau payments (BJ 15, BJ 19)."""


@pytest.fixture(scope="module")
def eors() -> tuple[float, ...]:
    return c.effects_of_removal(GRIFFIN_GAME)


def test_the_effects_of_removal_have_the_published_shape(eors: tuple[float, ...]) -> None:
    # The five is the best card to remove and the ace the worst; removing a deck's worth sums to about nothing.
    assert max(eors) == eors[4]
    assert min(eors) == eors[0]
    assert abs(sum(n * e for n, e in zip(c.DECK_COUNTS, eors, strict=True))) < 0.01


@pytest.mark.parametrize("name", list(PUBLISHED))
def test_betting_correlation_matches_the_published_figure(name: str, eors: tuple[float, ...]) -> None:
    bc = c.betting_correlation(name, eors)
    assert bc == pytest.approx(PUBLISHED[name][0], abs=0.01)


@pytest.mark.parametrize("name", list(PUBLISHED))
def test_insurance_correlation_matches_the_published_figure(name: str) -> None:
    assert c.insurance_correlation(name) == pytest.approx(PUBLISHED[name][1], abs=0.01)


def test_insurance_effects_are_exact_and_ten_against_the_rest() -> None:
    one = c.insurance_eors(1)
    assert one[:9] == (Fraction(8, 425),) * 9
    assert one[9] == Fraction(-7, 170)  # 35 non-tens against 16 tens left after the up ace
    assert sum(n * e for n, e in zip(c.DECK_COUNTS[:9], one[:9], strict=True)) + 15 * one[9] != 0
    assert c.betting_correlation("hi-lo", [float(e) for e in c.insurance_eors(6)]) == pytest.approx(
        c.insurance_correlation("hi-lo"), abs=1e-12
    )


def test_a_perfect_insurance_count_correlates_one() -> None:
    ten_count = c.CountSystem("tens", tuple(Fraction(t) for t in (4, 4, 4, 4, 4, 4, 4, 4, 4, -9)))
    assert c.insurance_correlation(ten_count) == pytest.approx(1.0)
    with pytest.raises(InvalidInput, match=r"3 effects of removal given; give 10"):
        c.betting_correlation("hi-lo", [0.1, 0.2, 0.3])
