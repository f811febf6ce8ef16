"""``croupier replay --explain`` says why (issue 17): even money settles under BJ 10.3, a decline cites the rule of
what it refused, the dealer's steps say why the dealer drew, stood or took no second card, "original bet only"
names the stakes lost and returned, and sic bo cites no payment order the statute does not have."""

from __future__ import annotations

from typing import Any

from croupier.replay import replay


def blackjack(
    boxes: list[dict[str, Any]], cards: list[str], actions: list[dict[str, Any]], rules: dict[str, Any] | None = None
) -> list[str]:
    """The transcript of a one-round blackjack scenario."""
    scenario = {
        "game": "blackjack",
        "rules": rules or {},
        "rounds": [{"boxes": boxes, "cards": cards, "actions": actions}],
    }
    lines: list[str] = replay(scenario, explain=True)["transcript"][0]
    return lines


def line_with(lines: list[str], *pieces: str) -> str:
    """The one line holding every piece."""
    found = [line for line in lines if all(p in line for p in pieces)]
    assert len(found) == 1, (pieces, lines)
    return found[0]


ANA = {"box": 1, "seated": "ana", "bets": [{"player": "ana", "main": 10}]}


def test_bj_10_3_even_money_settles_under_bj_10_3_and_declines_cite_what_they_refuse() -> None:
    # burn, box 1 AS, box 2 9C, dealer AH, box 1 KH (blackjack for ana and bo), box 2 7D; dealer's second card 9H
    boxes = [
        {"box": 1, "seated": "ana", "bets": [{"player": "ana", "main": 10}, {"player": "bo", "main": 10}]},
        {"box": 2, "seated": "cy", "bets": [{"player": "cy", "main": 10}]},
    ]
    actions = [
        {"box": 1, "action": "even_money"},
        {"box": 1, "player": "bo", "action": "decline"},
        {"box": 2, "action": "decline"},
        {"box": 2, "action": "stand"},
    ]
    lines = blackjack(boxes, ["2C", "AS", "9C", "AH", "KH", "7D", "9H"], actions)
    assert line_with(lines, "box 1 ana main 10", "→ +10").endswith("(BJ 10.3)")
    assert line_with(lines, "box 1 bo main 10", "→ +15").endswith("(BJ 10.2)")
    assert "BJ 6.5" not in line_with(lines, "bo answers decline")
    assert line_with(lines, "bo answers decline").endswith("refusing even money, for box 1 hand 0 (BJ 10.3)")
    assert line_with(lines, "cy answers decline").endswith("refusing insurance, for box 2 (BJ 12.1)")


def test_bj_16_6_declined_follow_and_any_pair_and_original_bet_only_spelled_out() -> None:
    # burn, box 1 8S, dealer AD, box 1 8H; ana splits (bo declines to follow, ana declines new Any Pair stakes),
    # hand 0 gets 2C and is doubled (bo follows) with 9H, hand 1 gets 5D and stands; the dealer's KC: blackjack.
    boxes = [
        {
            "box": 1,
            "seated": "ana",
            "bets": [{"player": "ana", "main": 100, "side": {"any_pair": 10}}, {"player": "bo", "main": 50}],
        }
    ]
    actions = [
        {"box": 1, "action": "decline"},
        {"box": 1, "player": "bo", "action": "decline"},
        {"box": 1, "action": "split"},
        {"box": 1, "player": "bo", "action": "decline"},
        {"box": 1, "action": "decline"},
        {"box": 1, "action": "double"},
        {"box": 1, "player": "bo", "action": "follow"},
        {"box": 1, "action": "stand"},
    ]
    lines = blackjack(boxes, ["3C", "8S", "AD", "8H", "2C", "9H", "5D", "KC"], actions)
    declines = [line for line in lines if "answers decline" in line]
    assert [line.rsplit("(", 1)[1] for line in declines] == ["BJ 12.1)", "BJ 12.1)", "BJ 20.1)", "BJ 13.1)"]
    assert "refusing to follow the split" in declines[2]
    assert "refusing new Any Pair stakes" in declines[3]
    ana = line_with(lines, "box 1 ana main 100 → -100 (BJ 16.6)")
    assert ana.endswith(
        "original bet only: of ana's stakes 200 on hand 0 (doubled), 100 on hand 1, the original bet 100 is lost "
        "once and 200 is returned"
    )
    bo = line_with(lines, "box 1 bo main 50 → -50 (BJ 16.6)")
    assert "of bo's stakes 100 on hand 0 (doubled), the original bet 50 is lost once and 50 is returned" in bo


def test_bj_6_6_the_dealer_draws_on_the_two_card_ace_six() -> None:
    # burn, ana 9S, dealer AH, ana 8D (17); insurance declined; the dealer's 6C makes A-6, draws 3D to 20
    lines = blackjack(
        [ANA], ["2C", "9S", "AH", "8D", "6C", "3D"], [{"box": 1, "action": "decline"}, {"box": 1, "action": "stand"}]
    )
    draw = line_with(lines, "Dealer draws 3D")
    assert "ace and a six" in draw and "hit_ace_six" in draw and "BJ 6.1, BJ 6.6" in draw
    assert line_with(lines, "The dealer stands on soft 20").endswith("(BJ 6.1)")


def test_bj_6_6_the_dealer_stands_on_a_soft_17_that_holds_no_six() -> None:
    # burn, ana 9S, dealer 4H, ana 8D (17) stands; the dealer's 2S (6) draws AC: A-2-4, a soft 17 with no six
    lines = blackjack([ANA], ["2C", "9S", "4H", "8D", "2S", "AC"], [{"box": 1, "action": "stand"}])
    assert "on 6: the dealer draws on 16 or less (BJ 6.1)" in line_with(lines, "Dealer draws AC")
    stands = line_with(lines, "The dealer stands on soft 17")
    assert "no two-card ace and six" in stands and "hit_ace_six" in stands and stands.endswith("BJ 6.6)")


def test_bj_6_1_the_dealer_draws_on_every_soft_17_with_hit_all() -> None:
    cards = ["2C", "9S", "4H", "8D", "2S", "AC", "TC"]
    lines = blackjack([ANA], cards, [{"box": 1, "action": "stand"}], {"dealer_soft_17": "hit_all"})
    assert "on soft 17: the dealer draws on every soft 17 (dealer_soft_17 = hit_all" in line_with(
        lines, "Dealer draws TC"
    )
    assert line_with(lines, "The dealer stands on 17").endswith("(BJ 6.1)")


def test_bj_6_1_the_dealer_stands_on_soft_17_with_stand() -> None:
    lines = blackjack(
        [ANA],
        ["2C", "9S", "AH", "8D", "6C"],
        [{"box": 1, "action": "decline"}, {"box": 1, "action": "stand"}],
        {"dealer_soft_17": "stand"},
    )
    assert line_with(lines, "The dealer stands on soft 17").endswith("(dealer_soft_17 = stand, BJ 6.1)")
    assert not any(line.startswith("Dealer draws") for line in lines)


def test_bj_5_2_the_dealer_takes_no_second_card_when_every_stake_is_settled() -> None:
    # burn, ana TS, dealer 5H, ana 6D (16) hits KC: bust; nothing is left to settle against the dealer
    lines = blackjack([ANA], ["2C", "TS", "5H", "6D", "KC"], [{"box": 1, "action": "hit"}])
    no_card = line_with(lines, "The dealer takes no second card")
    assert "BJ 7.2" in no_card and no_card.endswith("(BJ 5.2)")


def test_bj_7_2_the_dealer_does_not_draw_without_a_hand_left_standing() -> None:
    # burn, ana TS, dealer AH, ana 6D; ana insures 5 (the dealer's second card is needed for it), hits KC: bust;
    # the dealer's 5C makes A-5 = 16, and no hand is standing to draw against
    lines = blackjack(
        [ANA],
        ["2C", "TS", "AH", "6D", "KC", "5C"],
        [{"box": 1, "action": "insurance", "amount": 5}, {"box": 1, "action": "hit"}],
    )
    stops = line_with(lines, "The dealer does not draw on 16")
    assert "no hand is left standing" in stops and "BJ 7.2" in stops and stops.endswith("(BJ 6.1)")
    assert not any(line.startswith("Dealer draws") for line in lines)


def test_sb_4_sic_bo_lines_cite_no_payment_order() -> None:
    scenario = {
        "game": "sicbo",
        "rounds": [
            {
                "bets": [
                    {"player": "ana", "type": "small", "amount": 100},
                    {"player": "bo", "type": "big", "amount": 100},
                    {"player": "bo", "type": "single", "face": 5, "amount": 10},
                ],
                "results": [[2, 5, 6]],
            }
        ],
    }
    lines = replay(scenario, explain=True)["transcript"][0]
    assert not any("order" in line and "SB" in line for line in lines), lines
    assert line_with(lines, "Losing bets collected").endswith("(SB 5)")
    assert "first" not in line_with(lines, "Losing bets collected")
    assert [line.rsplit("(", 1)[1] for line in lines if line.startswith("Paid #")] == ["SB 6)", "SB 6)"]
    assert "Every winning bet is paid before the dome is covered again (SB 4)" in lines


def test_ro_5_1_roulette_keeps_its_statutory_payment_order() -> None:
    scenario = {
        "game": "roulette",
        "rounds": [
            {
                "bets": [
                    {"player": "ana", "type": "straight", "numbers": [3], "amount": 10},
                    {"player": "bo", "type": "red", "amount": 10},
                    {"player": "bo", "type": "black", "amount": 10},
                ],
                "results": [3],
            }
        ],
    }
    lines = replay(scenario, explain=True)["transcript"][0]
    assert line_with(lines, "Losing bets collected first").endswith("(RO 5.1)")
    assert all("(RO 5.1 order, RO 7)" in line for line in lines if line.startswith("Paid #"))
