"""The casino table service: tables of roulette, sic bo and blackjack (RNG or live), their rounds, timers,
persistence and recovery, with every unit of money moved through :class:`~croupier.service.ledger.Ledger`.

The contract with the server is ``docs/casino-service.md``. In short:

- Every method names its caller (``who``) and checks the role; a player acts only on his own bets and boxes and
  only while the rules let him (betting window RO 3 / SB 3.1 / BJ 5.1; his own decision BJ 6.3, BJ 20.2). A
  refused call raises before anything is written: no money moves, no state changes.
- A bet counts once the ledger holds its stake (LEDGER 2); a round is settled in one ledger entry keyed by the
  round (``settle:<round>``, LEDGER 4), or voided with every held bet returned (RO 2.2, SB 3.3, BJ 5.1.2).
- A round's state (:class:`~croupier.service.round_state.RoundState`: its bets with their hold keys, its steps, its
  cards) is stored **before** it is shown; each store or ledger commit is a *persistence boundary* that calls
  ``on_commit(label)`` (tests raise there to simulate a crash). A bet is one transaction: the ledger's hold of its
  stake and the bet appended to the stored round (``CasinoStore.append_round``) commit together or not at all.
  :meth:`Casino.recover` rebuilds every open table from the stored steps (a stored card or result is never drawn
  again) and resumes each unfinished round, or voids it when it cannot be resumed.
- :meth:`Casino.batch` is group commit for bets (and for the clock's tick): the bets placed inside it are stored in
  one database transaction (each in its own savepoint, so a refused one changes nothing) that commits once when the
  block ends. Their events are published, and their boundaries reported to ``on_commit``, only after that commit:
  nothing is shown before it is durable. If the commit fails, the tables are rebuilt from the store
  (:meth:`recover`), so what the casino holds in memory never runs ahead of what is stored.

What differs by game lives in the game's adapter (:mod:`croupier.service.table_games`); the read models in
:mod:`croupier.service.casino_info`, the meters and reconciliation in :mod:`croupier.service.casino_meters`, recall
and export in :mod:`croupier.service.casino_recall`. This class keeps the roles, the batching, the events, the
timers, the round lifecycle, recovery and the ledger.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal, cast

from croupier import fair as fairness
from croupier.errors import CroupierError, IllegalAction, InvalidInput
from croupier.games import GAMES
from croupier.primitives.chance import ChanceExhausted, ChanceSource, SystemRandom
from croupier.service import casino_fair, casino_meters, casino_recall
from croupier.service import casino_info as info
from croupier.service.accounts import AccountError, AccountService, Forbidden, Role, User
from croupier.service.casino_records import (
    AuditRecord,
    CasinoStore,
    RoundChange,
    RoundRecord,
    RoundStatus,
    Subscription,
    TableExists,
    TableRecord,
    TableStatus,
    UnknownRound,
    UnknownTable,
)
from croupier.service.ledger import (
    Entry,
    IdempotencyConflict,
    InsufficientFunds,
    Ledger,
    LedgerTransaction,
    fingerprint,
    utc_now,
)
from croupier.service.payloads import (
    ActAnswer,
    AuditLine,
    BetAnswer,
    BettingClosed,
    CardTakenBack,
    FairRecord,
    Meters,
    RecalledRound,
    Reconciliation,
    Recovered,
    ReportAnswer,
    RoundVoided,
    Scenario,
    TableClosed,
    TableDealers,
    WalletAdjustment,
)
from croupier.service.round_state import (
    Act,
    ActStep,
    BetDocument,
    BetHold,
    BetStep,
    CloseStep,
    ExtraHold,
    ForfeitStep,
    Hold,
    JsonObject,
    RoundState,
    Step,
    VoidResultStep,
    VoidStep,
)
from croupier.service.table_games import (
    HISTORY,
    MAX_BETS_PER_ROUND,
    Event,
    TableGame,
    load_rules,
    new_table_game,
)

__all__ = [
    "AuditRecord",
    "Casino",
    "CasinoStore",
    "RoundChange",
    "RoundRecord",
    "RoundStatus",
    "Subscription",
    "TableExists",
    "TableRecord",
    "TableStatus",
    "UnknownTable",
]

FINISHED = casino_meters.FINISHED
MAX_RESULT_DISPLAY = 60
RESULT_DISPLAY_SECONDS = 5.0
"""The result moment a table opened over the API or by the demo gets unless told otherwise (issue 14)."""
RECENT = 8
"""How many of a table's last results its description carries (the lobby's board)."""
TABLE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
MAX_KEY = 56
SYSTEM = "system"


@dataclass
class _Table:
    record: TableRecord
    game: TableGame
    round: RoundRecord | None = None
    deadline: datetime | None = None
    seq: int = 0
    event_seq: int = 0

    @property
    def current(self) -> RoundRecord:
        assert self.round is not None
        return self.round

    @property
    def history(self) -> Mapping[str, object]:
        """The finished engine rounds the table remembers, by round id."""
        return self.game.history

    def change(self, **fields: object) -> None:
        """Replace fields of the round's state."""
        r = self.current
        r.state = replace(r.state, **fields)  # type: ignore[arg-type]


def _check_key(key: object) -> str:
    if not isinstance(key, str) or not 0 < len(key) <= MAX_KEY or not key.isprintable():
        raise InvalidInput(f"{key!r} is not an idempotency key: a printable string of 1 to {MAX_KEY} characters.")
    return key


def _check_last(last: object, most: int) -> int:
    if isinstance(last, bool) or not isinstance(last, int) or not 0 < last <= most:
        raise InvalidInput(f"last must be 1 to {most} rounds, not {last!r}.")
    return last


class Casino:
    """The tables, their rounds and their money (see the module docstring and ``docs/casino-service.md``).

    ``source_factory(table_id)`` gives each RNG table its chance source; without it every RNG table is provably fair
    (``docs/fairness.md``): each result is derived from a server seed that ``seed_factory()`` draws (default
    :func:`croupier.fair.new_seed`; tests fix it) and that the table commits to before bets. ``on_commit(label)`` is
    called after every store or ledger commit. Call :meth:`recover` once at start-up.
    """

    def __init__(
        self,
        ledger: Ledger,
        accounts: AccountService,
        store: CasinoStore,
        *,
        clock: Callable[[], datetime] = utc_now,
        source_factory: Callable[[str], ChanceSource] | None = None,
        on_commit: Callable[[str], None] | None = None,
        seed_factory: Callable[[], str] | None = None,
    ) -> None:
        self.ledger = ledger
        self.accounts = accounts
        self.store = store
        self._clock = clock
        self._sources = source_factory or (lambda table_id: SystemRandom())
        self._provably_fair = source_factory is None  # an injected source scripts or seeds the results: not fair
        self._seeds = seed_factory or fairness.new_seed
        self._on_commit = on_commit
        self._tables: dict[str, _Table] = {}
        self._subscribers: dict[str, list[Subscription]] = {}
        self._outbox: list[Event] = []
        self._lock = threading.RLock()
        self._now: datetime | None = None
        self._deferred: list[str] | None = None  # inside batch(): the boundaries reported once it commits
        self._dirty: dict[str, RoundRecord] = {}  # inside batch(): the rounds to store whole before it commits
        self._taps: list[Callable[[list[Event]], None]] = []

    # == plumbing =====================================================================================================

    def _time(self) -> datetime:
        return self._now if self._now is not None else self._clock()

    def _commit(self, label: str) -> None:
        if self._deferred is not None:
            self._deferred.append(label)
        elif self._on_commit is not None:
            self._on_commit(label)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group commit (module docstring) for bets, or for a :meth:`tick`: what the calls inside the block store
        commits together when it ends; then their events are published and their boundaries reported. A bet
        refused inside the block raises as usual and changes nothing. If the commit itself fails, it raises here,
        nothing of the block is kept, and the tables are rebuilt from the store."""
        with self._lock:
            if self._deferred is not None:
                raise RuntimeError("Casino.batch() is already open.")
            labels: list[str] = []
            self._deferred = labels
            self._dirty = {}
            try:
                with self.ledger.store.group():
                    yield
                    for record in self._dirty.values():  # a round saved several times is written once
                        self.store.put_round(record)
            except BaseException:
                self._deferred, self._dirty = None, {}
                self._rebuild()
                raise
            self._deferred, self._dirty = None, {}
            for label in labels:
                self._commit(label)
            self._flush()

    def _rebuild(self) -> None:
        """Forget the tables in memory and load them again from the store (after a group commit failed)."""
        self._outbox.clear()
        self._tables.clear()
        self.recover()

    def _save(self, t: _Table, label: str) -> None:
        r = t.current
        r.updated_at = self._time()
        if self._deferred is not None:  # inside batch(): stored once, as it stands when the batch commits
            self._dirty[r.round_id] = r
        else:
            self.store.put_round(r)  # a store keeps no reference to it: it copies or serialises it
        self._commit(label)

    def _audit(self, actor: str, action: str, table_id: str | None, **detail: object) -> None:
        self.store.add_audit(self._time(), actor, action, table_id, detail)
        self._commit(f"audit:{action}")

    def _event(self, t: _Table, kind: str, **body: object) -> None:
        t.event_seq += 1
        round_id = t.round.round_id if t.round is not None else None
        self._outbox.append({"table": t.record.table_id, "round": round_id, "seq": t.event_seq, "type": kind, **body})

    def _flush(self) -> list[Event]:
        if self._deferred is not None:
            return []  # inside batch(): published once the batch is durable
        events, self._outbox = self._outbox, []
        for e in events:
            for sub in self._subscribers.get(str(e["table"]), []):
                sub.events.append(e)
        if events:
            for tap in self._taps:
                tap(events)
        return events

    def tap(self, receive: Callable[[list[Event]], None]) -> None:
        """Hand every event of every table, as published (once durable, in order), to ``receive(events)`` as well:
        how the casino's process forwards them to the server's (:mod:`croupier.server.casino_process`)."""
        with self._lock:
            self._taps.append(receive)

    @staticmethod
    def _require(who: User, *roles: Role) -> None:
        if not isinstance(who, User) or who.role not in roles or not who.active:
            names = ", ".join(r.value for r in roles)
            role = getattr(getattr(who, "role", None), "value", "nobody")
            raise Forbidden(f"This needs the role {names}; the caller is a {role}.")

    def _table(self, table_id: object) -> _Table:
        t = self._tables.get(table_id) if isinstance(table_id, str) else None
        if t is None:
            raise UnknownTable(f"There is no open table {table_id!r}.")
        return t

    def _find_entry_round(self, key: str) -> str | None:
        # Inside batch() the entry may be in the open group: read it there (a savepoint that writes nothing).
        with self.ledger.store.transaction(write=self._deferred is not None) as tx:
            entry = tx.find_entry(key)
        return None if entry is None else (entry.round_id or "")

    # == rounds ======================================================================================================

    def _open_round(self, t: _Table) -> None:
        t.game.open_round()
        t.seq += 1
        now = self._time()
        t.round = RoundRecord(
            f"{t.record.table_id}.{t.seq}", t.record.table_id, t.seq, "betting", RoundState(), now, now
        )
        t.deadline = now + timedelta(seconds=t.record.betting_seconds)
        fair = t.game.open_fair(t.current.round_id, self._new_seed) if t.game.provably_fair else None
        if fair is not None:
            t.change(fair=fair)
            t.game.use_fair(fair)
        self._save(t, "round_opened")  # the seed is stored before its commitment is published
        commitment = casino_fair.commitment_of(fair)
        if commitment is not None:
            self._event(t, "betting_open", closes_at=t.deadline.isoformat(), fair=commitment)
        else:
            self._event(t, "betting_open", closes_at=t.deadline.isoformat())

    def _new_seed(self) -> str:
        """A fresh server seed from ``seed_factory``, checked (64 hex digits)."""
        seed = self._seeds()
        fairness.commitment(seed)  # a malformed seed from the factory is a fault, raised before anything is stored
        return seed.lower()

    def _fix_fair_inputs(self, t: _Table) -> None:
        """At the bell: the public inputs (the players' seeds) of the round's fair draw are fixed and stored."""
        fair = t.current.state.fair
        if fair is None:
            return
        fixed = t.game.fix_inputs(fair, t.current.state.steps)
        if fixed is not fair:
            t.change(fair=fixed)
            t.game.use_fair(fixed)

    def _fair_record(self, t: _Table | None, table_id: str, game: str, record: RoundRecord) -> FairRecord | None:
        """A round's fairness record as anyone may see it (:mod:`croupier.service.casino_fair`); a blackjack shoe's
        cards from the stored rounds, the table's round in play as it stands in memory."""
        if record.state.fair is None:
            return None
        shoe_rounds: list[RoundRecord] = []
        if "shoe" in record.state.fair:
            shoe_rounds = self.store.rounds(table_id, last=HISTORY)
            if t is not None and t.round is not None:
                shoe_rounds = [t.round if r.round_id == t.round.round_id else r for r in shoe_rounds]
                if all(r.round_id != t.round.round_id for r in shoe_rounds):
                    shoe_rounds.append(t.round)
        return casino_fair.record_of(game, t.game if t is not None else None, record, shoe_rounds)

    def _revealing(self, t: _Table) -> dict[str, object]:
        """The ``fair`` key of a ``settled`` or ``void`` event: the round's record when its draw has just ended (a
        roulette or sic bo round; a blackjack shoe at its last round), seed included."""
        r = t.current
        if r.state.fair is None or not t.game.fair_ended():
            return {}
        record = self._fair_record(t, t.record.table_id, t.record.game, r)
        return {"fair": record} if record is not None and record["revealed"] else {}

    def _step(self, t: _Table, step: Step, *, record: bool = True) -> None:
        """Apply a step to the engine and record it (the caller saves; ``record=False``: already recorded); a live
        step that needs a card the dealer has not reported raises ``ChanceExhausted`` and changes nothing."""
        r = t.current
        events = t.game.apply(step)
        if record:
            r.state = r.state.add(steps=(step,))
        r.state = t.game.record(r.state)
        for e in events:
            kind = str(e.pop("type"))
            self._event(t, kind, **e)

    def _try_step(self, t: _Table, step: Step) -> bool:
        """A step on a live blackjack table waits for its card: False (and the step is kept as ``stalled``)."""
        try:
            self._step(t, step)
        except ChanceExhausted:
            first = t.current.state.stalled is None
            t.change(stalled=step)
            if first:  # the dealer's console learns that the round waits for a card (its prompt says which)
                self._event(t, "waiting_for_card")
            return False
        t.change(stalled=None)
        return True

    def _after_step(self, t: _Table) -> None:
        """Settle a finished round and open the next window, or start the next decision's timer."""
        if t.game.is_over:
            self._settle(t)
            self._next_window(t)
            return
        q = t.game.pending()
        if q is not None and t.current.state.stalled is None:
            t.deadline = self._time() + timedelta(seconds=t.record.decision_seconds)
            self._event(
                t,
                "decision",
                box=q.box,
                hand=q.hand,
                player=q.player,
                actions=list(q.actions),
                until=t.deadline.isoformat(),
            )

    def _next_window(self, t: _Table) -> None:
        """After a round is settled or voided: the next betting window opens at once, or, where the table shows its
        results (``result_display_seconds``), when that pause ends (:meth:`_tick_table`): until then the table's
        status is the finished round's and its deadline the next window's opening, the same for every client."""
        pause = t.record.result_display_seconds
        if pause <= 0:
            self._open_round(t)
            return
        t.deadline = self._time() + timedelta(seconds=pause)

    def _settle(self, t: _Table) -> None:
        r = t.current
        nets = t.game.ledger_results(r.state)
        t.change(nets=nets, outcome=t.game.outcome())
        r.status = "settling"
        self._save(t, "round_settling")
        entry = self.ledger.settle(r.round_id, nets)
        self._commit("ledger_settled")
        t.change(entry=entry.id)
        r.status = "settled"
        self._save(t, "round_settled")
        wagered = sum(h.amount for h in r.state.held)
        house_result = -sum(nets.values())
        self._audit(
            SYSTEM,
            "settled",
            t.record.table_id,
            round=r.round_id,
            entry=entry.id,
            wagered=wagered,
            house_result=house_result,
        )
        t.game.remember(r.round_id)
        self._event(t, "result", outcome=r.state.outcome)
        self._event(t, "settled", nets=nets, players=self._players_of(t), **self._revealing(t))

    def _players_of(self, t: _Table) -> dict[str, int]:
        state = t.current.state
        nets = state.nets or {}
        out: dict[str, int] = {}
        for h in state.held:
            out[h.player] = out.get(h.player, 0) + nets.get(h.ref, 0)
        return out

    def _void_round(self, t: _Table, actor: str, reason: str) -> None:
        r = t.current
        if t.game.void(reason):
            self._step(t, VoidStep(reason))
        else:
            t.change(steps=(*r.state.steps, VoidStep(reason)))
        t.change(stalled=None)
        r.status = "voiding"
        self._save(t, "round_voiding")
        entry = self.ledger.void(r.round_id, memo=reason)
        self._commit("ledger_voided")
        t.change(entry=entry.id)
        r.status = "voided"
        self._save(t, "round_voided")
        if t.game.remembers_voided():
            t.game.remember(r.round_id)
        rule = t.game.void_rule
        self._audit(actor, "void", t.record.table_id, round=r.round_id, reason=reason, rule=rule)
        self._event(t, "void", reason=reason, rule=rule, **self._revealing(t))

    def _bell(self, t: _Table) -> None:
        """The betting window's end (RO 3, SB 3.1, BJ 5.1): no bet → the window starts again; else the bell."""
        r = t.current
        now = self._time()
        if not r.state.has_bets():
            t.deadline = now + timedelta(seconds=t.record.betting_seconds)
            return
        for player in t.game.forfeits():
            self._step(t, ForfeitStep(player))  # BJ 13.5.4: no main bet, no streak
        self._fix_fair_inputs(t)
        r.status = "playing"
        t.deadline = None
        self._event(t, "betting_closed")
        ok = self._try_step(t, CloseStep())
        self._save(t, "bell")
        if not ok:
            return
        drawn = t.game.drawn_result()
        if drawn is not None:
            self._result(t, drawn)
            return
        self._after_step(t)

    def _result(self, t: _Table, step: Step) -> None:
        self._step(t, step)
        self._save(t, "result")
        self._after_step(t)

    # == admin =======================================================================================================

    def open_table(
        self,
        who: User,
        *,
        table_id: str,
        game: str,
        rules: Mapping[str, object] | None = None,
        live: bool = False,
        betting_seconds: float = 15,
        decision_seconds: float = 20,
        dealers: Iterable[str] = (),
        result_display_seconds: float = 0,
    ) -> JsonObject:
        """Open a table (admin): ``rules`` is a rules document validated by the game's loader (``InvalidRules``
        with every problem), ``None`` the statute; ``dealers`` the dealers who run it (a live table's results,
        bell and voids); ``result_display_seconds`` how long each finished round's result stays on the table
        before the next betting window opens (0 to 60; 0: at once); the first betting window opens at once."""
        with self._lock:
            self._require(who, Role.ADMIN)
            if not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id):
                raise InvalidInput(f"{table_id!r} is not a table id: 1 to 32 letters, digits, '_' or '-'.")
            if game not in GAMES:
                raise InvalidInput(f"{game!r} is not a game: one of {', '.join(GAMES)}.")
            for what, value in (("betting_seconds", betting_seconds), ("decision_seconds", decision_seconds)):
                if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 3600:
                    raise InvalidInput(f"{what} must be a number of seconds from 0 to 3600, not {value!r}.")
            shown = result_display_seconds
            if isinstance(shown, bool) or not isinstance(shown, int | float) or not 0 <= shown <= MAX_RESULT_DISPLAY:
                raise InvalidInput(
                    f"result_display_seconds must be a number of seconds from 0 to {MAX_RESULT_DISPLAY}, not {shown!r}."
                )
            if table_id in self._tables:
                raise TableExists(f"Table {table_id!r} is already open.")
            staff = self._dealers(dealers)
            loaded = load_rules(game, rules)
            previous = next((r for r in self.store.tables() if r.table_id == table_id), None)
            if previous is not None and previous.game != game:
                raise TableExists(f"Table {table_id!r} was a {previous.game} table; choose another id.")
            document = dict(rules) if rules is not None else {}
            record = TableRecord(
                table_id,
                game,
                document,
                bool(live),
                float(betting_seconds),
                float(decision_seconds),
                "open",
                self._time(),
                staff,
                float(result_display_seconds),
            )
            self.store.put_table(record)
            self._commit("table_opened")
            self._audit(
                who.username, "table_opened", table_id, game=game, live=bool(live), rules=document, dealers=list(staff)
            )
            if previous is not None and previous.rules != document:
                self._audit(who.username, "rules_changed", table_id, before=previous.rules, after=document)
            t = self._build(record, loaded)
            for old in self.store.rounds(table_id):
                t.seq = max(t.seq, old.seq)
            self._tables[table_id] = t
            self._open_round(t)
            self._flush()
            return self._describe(t)

    def _dealers(self, names: Iterable[str]) -> tuple[str, ...]:
        """Dealer accounts by their canonical names (``InvalidInput`` for anyone who is not an active dealer)."""
        if isinstance(names, str):
            raise InvalidInput(f"dealers is a list of dealer names, not {names!r}.")
        out: list[str] = []
        for name in names:
            try:
                user = self.accounts.get(name)
            except AccountError:  # no such account, or not even a valid name
                raise InvalidInput(f"{name!r} is not an active dealer account.") from None
            if user.role is not Role.DEALER or not user.active:
                raise InvalidInput(f"{user.username!r} is not an active dealer account.")
            if user.username not in out:
                out.append(user.username)
        return tuple(out)

    def assign_dealers(self, who: User, table_id: str, dealers: Iterable[str]) -> TableDealers:
        """Set the dealers of a table (admin), audited: only they report its results, ring its bell and void its
        rounds (a live table; an RNG table's round is voided by an admin)."""
        with self._lock:
            self._require(who, Role.ADMIN)
            t = self._table(table_id)
            staff = self._dealers(dealers)
            before = t.record.dealers
            t.record = replace(t.record, dealers=staff)
            self.store.put_table(t.record)
            self._commit("dealers_assigned")
            self._audit(who.username, "dealers_assigned", table_id, before=list(before), after=list(staff))
            return {"table": table_id, "dealers": list(staff)}

    def _require_dealer_of(self, who: User, t: _Table) -> None:
        """The caller is a dealer assigned to the table (issue 13: dealers belong to tables)."""
        self._require(who, Role.DEALER)
        if who.username not in t.record.dealers:
            raise Forbidden(f"{who.username} is not a dealer of table {t.record.table_id!r}; an admin assigns dealers.")

    def _build(self, record: TableRecord, rules: object) -> _Table:
        rng = None if record.live else self._sources(record.table_id)
        game = new_table_game(record.game, rules, live=record.live, rng=rng)
        game.provably_fair = self._provably_fair and not record.live
        return _Table(record, game)

    def close_table(self, who: User, table_id: str) -> TableClosed:
        """Close a table (admin); refused while its round has bets (RO 3, SB 4, BJ 7.1)."""
        with self._lock:
            self._require(who, Role.ADMIN)
            t = self._table(table_id)
            r = t.current
            if r.state.holds or r.status != "betting":
                raise IllegalAction(
                    f"Table {table_id!r} has a round in play; close it once it is settled.", rule=t.game.close_rule
                )
            if t.game.has_open_bets():
                raise IllegalAction("Streak bets are open at this table; they are decided first.", rule="BJ 13.5")
            r.status = "voided"
            t.change(steps=(*r.state.steps, VoidStep("table closed")))
            self._save(t, "round_closed")
            self.store.put_table(replace(t.record, status="closed"))
            self._commit("table_closed")
            self._audit(who.username, "table_closed", table_id)
            del self._tables[table_id]
            self._flush()
            return {"table": table_id, "status": "closed"}

    def credit(self, who: User, player: str, amount: int, key: str) -> WalletAdjustment:
        """Add to a player's wallet from the cashier (admin), audited."""
        return self._adjust(who, "credit", player, amount, key)

    def debit(self, who: User, player: str, amount: int, key: str) -> WalletAdjustment:
        """Take from a player's wallet back to the cashier (admin; LEDGER 2), audited."""
        return self._adjust(who, "debit", player, amount, key)

    def _adjust(self, who: User, kind: str, player: str, amount: int, key: str) -> WalletAdjustment:
        with self._lock:
            self._require(who, Role.ADMIN)
            player = self.accounts.get(player).username  # the canonical name is the ledger's id
            command = self.ledger.credit if kind == "credit" else self.ledger.debit
            entry = command(player, amount, by=who.username, key=f"{kind}:{_check_key(key)}")
            self._commit(f"ledger_{kind}")
            self._audit(who.username, kind, None, player=player, amount=amount, entry=entry.id)
            return {"entry": entry.id, "player": player, "wallet": self.ledger.wallet(player)}

    def log(self, actor: str, action: str, **detail: object) -> None:
        """Write a line to the audit log for the server (logins, failed logins, logouts)."""
        with self._lock:
            self._audit(actor, action, None, **detail)

    # == recall, audit, meters (casino_recall, casino_meters) =========================================================

    def audit(self, who: User, since: datetime | None = None) -> list[AuditLine]:
        """The audit log (admin)."""
        self._require(who, Role.ADMIN)
        return [a.as_json() for a in self.store.audit(since)]

    def recall(self, who: User, table_id: str, last: int = 10) -> list[RecalledRound]:
        """The last rounds of a table with every step, card, bet, net and engine operation (admin; the game
        records' recall)."""
        with self._lock:
            self._require(who, Role.ADMIN)
            _check_last(last, HISTORY)
            t = self._tables.get(table_id)
            out = casino_recall.recall(
                self.store,
                table_id,
                last,
                game=t.game if t is not None else None,
                current=t.round if t is not None else None,
            )
            for entry in out:
                record = t.round if t is not None and t.round and t.round.round_id == entry["round"] else None
                record = record or self.store.get_round(entry["round"])
                if record is not None and record.state.fair is not None:
                    game = t.record.game if t is not None else self._game_of(table_id)
                    fair = self._fair_record(t, table_id, game, record)
                    if fair is not None:
                        entry["fair"] = fair
            return out

    def _game_of(self, table_id: str) -> str:
        """The game of a table, open or closed (``UnknownTable`` if the store has no such table)."""
        game = next((r.game for r in self.store.tables() if r.table_id == table_id), None)
        if game is None:
            raise UnknownTable(f"There is no table {table_id!r}.")
        return game

    def fair_record(self, who: User, table_id: str, round_id: str) -> FairRecord:
        """A provably fair round's fairness record (any role; ``docs/fairness.md``): the commitment, the public
        inputs and the outcome always, the seed once revealed (a roulette or sic bo round once settled or voided, a
        blackjack shoe once it ended). ``UnknownRound`` for a round that is not the table's; ``InvalidInput`` for one
        with no committed seed (a live table, or a table whose results a given source draws)."""
        with self._lock:
            self._require(who, Role.PLAYER, Role.DEALER, Role.ADMIN)
            if not isinstance(table_id, str) or not isinstance(round_id, str):
                raise InvalidInput(f"{round_id!r} is not a round of table {table_id!r}.")
            t = self._tables.get(table_id)
            record = t.round if t is not None and t.round and t.round.round_id == round_id else None
            record = record or self.store.get_round(round_id)
            if record is None or record.table_id != table_id:
                if t is None and not self.store.rounds(table_id, last=1):
                    raise UnknownTable(f"There is no table {table_id!r}.")
                raise UnknownRound(f"{round_id!r} is not a round of table {table_id!r}.")
            game = t.record.game if t is not None else self._game_of(table_id)
            fair = self._fair_record(t, table_id, game, record)
            if fair is None:
                raise InvalidInput(
                    f"Round {round_id} is not provably fair: its table's results are reported by a dealer or drawn "
                    "by a source the casino was given."
                )
            return fair

    def export_scenario(self, who: User, table_id: str, round_id: str) -> Scenario:
        """A settled round as a SCENARIOS.md scenario that ``croupier replay`` reproduces (admin). Blackjack
        writes the rounds from the last shuffle on, since a scenario starts on a fresh shoe (BJ 2)."""
        with self._lock:
            self._require(who, Role.ADMIN)
            t = self._table(table_id)
            scenario = casino_recall.export(self.store, t.game, table_id, round_id)
            record = self.store.get_round(round_id)
            fair = self._fair_record(t, table_id, t.record.game, record) if record is not None else None
            if fair is not None:
                scenario["fair"] = fair
            return scenario

    def meters(self, who: User, table_id: str) -> Meters:
        """Rounds, wagered, paid, voided, held and the house result of a table, from the ledger (admin)."""
        with self._lock:
            self._require(who, Role.ADMIN)
            if table_id not in self._tables and not self.store.rounds(table_id, last=1):
                raise UnknownTable(f"There is no table {table_id!r}.")
            return casino_meters.table_meters(self.ledger, self.store, table_id)

    def reconciliation(self, who: User) -> Reconciliation:
        """Per table and in all: wagered − paid − voided − held = house result; the house account and the held
        accounts agree with the tables; every finished round is closed in the ledger; ``ledger.check()``."""
        with self._lock:
            self._require(who, Role.ADMIN)
            return casino_meters.reconcile(self.ledger, self.store)

    # == players =====================================================================================================

    def _describe(self, t: _Table) -> JsonObject:
        r = t.round
        return {
            "table": t.record.table_id,
            "game": t.record.game,
            "live": t.record.live,
            "betting_seconds": t.record.betting_seconds,
            "decision_seconds": t.record.decision_seconds,
            "result_display_seconds": t.record.result_display_seconds,
            "round": r.round_id if r else None,
            "status": r.status if r else None,
            "deadline": t.deadline.isoformat() if t.deadline else None,
            "recent": t.game.results(RECENT),
            **t.game.seating(),
        }

    def tables(self, who: User) -> list[JsonObject]:
        """The open tables (any role)."""
        with self._lock:
            self._require(who, Role.PLAYER, Role.DEALER, Role.ADMIN)
            return [self._describe(t) for t in self._tables.values()]

    def table_view(self, who: User, table_id: str) -> JsonObject:
        """What the caller may see of a table: a blackjack round through ``player_view`` (no hole card, no shoe
        order; a face-down box card only for its bettors, BJ 5.2)."""
        with self._lock:
            self._require(who, Role.PLAYER, Role.DEALER, Role.ADMIN)
            t = self._table(table_id)
            out = self._describe(t)
            out["view"] = t.game.view(who.username if who.role is Role.PLAYER else None)
            commitment = casino_fair.commitment_of(t.round.state.fair if t.round is not None else None)
            if commitment is not None:
                out["fair"] = commitment
            if who.role is Role.PLAYER:
                out["wallet"] = self.ledger.wallet(who.username)
            elif who.role is Role.DEALER and t.record.live and who.username in t.record.dealers and t.round:
                out["dealer_prompt"] = t.game.dealer_prompt(t.round.state, t.round.status)  # the console's cue
            return out

    def place_bet(self, who: User, table_id: str, bet: Mapping[str, object], key: str) -> BetAnswer:
        """Place a bet (player) in the betting window (RO 3, SB 3.1, BJ 5.1): checked by the engine, then its
        stake held by the ledger under ``key`` (LEDGER 2, 3); the same key and bet answer the same again."""
        with self._lock:
            self._require(who, Role.PLAYER)
            t = self._table(table_id)
            key = _check_key(key)
            bet_doc, amount = t.game.normalise_bet(bet)
            digest = fingerprint("bet", {"table": table_id, "bet": bet_doc})
            ledger_key = f"bet:{who.username}:{key}"
            try:
                hold = self._place_bet(t, who.username, bet_doc, amount, key=ledger_key, digest=digest)
            except CroupierError:
                # Refused, or the key was used before: a bet sent again answers as it did the first time (LEDGER 3).
                if (done := self._replayed(ledger_key, digest)) is not None:
                    return done
                raise
            self._event(t, "bet_placed", player=who.username, bet=bet_doc, ref=hold.ref)
            self._flush()
            return hold.answer

    def _place_bet(
        self, t: _Table, player: str, bet_doc: BetDocument, amount: int, *, key: str, digest: str
    ) -> BetHold:
        r = t.current
        now = self._time()
        if r.status != "betting" or t.deadline is None or now >= t.deadline:
            raise IllegalAction("Betting is closed: no bet after the bell.", rule=t.game.betting_rule)
        t.game.verify_bet(player, bet_doc)
        if len(r.state.holds) >= MAX_BETS_PER_ROUND:
            raise IllegalAction("This round takes no more bets.", rule=t.game.betting_rule)
        number = r.state.next + 1
        ref = f"b{number}"
        answer: BetAnswer = {
            "table": t.record.table_id,
            "round": r.round_id,
            "ref": ref,
            "amount": amount,
            "bet": bet_doc,
        }

        def make(entry: int) -> BetHold:
            return BetHold(
                ref=ref, player=player, amount=amount, key=key, digest=digest, status="held", bet=bet_doc,
                answer=answer, entry=entry,
            )  # fmt: skip

        step = BetStep(ref, player, bet_doc)
        hold = self._hold(t, player, amount, key, make=make, step=step)
        self._step(t, step, record=False)  # the bet's step, stored with its hold
        assert isinstance(hold, BetHold)
        return hold

    def _check_funds(self, player: str, amount: int) -> None:
        balance = self.ledger.wallet(player)
        if balance < amount:
            raise InsufficientFunds(f"A stake of {amount} exceeds {player}'s wallet of {balance}.", rule="LEDGER 2")

    def _replayed(self, ledger_key: str, digest: str) -> BetAnswer | None:
        """The answer already given under ``ledger_key``, or ``IdempotencyConflict`` for another payload."""
        round_id = self._find_entry_round(ledger_key)
        if round_id is None:
            return None
        table = self._tables.get(round_id.rpartition(".")[0])
        current = table.round if table is not None else None
        record = current if current is not None and current.round_id == round_id else self.store.get_round(round_id)
        hold = next((h for h in record.state.holds if h.key == ledger_key), None) if record else None
        if not isinstance(hold, BetHold) or hold.digest != digest:
            raise IdempotencyConflict(
                f"Idempotency key {ledger_key.split(':', 2)[2]!r} was used for another request; send a new key.",
                rule="LEDGER 3",
            )
        return hold.answer

    def _hold(
        self, t: _Table, player: str, amount: int, key: str, *, make: Callable[[int], Hold], step: Step | None
    ) -> Hold:
        """Hold a stake (and for a bet, its step) in one transaction: the ledger holds it and, in the same
        transaction, the hold is appended to the stored round; one boundary. Nothing changes when it is refused."""
        r = t.current
        number = r.state.next + 1
        steps = (step,) if step is not None else ()
        now = self._time()
        made: list[Hold] = []

        def record(tx: LedgerTransaction, entry: Entry) -> None:
            hold = make(entry.id)
            made.append(hold)
            if r.round_id in self._dirty:  # inside batch(): the round is stored before a change is added to it
                self.store.put_round(r)  # (and again, whole, when the batch ends)
            self.store.append_round(RoundChange(r.round_id, now, (hold,), steps, number), within=tx)

        ref = f"{'b' if step is not None else 'x'}{number}"
        self.ledger.hold(
            player, amount, table=t.record.table_id, round_id=r.round_id, bet_ref=ref, key=key, then=record
        )
        if not made:  # the ledger answered an entry written before under this key
            raise IdempotencyConflict(f"Idempotency key {key!r} was used before.", rule="LEDGER 3")
        r.state = r.state.add(holds=(made[0],), steps=steps, next=number)
        r.updated_at = now
        self._commit(f"{'bet' if step is not None else 'extra'}_held")
        return made[0]

    def act(
        self,
        who: User,
        table_id: str,
        action: str,
        key: str,
        *,
        box: int | None = None,
        hand: int | None = None,
        amount: int | None = None,
    ) -> ActAnswer:
        """Answer the pending blackjack decision (player): only the caller's own (BJ 6.3, BJ 20.2); an extra
        stake (double BJ 17, split BJ 16, follow BJ 20, insurance BJ 12 with ``amount``, Any Pair BJ 13.1) is
        held by the ledger first. The same key and answer give the same reply again."""
        with self._lock:
            self._require(who, Role.PLAYER)
            t = self._table(table_id)
            key = _check_key(key)
            if not t.game.decides:
                raise IllegalAction(f"Table {table_id!r} plays {t.record.game}: there is no decision to answer.")
            r = t.current
            payload = {"table": table_id, "action": action, "box": box, "hand": hand, "amount": amount}
            digest = fingerprint("act", payload)
            act_key = f"{who.username}:{key}"
            for rec in [r, *self._recent(t)]:
                done = rec.state.acts.get(act_key)
                if done is not None:
                    if done.digest != digest:
                        raise IdempotencyConflict(f"Key {key!r} was used for another answer.", rule="LEDGER 3")
                    return done.answer
            ledger_key = f"act:{who.username}:{key}"
            if self._find_entry_round(ledger_key) is not None:
                raise IdempotencyConflict(f"Idempotency key {key!r} was used for another answer.", rule="LEDGER 3")
            if r.status != "playing" or r.state.stalled is not None:
                raise IllegalAction(f"{action!r}: no decision is waiting at this table.", rule="BJ 6.3")
            q = t.game.verify_answer(who.username, action, box, hand, amount)
            extra = t.game.answer_stake(action, amount)
            if extra:
                self._check_funds(who.username, extra)
                player = who.username

                def make(entry: int) -> ExtraHold:
                    return ExtraHold(
                        ref=f"x{r.state.next + 1}", player=player, amount=extra, key=ledger_key, digest=digest,
                        status="held", action=action, entry=entry,
                    )  # fmt: skip

                self._hold(t, who.username, extra, ledger_key, make=make, step=None)
            step = ActStep(who.username, action, q.box, q.hand, amount)
            answer: ActAnswer = {
                "table": table_id,
                "round": r.round_id,
                "action": action,
                "box": q.box,
                "hand": q.hand,
                "extra_stake": extra,
            }
            t.change(acts={**r.state.acts, act_key: Act(digest, answer)})
            done_now = self._try_step(t, step)
            self._save(t, "act")
            if done_now:
                self._after_step(t)
            self._flush()
            return answer

    def _recent(self, t: _Table) -> list[RoundRecord]:
        return [r for r in self.store.rounds(t.record.table_id, last=3) if t.round and r.round_id != t.round.round_id]

    # == dealers =====================================================================================================

    def _live_table_of(self, who: User, table_id: str) -> _Table:
        """``table_id`` if it is a live table and ``who`` one of its dealers (the caller holds the lock)."""
        self._require(who, Role.DEALER)
        t = self._table(table_id)
        if not t.record.live:
            raise IllegalAction(f"Table {table_id!r} is an RNG table: its results are drawn, not reported.")
        self._require_dealer_of(who, t)
        return t

    def report(self, who: User, table_id: str, result: object) -> ReportAnswer:
        """A live table's result (dealer): a pocket 0-36 (RO 4), three dice (SB 3.2), ``"void"`` for a void spin
        or roll (RO 2.2, SB 3.3: the bets stand), or a card code from the shoe reader (BJ 5.2)."""
        with self._lock:
            t = self._live_table_of(who, table_id)
            r = t.current
            card = t.game.feed_card(result)
            if card is not None:
                r.state = t.game.record(r.state)
                self._save(t, "card_reported")
                stalled = r.state.stalled
                if stalled is not None and self._try_step(t, stalled):
                    self._save(t, "step")
                    self._after_step(t)
                self._flush()
                return {"table": table_id, "round": r.round_id, "card": card}
            if r.status != "playing":
                raise IllegalAction("There is no result before the bell closes betting.", rule=t.game.betting_rule)
            step = t.game.reported(result)
            if isinstance(step, VoidResultStep):
                self._step(t, step)
                if t.game.reopens_after_void_result:  # SB 3.3: a new betting window; the bets placed stand
                    r.status = "betting"
                    t.deadline = self._time() + timedelta(seconds=t.record.betting_seconds)
                self._save(t, "void_result")
                self._event(t, "void_result", rule=t.game.void_rule)
            else:
                self._result(t, step)
            self._flush()
            return {"table": table_id, "round": r.round_id, "result": cast("int | list[int] | str", result)}

    def take_back(self, who: User, table_id: str, card: object = None) -> CardTakenBack:
        """The dealer of a live blackjack table takes back the last card reported while the round has not used it
        (the deal, for one, waits for every card before it uses any), audited; ``card``, when given, must be that
        card. Refused (``IllegalAction``) once the card is in play (BJ 5.1.2: a dealing error is corrected on the
        layout or the round voided) and on roulette and sic bo, whose console holds a result until it is sent."""
        with self._lock:
            t = self._live_table_of(who, table_id)
            r = t.current
            taken = t.game.take_back_card(card)
            r.state = t.game.record(r.state)
            self._save(t, "card_taken_back")
            self._audit(who.username, "card_taken_back", table_id, round=r.round_id, card=taken)
            self._flush()
            return {"table": table_id, "round": r.round_id, "card": taken, "reported": list(r.state.reported)}

    def void(self, who: User, table_id: str, reason: str) -> RoundVoided:
        """Void the round (RO 2.2, SB 3.3, BJ 5.1.2): every held bet is returned, audited. A live table's round is
        voided by one of its dealers or an admin; an RNG table's only by an admin, with a written reason."""
        with self._lock:
            self._require(who, Role.DEALER, Role.ADMIN)
            t = self._table(table_id)
            if who.role is Role.DEALER:
                if not t.record.live:
                    raise Forbidden(f"Table {table_id!r} is an RNG table: an admin voids its rounds, with a reason.")
                self._require_dealer_of(who, t)
            if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
                raise InvalidInput("A void needs a reason of 1 to 500 characters.")
            r = t.current
            if r.status in FINISHED:
                raise IllegalAction(
                    f"Round {r.round_id} is already {r.status}; the next betting window opens at "
                    f"{t.deadline.isoformat() if t.deadline else 'once'}.",
                    rule=t.game.void_rule,
                )
            round_id = r.round_id
            self._void_round(t, who.username, reason)
            self._next_window(t)
            self._flush()
            return {"table": table_id, "round": round_id, "status": "voided"}

    def close_betting(self, who: User, table_id: str) -> BettingClosed:
        """The dealer's bell on a live table (RO 3, SB 3.1, BJ 5.1): betting closes now. Refused on an RNG table
        (its timer rings the bell), outside the betting window, or when no bet has been placed."""
        with self._lock:
            self._require(who, Role.DEALER)
            t = self._table(table_id)
            rule = t.game.betting_rule
            if not t.record.live:
                raise IllegalAction(f"Table {table_id!r} is an RNG table: its timer closes betting.", rule=rule)
            self._require_dealer_of(who, t)
            r = t.current
            if r.status != "betting":
                raise IllegalAction("Betting is already closed in this round.", rule=rule)
            if not r.state.has_bets():
                raise IllegalAction("No bet has been placed yet: the betting window stays open.", rule=rule)
            self._bell(t)
            self._flush()
            return {"table": table_id, "round": r.round_id, "status": t.round.status if t.round else None}

    # == time ========================================================================================================

    def tick(self, now: datetime | None = None, *, tables: Iterable[str] | None = None) -> list[Event]:
        """Move every table (or those of ``tables`` still open) on to ``now``: the bell at the end of a betting
        window, RNG results, each decision's published default (``stand``, ``decline`` for offers) when its timer
        runs out, settlement, the next window. Returns the events it produced."""
        with self._lock:
            self._now = now if now is not None else self._clock()
            chosen = self._tables.values() if tables is None else [self._tables[i] for i in tables if i in self._tables]
            try:
                for t in list(chosen):
                    self._tick_table(t, self._now)
            finally:
                self._now = None
            return self._flush()

    def due(self, now: datetime | None = None) -> list[str]:
        """The tables whose timer has run out at ``now`` (what :meth:`tick` would move on), in table order; the
        server ticks each in its own group commit, so that bets wait at most one table's settlement."""
        with self._lock:
            moment = now if now is not None else self._clock()
            return [i for i, t in self._tables.items() if t.deadline is not None and moment >= t.deadline]

    def advance_clock(self, seconds: float) -> datetime:
        """For tests only (``croupier serve --manual-clock``: :mod:`croupier.server.testing`): move the casino's
        manual clock on by ``seconds`` and return the casino's time; nothing moves on until the next :meth:`tick`.
        ``TypeError`` when the clock cannot be moved (the wall clock)."""
        advance = getattr(self._clock, "advance", None)
        if not callable(advance):
            raise TypeError("The casino's clock is the wall clock: it cannot be moved.")
        with self._lock:
            advance(seconds=seconds)
            return self._clock()

    def _tick_table(self, t: _Table, now: datetime) -> None:
        for _ in range(100):  # each pass moves one step; a table never needs this many in one tick
            r = t.round
            if r is None or t.deadline is None or now < t.deadline:
                return
            step = t.game.default_step() if r.status == "playing" else None
            if r.status in FINISHED:  # the result moment is over: the next window opens
                self._open_round(t)
            elif r.status == "betting":
                self._bell(t)
            elif step is not None:
                t.deadline = None
                ok = self._try_step(t, step)
                self._save(t, "default_action")
                self._audit(
                    SYSTEM,
                    "default_action",
                    t.record.table_id,
                    round=r.round_id,
                    player=step.player,
                    answer=step.action,
                    rule="BJ 6.5",
                )
                if ok:
                    self._after_step(t)
            else:
                return

    # == events ======================================================================================================

    def subscribe(self, table_id: str) -> Subscription:
        """A queue of the table's events."""
        with self._lock:
            self._table(table_id)
            sub = Subscription(table_id)
            self._subscribers.setdefault(table_id, []).append(sub)
            return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """Stop queueing events for ``sub``."""
        with self._lock:
            subs = self._subscribers.get(sub.table_id, [])
            if sub in subs:
                subs.remove(sub)

    # == recovery ====================================================================================================

    def recover(self, *, void_unfinished: bool = False) -> list[Recovered]:
        """At start-up: rebuild every open table from its stored rounds and bring each unfinished round to a
        consistent state — held stakes reconciled with the ledger, a round the ledger already closed marked so,
        a round whose steps are all stored settled, any other resumed where it stood (fresh timers) or, when it
        cannot be replayed or ``void_unfinished``, voided with every held bet returned. Each is audited."""
        with self._lock:
            report: list[Recovered] = []
            for record in self.store.tables():
                if record.status != "open" or record.table_id in self._tables:
                    continue
                t = self._build(record, load_rules(record.game, record.rules))
                self._tables[record.table_id] = t
                for r in self.store.rounds(record.table_id):
                    t.seq = max(t.seq, r.seq)
                    if r.status in FINISHED:
                        self._replay_finished(t, r)
                    else:
                        report.append(self._recover_round(t, r, void_unfinished))
                if t.round is None or t.round.status in FINISHED:
                    self._open_round(t)
            self._flush()
            return report

    def _replay_finished(self, t: _Table, r: RoundRecord) -> None:
        t.round = r
        if r.status == "voided" and not t.game.replays_voided():
            return
        t.game.replay(r.state)
        t.game.remember(r.round_id)

    def _reconcile_holds(self, r: RoundRecord) -> None:
        """Holds left ``pending`` by versions before a bet was one transaction: held if the ledger holds them."""
        if not any(h.status == "pending" for h in r.state.holds):
            return
        in_ledger = {h.bet_ref: h for h in self.ledger.holds(r.round_id)}
        closed = any(isinstance(s, CloseStep) for s in r.state.steps)
        holds: list[Hold] = []
        steps = list(r.state.steps)
        for hold in r.state.holds:
            if hold.status != "pending":
                holds.append(hold)
            elif hold.ref in in_ledger:
                held = replace(hold, status="held", entry=in_ledger[hold.ref].entry_id)
                holds.append(held)
                if isinstance(held, BetHold) and not closed:
                    steps.append(BetStep(held.ref, held.player, held.bet))
        r.state = replace(r.state, holds=tuple(holds), steps=tuple(steps))

    def _recover_round(self, t: _Table, r: RoundRecord, void_unfinished: bool) -> Recovered:
        self._reconcile_holds(r)
        ledger_round = self.ledger.round(r.round_id)
        status: Literal["resumed", "settled", "voided"] = "resumed"
        t.round = r
        try:
            t.game.replay(r.state)
            replayed = True
        except (ValueError, ChanceExhausted):
            replayed = False
        if ledger_round is not None and ledger_round.status != "open":
            r.status = ledger_round.status
            t.change(entry=ledger_round.closed_by)
            if r.status == "settled" and replayed:
                t.change(outcome=t.game.outcome())
            self._save(t, "recovered")
            status = "settled" if r.status == "settled" else "voided"
        elif r.status == "voiding" or not replayed or void_unfinished:
            if not replayed:
                t.game.restore_after_failed_replay()
            self._void_round(t, SYSTEM, "recovery: the round could not be resumed")
            status = "voided"
        elif t.game.is_over:
            self._settle(t)
            status = "settled"
        else:
            now = self._time()
            if r.status == "betting":
                t.deadline = now + timedelta(seconds=t.record.betting_seconds)
            elif r.state.stalled is None and t.game.pending() is not None:
                t.deadline = now + timedelta(seconds=t.record.decision_seconds)
            elif t.game.needs_result():
                drawn = t.game.drawn_result()
                assert drawn is not None
                self._result(t, drawn)
            self._save(t, "recovered")
        self._audit(SYSTEM, "recovery", t.record.table_id, round=r.round_id, status=status)
        self._event(t, "recovered", status=status)
        return {"table": t.record.table_id, "round": r.round_id, "status": status}

    # == the browser table's reads (issue 6; casino_info) =============================================================

    def table_rules(self, who: User, table_id: str) -> JsonObject:
        """A table's rules for the page (any role): bet kinds with payouts, limits, the layout, and each rule as
        a catalogue key with parameters (``croupier.service.casino_info.rules_info``)."""
        with self._lock:
            self._require(who, Role.PLAYER, Role.DEALER, Role.ADMIN)
            t = self._table(table_id)
            return {"table": table_id, "game": t.record.game, "live": t.record.live, **t.game.rules_info()}

    def table_history(self, who: User, table_id: str, last: int = 50) -> JsonObject:
        """The public results of a roulette or sic bo table's last settled rounds, newest first, with their
        statistics (any role); a blackjack table has none."""
        with self._lock:
            self._require(who, Role.PLAYER, Role.DEALER, Role.ADMIN)
            _check_last(last, HISTORY)
            t = self._table(table_id)
            results = t.game.results(last)
            return {"table": table_id, "game": t.record.game, "results": results, "stats": t.game.stats(results)}

    def player_rounds(self, who: User, table_id: str | None = None, last: int = 10) -> list[JsonObject]:
        """The caller's own recent rounds (player): each with the caller's stakes and nets and the public result,
        newest first; of one table, or of every open table."""
        with self._lock:
            self._require(who, Role.PLAYER)
            _check_last(last, 100)
            tables = [self._table(table_id)] if table_id is not None else list(self._tables.values())
            out: list[JsonObject] = []
            for t in tables:
                for record in self.store.rounds(t.record.table_id, last=min(HISTORY, 5 * last + 10)):
                    result = t.game.my_result(record.state.outcome or {})
                    mine = info.my_round(t.record.game, record, who.username, result)
                    if mine is not None:
                        out.append(mine)
            out.sort(key=lambda r: (str(r["updated_at"]), str(r["opened_at"])), reverse=True)
            return out[:last]
