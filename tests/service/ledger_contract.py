"""The ledger's rules, as a suite run against every store: in memory (tests/service) and on SQLite and
PostgreSQL (tests/storage). A subclass provides the ``ledger`` fixture."""

from __future__ import annotations

from datetime import datetime

import pytest

from croupier.errors import BetRejected
from croupier.service.ledger import (
    BALANCED,
    EXTERNAL,
    FULL_SETTLEMENT,
    HOUSE,
    NO_OVERDRAFT,
    ONCE,
    ONE_KEY_ONE_COMMAND,
    DuplicateBet,
    IdempotencyConflict,
    InsufficientFunds,
    Ledger,
    LedgerError,
    OverdraftRefused,
    RoundClosed,
    SettlementRejected,
    held,
    table_account,
    wallet,
)
from service.support import assert_refused


def funded(ledger: Ledger, **wallets: int) -> Ledger:
    for player, amount in wallets.items():
        ledger.credit(player, amount, by="admin", key=f"fund-{player}")
    return ledger


def bet(ledger: Ledger, player: str, amount: int, ref: str, *, round_id: str = "r1", table: str = "T1") -> None:
    ledger.hold(player, amount, table=table, round_id=round_id, bet_ref=ref, key=f"hold-{round_id}-{ref}")


class LedgerContract:
    """Every rule of :mod:`croupier.service.ledger`; refusals change nothing."""

    # -- credits and debits -----------------------------------------------------------------------------------

    def test_credit_moves_money_from_the_cashier_to_the_wallet(self, ledger: Ledger) -> None:
        entry = ledger.credit("ana", 1000, by="root", key="c1", memo="cash in")
        assert entry.kind == "credit" and entry.actor == "root" and entry.memo == "cash in"
        assert entry.net(wallet("ana")) == 1000 and entry.net(EXTERNAL) == -1000
        assert sum(p.amount for p in entry.postings) == 0
        assert isinstance(entry.created_at, datetime) and entry.created_at.tzinfo is not None
        assert ledger.wallet("ana") == 1000 and ledger.balance(EXTERNAL) == -1000
        ledger.check()

    def test_credit_sent_twice_is_posted_once(self, ledger: Ledger) -> None:
        first = ledger.credit("ana", 1000, by="root", key="c1")
        again = ledger.credit("ana", 1000, by="root", key="c1")
        assert again == first
        assert ledger.wallet("ana") == 1000 and len(ledger.entries()) == 1

    def test_a_key_reused_with_another_payload_is_refused(self, ledger: Ledger) -> None:
        ledger.credit("ana", 1000, by="root", key="c1")
        error = assert_refused(
            ledger, lambda: ledger.credit("ana", 999, by="root", key="c1"), IdempotencyConflict, ONE_KEY_ONE_COMMAND
        )
        assert "'c1'" in str(error)
        assert_refused(ledger, lambda: ledger.credit("bo", 1000, by="root", key="c1"), IdempotencyConflict, None)
        assert_refused(ledger, lambda: ledger.debit("ana", 1000, by="root", key="c1"), IdempotencyConflict, None)
        hold = lambda: ledger.hold("ana", 10, table="T1", round_id="r1", bet_ref="b1", key="c1")  # noqa: E731
        assert_refused(ledger, hold, IdempotencyConflict, None)
        assert_refused(ledger, lambda: ledger.settle("r1", {}, key="c1"), IdempotencyConflict, None)

    def test_debit_returns_money_to_the_cashier(self, ledger: Ledger) -> None:
        funded(ledger, ana=1000)
        entry = ledger.debit("ana", 400, by="root", key="d1")
        assert entry.net(wallet("ana")) == -400 and entry.net(EXTERNAL) == 400
        assert ledger.debit("ana", 400, by="root", key="d1") == entry
        assert ledger.wallet("ana") == 600 and ledger.balance(EXTERNAL) == -600

    def test_debit_beyond_the_wallet_is_refused_and_may_be_retried_later(self, ledger: Ledger) -> None:
        funded(ledger, ana=100)
        error = assert_refused(
            ledger, lambda: ledger.debit("ana", 101, by="root", key="d1"), OverdraftRefused, NO_OVERDRAFT
        )
        assert "101" in str(error) and "100" in str(error)
        assert_refused(ledger, lambda: ledger.debit("bo", 1, by="root", key="d2"), OverdraftRefused, NO_OVERDRAFT)
        ledger.credit("ana", 1, by="root", key="c2")
        ledger.debit("ana", 101, by="root", key="d1")  # the refused key was never used
        assert ledger.wallet("ana") == 0

    @pytest.mark.parametrize("amount", [0, -5, 1.5, True, "10", None, 10**16])
    def test_amounts_are_positive_integers(self, ledger: Ledger, amount: object) -> None:
        funded(ledger, ana=100)
        for action in (
            lambda: ledger.credit("ana", amount, by="root", key="x"),  # type: ignore[arg-type]
            lambda: ledger.debit("ana", amount, by="root", key="x"),  # type: ignore[arg-type]
            lambda: ledger.hold("ana", amount, table="T", round_id="r", bet_ref="b", key="x"),  # type: ignore[arg-type]
        ):
            assert_refused(ledger, action, LedgerError, BALANCED)

    @pytest.mark.parametrize("name", ["", 5, None, "x" * 129, "tab\there"])
    def test_names_and_keys_are_printable_strings(self, ledger: Ledger, name: object) -> None:
        funded(ledger, ana=100)
        for action in (
            lambda: ledger.credit(name, 1, by="root", key="x"),  # type: ignore[arg-type]
            lambda: ledger.credit("ana", 1, by=name, key="x"),  # type: ignore[arg-type]
            lambda: ledger.credit("ana", 1, by="root", key=name),  # type: ignore[arg-type]
            lambda: ledger.hold("ana", 1, table=name, round_id="r", bet_ref="b", key="x"),  # type: ignore[arg-type]
            lambda: ledger.hold("ana", 1, table="T", round_id="r", bet_ref=name, key="x"),  # type: ignore[arg-type]
            lambda: ledger.settle(name, {}),  # type: ignore[arg-type]
            lambda: ledger.void(name),  # type: ignore[arg-type]
        ):
            assert_refused(ledger, action, LedgerError, None)

    # -- holds ------------------------------------------------------------------------------------------------

    def test_hold_moves_the_stake_from_wallet_to_held(self, ledger: Ledger) -> None:
        funded(ledger, ana=1000)
        entry = ledger.hold("ana", 300, table="T1", round_id="r1", bet_ref="b1", key="h1")
        assert entry.kind == "hold" and entry.round_id == "r1" and entry.table == "T1"
        assert entry.net(wallet("ana")) == -300 and entry.net(held("ana")) == 300
        assert {p.bet_ref for p in entry.postings} == {"b1"}
        assert ledger.wallet("ana") == 700 and ledger.held("ana") == 300
        (record,) = ledger.holds("r1")
        assert (record.player, record.amount, record.status, record.entry_id) == ("ana", 300, "open", entry.id)
        round_ = ledger.round("r1")
        assert round_ is not None and (round_.status, round_.table) == ("open", "T1")
        ledger.check()

    def test_hold_beyond_the_wallet_is_a_rejected_bet_and_changes_nothing(self, ledger: Ledger) -> None:
        funded(ledger, ana=100)
        bet(ledger, "ana", 60, "b1")
        hold = lambda: ledger.hold("ana", 41, table="T1", round_id="r1", bet_ref="b2", key="h2")  # noqa: E731
        error = assert_refused(ledger, hold, InsufficientFunds, NO_OVERDRAFT)
        assert isinstance(error, BetRejected) and "41" in str(error) and "40" in str(error)
        new_round = lambda: ledger.hold("bo", 1, table="T1", round_id="r2", bet_ref="b1", key="h3")  # noqa: E731
        assert_refused(ledger, new_round, InsufficientFunds, NO_OVERDRAFT)
        assert ledger.round("r2") is None
        ledger.hold("ana", 40, table="T1", round_id="r1", bet_ref="b2", key="h2")
        assert ledger.wallet("ana") == 0 and ledger.held("ana") == 100

    def test_hold_sent_twice_is_held_once(self, ledger: Ledger) -> None:
        funded(ledger, ana=100)
        first = ledger.hold("ana", 60, table="T1", round_id="r1", bet_ref="b1", key="h1")
        assert ledger.hold("ana", 60, table="T1", round_id="r1", bet_ref="b1", key="h1") == first
        assert ledger.wallet("ana") == 40 and len(ledger.holds("r1")) == 1

    def test_a_bet_is_held_once_whatever_the_key(self, ledger: Ledger) -> None:
        funded(ledger, ana=100, bo=100)
        bet(ledger, "ana", 10, "b1")
        again = lambda: ledger.hold("ana", 10, table="T1", round_id="r1", bet_ref="b1", key="other")  # noqa: E731
        assert_refused(ledger, again, DuplicateBet, ONCE)
        other_player = lambda: ledger.hold("bo", 5, table="T1", round_id="r1", bet_ref="b1", key="k")  # noqa: E731
        assert_refused(ledger, other_player, DuplicateBet, ONCE)
        bet(ledger, "ana", 10, "b1", round_id="r2")  # the same reference in another round is another bet

    def test_a_round_is_played_at_one_table(self, ledger: Ledger) -> None:
        funded(ledger, ana=100)
        bet(ledger, "ana", 10, "b1", table="T1")
        assert_refused(ledger, lambda: bet(ledger, "ana", 10, "b2", table="T2"), LedgerError, ONCE)

    # -- settlement -------------------------------------------------------------------------------------------

    def test_settle_posts_losses_wins_pushes_and_partial_losses(self, ledger: Ledger) -> None:
        funded(ledger, ana=1000, bo=1000)
        bet(ledger, "ana", 100, "lose")
        bet(ledger, "ana", 100, "win")
        bet(ledger, "bo", 50, "push")
        bet(ledger, "bo", 40, "surrender")
        bet(ledger, "bo", 10, "straight")
        entry = ledger.settle("r1", {"lose": -100, "win": 150, "push": 0, "surrender": -20, "straight": 350})
        assert entry.kind == "settle" and entry.round_id == "r1" and entry.table == "T1"
        assert sum(p.amount for p in entry.postings) == 0
        assert entry.net(table_account("T1")) == 0
        assert entry.net(held("ana")) == -200 and entry.net(held("bo")) == -100
        assert entry.net(wallet("ana")) == 100 + 150 and entry.net(wallet("bo")) == 50 + 20 + 10 + 350
        assert entry.net(HOUSE) == 100 + 20 - 150 - 350
        assert ledger.wallet("ana") == 1050 and ledger.wallet("bo") == 1330
        assert ledger.held("ana") == ledger.held("bo") == 0
        assert ledger.balance(HOUSE) == -380 and ledger.balance(table_account("T1")) == 0
        by_ref = {h.bet_ref: h for h in ledger.holds("r1")}
        assert {ref: (h.status, h.net, h.closed_by) for ref, h in by_ref.items()} == {
            "lose": ("settled", -100, entry.id),
            "win": ("settled", 150, entry.id),
            "push": ("settled", 0, entry.id),
            "surrender": ("settled", -20, entry.id),
            "straight": ("settled", 350, entry.id),
        }
        round_ = ledger.round("r1")
        assert round_ is not None and (round_.status, round_.closed_by) == ("settled", entry.id)
        # every stake passes through the table account; the losses go on to the house, the wins come from it; the
        # moves are summed per player (the bets' own results are their holds' nets)
        pairs = [(entry.postings[i], entry.postings[i + 1]) for i in range(0, len(entry.postings), 2)]
        moves = sorted((out.account, into.account, into.amount) for out, into in pairs)
        assert all(out.amount == -into.amount and out.bet_ref is None for out, into in pairs)
        desk = table_account("T1")
        assert moves == sorted(
            [
                (held("ana"), desk, 200),
                (held("bo"), desk, 100),
                (desk, wallet("ana"), 100),  # the winning stake back
                (desk, wallet("bo"), 50 + 20 + 10),  # the push, half the surrender, the straight's stake
                (desk, HOUSE, 100 + 20),  # the lost stake and the surrendered half
                (HOUSE, wallet("ana"), 150),
                (HOUSE, wallet("bo"), 350),
            ]
        )
        ledger.check()

    def test_settle_sent_twice_is_posted_once(self, ledger: Ledger) -> None:
        funded(ledger, ana=1000)
        bet(ledger, "ana", 100, "b1")
        first = ledger.settle("r1", {"b1": 100})
        assert ledger.settle("r1", {"b1": 100}) == first
        assert ledger.wallet("ana") == 1100 and len(ledger.entries("r1")) == 2

    def test_a_round_is_settled_once(self, ledger: Ledger) -> None:
        funded(ledger, ana=1000)
        bet(ledger, "ana", 100, "b1")
        ledger.settle("r1", {"b1": -100})
        assert_refused(ledger, lambda: ledger.settle("r1", {"b1": 100}), IdempotencyConflict, ONE_KEY_ONE_COMMAND)
        error = assert_refused(ledger, lambda: ledger.settle("r1", {"b1": 100}, key="s2"), RoundClosed, ONCE)
        assert "settled" in str(error)
        assert_refused(ledger, lambda: ledger.void("r1"), RoundClosed, ONCE)
        assert_refused(ledger, lambda: bet(ledger, "ana", 10, "b2"), RoundClosed, ONCE)
        late = lambda: ledger.hold("ana", 10, table="T1", round_id="r1", bet_ref="b1", key="late")  # noqa: E731
        assert_refused(ledger, late, RoundClosed, ONCE)

    def test_settle_needs_a_result_for_every_open_bet_and_no_other(self, ledger: Ledger) -> None:
        funded(ledger, ana=1000)
        bet(ledger, "ana", 100, "b1")
        bet(ledger, "ana", 100, "b2")
        missing = assert_refused(ledger, lambda: ledger.settle("r1", {"b1": 0}), SettlementRejected, FULL_SETTLEMENT)
        assert "b2" in str(missing)
        unknown = lambda: ledger.settle("r1", {"b1": 0, "b2": 0, "b3": 5})  # noqa: E731
        assert "b3" in str(assert_refused(ledger, unknown, SettlementRejected, FULL_SETTLEMENT))
        assert_refused(ledger, lambda: ledger.settle("r1", {}), SettlementRejected, FULL_SETTLEMENT)
        assert_refused(ledger, lambda: ledger.settle("r2", {"b1": 0}), SettlementRejected, FULL_SETTLEMENT)

    def test_a_bet_loses_at_most_its_stake(self, ledger: Ledger) -> None:
        funded(ledger, ana=1000)
        bet(ledger, "ana", 100, "b1")
        bet(ledger, "ana", 100, "b2")
        over = lambda: ledger.settle("r1", {"b1": 0, "b2": -101})  # noqa: E731
        assert "101" in str(assert_refused(ledger, over, SettlementRejected, FULL_SETTLEMENT))

    @pytest.mark.parametrize("net", [1.5, "5", None, True, 10**16])
    def test_nets_are_integers(self, ledger: Ledger, net: object) -> None:
        funded(ledger, ana=1000)
        bet(ledger, "ana", 100, "b1")
        assert_refused(ledger, lambda: ledger.settle("r1", {"b1": net}), SettlementRejected, BALANCED)  # type: ignore[dict-item]

    def test_settle_touches_only_its_round(self, ledger: Ledger) -> None:
        funded(ledger, ana=1000)
        bet(ledger, "ana", 100, "b1", round_id="r1")
        bet(ledger, "ana", 70, "b1", round_id="r2")
        ledger.settle("r1", {"b1": -100})
        assert ledger.held("ana") == 70 and [h.status for h in ledger.holds("r2")] == ["open"]
        ledger.check()
        ledger.settle("r2", {"b1": 70})
        assert ledger.wallet("ana") == 1000 - 100 + 70

    def test_a_round_without_bets_is_settled_with_an_empty_entry(self, ledger: Ledger) -> None:
        entry = ledger.settle("r1", {})
        assert entry.postings == () and entry.kind == "settle"
        assert ledger.settle("r1", {}) == entry
        funded(ledger, ana=100)
        assert_refused(ledger, lambda: bet(ledger, "ana", 10, "b1"), RoundClosed, ONCE)
        ledger.check()

    # -- voids ------------------------------------------------------------------------------------------------

    def test_void_returns_every_open_stake(self, ledger: Ledger) -> None:
        funded(ledger, ana=1000, bo=500)
        bet(ledger, "ana", 100, "b1")
        bet(ledger, "ana", 200, "b2")
        bet(ledger, "bo", 500, "b3")
        entry = ledger.void("r1", memo="wheel jammed")
        assert entry.kind == "void" and entry.memo == "wheel jammed" and sum(p.amount for p in entry.postings) == 0
        assert ledger.void("r1", memo="wheel jammed") == entry
        assert (ledger.wallet("ana"), ledger.held("ana"), ledger.wallet("bo"), ledger.held("bo")) == (1000, 0, 500, 0)
        assert {h.status for h in ledger.holds("r1")} == {"voided"}
        assert ledger.balance(HOUSE) == 0
        round_ = ledger.round("r1")
        assert round_ is not None and (round_.status, round_.closed_by) == ("voided", entry.id)
        ledger.check()

    def test_a_voided_round_is_closed(self, ledger: Ledger) -> None:
        funded(ledger, ana=1000)
        bet(ledger, "ana", 100, "b1")
        ledger.void("r1")
        assert_refused(ledger, lambda: ledger.settle("r1", {"b1": 100}), RoundClosed, ONCE)
        assert_refused(ledger, lambda: ledger.void("r1", memo="again"), IdempotencyConflict, ONE_KEY_ONE_COMMAND)
        assert_refused(ledger, lambda: ledger.void("r1", key="v2"), RoundClosed, ONCE)
        assert_refused(ledger, lambda: bet(ledger, "ana", 10, "b2"), RoundClosed, ONCE)

    # -- reading ----------------------------------------------------------------------------------------------

    def test_the_journal_is_in_order_and_balances_follow_from_it(self, ledger: Ledger) -> None:
        funded(ledger, ana=1000, bo=300)
        bet(ledger, "ana", 100, "b1")
        bet(ledger, "bo", 300, "b2")
        ledger.settle("r1", {"b1": 100, "b2": -300})
        ledger.debit("ana", 1100, by="root", key="out")
        entries = ledger.entries()
        assert [e.kind for e in entries] == ["credit", "credit", "hold", "hold", "settle", "debit"]
        assert [e.id for e in entries] == sorted(e.id for e in entries)
        assert [e.kind for e in ledger.entries("r1")] == ["hold", "hold", "settle"]
        derived: dict[str, int] = {}
        for e in entries:
            for p in e.postings:
                derived[p.account] = derived.get(p.account, 0) + p.amount
        assert {a: b for a, b in ledger.balances().items() if b} == {a: b for a, b in derived.items() if b}
        assert ledger.balances()[HOUSE] == 200 and ledger.wallet("ana") == 0 and ledger.balance(EXTERNAL) == -200
        assert sum(ledger.balances().values()) == 0
        assert ledger.problems() == []
