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

LIMITS = "Money and table limits"
"""The RULES.md section every game's amount checks cite."""


def title(rule: str) -> str:
    """The title of a rule id, e.g. ``title("RO 8")``."""
    for table in (ROULETTE, SICBO):
        if rule in table:
            return table[rule]
    raise KeyError(rule)
