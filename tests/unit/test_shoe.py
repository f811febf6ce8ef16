"""The blackjack shoe: defaults, validation, cut card, burns, scripted cards, composition (BJ 1, 2, 4)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.errors import InvalidRules
from croupier.primitives.cards import RANKS, Card, Rank, deck, parse_card
from croupier.primitives.chance import ChanceExhausted, LiveSource, ScriptedSource, queue_reader
from croupier.primitives.pcg import SeededRandom
from croupier.primitives.shoe import BurnPolicy, CardNotInShoeError, Shoe, default_cards_behind_cut


def cards(*codes: str) -> list[Card]:
    return [parse_card(c) for c in codes]


class TestDefaults:
    @pytest.mark.parametrize(("decks", "behind"), [(1, 13), (2, 30), (4, 52), (6, 78), (8, 104), (10, 130)])
    def test_cards_behind_cut_default(self, decks: int, behind: int) -> None:
        # 52·decks/4, raised to 30 for a multi-deck shoe (SCENARIOS.md fine print "Cut card").
        assert default_cards_behind_cut(decks) == behind
        assert Shoe(decks, SeededRandom(0)).cards_behind_cut == behind

    def test_fresh_shoe(self) -> None:
        shoe = Shoe(8, SeededRandom(1))
        assert (shoe.size, shoe.dealt, shoe.remaining) == (416, 0, 416)
        assert shoe.burned == ()
        assert not shoe.cut_card_out
        assert shoe.burn_after_shuffle is BurnPolicy.ONE
        assert shoe.is_random

    @pytest.mark.parametrize(
        ("decks", "policy", "count"),
        [
            (8, BurnPolicy.ONE, 1),
            (8, BurnPolicy.PER_DECK, 8),
            (1, BurnPolicy.PER_DECK, 1),
            (6, "per_deck", 6),
        ],
    )
    def test_burn_after_shuffle_count(self, decks: int, policy: BurnPolicy, count: int) -> None:
        # BJ 4.1: as many cards as there are decks, or one card.
        assert Shoe(decks, SeededRandom(0), burn_after_shuffle=policy).burn_after_shuffle_count == count


class TestValidation:
    @pytest.mark.parametrize("decks", [0, -1])
    def test_decks_at_least_one(self, decks: int) -> None:
        with pytest.raises(InvalidRules, match=rf"decks {decks}") as err:
            Shoe(decks, SeededRandom(0))
        assert err.value.rule == "BJ 1"

    def test_multi_deck_needs_thirty_behind_cut(self) -> None:
        with pytest.raises(InvalidRules, match=r"cards_behind_cut 29 .*at least 30") as err:
            Shoe(6, SeededRandom(0), cards_behind_cut=29)
        assert err.value.rule == "BJ 2.1"
        assert Shoe(6, SeededRandom(0), cards_behind_cut=30).cards_behind_cut == 30

    def test_single_deck_may_have_fewer_than_thirty(self) -> None:
        assert Shoe(1, SeededRandom(0), cards_behind_cut=10).cards_behind_cut == 10

    @pytest.mark.parametrize(("decks", "behind"), [(1, 52), (1, 60), (2, 104), (1, 0)])
    def test_cut_card_inside_the_shoe(self, decks: int, behind: int) -> None:
        with pytest.raises(InvalidRules, match=rf"cards_behind_cut {behind}"):
            Shoe(decks, SeededRandom(0), cards_behind_cut=behind)

    def test_is_a_value_error_naming_the_rule(self) -> None:
        with pytest.raises(ValueError, match=r"BJ 2\.1"):
            Shoe(2, SeededRandom(0), cards_behind_cut=10)


class TestCutCard:
    @pytest.mark.parametrize(("decks", "behind"), [(1, 13), (2, 30), (6, 78), (8, 104), (8, 30)])
    def test_out_with_card_number_size_minus_behind_plus_one(self, decks: int, behind: int) -> None:
        shoe = Shoe(decks, SeededRandom(3), cards_behind_cut=behind)
        position = 52 * decks - behind + 1
        assert shoe.cut_card_position == position
        for _ in range(position - 1):
            shoe.draw()
        assert not shoe.cut_card_out
        shoe.draw()
        assert shoe.cut_card_out
        assert shoe.remaining == behind - 1

    def test_burns_count_towards_the_cut_card(self) -> None:
        shoe = Shoe(1, SeededRandom(3))
        shoe.burn(39)
        assert not shoe.cut_card_out
        shoe.burn()
        assert shoe.cut_card_out

    def test_shuffle_puts_the_cut_card_back(self) -> None:
        shoe = Shoe(2, SeededRandom(3))
        shoe.burn(100)
        assert shoe.cut_card_out
        shoe.shuffle()
        assert not shoe.cut_card_out
        assert (shoe.dealt, shoe.remaining, shoe.burned) == (0, 104, ())


class TestRandomShoe:
    def test_holds_every_card_once_per_deck(self) -> None:
        shoe = Shoe(3, SeededRandom(11))
        dealt = [shoe.draw() for _ in range(shoe.size)]
        assert Counter(dealt) == Counter(deck() * 3)
        with pytest.raises(ChanceExhausted, match="shuffled"):
            shoe.draw()

    def test_same_seed_same_shoe(self) -> None:
        a, b = Shoe(6, SeededRandom(2024)), Shoe(6, SeededRandom(2024))
        assert a._peek_order() == b._peek_order()
        assert [a.draw() for _ in range(20)] == [b.draw() for _ in range(20)]
        assert a._peek_order() != Shoe(6, SeededRandom(2025))._peek_order()

    def test_draw_follows_the_shuffled_order(self) -> None:
        shoe = Shoe(1, SeededRandom(8))
        order = shoe._peek_order()
        assert order != deck()
        assert [shoe.draw() for _ in range(5)] == order[:5]
        assert shoe._peek_order() == order[5:]

    def test_reshuffle_gives_a_new_order(self) -> None:
        shoe = Shoe(1, SeededRandom(8))
        first = shoe._peek_order()
        shoe.shuffle()
        assert shoe._peek_order() != first

    def test_shoe_uses_fisher_yates_of_the_source(self) -> None:
        expected = deck() * 2
        SeededRandom(77).shuffle(expected)
        assert Shoe(2, SeededRandom(77))._peek_order() == expected


class TestBurns:
    def test_burned_cards_are_recorded_and_dealt(self) -> None:
        shoe = Shoe(8, SeededRandom(5), burn_after_shuffle=BurnPolicy.PER_DECK)
        top = shoe._peek_order()[:9]
        burned = shoe.burn(shoe.burn_after_shuffle_count)
        assert burned == top[:8]
        assert shoe.burned == tuple(top[:8])
        assert (shoe.dealt, shoe.remaining) == (8, 408)
        assert shoe.draw() == top[8]
        assert shoe.burn() == [shoe.burned[-1]]
        assert len(shoe.burned) == 9

    def test_burn_zero_and_negative(self) -> None:
        shoe = Shoe(1, SeededRandom(5))
        assert shoe.burn(0) == []
        with pytest.raises(ValueError, match="-1"):
            shoe.burn(-1)

    def test_cannot_burn_more_than_remain(self) -> None:
        shoe = Shoe(1, SeededRandom(5))
        shoe.burn(50)
        with pytest.raises(ChanceExhausted):
            shoe.burn(3)
        assert shoe.remaining == 2  # nothing burned by the refused call


class TestScriptedShoe:
    def test_cards_come_from_the_script(self) -> None:
        source = ScriptedSource(cards=["AS", "KH", "TD"])
        shoe = Shoe(1, source)
        assert not shoe.is_random
        assert shoe.burn() == cards("AS")
        assert [shoe.draw(), shoe.draw()] == cards("KH", "TD")
        assert (shoe.dealt, shoe.remaining) == (3, 49)

    def test_card_scripted_more_often_than_the_shoe_holds_is_refused(self) -> None:
        shoe = Shoe(2, ScriptedSource(cards=["AS", "AS", "AS"]))
        shoe.draw()
        shoe.draw()
        with pytest.raises(CardNotInShoeError, match=r"AS .*2-deck shoe holds it 2 times"):
            shoe.draw()
        assert shoe.dealt == 2  # the refused card is not counted

    def test_refusal_is_a_value_error(self) -> None:
        shoe = Shoe(1, ScriptedSource(cards=["7C", "7C"]))
        shoe.draw()
        with pytest.raises(ValueError, match="7C"):
            shoe.draw()

    def test_shuffle_gives_the_cards_back(self) -> None:
        shoe = Shoe(1, ScriptedSource(cards=["QS", "QS"]))
        shoe.draw()
        shoe.shuffle()
        assert shoe.draw() == parse_card("QS")

    def test_script_exhausted(self) -> None:
        shoe = Shoe(1, ScriptedSource(cards=[]))
        with pytest.raises(ChanceExhausted):
            shoe.draw()

    def test_live_source(self) -> None:
        shoe = Shoe(1, LiveSource(queue_reader(["1X", "2d", "2D"])))
        with pytest.raises(ValueError, match="1X"):
            shoe.draw()
        assert shoe.draw() == parse_card("2D")
        with pytest.raises(CardNotInShoeError):
            shoe.draw()

    def test_order_is_unknown(self) -> None:
        with pytest.raises(ValueError, match="order"):
            Shoe(1, ScriptedSource())._peek_order()

    def test_composition_counts_unseen_cards(self) -> None:
        shoe = Shoe(2, ScriptedSource(cards=["AS", "AH", "KD", "5C"]))
        for _ in range(4):
            shoe.draw()
        comp = shoe.composition()
        assert comp[Rank.ACE] == 6
        assert comp[Rank.KING] == 7
        assert comp[Rank.FIVE] == 7
        assert sum(comp.values()) == 100


class TestComposition:
    def test_full_shoe(self) -> None:
        assert Shoe(6, SeededRandom(0)).composition() == dict.fromkeys(RANKS, 24)

    @given(st.integers(min_value=0, max_value=2**32), st.integers(min_value=1, max_value=4), st.data())
    def test_tracks_the_cards_that_remain(self, seed: int, decks: int, data: st.DataObject) -> None:
        shoe = Shoe(decks, SeededRandom(seed))
        n = data.draw(st.integers(min_value=0, max_value=shoe.size))
        out = shoe.burn(n)
        comp = shoe.composition()
        assert Counter(c.rank for c in shoe._peek_order()) == +Counter(comp)
        assert sum(comp.values()) == shoe.remaining == shoe.size - n
        for rank in RANKS:
            assert comp[rank] + sum(c.rank is rank for c in out) == 4 * decks


def test_a_restocked_shoe_ends_the_shoe_so_the_next_round_starts_fresh() -> None:
    # BJ 2.2: a shoe that ran out mid-round was restocked from its discards; the round in play is the last.
    shoe = Shoe(1, SeededRandom(1), cards_behind_cut=13)
    for _ in range(52):
        shoe.draw()
    in_play = shoe._order[-3:]
    shoe.restock(in_play)
    assert shoe.cut_card_out
    state = shoe.snapshot()
    shoe.shuffle()
    assert not shoe.cut_card_out
    shoe.restore(state)
    assert shoe.cut_card_out
