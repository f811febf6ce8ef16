"""The service's answers as typed documents: the shape of every dict the casino, the accounts and the ledger give the
server (and the server its clients), each key named, each enum a ``Literal``, each key that may be missing
``NotRequired`` and each that may be null ``| None``.

The server uses them as its response models, so ``/openapi.json`` describes every payload the browser page reads.
Every document is *closed* (PEP 728): a key it does not name is an error where it is validated (the server answers
with a key of its own only once its type here names it). Only what is free-form by nature stays an open object: a
rules document, an audit line's detail, a scenario's rounds, a stored step's engine operations.

Standard library and ``typing_extensions`` only: this is the service layer's vocabulary, not the server's.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

# -- words ---------------------------------------------------------------------------------------------------------

Game = Literal["roulette", "sicbo", "blackjack"]
RoleName = Literal["player", "dealer", "admin"]
RoundStatus = Literal["betting", "playing", "settling", "settled", "voiding", "voided"]
"""A stored round's status (``croupier.service.casino_records.RoundStatus``)."""
WagerPhase = Literal["betting", "closed", "settled"]
"""A roulette or sic bo engine round's phase (``croupier.wagering.Phase``)."""
BlackjackPhase = Literal["betting", "offers", "play", "settled", "void"]
"""A blackjack engine round's phase (``croupier.blackjack.operations.Phase``)."""
HandStatus = Literal["stood", "bust", "blackjack", "surrendered", "even_money", "five_card", "special_bonus", "doubled"]
"""How a blackjack hand ended (``croupier.blackjack.hand.HandStatus``)."""
DecisionKind = Literal["offer", "play", "follow", "any_pair"]
"""What a pending blackjack decision asks (``croupier.blackjack.operations.Decision.kind``)."""
Odds = int | str
"""Odds to 1 as written in a rules file: ``35`` or ``"3/2"``."""
Payout = int | str | dict[str, int | str]
"""A bet kind's payout: odds, or odds by line (sic bo's totals and singles, blackjack's perfect pairs, sevens and
streak levels)."""


# -- sessions, accounts and money ------------------------------------------------------------------------------------


class Session(TypedDict, closed=True):
    """A session (``POST /api/login``): send ``Authorization: Bearer <token>`` with each request."""

    token: str
    username: str
    role: RoleName
    expires_at: datetime


class Account(TypedDict, closed=True):
    """An account: its name and role (``GET /api/me``, ``POST /api/accounts``)."""

    username: str
    role: RoleName


class AccountStatus(TypedDict, closed=True):
    """An account as an admin sees it (``GET /api/accounts``): its name, role and whether it may log in."""

    username: str
    role: RoleName
    active: bool


AccountAction = Literal["unlock", "disable", "enable", "reset_password", "set_role"]
"""An admin's act on an account (``croupier.service.accounts.AccountChange.action``)."""


class AccountChanged(TypedDict, closed=True):
    """An admin's act on an account (``POST /api/accounts/{name}/unlock`` and the others; audited under ``action``):
    the account as it now is, and what the act ended or changed."""

    action: AccountAction
    account: AccountStatus
    sessions_ended: NotRequired[int]
    """Disabling and a password reset end every session of the account."""
    failures_forgotten: NotRequired[int]
    """An unlock forgets the account's failed logins from every address (how many addresses' counts)."""
    role: NotRequired[RoleName]
    """A role change: the role now ..."""
    was: NotRequired[RoleName]
    """... and the role before."""


class Wallet(TypedDict, closed=True):
    """What a player may bet or cash out (``balance``), and what stands on the layout (``held``)."""

    player: str
    balance: int
    held: int


class WalletAdjustment(TypedDict, closed=True):
    """An admin's credit or debit (``Casino.credit``, ``Casino.debit``): its ledger entry and the wallet after it."""

    entry: int
    player: str
    wallet: int


class Health(TypedDict, closed=True):
    """The server answers (``GET /api/health``)."""

    status: Literal["ok"]


# -- tables --------------------------------------------------------------------------------------------------------


class StakeLimits(TypedDict, closed=True):
    """The smallest and largest stake of one bet kind."""

    min: int
    max: int


class PageConfig(TypedDict, closed=True):
    """``GET /api/config``: the deployment's settings the page needs (no sign-in)."""

    currency: str
    """ISO 4217 (``croupier serve --currency``, default MOP): the page shows every amount in it."""


class Limits(TypedDict, closed=True):
    """A table's stake limits: the chip unit and, for every bet kind of the game, its minimum and maximum."""

    chip_unit: int
    bets: dict[str, StakeLimits]


class _TableFields(TypedDict):
    table: str
    game: Game
    live: bool
    betting_seconds: float
    decision_seconds: float
    result_display_seconds: float
    """How long a finished round's result stays on the table before the next betting window opens."""
    round: str | None
    status: RoundStatus | None
    deadline: str | None
    """The betting window's bell, the pending decision's timer, or (status ``settled`` or ``voided``: the result
    moment) when the next betting window opens (ISO 8601); null when no timer runs."""
    recent: list[PublicResult]
    """The last few public results, newest first (the lobby's board)."""
    limits: Limits
    boxes: NotRequired[int]
    """Blackjack: how many boxes the layout has."""
    seats: NotRequired[list[int]]
    """Blackjack: the boxes with a bet this round."""


class TableDescription(_TableFields, closed=True):
    """An open table (``Casino.tables`` each, ``Casino.open_table``)."""


class WagerChip(TypedDict, closed=True):
    """A bet on a roulette or sic bo layout, as anyone may see it."""

    index: int
    player: str
    type: str
    amount: int


class OutcomeBet(TypedDict, closed=True):
    """One roulette or sic bo bet's net in a settled round (``index``: its place in the round's bets)."""

    index: int
    player: str
    net: int


class RouletteOutcome(TypedDict, closed=True):
    """A settled roulette round (SCENARIOS.md output): the pocket, the void spins before it, each bet's net, the
    order of payment (RO 5) and each player's net."""

    pocket: int
    void_spins: int
    bets: list[OutcomeBet]
    payment_order: list[int]
    players: dict[str, int]


class SicBoOutcome(TypedDict, closed=True):
    """A settled sic bo round (SCENARIOS.md output): the dice, the void rolls before them, each bet's net, the order
    of payment and each player's net."""

    dice: list[int]
    void_rolls: int
    bets: list[OutcomeBet]
    payment_order: list[int]
    players: dict[str, int]


class WagerView(TypedDict, closed=True):
    """A roulette or sic bo round as anyone may see it (the ``view`` of its ``TableView``): the chips on the layout
    are public. ``phase`` is null (and ``voids`` and ``outcome`` absent) before the table's first round."""

    phase: WagerPhase | None
    bets: list[WagerChip]
    voids: NotRequired[int]
    outcome: NotRequired[RouletteOutcome | SicBoOutcome | None]


class DealerView(TypedDict, closed=True):
    """The dealer's cards as the viewer may see them (``"??"``: face down) and the total of the face-up ones."""

    cards: list[str]
    total: int | None


class BettorView(TypedDict, closed=True):
    """One player's stakes on a box: main, side bets by kind, streak bets by level, insurance."""

    player: str
    main: int
    side: dict[str, int]
    streak: dict[str, int]
    insurance: int


class HandView(TypedDict, closed=True):
    """A hand of a box: its cards (``"??"`` where the viewer may not see them), its total (null when hidden), how it
    ended, whether it was doubled, and each bettor's stake on it."""

    index: int
    cards: list[str]
    total: int | None
    status: HandStatus | None
    doubled: bool
    stakes: dict[str, int]


class BoxView(TypedDict, closed=True):
    """A box with a bet: who sits there, who decides, the bettors and the hands."""

    box: int
    seated: str | None
    decider: str | None
    bettors: list[BettorView]
    hands: list[HandView]


class TurnView(TypedDict, closed=True):
    """The pending decision; ``actions`` (and with insurance, ``max_insurance``) only for the player it asks."""

    kind: DecisionKind
    box: int
    hand: int | None
    player: str
    actions: NotRequired[list[str]]
    max_insurance: NotRequired[int]


class StreakView(TypedDict, closed=True):
    """An open streak bet (BJ 13.5): its level and the wins counted so far."""

    box: int
    player: str
    level: int
    stake: int
    wins: int


class SettledBetView(TypedDict, closed=True):
    """One bet's result in a settled blackjack round (``status``: only for a streak bet, ``open`` or decided)."""

    box: int
    player: str
    kind: str
    stake: int
    net: int
    rule: str
    status: NotRequired[str]


class SettlementView(TypedDict, closed=True):
    """A settled blackjack round as the viewer may see it: every bet for a spectator, else only the viewer's."""

    void: bool
    dealer_total: int
    dealer_blackjack: bool
    bets: list[SettledBetView]
    players: dict[str, int]


class ShoeView(TypedDict, closed=True):
    """A shoe's public state (BJ 2): its size, the cards out since the last shuffle (burns included), the number of
    the first card behind the cut card, whether the round shown began with a shuffle, and whether the cut card is
    out so that the shoe is shuffled before the next deal. Never the cards left."""

    cards: int
    dealt: int
    cut_at: int
    shuffled: bool
    shuffle_due: bool


class BlackjackView(TypedDict, closed=True):
    """A blackjack round as one viewer may see it (``croupier.blackjack.views.player_view``): never the hole card
    before it is turned, a face-down box card only for its bettors, never the shoe's order (BJ 5.2). ``shoe`` is
    null where the table deals from a dealing box or a continuous shuffler; ``outcome`` (the ``result`` event's)
    comes once the round is settled."""

    phase: BlackjackPhase
    viewer: str | None
    dealer: DealerView
    boxes: list[BoxView]
    turn: TurnView | None
    streaks: list[StreakView]
    cut_card_out: bool
    settlement: NotRequired[SettlementView]
    shoe: ShoeView | None
    outcome: NotRequired[BlackjackOutcome]


class CardTarget(TypedDict, closed=True):
    """Where the next card out of a live blackjack shoe goes (``croupier.blackjack.round.NextCard``): ``burn``
    (BJ 4), a ``box``'s ``hand`` (face down in procedure 1), the ``dealer``'s face-up card or the ``hole`` card."""

    to: Literal["burn", "box", "dealer", "hole"]
    box: int | None
    hand: int | None
    face_up: bool


class DealerTurn(TypedDict, closed=True):
    """The blackjack decision a live round waits on before its next card."""

    kind: DecisionKind
    box: int
    hand: int | None
    player: str


class DealerPrompt(TypedDict, closed=True):
    """What a live table's dealer is to do next (``dealer_prompt`` of a ``TableView``, for the table's dealers
    only): ``bell`` (betting is open: ring it once bets are down), ``card`` (the shoe's next card, ``card`` says
    where it goes), ``decision`` (a player decides first, ``turn``), ``pocket`` or ``dice`` (report the result),
    ``next_round`` (the round is over; the next window opens by itself). With ``bell``, ``card`` is where the deal's
    first card will go once bets are down. ``reported``: blackjack cards reported and not yet used by the round,
    oldest first (the last one can be taken back, ``POST /api/tables/{id}/results/undo``)."""

    expect: Literal["bell", "card", "decision", "pocket", "dice", "next_round"]
    card: CardTarget | None
    turn: NotRequired[DealerTurn]
    reported: list[str]


class FairCommitment(TypedDict, closed=True):
    """What a provably fair table publishes before bets (``betting_open``, the table view): the draw's ``label``
    (the round's id; a blackjack shoe's ``<table>.shoe<seq>``, with ``shoe``) and the SHA-256 ``commitment`` of its
    secret seed."""

    label: str
    commitment: str
    shoe: NotRequired[str]


class FairRecord(TypedDict, closed=True):
    """A round's fairness record (``GET /api/tables/{id}/rounds/{round}/fair``; recall's and an export's ``fair``):
    everything ``croupier verify`` and the page's check need. ``seed`` is null until revealed (a roulette or sic bo
    round once settled or voided, a blackjack shoe once it ended); ``inputs`` the players' seeds, ``[ref, seed]`` in
    bet order; ``result`` the pocket or dice (roulette, sic bo; null before the result); ``cards`` (blackjack, once
    revealed) every card out of the shoe since its shuffle through this round, burns included, in order."""

    version: str
    game: Game
    table: str
    round: str
    label: str
    commitment: str
    seed: str | None
    revealed: bool
    inputs: list[list[str]]
    result: NotRequired[int | list[int] | None]
    shoe: NotRequired[str]
    decks: NotRequired[int]
    cards: NotRequired[list[str] | None]


class TableView(_TableFields, closed=True):
    """What the caller may see of a table (``Casino.table_view``; the WebSocket's snapshot): its description, the
    round's view (null for a blackjack table before its first round), for a player the wallet, and for a dealer
    of a live table the prompt of the console."""

    view: WagerView | BlackjackView | None
    wallet: NotRequired[int]
    dealer_prompt: NotRequired[DealerPrompt]
    fair: NotRequired[FairCommitment]
    """A provably fair table's commitment for the round shown (``docs/fairness.md``); never its seed."""


# -- the rules panel -------------------------------------------------------------------------------------------------


class RuleText(TypedDict, closed=True):
    """A rule as a catalogue key with its parameters and rule id: the page translates it; no prose here."""

    key: str
    params: dict[str, Any]
    rule: str


class RouletteBetKind(TypedDict, closed=True):
    """A roulette bet kind, its payout (odds to 1) and its rank in the order of payment (RO 5)."""

    kind: str
    payout: Odds
    pay_rank: int


class RouletteLayout(TypedDict, closed=True):
    """The roulette layout the bets are placed on, and the wheel."""

    pockets: list[int]
    red: list[int]
    black: list[int]
    wheel_order: list[int]
    nine_number_blocks: list[list[int]]
    twelve_special: list[list[int]]
    columns: list[list[int]]
    dozens: list[list[int]]
    sets: dict[str, list[int]]


class SicBoBetKind(TypedDict, closed=True):
    """A sic bo bet kind: its payout (odds, or odds by total or by number of dice), the faces or totals it is placed
    on, its rank in the order of payment and what names its spot (``face``, ``total`` or nothing)."""

    kind: str
    payout: Payout
    values: list[int]
    pay_rank: int
    placement: Literal["face", "total"] | None


class SicBoLayout(TypedDict, closed=True):
    """The sic bo layout: the faces and the totals."""

    faces: list[int]
    totals: list[int]


class BlackjackBetKind(TypedDict, closed=True):
    """A blackjack bet kind the table offers and its payout."""

    kind: str
    payout: Payout


class RuleOption(TypedDict, closed=True):
    """A blackjack rules option: its value as written in a rules file, its rule id and how RULES.md classes it."""

    name: str
    value: Any
    rule: str
    kind: Literal["approval", "waivable", "outside the statute", "table limit"]


class _RulesFields(TypedDict):
    table: str
    live: bool
    paytable: dict[str, Payout]
    limits: Limits
    text: list[RuleText]
    bets_rule: str
    odds_rule: str
    document: dict[str, Any]
    """The rules document itself, every option written out."""


class RouletteRules(_RulesFields, closed=True):
    """A roulette table's rules for the page (``Casino.table_rules``)."""

    game: Literal["roulette"]
    bets: list[RouletteBetKind]
    layout: RouletteLayout


class SicBoRules(_RulesFields, closed=True):
    """A sic bo table's rules for the page (``Casino.table_rules``)."""

    game: Literal["sicbo"]
    bets: list[SicBoBetKind]
    layout: SicBoLayout


class BlackjackRules(_RulesFields, closed=True):
    """A blackjack table's rules for the page (``Casino.table_rules``): the bets offered, the whole side-bet paytable,
    the boxes and every option."""

    game: Literal["blackjack"]
    bets: list[BlackjackBetKind]
    side_paytable: dict[str, Payout]
    boxes: int
    options: list[RuleOption]


TableRules = RouletteRules | SicBoRules | BlackjackRules
"""``Casino.table_rules``."""


# -- history and the player's rounds ---------------------------------------------------------------------------------


class RouletteResult(TypedDict, closed=True):
    """A settled roulette round's public result, classified (zero has no parity and no half)."""

    round: str
    pocket: int
    colour: Literal["red", "black", "green"]
    parity: Literal["odd", "even"] | None
    half: Literal["low", "high"] | None


class SicBoResult(TypedDict, closed=True):
    """A settled sic bo round's public result, classified (SB 5, SB 7)."""

    round: str
    dice: list[int]
    total: int
    size: Literal["small", "big", "triple"]
    parity: Literal["odd", "even"]
    triple: bool


class BlackjackResult(TypedDict, closed=True):
    """A settled blackjack round's public result: the dealer's final total, how many cards the dealer holds, and
    whether the hand was a blackjack or bust."""

    round: str
    dealer_total: int
    dealer_cards: int
    dealer_blackjack: bool
    dealer_bust: bool


PublicResult = RouletteResult | SicBoResult | BlackjackResult
"""A settled round's public result, as a table's history and the lobby's ``recent`` give it."""


class RouletteStats(TypedDict, closed=True):
    """Counts over a roulette table's results: each number's, the hot and cold numbers, colours and parity in whole
    percent."""

    count: int
    numbers: dict[str, int]
    hot: list[int]
    cold: list[int]
    colour_pct: dict[str, int]
    parity_pct: dict[str, int]
    half_pct: dict[str, int]
    """``low`` (1-18) and ``high`` (19-36)."""
    dozen_pct: dict[str, int]
    """The dozens ``"1"``, ``"2"``, ``"3"``."""
    column_pct: dict[str, int]
    """The columns ``"1"``, ``"2"``, ``"3"``."""


class RoadCell(TypedDict, closed=True):
    """One result on a sic bo bead road: its round, its value on that road (``big``/``small``/``triple`` or
    ``odd``/``even``), the dice's total and whether they were a triple."""

    round: str
    value: str
    total: int
    triple: bool


class SicBoStats(TypedDict, closed=True):
    """Counts over a sic bo table's results: each total's, the hot totals, the triples, sizes and parity in whole
    percent, and the big/small and odd/even bead roads (columns of ``road_rows`` cells, oldest first)."""

    count: int
    totals: dict[str, int]
    hot_totals: list[int]
    triples: int
    size_pct: dict[str, int]
    parity_pct: dict[str, int]
    road_rows: int
    size_road: list[list[RoadCell]]
    parity_road: list[list[RoadCell]]


class BlackjackStats(TypedDict, closed=True):
    """Counts over a blackjack table's results: the rounds, the dealer's busts and blackjacks."""

    count: int
    dealer_busts: int
    dealer_blackjacks: int


class TableHistory(TypedDict, closed=True):
    """``Casino.table_history``: the public results of a table's last settled rounds, newest first, with statistics
    (blackjack: the dealer's hands)."""

    table: str
    game: Game
    results: list[RouletteResult] | list[SicBoResult] | list[BlackjackResult]
    stats: RouletteStats | SicBoStats | BlackjackStats


class WagerBet(TypedDict, closed=True):
    """A roulette or sic bo bet as the casino normalised it: its type and stake and what it is placed on (roulette
    ``numbers`` or ``index``, sic bo ``face`` or ``total``)."""

    type: str
    amount: int
    numbers: NotRequired[list[int]]
    index: NotRequired[int]
    face: NotRequired[int]
    total: NotRequired[int]
    client_seed: NotRequired[str]
    """The player's own seed, a public input of a provably fair round (``docs/fairness.md``)."""


class BlackjackBet(TypedDict, closed=True):
    """A blackjack bet as the casino normalised it: a box, its main stake, side stakes by kind and streak stakes by
    level."""

    box: int
    main: int
    side: dict[str, int]
    streak: dict[str, int]
    client_seed: NotRequired[str]
    """The player's own seed, a public input of the shoe this round's deal shuffles (``docs/fairness.md``)."""


class ExtraStake(TypedDict, closed=True):
    """What a blackjack answer added to a player's stakes (double, split, insurance, follow, Any Pair)."""

    action: str | None


class PlayerBet(TypedDict, closed=True):
    """One of the player's bets or extra stakes in a round, and its net once the round is settled."""

    ref: str
    kind: Literal["bet", "extra"]
    bet: WagerBet | BlackjackBet | ExtraStake
    amount: int
    net: int | None


class PlayerRound(TypedDict, closed=True):
    """A round as one player may recall it (``Casino.player_rounds`` each): the player's own stakes and nets, the
    public result (a pocket, three dice, null for blackjack or before the result)."""

    round: str
    table: str
    game: Game
    status: RoundStatus
    opened_at: str
    updated_at: str
    result: int | list[int] | None
    bets: list[PlayerBet]
    staked: int
    net: int | None


# -- commands --------------------------------------------------------------------------------------------------------


class BetAnswer(TypedDict, closed=True):
    """A bet placed (``Casino.place_bet``): the round, the bet's reference, its stake and the bet as normalised."""

    table: str
    round: str
    ref: str
    amount: int
    bet: WagerBet | BlackjackBet


class ActAnswer(TypedDict, closed=True):
    """A blackjack answer taken (``Casino.act``): which decision it answered and the extra stake it held."""

    table: str
    round: str
    action: str
    box: int
    hand: int | None
    extra_stake: int


class CardReported(TypedDict, closed=True):
    """A live blackjack table's card from the dealer (``Casino.report``)."""

    table: str
    round: str
    card: str


class ResultReported(TypedDict, closed=True):
    """A live roulette or sic bo table's result from the dealer (``Casino.report``): a pocket, three dice or
    ``"void"``."""

    table: str
    round: str
    result: int | list[int] | str


ReportAnswer = CardReported | ResultReported
"""``Casino.report``."""


class CardTakenBack(TypedDict, closed=True):
    """A live blackjack table's last reported card, taken back by the dealer before the round used it
    (``Casino.take_back``)."""

    table: str
    round: str
    card: str
    reported: list[str]
    """The cards still reported and not yet used, oldest first."""


class RoundVoided(TypedDict, closed=True):
    """A round voided by the dealer, every held bet returned (``Casino.void``)."""

    table: str
    round: str
    status: Literal["voided"]


class BettingClosed(TypedDict, closed=True):
    """The dealer's bell on a live table (``Casino.close_betting``): the round's status after it."""

    table: str
    round: str
    status: RoundStatus | None


class TableClosed(TypedDict, closed=True):
    """A table closed (``Casino.close_table``)."""

    table: str
    status: Literal["closed"]


class TableDealers(TypedDict, closed=True):
    """The dealers of a table (``Casino.assign_dealers``)."""

    table: str
    dealers: list[str]


class Recovered(TypedDict, closed=True):
    """An unfinished round as start-up left it (``Casino.recover`` each)."""

    table: str
    round: str
    status: Literal["resumed", "settled", "voided"]


# -- records -----------------------------------------------------------------------------------------------------


class AuditLine(TypedDict, closed=True):
    """One line of the audit log (``Casino.audit`` each; ``AuditRecord.as_json``)."""

    id: int
    at: str
    actor: str
    action: str
    table: str | None
    detail: dict[str, Any]


class StoredHold(TypedDict, closed=True):
    """A stake held for a round, as stored: a bet (``bet``, and the ``answer`` it was given) or an extra stake
    (``action``), its ledger key and entry, and a digest of the request that placed it."""

    ref: str
    player: str
    amount: int
    key: str
    kind: Literal["bet", "extra"]
    digest: str
    status: Literal["held", "pending"]
    bet: NotRequired[WagerBet | BlackjackBet]
    action: NotRequired[str]
    answer: NotRequired[BetAnswer]
    entry: NotRequired[int]


class BetStep(TypedDict, closed=True):
    """A held bet placed in the engine."""

    t: Literal["bet"]
    ref: str
    player: str
    bet: WagerBet | BlackjackBet


class CloseStep(TypedDict, closed=True):
    """The bell (RO 3, SB 3.1, BJ 5.1)."""

    t: Literal["close"]


class ResultStep(TypedDict, closed=True):
    """A pocket or three dice (RO 4, SB 3.2)."""

    t: Literal["result"]
    value: int | list[int]


class VoidResultStep(TypedDict, closed=True):
    """A void spin or roll (RO 2.2, SB 3.3)."""

    t: Literal["void_result"]


class ForfeitStep(TypedDict, closed=True):
    """A streak bettor who did not bet again (BJ 13.5.4)."""

    t: Literal["forfeit"]
    player: str


class ActStep(TypedDict, closed=True):
    """A blackjack answer (a player's, or the published default when the timer ran out, BJ 6.5)."""

    t: Literal["act"]
    player: str
    action: str
    box: int
    hand: int | None
    amount: int | None


class VoidStep(TypedDict, closed=True):
    """The round voided (BJ 5.1.2), or a table closed between rounds."""

    t: Literal["void"]
    reason: str


Step = BetStep | CloseStep | ResultStep | VoidResultStep | ForfeitStep | ActStep | VoidStep
"""A stored step of a round, as the casino applies it to the engine live and on replay."""


class BlackjackDealerOutcome(TypedDict, closed=True):
    """The dealer's hand at the end of a blackjack round."""

    cards: list[str]
    total: int
    blackjack: bool


class BlackjackHandOutcome(TypedDict, closed=True):
    """A hand as it ended."""

    cards: list[str]
    total: int
    status: str


class BlackjackBetOutcome(TypedDict, closed=True):
    """One bet's net (``status``: only for a streak bet)."""

    player: str
    kind: str
    net: int
    status: NotRequired[str]


class BlackjackBoxOutcome(TypedDict, closed=True):
    """A box's result (``win``, ``loss``, ``push``), hands and bets."""

    box: int
    result: str
    hands: list[BlackjackHandOutcome]
    bets: list[BlackjackBetOutcome]


class BlackjackOutcome(TypedDict, closed=True):
    """A settled blackjack round (SCENARIOS.md output; ``void`` only when true)."""

    dealer: BlackjackDealerOutcome
    boxes: list[BlackjackBoxOutcome]
    players: dict[str, int]
    void: NotRequired[bool]


class VoidOutcome(TypedDict, closed=True):
    """A voided blackjack round's outcome."""

    void: bool


RoundOutcome = RouletteOutcome | SicBoOutcome | BlackjackOutcome | VoidOutcome
"""A finished round's result in the SCENARIOS.md output shape (a voided blackjack round: ``{"void": true}``)."""


class RecalledRound(TypedDict, closed=True):
    """A round as the game records recall it (``Casino.recall`` each): every bet with its ledger key, every step, the
    cards, the nets by bet reference, the outcome, the settling or voiding ledger entry and, while the table remembers
    the round, the engine's operations."""

    round: str
    table: str
    seq: int
    status: RoundStatus
    opened_at: str
    updated_at: str
    bets: list[StoredHold]
    steps: list[Step]
    cards: list[str]
    nets: dict[str, int] | None
    outcome: RoundOutcome | None
    entry: int | None
    operations: NotRequired[list[dict[str, Any]]]
    fair: NotRequired[FairRecord]


class Scenario(TypedDict, closed=True):
    """A round as a SCENARIOS.md scenario that ``croupier replay`` reproduces (``Casino.export_scenario``)."""

    game: Game
    rules: dict[str, Any]
    rounds: list[dict[str, Any]]
    fair: NotRequired[FairRecord]
    """A provably fair table's record of the exported round (``croupier verify``; ``croupier replay`` ignores it)."""


class MeterTotals(TypedDict, closed=True):
    """Money over every table's bets: wagered − paid − voided − held = the house's result."""

    wagered: int
    paid: int
    voided: int
    held: int
    house_result: int


class Meters(TypedDict, closed=True):
    """A table's meters (``Casino.meters``): its rounds by status, and the money over its bets (wagered − paid −
    voided − held = the house's result)."""

    table: str
    rounds: dict[str, int]
    wagered: int
    paid: int
    voided: int
    held: int
    house_result: int


class Reconciliation(TypedDict, closed=True):
    """``Casino.reconciliation``: every table's meters, their totals, and each problem found (``ok`` when none)."""

    tables: dict[str, Meters]
    all: MeterTotals
    problems: list[str]
    ok: bool
