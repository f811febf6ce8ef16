"""What each player may see of a blackjack round (BJ 5.2 readings): the server sends only these views.

A face-down card of a box (procedure 1) is seen only by the bettors of that box; the dealer's hole card by
nobody until it is turned; the order of the cards in the shoe is never part of a view. Everything else on
the table is public: the chips on every box, the face-up cards, the offers and whose turn it is.
"""

from __future__ import annotations

from typing import Any

from croupier.blackjack.hand import best_total
from croupier.blackjack.round import BlackjackRound

HIDDEN = "??"
"""How a card the viewer may not see is shown."""


def player_view(rnd: BlackjackRound, viewer: str | None) -> dict[str, Any]:
    """The round as ``viewer`` may see it (``None``: a spectator, who sees only what is face up)."""
    over = rnd.is_over
    dealer_cards = [str(c) for c in rnd.dealer]
    if rnd.hole_hidden and len(dealer_cards) > 1:
        dealer_cards[1] = HIDDEN
    visible_dealer = [c for c in rnd.dealer[: 1 if rnd.hole_hidden else None]]
    boxes = []
    for number in sorted(rnd.boxes):
        b = rnd.boxes[number]
        if not b.bettors:
            continue
        mine = viewer is not None and viewer in b.bettors
        hands = []
        for i, h in enumerate(b.hands):
            shown = over or mine or h.hidden == 0
            cards = [str(c) if shown or k >= h.hidden else HIDDEN for k, c in enumerate(h.cards)]
            hand: dict[str, Any] = {
                "index": i,
                "cards": cards,
                "total": h.total if shown else None,
                "status": h.status.value if h.status is not None else None,
                "doubled": h.doubled,
                "stakes": dict(h.stakes),
            }
            hands.append(hand)
        boxes.append(
            {
                "box": number,
                "seated": b.seated,
                "decider": b.decider or None,
                "bettors": [
                    {
                        "player": bt.player,
                        "main": bt.main,
                        "side": dict(bt.side),
                        "streak": {str(k): v for k, v in bt.streak.items()},
                        "insurance": bt.insurance,
                    }
                    for bt in b.bettors.values()
                ],
                "hands": hands,
            }
        )
    q = rnd.pending
    turn = None
    if q is not None:
        turn = {"kind": q.kind, "box": q.box, "hand": q.hand, "player": q.player}
        if q.player == viewer:
            turn["actions"] = list(q.actions)
            if "insurance" in q.actions:
                turn["max_insurance"] = q.max_insurance
    view: dict[str, Any] = {
        "phase": rnd.phase.value,
        "viewer": viewer,
        "dealer": {
            "cards": dealer_cards,
            "total": best_total(visible_dealer)[0] if visible_dealer else None,
        },
        "boxes": boxes,
        "turn": turn,
        "streaks": [
            {"box": s.box, "player": s.player, "level": s.level, "stake": s.stake, "wins": s.wins}
            for s in rnd.table.open_streaks
        ],
        "cut_card_out": bool(rnd.table.shoe is not None and rnd.table.shoe.cut_card_out),
    }
    if over and rnd.settlement is not None:
        s = rnd.settlement
        view["settlement"] = {
            "void": s.void,
            "dealer_total": s.dealer_total,
            "dealer_blackjack": s.dealer_blackjack,
            "bets": [
                {"box": o.box, "player": o.player, "kind": o.kind, "stake": o.stake, "net": o.net, "rule": o.rule}
                | ({"status": o.status} if o.status else {})
                for o in s.outcomes
                if viewer is None or o.player == viewer
            ],
            "players": s.players() if viewer is None else {viewer: s.players().get(viewer, 0)},
        }
    return view
