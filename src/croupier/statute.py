"""Rule ids of shared/spec/RULES.md, with their titles, for citations in messages, docs and tests."""

from __future__ import annotations

ROULETTE: dict[str, str] = {
    "RO 1": "Wheel: 37 pockets, 0-36, red and black alternating, 0 in another colour",
    "RO 2.1": "Ball and wheel turn in opposite directions",
    "RO 2.2": "Void spin: bets stand, the ball restarts from the previous winning pocket",
    "RO 3": "Betting opens after settlement and closes at the bell",
    "RO 4": "The pocket where the ball rests wins",
    "RO 5.1": "Losing bets are taken first, then winning bets are paid in the statutory order",
    "RO 5.2": "Several winning bets may be paid together or bet by bet",
    "RO 5.3": "Disturbed winning chips: the player's account is accepted",
    "RO 6": "Bets and their placements",
    "RO 7": "Odds",
    "RO 8": "Zero: bets covering 0 win, every other bet loses",
}

SICBO: dict[str, str] = {
    "SB 1": "Equipment: three fair dice, opposite faces sum to 7",
    "SB 2": "Opening: the shaker is pressed and betting opens",
    "SB 3.1": "The bell closes betting",
    "SB 3.2": "The result is announced and the winning areas light up",
    "SB 3.3": "Void roll: a new round, new bets taken, placed bets may not be withdrawn",
    "SB 4": "Every winning bet is paid before the dome is covered again",
    "SB 5": "Bets",
    "SB 6": "Odds",
    "SB 7": "A triple makes every small and big bet lose",
}

BLACKJACK: dict[str, str] = {
    "BJ 1": "Equipment: six or more boxes, decks, dealing box, shoe, shuffler, streak markers",
    "BJ 2.1": "Cut card: at least 30 cards behind it with more than one deck",
    "BJ 2.2": "The cut card ends the shoe after the current round; one round per dealing-box shuffle",
    "BJ 3": "Six or more boxes; a player may bet on several; the house may limit how many",
    "BJ 4.1": "Burn as many cards as decks, or one card, after a shuffle",
    "BJ 4.2": "Burn one card before each later round and before the dealer's second card",
    "BJ 5.1": "One card at a time from the dealer's left to each box with a bet, then the dealer",
    "BJ 5.1.1": "A card exposed by accident is void and burned (the first card after a shuffle may be kept)",
    "BJ 5.1.2": "A dealing error that cannot be corrected voids every card of the round",
    "BJ 5.2": "Dealing procedures 1, 2 and 3 (hole card and peek)",
    "BJ 6.1": "The dealer draws on 16 or less and on soft 17; a card drawn wrongly is void",
    "BJ 6.2": "A player draws or stands at will; over 21 is bust",
    "BJ 6.3": "Players act in turn from the dealer's left",
    "BJ 6.4": "No card on blackjack or 21; one card on a double and on each split ace",
    "BJ 6.5": "The dealer waits for each decision: double, split, draw or stand",
    "BJ 6.6": "Soft 17 is an ace and a six",
    "BJ 7.1": "After all decisions the dealer completes the hand",
    "BJ 7.2": "A player who busts loses even if the dealer busts",
    "BJ 8": "Card values: ace 1 or 11, pictures 10",
    "BJ 9": "Higher total wins 1 to 1, lower loses",
    "BJ 10.1": "Blackjack is an ace and a ten-value card as the first two cards",
    "BJ 10.2": "Blackjack pays 3 to 2",
    "BJ 10.3": "Even money against an ace or a ten-value card",
    "BJ 10.4": "A 21 of more than two cards is not a blackjack",
    "BJ 10.5": "Player blackjack beats a dealer 21 of more than two cards",
    "BJ 10.6": "Dealer blackjack beats a 21 of more cards; a split two-card 21 is not a blackjack",
    "BJ 10.7": "A player who doubled may lose only the original bet to a dealer blackjack",
    "BJ 11": "Push: equal totals or both blackjack; the streak marker stays",
    "BJ 12.1": "Insurance against an ace, limited between half and all of the original bet",
    "BJ 12.2": "Insurance pays 2 to 1 on a dealer blackjack",
    "BJ 12.3": "Without a dealer blackjack insurance loses",
    "BJ 13": "Side bets, one kind per box, on any player's box",
    "BJ 13.1": "Any Pair, and pairs on split hands",
    "BJ 13.2": "Sevens: two 7s, and a third 7 after splitting them",
    "BJ 13.3": "Over/Under 13",
    "BJ 13.4": "Perfect Pairs: mixed, coloured, perfect",
    "BJ 13.5": "Streak: the box wins 2, 3, 4 or 5 rounds in a row",
    "BJ 13.5.1": "A streak bet wins at its level and loses as soon as the box loses",
    "BJ 13.5.2": "A push keeps the marker",
    "BJ 13.5.3": "One marker per box; several levels at once; the marker moves on",
    "BJ 13.5.4": "Streak bets cannot be changed and need a main bet every round",
    "BJ 13.5.5": "After a split: more hands won than lost is a win",
    "BJ 13.5.6": "Surrender loses the box's streak bets",
    "BJ 14.1": "Any Pair pays 11 to 1",
    "BJ 14.2": "Sevens pays 50, 150, 500, 5000 to 1, the highest only",
    "BJ 14.3": "Over/Under 13 pays 1 to 1",
    "BJ 14.4": "Perfect Pairs pays 5, 12, 25 to 1",
    "BJ 14.5": "Streak pays 3, 8, 18, 38 to 1",
    "BJ 15": "Special bonus: suited 6-7-8 or three 7s pay 3 times the bet at once",
    "BJ 16.1": "A pair may be split into up to four hands or more",
    "BJ 16.2": "Each split hand carries a stake equal to the original bet",
    "BJ 16.3": "Split aces receive one card each",
    "BJ 16.4": "Other split hands draw freely",
    "BJ 16.5": "A further pair may be split again, except after declining a split",
    "BJ 16.6": "A player who split loses only the original bet to a dealer blackjack",
    "BJ 16.7": "Streak bets after a split: see BJ 13.5.5",
    "BJ 17.1": "Doubling on any two cards, after a split, or on 11 only",
    "BJ 17.2": "A doubled hand receives exactly one card",
    "BJ 17.3": "A player who doubled loses only the original bet to a dealer blackjack",
    "BJ 18.1": "Surrender for half the bet when the dealer does not show an ace",
    "BJ 18.2": "Surrender is decided before any further card and is final",
    "BJ 18.3": "Surrender loses the box's streak bets",
    "BJ 19.1": "Five cards of 21 or less may be paid half the bet at once",
    "BJ 19.2": "Without the claim, or against an ace, play goes on",
    "BJ 20.1": "Box control procedures 1, 2 and 3 for several bettors on one box",
    "BJ 20.2": "Players of other boxes may not interfere",
    "BJ 21.1": "Options under BJ 1-6, 10.7, 12.1, 13, 14, 16, 17, 20 need prior approval",
    "BJ 21.2": "The special bonus and surrender may be dropped with permission",
    "BJ 21.3": "Perfect Pairs and Streak need permission",
}

LIMITS = "Money and table limits"
"""The RULES.md section every game's amount checks cite."""


def title(rule: str) -> str:
    """The title of a rule id, e.g. ``title("RO 8")``."""
    for table in (ROULETTE, SICBO, BLACKJACK):
        if rule in table:
            return table[rule]
    raise KeyError(rule)
