"""The ledger: double-entry, append-only bookkeeping of every unit of money, in integers.

Accounts are named by strings: ``wallet:<player>`` (money a player may bet or cash out), ``held:<player>`` (stakes
on the layout), ``table:<table>`` (the table's float, through which every stake passes on settlement), ``house``
and ``external`` (the cashier: what an admin credits comes from it, what is debited goes back to it).

Every money command is one **entry** of **postings** that sum to zero, written in one transaction of the
:class:`LedgerStore` port, and carries an **idempotency key**: the same key with the same payload answers the
entry already written (nothing is posted twice); the same key with another payload is refused. A round is settled
or voided once, a bet (``round_id``, ``bet_ref``) is held once. A refused command writes nothing: a command that
was refused may be sent again under the same key.

The ledger's own rules (cited as ``rule`` in its errors; they are not statute):

====================  ==============================================================================
``LEDGER 1``          every entry's postings sum to zero; money is integers
``LEDGER 2``          no wallet goes negative: a bet or a debit is refused beyond the wallet's balance
``LEDGER 3``          an idempotency key names one command with one payload
``LEDGER 4``          a bet is held once; a round is settled or voided once, and takes no bet after
``LEDGER 5``          a settlement covers every open stake of its round; a bet loses at most its stake
====================  ==============================================================================
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

try:  # the server's extra: a faster writer of the same JSON
    import orjson
except ModuleNotFoundError:  # pragma: no cover - the engine library alone
    orjson = None  # type: ignore[assignment]

from croupier.errors import BetRejected, CroupierError
from croupier.money import is_amount

BALANCED = "LEDGER 1"
NO_OVERDRAFT = "LEDGER 2"
ONE_KEY_ONE_COMMAND = "LEDGER 3"
ONCE = "LEDGER 4"
FULL_SETTLEMENT = "LEDGER 5"

RULES: dict[str, str] = {
    BALANCED: "Every entry's postings sum to zero; money is integers",
    NO_OVERDRAFT: "No wallet goes negative: a bet or a debit is refused beyond the wallet's balance",
    ONE_KEY_ONE_COMMAND: "An idempotency key names one command with one payload",
    ONCE: "A bet is held once; a round is settled or voided once, and takes no bet after",
    FULL_SETTLEMENT: "A settlement covers every open stake of its round; a bet loses at most its stake",
}

HOUSE = "house"
EXTERNAL = "external"
MAX_ID = 128
MAX_AMOUNT = 10**15

EntryKind = Literal["credit", "debit", "hold", "settle", "void"]
HoldStatus = Literal["open", "settled", "voided"]
RoundStatus = Literal["open", "settled", "voided"]
AccountKind = Literal["wallet", "held", "table", "house", "external"]


class LedgerError(CroupierError):
    """A money command the ledger refuses; nothing was written."""

    kind = "ledger_error"


class InsufficientFunds(BetRejected):
    """A bet larger than the wallet holds (LEDGER 2); a ``BetRejected``, so the table refuses it like a limit."""

    kind = "insufficient_funds"


class OverdraftRefused(LedgerError):
    """An admin debit larger than the wallet holds (LEDGER 2)."""

    kind = "insufficient_funds"


class IdempotencyConflict(LedgerError):
    """An idempotency key sent again with another command or payload (LEDGER 3)."""

    kind = "idempotency_conflict"


class DuplicateBet(BetRejected):
    """A bet reference already held in its round under another key (LEDGER 4)."""

    kind = "duplicate_bet"


class RoundClosed(LedgerError):
    """A bet, settlement or void for a round already settled or voided (LEDGER 4)."""

    kind = "round_closed"


class SettlementRejected(LedgerError):
    """Results that do not settle the round's open stakes exactly (LEDGER 5)."""

    kind = "settlement_rejected"


class LedgerCorrupt(LedgerError):
    """``Ledger.check`` found broken invariants; ``problems`` lists them all."""

    kind = "ledger_corrupt"

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__(f"{len(problems)} ledger invariant(s) broken: " + "; ".join(problems), rule=BALANCED)


class RetryableConflict(Exception):
    """Raised by a store when its transaction lost a race (a key inserted meanwhile, a deadlock): the ledger
    runs the command again from the start. Not a ``CroupierError``: callers of the ledger never see it."""


def wallet(player: str) -> str:
    """The account of the money ``player`` may bet or cash out."""
    return f"wallet:{player}"


def held(player: str) -> str:
    """The account of ``player``'s stakes on the layout."""
    return f"held:{player}"


def table_account(table: str) -> str:
    """The account through which ``table``'s stakes pass on settlement."""
    return f"table:{table}"


def account_kind(account: str) -> AccountKind:
    """The kind of ``account``: ``wallet``, ``held``, ``table``, ``house`` or ``external``."""
    if account in (HOUSE, EXTERNAL):
        return account  # type: ignore[return-value]
    prefix, _, owner = account.partition(":")
    if prefix in ("wallet", "held", "table") and owner:
        return prefix  # type: ignore[return-value]
    raise LedgerError(f"{account!r} is not a ledger account.", rule=None)


def utc_now() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class Posting:
    """One line of an entry: ``amount`` (positive in, negative out) on ``account``; ``bet_ref`` names the bet."""

    account: str
    amount: int
    bet_ref: str | None = None


@dataclass(frozen=True, slots=True)
class EntryDraft:
    """An entry before the store numbers it."""

    key: str
    kind: EntryKind
    fingerprint: str
    postings: tuple[Posting, ...]
    created_at: datetime
    round_id: str | None = None
    table: str | None = None
    actor: str | None = None
    memo: str | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """A written entry: its number ``id``, the command that made it and its balanced postings."""

    id: int
    key: str
    kind: EntryKind
    fingerprint: str
    postings: tuple[Posting, ...]
    created_at: datetime
    round_id: str | None = None
    table: str | None = None
    actor: str | None = None
    memo: str | None = None

    @classmethod
    def from_draft(cls, entry_id: int, draft: EntryDraft) -> Entry:
        """The entry ``draft`` becomes when the store gives it the number ``entry_id``."""
        return cls(
            id=entry_id,
            key=draft.key,
            kind=draft.kind,
            fingerprint=draft.fingerprint,
            postings=draft.postings,
            created_at=draft.created_at,
            round_id=draft.round_id,
            table=draft.table,
            actor=draft.actor,
            memo=draft.memo,
        )

    def net(self, account: str) -> int:
        """What this entry moved into ``account`` (negative: out of it)."""
        return sum(p.amount for p in self.postings if p.account == account)


@dataclass(frozen=True, slots=True)
class Hold:
    """A stake held for bet ``bet_ref`` of ``round_id``; once closed, ``closed_by`` is the entry and ``net`` the
    player's result (``None`` when voided)."""

    round_id: str
    bet_ref: str
    player: str
    table: str
    amount: int
    entry_id: int
    status: HoldStatus = "open"
    closed_by: int | None = None
    net: int | None = None


@dataclass(frozen=True, slots=True)
class Round:
    """A round the ledger has seen: open while it takes bets, then settled or voided by entry ``closed_by``."""

    round_id: str
    table: str | None
    status: RoundStatus = "open"
    closed_by: int | None = None


class LedgerTransaction(Protocol):
    """One transaction of a :class:`LedgerStore`: everything a command reads and writes, all or nothing."""

    def get_round(self, round_id: str, *, lock: bool = False) -> Round | None:
        """The round, locked against other writers until the end of the transaction when ``lock``."""
        ...

    def put_round(self, record: Round) -> None:
        """Insert or replace the round (a concurrent insert of the same round raises ``RetryableConflict``)."""
        ...

    def lock_accounts(self, accounts: Sequence[str]) -> dict[str, int]:
        """Create the accounts that do not exist, lock them all in the given order and return their balances."""
        ...

    def find_entry(self, key: str) -> Entry | None:
        """The entry written under idempotency key ``key``."""
        ...

    def prepare_hold(
        self, round_id: str, accounts: Sequence[str], key: str, bet_ref: str
    ) -> tuple[Round | None, dict[str, int], bool, Hold | None]:
        """What a bet's hold reads first, in one go where the store can (:func:`prepare_hold`, step by step, is
        the reference): the round (locked), the accounts (created where missing, locked in the given order, with
        their balances), whether ``key`` names an entry already, and the bet's hold if it has one."""
        ...

    def append_entry(self, draft: EntryDraft) -> Entry:
        """Number and write the entry and add its postings to the cached balances."""
        ...

    def get_hold(self, round_id: str, bet_ref: str) -> Hold | None:
        """The stake held for the bet, if any."""
        ...

    def put_hold(self, record: Hold) -> None:
        """Insert or replace the hold."""
        ...

    def put_holds(self, records: Sequence[Hold]) -> None:
        """Insert or replace each of the holds (a settlement's or a void's, at once)."""
        ...

    def round_holds(self, round_id: str) -> list[Hold]:
        """Every hold of the round, in the order they were made."""
        ...

    def balance(self, account: str) -> int:
        """The cached balance of ``account`` (0 for an account never posted to)."""
        ...

    def balances(self) -> dict[str, int]:
        """The cached balance of every account."""
        ...

    def entries(self, round_id: str | None = None) -> list[Entry]:
        """Every entry in order, or those of one round."""
        ...

    def holds(self) -> list[Hold]:
        """Every hold."""
        ...

    def rounds(self) -> list[Round]:
        """Every round."""
        ...


class LedgerStore(Protocol):
    """The repository port of the ledger."""

    def transaction(self, *, write: bool = True) -> AbstractContextManager[LedgerTransaction]:
        """A transaction, committed when the block ends normally and rolled back when it raises. Write
        transactions exclude each other on the accounts and rounds they lock; a read one sees one snapshot."""
        ...

    def group(self) -> AbstractContextManager[None]:
        """Group commit: the write transactions this thread runs inside the block become durable together, when the
        block ends normally (none of them when it raises); before then none of them may be shown to anyone."""
        ...


def prepare_hold(
    tx: LedgerTransaction, round_id: str, accounts: Sequence[str], key: str, bet_ref: str
) -> tuple[Round | None, dict[str, int], bool, Hold | None]:
    """:meth:`LedgerTransaction.prepare_hold` step by step, in the ledger's lock order (the round, then the
    accounts)."""
    record = tx.get_round(round_id, lock=True)
    balances = tx.lock_accounts(accounts)
    return record, balances, tx.find_entry(key) is not None, tx.get_hold(round_id, bet_ref)


def _plain(value: object) -> bool:
    """Whether ``value`` is JSON of strings, integers, booleans and nulls only (dict keys strings)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if kind is dict:
        return all(type(k) is str and _plain(v) for k, v in value.items())  # type: ignore[attr-defined]
    if kind is list or kind is tuple:
        return all(_plain(v) for v in value)  # type: ignore[attr-defined]
    return False


def fingerprint(command: str, payload: Mapping[str, Any]) -> str:
    """A digest of a command and its payload, compared when an idempotency key comes again: the SHA-256 of the
    compact JSON text with sorted keys (ASCII, as ``json.dumps`` writes it). orjson writes the same text several
    times faster for the usual payload (ASCII strings and integers); anything else is left to ``json``."""
    document = {"command": command, **payload}
    data: bytes | None = None
    if orjson is not None and _plain(document):  # (floats: orjson writes 1e16 where json writes 1e+16)
        with contextlib.suppress(TypeError):  # an integer beyond 64 bits
            data = orjson.dumps(document, option=orjson.OPT_SORT_KEYS)
    if data is None or not data.isascii() or b"\x7f" in data:  # json escapes DEL as \u007f; orjson does not
        data = json.dumps(document, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(data).hexdigest()


def _check_id(value: object, what: str) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_ID or not value.isprintable():
        raise LedgerError(f"{value!r} is not a valid {what}: a printable string of 1 to {MAX_ID} characters.")
    return value


def _check_amount(value: object, what: str) -> int:
    if not is_amount(value):
        raise LedgerError(f"{value!r} is not an amount for {what}: money is integers.", rule=BALANCED)
    assert isinstance(value, int)
    if not 0 < value <= MAX_AMOUNT:
        raise LedgerError(f"{value} is not an amount for {what}: amounts are 1 to {MAX_AMOUNT} units.", rule=BALANCED)
    return value


class Ledger:
    """The money commands (``credit``, ``debit``, ``hold``, ``settle``, ``void``), balances and ``check``.

    ``clock`` stamps entries; ``retries`` bounds how often a command that lost a race in the store is run again.
    """

    def __init__(self, store: LedgerStore, *, clock: Callable[[], datetime] = utc_now, retries: int = 8) -> None:
        self.store = store
        self._clock = clock
        self._retries = retries

    # -- commands ---------------------------------------------------------------------------------------------

    def credit(self, player: str, amount: int, *, by: str, key: str, memo: str | None = None) -> Entry:
        """An admin ``by`` adds ``amount`` to ``player``'s wallet from the cashier (``external``)."""
        return self._adjust("credit", player, amount, by=by, key=key, memo=memo)

    def debit(self, player: str, amount: int, *, by: str, key: str, memo: str | None = None) -> Entry:
        """An admin ``by`` takes ``amount`` from ``player``'s wallet back to the cashier; refused beyond the
        wallet's balance (LEDGER 2)."""
        return self._adjust("debit", player, amount, by=by, key=key, memo=memo)

    def _adjust(
        self, kind: Literal["credit", "debit"], player: str, amount: int, *, by: str, key: str, memo: str | None
    ) -> Entry:
        _check_id(player, "player")
        _check_amount(amount, f"a {kind}")
        _check_id(by, "admin")
        _check_id(key, "idempotency key")
        if memo is not None and not isinstance(memo, str):
            raise LedgerError(f"{memo!r} is not a memo: a memo is text.")
        digest = fingerprint(kind, {"player": player, "amount": amount, "by": by, "memo": memo})
        account = wallet(player)

        def run(tx: LedgerTransaction) -> Entry:
            balances = tx.lock_accounts(sorted([EXTERNAL, account]))
            if (done := self._replay(tx, key, kind, digest)) is not None:
                return done
            if kind == "debit" and balances[account] < amount:
                raise OverdraftRefused(
                    f"A debit of {amount} from {player}'s wallet exceeds its balance {balances[account]}.",
                    rule=NO_OVERDRAFT,
                )
            sign = 1 if kind == "credit" else -1
            postings = (Posting(EXTERNAL, -sign * amount), Posting(account, sign * amount))
            return tx.append_entry(self._draft(key, kind, digest, postings, actor=by, memo=memo))

        return self._transact(run)

    def hold(
        self,
        player: str,
        amount: int,
        *,
        table: str,
        round_id: str,
        bet_ref: str,
        key: str,
        then: Callable[[LedgerTransaction, Entry], None] | None = None,
    ) -> Entry:
        """A bet placed: ``amount`` moves from ``player``'s wallet to their held stakes for bet ``bet_ref`` of
        ``round_id`` at ``table``. Refused with ``InsufficientFunds`` beyond the wallet (LEDGER 2), with
        ``DuplicateBet`` for a bet already held, with ``RoundClosed`` after the round's settlement or void.

        ``then(tx, entry)`` is called inside the transaction once a new hold is written (not when ``key`` answers
        an entry written before), so that the caller's own record of the bet commits with the hold or not at all;
        if it raises, nothing is written."""
        for value, what in ((player, "player"), (table, "table"), (round_id, "round"), (bet_ref, "bet reference")):
            _check_id(value, what)
        _check_amount(amount, f"bet {bet_ref}")
        _check_id(key, "idempotency key")
        digest = fingerprint(
            "hold", {"player": player, "amount": amount, "table": table, "round_id": round_id, "bet_ref": bet_ref}
        )
        source, target = wallet(player), held(player)

        def run(tx: LedgerTransaction) -> Entry:
            record, balances, known, previous = tx.prepare_hold(round_id, sorted([source, target]), key, bet_ref)
            if known and (done := self._replay(tx, key, "hold", digest)) is not None:
                return done
            if record is not None:
                self._require_open(record, f"bet {bet_ref}")
                if record.table is not None and record.table != table:
                    raise LedgerError(
                        f"Bet {bet_ref} names table {table!r}, but round {round_id!r} is played at {record.table!r}.",
                        rule=ONCE,
                    )
            if previous is not None:
                raise DuplicateBet(
                    f"Bet {bet_ref} of round {round_id!r} is already held (entry {previous.entry_id}).", rule=ONCE
                )
            if balances[source] < amount:
                raise InsufficientFunds(
                    f"A bet of {amount} exceeds {player}'s wallet balance {balances[source]}.", rule=NO_OVERDRAFT
                )
            if record is None:
                tx.put_round(Round(round_id, table))
            postings = (Posting(source, -amount, bet_ref), Posting(target, amount, bet_ref))
            entry = tx.append_entry(self._draft(key, "hold", digest, postings, round_id=round_id, table=table))
            tx.put_hold(Hold(round_id, bet_ref, player, table, amount, entry.id))
            if then is not None:
                then(tx, entry)
            return entry

        return self._transact(run)

    def settle(self, round_id: str, results: Mapping[str, int], *, key: str | None = None) -> Entry:
        """Settle ``round_id`` in one entry: ``results`` gives every open bet of the round its net for the player
        (``-stake`` a loss, ``0`` a push, ``+n`` a win of ``n``; a partial loss such as a surrender is ``-stake/2``).

        Each stake leaves the player's held account for the table account; from there the stake minus any loss
        returns to the wallet and the loss goes to the house; a win is paid from the house to the wallet. The entry
        posts these moves summed per player (per account pair), and each bet's hold records its own net. The key
        defaults to ``settle:<round_id>``. A round with no bets is settled with an empty entry."""
        _check_id(round_id, "round")
        key = f"settle:{round_id}" if key is None else _check_id(key, "idempotency key")
        if not isinstance(results, Mapping):
            raise SettlementRejected(f"{results!r} is not a mapping of bet references to nets.", rule=FULL_SETTLEMENT)
        nets: dict[str, int] = {}
        for bet_ref, net in results.items():
            _check_id(bet_ref, "bet reference")
            if not is_amount(net) or abs(net) > MAX_AMOUNT:
                raise SettlementRejected(f"{net!r} is not a net for bet {bet_ref}: money is integers.", rule=BALANCED)
            nets[bet_ref] = net
        digest = fingerprint("settle", {"round_id": round_id, "results": nets})

        def run(tx: LedgerTransaction) -> Entry:
            record = tx.get_round(round_id, lock=True)
            open_holds = [h for h in tx.round_holds(round_id) if h.status == "open"]
            accounts = {HOUSE} if open_holds else set()
            for h in open_holds:
                accounts |= {held(h.player), wallet(h.player), table_account(h.table)}
            tx.lock_accounts(sorted(accounts))
            if (done := self._replay(tx, key, "settle", digest)) is not None:
                return done
            if record is not None:
                self._require_open(record, "a settlement")
            by_ref = {h.bet_ref: h for h in open_holds}
            missing = sorted(set(by_ref) - set(nets))
            unknown = sorted(set(nets) - set(by_ref))
            if missing or unknown:
                parts = [f"no result for open bet(s) {', '.join(missing)}"] if missing else []
                parts += [f"no open bet {', '.join(unknown)}"] if unknown else []
                raise SettlementRejected(
                    f"The results for round {round_id!r} do not match its open bets: {'; '.join(parts)}.",
                    rule=FULL_SETTLEMENT,
                )
            postings = self._settlement_postings(open_holds, nets)
            table = open_holds[0].table if open_holds else (record.table if record else None)
            draft = self._draft(key, "settle", digest, postings, round_id=round_id, table=table)
            entry = tx.append_entry(draft)
            tx.put_holds([_close(h, "settled", entry.id, nets[h.bet_ref]) for h in open_holds])
            tx.put_round(Round(round_id, table, "settled", entry.id))
            return entry

        return self._transact(run)

    @staticmethod
    def _settlement_postings(holds: Sequence[Hold], nets: Mapping[str, int]) -> tuple[Posting, ...]:
        """The moves of a settlement, summed over the round's bets: each player's stakes from their held account to
        the table account; from there what is not lost back to their wallet, and the losses to the house; the wins
        from the house to the wallets. One pair of postings per move (a few per player, not several per bet: the
        bets' own results are their holds' ``net``)."""
        moves: dict[tuple[str, str], int] = {}
        for h in holds:
            net = nets[h.bet_ref]
            if net < -h.amount:
                raise SettlementRejected(
                    f"Bet {h.bet_ref} cannot lose {-net}: it staked {h.amount}, and a bet loses at most its stake.",
                    rule=FULL_SETTLEMENT,
                )
            pocket, purse, desk = held(h.player), wallet(h.player), table_account(h.table)
            returned, lost, won = h.amount + min(net, 0), -min(net, 0), max(net, 0)
            for move, amount in (
                ((pocket, desk), h.amount),
                ((desk, purse), returned),
                ((desk, HOUSE), lost),
                ((HOUSE, purse), won),
            ):
                if amount:
                    moves[move] = moves.get(move, 0) + amount
        out: list[Posting] = []
        for (source, target), amount in moves.items():
            out += [Posting(source, -amount), Posting(target, amount)]
        return tuple(out)

    def void(self, round_id: str, *, key: str | None = None, memo: str | None = None) -> Entry:
        """Void ``round_id``: every open stake goes back to its wallet, in one entry; the round takes no more
        bets. The key defaults to ``void:<round_id>``."""
        _check_id(round_id, "round")
        key = f"void:{round_id}" if key is None else _check_id(key, "idempotency key")
        digest = fingerprint("void", {"round_id": round_id, "memo": memo})

        def run(tx: LedgerTransaction) -> Entry:
            record = tx.get_round(round_id, lock=True)
            open_holds = [h for h in tx.round_holds(round_id) if h.status == "open"]
            tx.lock_accounts(sorted({a for h in open_holds for a in (held(h.player), wallet(h.player))}))
            if (done := self._replay(tx, key, "void", digest)) is not None:
                return done
            if record is not None:
                self._require_open(record, "a void")
            postings: list[Posting] = []
            for h in open_holds:
                back = Posting(wallet(h.player), h.amount, h.bet_ref)
                postings += [Posting(held(h.player), -h.amount, h.bet_ref), back]
            table = record.table if record else None
            draft = self._draft(key, "void", digest, tuple(postings), round_id=round_id, table=table, memo=memo)
            entry = tx.append_entry(draft)
            tx.put_holds([_close(h, "voided", entry.id, None) for h in open_holds])
            tx.put_round(Round(round_id, table, "voided", entry.id))
            return entry

        return self._transact(run)

    # -- reading ----------------------------------------------------------------------------------------------

    def balance(self, account: str) -> int:
        """The balance of ``account``."""
        account_kind(account)
        with self.store.transaction(write=False) as tx:
            return tx.balance(account)

    def wallet(self, player: str) -> int:
        """What ``player`` may bet or cash out."""
        return self.balance(wallet(player))

    def held(self, player: str) -> int:
        """What ``player`` has on the layout."""
        return self.balance(held(player))

    def balances(self) -> dict[str, int]:
        """Every account's balance."""
        with self.store.transaction(write=False) as tx:
            return tx.balances()

    def entries(self, round_id: str | None = None) -> list[Entry]:
        """The journal, or one round's entries."""
        with self.store.transaction(write=False) as tx:
            return tx.entries(round_id)

    def holds(self, round_id: str) -> list[Hold]:
        """The holds of ``round_id``."""
        with self.store.transaction(write=False) as tx:
            return tx.round_holds(round_id)

    def round(self, round_id: str) -> Round | None:
        """The round, if the ledger has seen it."""
        with self.store.transaction(write=False) as tx:
            return tx.get_round(round_id)

    def problems(self) -> list[str]:
        """Every broken invariant, read in one snapshot: entries that do not balance, a non-zero total, cached
        balances that differ from the postings, a negative wallet or held account, a table account not at zero,
        held accounts that differ from their open holds, a round or hold closed other than by exactly one entry."""
        with self.store.transaction(write=False) as tx:
            return audit(tx.entries(), tx.balances(), tx.holds(), tx.rounds())

    def check(self) -> None:
        """Raise ``LedgerCorrupt`` listing every problem when :meth:`problems` finds any."""
        if found := self.problems():
            raise LedgerCorrupt(found)

    # -- machinery --------------------------------------------------------------------------------------------

    def _transact(self, run: Callable[[LedgerTransaction], Entry]) -> Entry:
        for _ in range(self._retries):
            try:
                with self.store.transaction() as tx:
                    return run(tx)
            except RetryableConflict as conflict:
                last = conflict
        raise LedgerError(f"The command lost {self._retries} races in a row in the store ({last}); nothing was done.")

    @staticmethod
    def _replay(tx: LedgerTransaction, key: str, kind: str, digest: str) -> Entry | None:
        entry = tx.find_entry(key)
        if entry is None:
            return None
        if entry.kind != kind or entry.fingerprint != digest:
            raise IdempotencyConflict(
                f"Idempotency key {key!r} was used for another command ({entry.kind}, entry {entry.id}) with another "
                "payload; send a new key for a new command.",
                rule=ONE_KEY_ONE_COMMAND,
            )
        return entry

    @staticmethod
    def _require_open(record: Round, what: str) -> None:
        if record.status != "open":
            raise RoundClosed(
                f"Round {record.round_id!r} was already {record.status} (entry {record.closed_by}): "
                f"it takes no {what}.",
                rule=ONCE,
            )

    def _draft(
        self,
        key: str,
        kind: EntryKind,
        digest: str,
        postings: tuple[Posting, ...],
        *,
        round_id: str | None = None,
        table: str | None = None,
        actor: str | None = None,
        memo: str | None = None,
    ) -> EntryDraft:
        if sum(p.amount for p in postings) != 0:  # pragma: no cover - the commands above build balanced postings
            raise LedgerError(f"Entry {key!r} does not balance.", rule=BALANCED)
        return EntryDraft(key, kind, digest, postings, self._clock(), round_id, table, actor, memo)


def _close(h: Hold, status: HoldStatus, entry_id: int, net: int | None) -> Hold:
    return Hold(h.round_id, h.bet_ref, h.player, h.table, h.amount, h.entry_id, status, entry_id, net)


def audit(
    entries: Iterable[Entry], balances: Mapping[str, int], holds: Iterable[Hold], rounds: Iterable[Round]
) -> list[str]:
    """The invariants of the ledger over a snapshot of the store; an empty list when all hold."""
    problems: list[str] = []
    derived: Counter[str] = Counter()
    keys: Counter[str] = Counter()
    closings: dict[str, list[Entry]] = {}
    by_id: dict[int, Entry] = {}
    for entry in entries:
        by_id[entry.id] = entry
        keys[entry.key] += 1
        if (total := sum(p.amount for p in entry.postings)) != 0:
            problems.append(f"entry {entry.id} ({entry.kind}) sums to {total}, not 0")
        for p in entry.postings:
            derived[p.account] += p.amount
            if p.amount == 0 or not is_amount(p.amount):
                problems.append(f"entry {entry.id} posts {p.amount!r} to {p.account}")
        if entry.kind in ("settle", "void") and entry.round_id is not None:
            closings.setdefault(entry.round_id, []).append(entry)
    if (grand := sum(derived.values())) != 0:
        problems.append(f"all postings sum to {grand}, not 0")
    problems += [f"idempotency key {key!r} names {n} entries" for key, n in keys.items() if n > 1]
    for account in sorted(set(derived) | set(balances)):
        cached, posted = balances.get(account, 0), derived.get(account, 0)
        if cached != posted:
            problems.append(f"{account} is cached as {cached} but its postings sum to {posted}")
        kind = account_kind(account)
        if kind in ("wallet", "held") and posted < 0:
            problems.append(f"{account} is negative: {posted}")
        if kind == "table" and posted != 0:
            problems.append(f"{account} holds {posted}; a table account returns to 0 with every entry")
    open_stakes: Counter[str] = Counter()
    for h in holds:
        if h.status == "open":
            open_stakes[held(h.player)] += h.amount
            if h.closed_by is not None:
                problems.append(f"open bet {h.bet_ref} of round {h.round_id} names closing entry {h.closed_by}")
        elif h.closed_by not in by_id or by_id[h.closed_by].round_id != h.round_id:
            problems.append(f"{h.status} bet {h.bet_ref} of round {h.round_id} names no entry of its round")
        if h.entry_id not in by_id or by_id[h.entry_id].kind != "hold":
            problems.append(f"bet {h.bet_ref} of round {h.round_id} names no hold entry")
    for account in sorted({a for a in derived if account_kind(a) == "held"} | set(open_stakes)):
        if derived.get(account, 0) != open_stakes.get(account, 0):
            problems.append(f"{account} is {derived.get(account, 0)} but its open bets total {open_stakes[account]}")
    seen = set()
    for r in rounds:
        seen.add(r.round_id)
        closers = closings.get(r.round_id, [])
        if r.status == "open" and closers:
            problems.append(f"open round {r.round_id} has closing entries {[e.id for e in closers]}")
        if r.status != "open" and [e.id for e in closers] != [r.closed_by]:
            problems.append(f"{r.status} round {r.round_id} was closed by entries {[e.id for e in closers]}")
    problems += [f"entries close unknown round {rid}" for rid in sorted(set(closings) - seen)]
    return problems
