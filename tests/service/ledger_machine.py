"""A hypothesis state machine that plays random sequences of credits, debits, holds, settlements, voids and
repeated or reused keys against a ledger, next to a plain model of what every wallet must hold; run on each store
by :func:`machine_for`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from croupier.service.ledger import (
    EXTERNAL,
    HOUSE,
    IdempotencyConflict,
    InsufficientFunds,
    Ledger,
    LedgerError,
    LedgerStore,
    RoundClosed,
    SettlementRejected,
)

PLAYERS = st.sampled_from(["ana", "bo", "cy"])
ROUNDS = st.sampled_from(["r1", "r2", "r3", "r4"])
AMOUNTS = st.integers(min_value=1, max_value=500)


class LedgerMachine(RuleBasedStateMachine):
    """The ledger against a model: wallets, open stakes per round, closed rounds, every command sent."""

    make_store: Callable[[], LedgerStore]

    def __init__(self) -> None:
        super().__init__()
        self.ledger = Ledger(self.make_store())
        self.wallets: dict[str, int] = {}
        self.stakes: dict[str, dict[str, tuple[str, int]]] = {}  # round -> bet_ref -> (player, amount)
        self.closed: dict[str, tuple[object, int]] = {}  # round -> (what closed it, the entry)
        self.cashed_in = 0
        self.sent: list[tuple[Callable[[], Any], int]] = []  # a command that succeeded and its entry id
        self.serial = 0
        self.reused: dict[str, tuple[str, int, int]] = {}

    def key(self) -> str:
        self.serial += 1
        return f"k{self.serial}"

    def remember(self, command: Callable[[], Any]) -> None:
        self.sent.append((command, command().id))

    @rule(player=PLAYERS, amount=AMOUNTS)
    def credit(self, player: str, amount: int) -> None:
        key = self.key()
        self.remember(lambda: self.ledger.credit(player, amount, by="admin", key=key))
        self.wallets[player] = self.wallets.get(player, 0) + amount
        self.cashed_in += amount

    @rule(player=PLAYERS, amount=AMOUNTS)
    def debit(self, player: str, amount: int) -> None:
        key = self.key()
        command = lambda: self.ledger.debit(player, amount, by="admin", key=key)  # noqa: E731
        if amount > self.wallets.get(player, 0):
            try:
                command()
            except LedgerError:
                return
            raise AssertionError("an overdraft was accepted")
        self.remember(command)
        self.wallets[player] -= amount
        self.cashed_in -= amount

    @rule(player=PLAYERS, amount=AMOUNTS, round_id=ROUNDS)
    def hold(self, player: str, amount: int, round_id: str) -> None:
        key = self.key()
        ref = f"b{self.serial}"
        command = lambda: self.ledger.hold(player, amount, table="T", round_id=round_id, bet_ref=ref, key=key)  # noqa: E731
        if round_id in self.closed or amount > self.wallets.get(player, 0):
            try:
                command()
            except (InsufficientFunds, RoundClosed):
                return
            raise AssertionError("a bet beyond the wallet or in a closed round was accepted")
        self.remember(command)
        self.wallets[player] -= amount
        self.stakes.setdefault(round_id, {})[ref] = (player, amount)

    @rule(round_id=ROUNDS, data=st.data())
    def settle(self, round_id: str, data: st.DataObject) -> None:
        bets = self.stakes.get(round_id, {})
        results = {ref: data.draw(st.integers(-amount, 3 * amount), label=ref) for ref, (_, amount) in bets.items()}
        command = lambda: self.ledger.settle(round_id, results, key=f"settle-{round_id}")  # noqa: E731
        if round_id in self.closed:
            how, entry_id = self.closed[round_id]
            if how == results:  # the same settlement sent again
                assert command().id == entry_id
                return
            try:
                command()
            except (RoundClosed, IdempotencyConflict):
                return
            raise AssertionError("a closed round was settled again")
        self.remember(command)
        for ref, (player, amount) in bets.items():
            self.wallets[player] += amount + results[ref]
        self.closed[round_id] = (results, self.sent[-1][1])
        self.stakes.pop(round_id, None)

    @rule(round_id=ROUNDS)
    def void(self, round_id: str) -> None:
        command = lambda: self.ledger.void(round_id, key=f"void-{round_id}")  # noqa: E731
        if round_id in self.closed:
            how, entry_id = self.closed[round_id]
            if how == "void":  # the same void sent again
                assert command().id == entry_id
                return
            try:
                command()
            except RoundClosed:
                return
            raise AssertionError("a closed round was voided")
        self.remember(command)
        for player, amount in self.stakes.pop(round_id, {}).values():
            self.wallets[player] += amount
        self.closed[round_id] = ("void", self.sent[-1][1])

    @rule(round_id=ROUNDS)
    def settle_leaving_a_bet_out(self, round_id: str) -> None:
        bets = self.stakes.get(round_id, {})
        if round_id in self.closed or not bets:
            return
        partial = {ref: 0 for ref in list(bets)[1:]}
        try:
            self.ledger.settle(round_id, partial, key=self.key())
        except SettlementRejected:
            return
        raise AssertionError("a settlement without every bet was accepted")

    @precondition(lambda self: bool(self.sent))
    @rule(data=st.data())
    def send_again(self, data: st.DataObject) -> None:
        command, entry_id = data.draw(st.sampled_from(self.sent))
        assert command().id == entry_id

    @precondition(lambda self: self.serial > 0)
    @rule(data=st.data(), player=PLAYERS, amount=AMOUNTS)
    def reuse_a_key(self, data: st.DataObject, player: str, amount: int) -> None:
        key = f"k{data.draw(st.integers(1, self.serial))}"
        try:
            entry = self.ledger.credit(player, amount, by="other-admin", key=key)
        except IdempotencyConflict:
            return
        if key in self.reused:
            assert self.reused[key] == (player, amount, entry.id), "a reused key was posted twice"
            return
        self.reused[key] = (player, amount, entry.id)
        # the key was of a refused command: it was free, and the credit stands
        self.sent.append((lambda: self.ledger.credit(player, amount, by="other-admin", key=key), entry.id))
        self.wallets[player] = self.wallets.get(player, 0) + amount
        self.cashed_in += amount

    @invariant()
    def money_is_conserved_to_the_unit(self) -> None:
        balances = self.ledger.balances()
        assert sum(balances.values()) == 0
        assert balances.get(EXTERNAL, 0) == -self.cashed_in
        for player in ("ana", "bo", "cy"):
            assert balances.get(f"wallet:{player}", 0) == self.wallets.get(player, 0)
            open_stakes = sum(a for bets in self.stakes.values() for p, a in bets.values() if p == player)
            assert balances.get(f"held:{player}", 0) == open_stakes
        on_the_tables = sum(self.wallets.values()) + sum(a for bets in self.stakes.values() for _, a in bets.values())
        assert on_the_tables + balances.get(HOUSE, 0) == self.cashed_in

    @invariant()
    def the_audit_finds_nothing(self) -> None:
        assert self.ledger.problems() == []


def machine_for(make_store: Callable[[], LedgerStore]) -> type[LedgerMachine]:
    """The state machine on stores made by ``make_store``."""
    return type("Machine", (LedgerMachine,), {"make_store": staticmethod(make_store)})
