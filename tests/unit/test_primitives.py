"""Primitives: playing cards, the roulette wheel and layout geometry, dice, and the live chance source."""

from __future__ import annotations

from collections import Counter

import pytest

from croupier.primitives import wheel
from croupier.primitives.cards import RANKS, SUITS, Card, Rank, Suit, deck, format_card, parse_card
from croupier.primitives.chance import ChanceExhausted, LiveSource, ScriptedSource, queue_reader
from croupier.primitives.dice import ALL_ROLLS, FACES, check_dice, is_triple, opposite

# -- cards --------------------------------------------------------------------------------------------------------


class TestCards:
    def test_ten_parses_from_t_and_10(self) -> None:
        assert parse_card("TS") == parse_card("10S") == Card(Rank.TEN, Suit.SPADES)

    @pytest.mark.parametrize(
        ("text", "rank", "suit"),
        [
            ("AS", Rank.ACE, Suit.SPADES),
            ("2H", Rank.TWO, Suit.HEARTS),
            ("9D", Rank.NINE, Suit.DIAMONDS),
            ("JC", Rank.JACK, Suit.CLUBS),
            ("QH", Rank.QUEEN, Suit.HEARTS),
            ("KD", Rank.KING, Suit.DIAMONDS),
            ("10C", Rank.TEN, Suit.CLUBS),
        ],
    )
    def test_parse(self, text: str, rank: Rank, suit: Suit) -> None:
        assert parse_card(text) == Card(rank, suit)

    def test_format_round_trips_every_card(self) -> None:
        for card in deck():
            text = format_card(card)
            assert len(text) == 2
            assert text == str(card)
            assert parse_card(text) == card
        assert format_card(parse_card("10S")) == "TS"

    def test_pretty(self) -> None:
        assert parse_card("TH").pretty() == "10♥"
        assert parse_card("AS").pretty() == "A♠"
        assert parse_card("QD").pretty() == "Q♦"
        assert parse_card("2C").pretty() == "2♣"

    @pytest.mark.parametrize(
        "text", ["", "A", "1S", "11S", "TX", "ts", "As", "S10", "10", "AS ", " AS", "100S", "0S", "1", None, 10, b"AS"]
    )
    def test_bad_inputs_are_refused_naming_the_text(self, text: object) -> None:
        with pytest.raises(ValueError) as info:
            parse_card(text)
        assert repr(text) in str(info.value)

    def test_colour(self) -> None:
        assert parse_card("AH").colour == parse_card("AD").colour == "red"
        assert parse_card("AS").colour == parse_card("AC").colour == "black"
        assert {s: s.colour for s in Suit} == {
            Suit.SPADES: "black",
            Suit.HEARTS: "red",
            Suit.DIAMONDS: "red",
            Suit.CLUBS: "black",
        }

    def test_values_ace_one_pictures_ten(self) -> None:
        values = {r: Card(r, Suit.SPADES).value for r in Rank}
        assert values[Rank.ACE] == 1
        for pip in range(2, 10):
            assert values[Rank(str(pip))] == pip
        for ten in (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING):
            assert values[ten] == 10
            assert ten.is_ten_value
        assert [r for r in Rank if r.is_ten_value] == [Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING]

    def test_a_deck_is_52_distinct_cards_without_jokers(self) -> None:
        cards = deck()
        assert len(cards) == 52 == len(set(cards))
        assert len(RANKS) == 13
        assert len(SUITS) == 4
        assert Counter(c.suit for c in cards) == dict.fromkeys(Suit, 13)
        assert Counter(c.rank for c in cards) == dict.fromkeys(Rank, 4)
        # Total blackjack value of a deck: 4 · (1 + 2 + … + 9 + 4·10) = 4 · 85 = 340.
        assert sum(c.value for c in cards) == 340

    def test_cards_are_frozen_and_hashable(self) -> None:
        card = parse_card("7S")
        with pytest.raises(AttributeError):
            card.rank = Rank.EIGHT  # type: ignore[misc]
        assert {card, parse_card("7S")} == {card}


# -- wheel and layout ---------------------------------------------------------------------------------------------


class TestWheel:
    def test_pockets_and_colours(self) -> None:
        assert tuple(range(37)) == wheel.POCKETS
        assert len(wheel.RED) == len(wheel.BLACK) == 18
        assert set(range(1, 37)) == wheel.RED | wheel.BLACK
        assert wheel.colour(0) is wheel.Colour.GREEN
        assert wheel.colour(1) is wheel.Colour.RED
        assert wheel.colour(2) is wheel.Colour.BLACK

    @pytest.mark.parametrize("bad", [-1, 37, True, 1.0, "1", None])
    def test_check_pocket_refuses_non_pockets(self, bad: object) -> None:
        with pytest.raises(ValueError, match="RO 1"):
            wheel.check_pocket(bad)

    def test_wheel_neighbours(self) -> None:
        assert wheel.wheel_neighbours(0) == (26, 32)
        assert wheel.wheel_neighbours(0, 2) == (3, 26, 32, 15)
        assert wheel.wheel_neighbours(26) == (3, 0)
        assert wheel.wheel_neighbours(17, 1) == (25, 34)

    def test_rows_and_columns(self) -> None:
        assert [wheel.row_of(n) for n in (1, 3, 4, 34, 36)] == [0, 0, 1, 11, 11]
        assert [wheel.column_of(n) for n in (1, 2, 3, 34, 35, 36)] == [1, 2, 3, 1, 2, 3]

    def test_splits_60(self) -> None:
        # Inside splits: 12 rows × 2 side-by-side pairs = 24, plus 11 row boundaries × 3 columns = 33
        # one above the other: 57. With 0-1, 0-2 and 0-3: 57 + 3 = 60.
        assert len(wheel.SPLITS) == 60
        assert {frozenset({0, 1}), frozenset({0, 2}), frozenset({0, 3})} <= wheel.SPLITS
        inside = {s for s in wheel.SPLITS if 0 not in s}
        assert len(inside) == 12 * 2 + 11 * 3 == 57
        for pair in inside:
            a, b = sorted(pair)
            assert b - a == 3 or (b - a == 1 and wheel.row_of(a) == wheel.row_of(b))
        assert frozenset({3, 4}) not in wheel.SPLITS

    def test_streets_14(self) -> None:
        # 12 rows + the trios 0-1-2 and 0-2-3.
        assert len(wheel.STREETS) == 14
        assert {frozenset({0, 1, 2}), frozenset({0, 2, 3})} <= wheel.STREETS
        assert frozenset({0, 1, 3}) not in wheel.STREETS
        assert all(len(s) == 3 for s in wheel.STREETS)

    def test_corners_23(self) -> None:
        # 11 row boundaries × 2 column boundaries = 22, plus 0-1-2-3.
        assert len(wheel.CORNERS) == 23
        assert frozenset({0, 1, 2, 3}) in wheel.CORNERS
        assert frozenset({1, 2, 4, 5}) in wheel.CORNERS
        assert frozenset({32, 33, 35, 36}) in wheel.CORNERS
        assert frozenset({2, 3, 4, 5}) not in wheel.CORNERS
        assert frozenset({3, 4, 6, 7}) not in wheel.CORNERS

    def test_six_lines_11(self) -> None:
        assert len(wheel.SIX_LINES) == 11
        assert {frozenset(range(n, n + 6)) for n in range(1, 32, 3)} == wheel.SIX_LINES

    def test_nine_blocks_10(self) -> None:
        assert len(wheel.NINE_BLOCKS) == 10
        assert tuple(frozenset(range(n, n + 9)) for n in range(1, 29, 3)) == wheel.NINE_BLOCKS

    def test_twelve_number_bets(self) -> None:
        a, b = wheel.TWELVE_SPECIAL
        assert len(a) == len(b) == 12
        assert not a & b
        assert a == {1, 3, 5, 13, 15, 17, 20, 22, 24, 32, 34, 36}
        assert b == {2, 4, 6, 14, 16, 18, 19, 21, 23, 31, 33, 35}
        for group in (wheel.COLUMNS, wheel.DOZENS):
            assert len(group) == 3
            assert all(len(g) == 12 for g in group)
            assert frozenset().union(*group) == set(range(1, 37))
            assert sum(len(g) for g in group) == 36
        assert wheel.COLUMNS[0] == set(range(1, 35, 3))
        assert wheel.DOZENS[2] == set(range(25, 37))

    def test_even_money_sets(self) -> None:
        assert set(range(1, 19)) == wheel.LOW
        assert set(range(19, 37)) == wheel.HIGH
        assert set(range(1, 37, 2)) == wheel.ODD
        assert set(range(2, 37, 2)) == wheel.EVEN
        for x, y in ((wheel.LOW, wheel.HIGH), (wheel.ODD, wheel.EVEN), (wheel.RED, wheel.BLACK)):
            assert not x & y
            assert x | y == set(range(1, 37))

    def test_every_placement_lies_on_the_layout(self) -> None:
        shapes = [wheel.SPLITS, wheel.STREETS, wheel.CORNERS, wheel.SIX_LINES, frozenset(wheel.NINE_BLOCKS)]
        for placements in shapes:
            for p in placements:
                assert all(0 <= n <= 36 for n in p)
        # Every inside split lies within some corner; every corner is two splits of one row side by side.
        assert all(any(s < c for c in wheel.CORNERS) for s in wheel.SPLITS if 0 not in s)
        assert all(frozenset(sorted(c)[:2]) in wheel.SPLITS for c in wheel.CORNERS)


# -- dice ---------------------------------------------------------------------------------------------------------


class TestDice:
    def test_faces_and_opposites(self) -> None:
        assert FACES == (1, 2, 3, 4, 5, 6)
        assert [opposite(f) for f in FACES] == [6, 5, 4, 3, 2, 1]

    def test_all_rolls(self) -> None:
        assert len(ALL_ROLLS) == len(set(ALL_ROLLS)) == 216
        assert Counter(sum(r) for r in ALL_ROLLS)[10] == 27
        assert sum(is_triple(r) for r in ALL_ROLLS) == 6
        # Rolls with two equal faces and one other: 6 pairs · 5 others · 3 positions = 90.
        assert sum(len(set(r)) == 2 for r in ALL_ROLLS) == 90
        assert sum(len(set(r)) == 3 for r in ALL_ROLLS) == 216 - 6 - 90 == 120

    def test_check_dice_accepts_lists_and_tuples(self) -> None:
        assert check_dice([1, 2, 3]) == (1, 2, 3)
        assert check_dice((6, 6, 6)) == (6, 6, 6)
        assert isinstance(check_dice([4, 5, 6]), tuple)

    @pytest.mark.parametrize(
        "bad", [(1, 2), (1, 2, 3, 4), (0, 1, 2), (1, 2, 7), (True, 2, 3), (1.0, 2, 3), "123", None, {1, 2, 3}]
    )
    def test_check_dice_refuses(self, bad: object) -> None:
        with pytest.raises(ValueError, match="SB 1"):
            check_dice(bad)

    def test_is_triple(self) -> None:
        assert is_triple((4, 4, 4))
        assert not is_triple((4, 4, 5))
        assert not is_triple((5, 4, 4))


# -- chance sources used by the statute tests ------------------------------------------------------------


class TestLiveAndScriptedSources:
    def test_queue_reader_hands_out_values_in_order_then_runs_dry(self) -> None:
        read = queue_reader([1, "2"])
        assert read("pocket") == 1
        assert read("pocket") == "2"
        with pytest.raises(ChanceExhausted, match="pocket"):
            read("pocket")

    def test_live_source_parses_readings(self) -> None:
        source = LiveSource(queue_reader([" 17 ", 0, "1, 2, 3", "4 5 6", [6, 6, 6], "ts", "10h"]))
        assert source.pocket() == 17
        assert source.pocket() == 0
        assert source.dice() == (1, 2, 3)
        assert source.dice() == (4, 5, 6)
        assert source.dice() == (6, 6, 6)
        assert source.card() == parse_card("TS")
        assert source.card() == parse_card("TH")
        assert not source.is_random

    @pytest.mark.parametrize("reading", ["37", "-1", "seventeen", 3.0, None])
    def test_live_source_refuses_bad_pocket_readings(self, reading: object) -> None:
        with pytest.raises(ValueError):
            LiveSource(queue_reader([reading])).pocket()

    def test_scripted_source_validates_and_runs_dry(self) -> None:
        source = ScriptedSource(pockets=[5], dice=[(1, 1, 1)], cards=["AS"])
        assert (source.pocket(), source.dice(), source.card()) == (5, (1, 1, 1), parse_card("AS"))
        for draw in (source.pocket, source.dice, source.card):
            with pytest.raises(ChanceExhausted):
                draw()
        with pytest.raises(ValueError):
            ScriptedSource(pockets=[37])
        with pytest.raises(ValueError):
            ScriptedSource(dice=[(0, 1, 2)])

    def test_check_pocket_accepts_exactly_0_to_36(self) -> None:
        assert [n for n in range(-5, 42) if _is_pocket(n)] == list(range(37))


def _is_pocket(n: int) -> bool:
    try:
        wheel.check_pocket(n)
    except ValueError:
        return False
    return True
