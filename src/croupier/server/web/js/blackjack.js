// The blackjack table (docs/browser-ui.md): renders the server's view of a table and sends the player's bets and
// answers over the REST API. It holds no rule of its own: the boxes, the side bets, the limits and payouts come
// from the table's description and GET /api/tables/{id}/rules; the answers offered are exactly the pending
// decision's `actions`; totals, hand statuses, results and the shoe's state are the server's. It never lists the
// shoe's cards. A dealer or an admin watching sees the table only: no chips, no bet or action buttons.

import { amountText, el, money } from './dom.js';
import { seedForBet } from './fair.js';
import { play } from './sound.js';

// render-constants:begin (how the page draws things; no rule of the game lives here)
const CHIP_FACES = [1, 5, 10, 20, 25, 50, 100, 500, 1000, 5000]; // chip denominations, in chip units
const MAX_CHIPS = 6; // chips shown in the chip rack (keys 1 to 6)
const LAST_ROUNDS = 5; // rounds kept in the "last results" panel (totals and nets only, never cards)
const SUIT_SYMBOL = { S: '\u2660', H: '\u2665', D: '\u2666', C: '\u2663' };
const RED_SUITS = ['H', 'D'];
const TEN = 'T'; // the engine writes a ten as T (card codes such as "TH")
const TEN_LABEL = '10'; // and the card shows it as 10
const HIDDEN = '??'; // how the server shows a card the viewer may not see
const REFRESH_MS = 40; // coalesce a burst of events into one read of the table
const TICK_MS = 250; // timer refresh
const STALE_MS = 1000; // a timer's time passed this long ago with no news: re-read the table
const REREAD_MS = 3000; // and again at most this often while it stays at 0
const DOUBLE_FACTOR = 2; // the table's "double" control (not the blackjack double) doubles the chips laid out
const PERCENT = 100; // the shoe indicator's bar is drawn in percent of the shoe
const FINISHED = ['settled', 'voided']; // a table's status during the result moment (the server's pause)
// Keyboard shortcuts (shown on their buttons): one key per answer the server may offer, the chips by their place in
// the rack, and the bet slip's confirm, rebet and undo.
const SHORTCUTS = { hit: 'H', stand: 'S', double: 'D', split: 'P', surrender: 'R', insurance: 'I', even_money: 'E', decline: 'N', follow: 'F', any_pair: 'A', claim_five_card: 'L' };
const CONFIRM_KEY = 'C';
const REBET_KEY = 'B';
const UNDO_KEY = 'U';
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
// render-constants:end

const MS = 1000;

// A fresh idempotency key per command (ctx.api makes one itself when the browser cannot).
function freshKey() {
  return globalThis.crypto && typeof globalThis.crypto.randomUUID === 'function' ? globalThis.crypto.randomUUID() : undefined;
}

function keyed() {
  const key = freshKey();
  return key ? { key } : {};
}

function secondsLeft(iso) {
  if (!iso) return null;
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - Date.now()) / MS));
}

function sum(values) {
  return values.reduce((a, b) => a + (Number(b) || 0), 0);
}

function reducedMotion() {
  return typeof globalThis.matchMedia === 'function' && globalThis.matchMedia(REDUCED_MOTION).matches;
}

export function mount(root, ctx) {
  const me = ctx.me ? ctx.me.username : null;
  const isPlayer = !!ctx.me && ctx.me.role === 'player'; // a dealer or an admin only watches
  const S = {
    desc: ctx.table || {}, // GET /api/tables/{id} (the description and, after update, the round view)
    rules: ctx.rules || null, // GET /api/tables/{id}/rules (app.js reads it before mounting)
    chip: null,
    selectedBox: null,
    pending: new Map(), // box -> {main, side: {key: stake}, streak: {level: stake}}
    undo: [], // [{box, field, key, amount}]
    lastBets: [], // the bets confirmed in the last round with bets (for rebet)
    lastRoundWithBets: null,
    outcome: null, // the last `result` event's outcome
    outcomeRound: null,
    settled: null, // {round, net}: the caller's net of the last `settled` event
    history: [], // [{round, dealer, net}] — the caller's rounds: totals and nets only
    dealerHands: [], // GET /history: the dealer's last hands (the table's public results)
    until: null, // the latest decision event's deadline
    busy: false,
    insurance: null,
    refreshTimer: null,
    refreshSeq: 0,
    seen: new Map(), // card key -> when the page first showed it (ms)
    fresh: new Set(), // card keys whose deal animation runs
    primed: false, // the cards on the table when the page opened are not dealt again
    newNow: new Set(), // what this drawing shows for the first time (a card's sound)
    netAsked: null, // the round whose net the page asked of GET /me/rounds
  };
  const tableId = S.desc.table;
  const tk = (family, name, params) => ctx.t(`${family}.${name}`, params);

  function errorText(err) {
    if (err && err.detail) return ctx.t('bj.error.with_rule', { detail: err.detail, rule: err.rule || '' });
    return ctx.t('bj.error.network');
  }
  function fail(err) {
    ctx.toast('error', errorText(err));
  }

  // -- what the server says -------------------------------------------------------------------------------------

  function round() {
    return S.desc.view || null;
  }
  function limits() {
    return (S.rules && S.rules.limits) || S.desc.limits || null;
  }
  function betLimit(kind) {
    const l = limits();
    return l && l.bets ? l.bets[kind] || null : null;
  }
  function chipUnit() {
    const l = limits();
    return l && l.chip_unit ? l.chip_unit : 1;
  }
  function document_() {
    return (S.rules && S.rules.document) || {};
  }
  function boxCount() {
    const n = S.desc.boxes || (S.rules && S.rules.boxes) || document_().boxes;
    if (n) return n;
    const seen = [...((round() && round().boxes) || []).map((b) => b.box), ...((S.outcome && S.outcome.boxes) || []).map((b) => b.box)];
    return seen.length ? Math.max(...seen) : 0;
  }
  function offeredBets() {
    return S.rules && Array.isArray(S.rules.bets) ? S.rules.bets : [];
  }
  // Side bets are the table's bet kinds other than the main bet, insurance (an offer, not a bet) and the streak.
  function sideBets() {
    return offeredBets().filter((b) => !['main', 'insurance', 'streak'].includes(b.kind));
  }
  function streakBet() {
    return offeredBets().find((b) => b.kind === 'streak') || null;
  }
  function streakLevels() {
    const s = streakBet();
    return s && s.payout && typeof s.payout === 'object' ? Object.keys(s.payout).sort((a, b) => Number(a) - Number(b)) : [];
  }
  // The chip rack: the table's minimum main stake, then the denominations above it that are whole multiples of the
  // stake's step (the server's `step` when its limits carry one, else the minimum itself, which is always a legal
  // stake) and within the maximum.
  function chips() {
    const unit = chipUnit();
    const lim = betLimit('main');
    const low = lim ? lim.min : unit;
    const high = lim ? lim.max : Infinity;
    const step = lim && lim.step ? lim.step : low;
    const faces = CHIP_FACES.map((f) => f * unit).filter((v) => v > low && v <= high && v % step === 0);
    return [low, ...faces].slice(0, MAX_CHIPS);
  }
  function boxOf(n) {
    const r = round();
    return (r && r.boxes ? r.boxes.find((b) => b.box === n) : null) || null;
  }
  function myBettor(box) {
    return box ? box.bettors.find((bt) => bt.player === me) || null : null;
  }
  function status() {
    return S.desc.status || null;
  }
  function betting() {
    return status() === 'betting';
  }
  // The result moment: the server keeps the finished round on the table until the next betting window opens.
  function finished() {
    return FINISHED.includes(status());
  }
  function pauses() {
    return Number(S.desc.result_display_seconds) > 0;
  }
  function dealt() {
    const r = round();
    return !!(r && ((r.dealer && r.dealer.cards.length) || (r.boxes || []).some((b) => b.hands.length)));
  }
  // The outcome on show: the finished round's during the result moment; on a table without that pause, the last
  // `result` event's until the next round's cards are dealt.
  function shownOutcome() {
    const r = round();
    if (finished()) {
      if (r && r.outcome) return r.outcome;
      return S.outcome && S.outcomeRound === S.desc.round ? S.outcome : null;
    }
    if (!pauses() && S.outcome && !dealt() && S.outcomeRound !== S.desc.round) return S.outcome;
    return null;
  }
  function shownRound() {
    return finished() ? S.desc.round : S.outcomeRound;
  }
  // The caller's part of the outcome on show: each bet's net and the round's total (null until the ledger's is known);
  // null when the caller had no bet.
  function myResult() {
    const out = shownOutcome();
    if (!out || !me) return null;
    const bets = [];
    for (const b of out.boxes || []) for (const bet of b.bets || []) if (bet.player === me) bets.push({ box: b.box, kind: bet.kind, net: bet.net });
    if (!bets.length) return null;
    const rid = shownRound();
    // The round's total is the ledger's (the `settled` event's, or the caller's own round read back): a streak bet's
    // stake, taken when placed, makes it differ from the sum of the outcome's nets.
    const net = S.settled && S.settled.round === rid ? S.settled.net : null;
    return { round: rid, net, bets };
  }

  // -- commands -------------------------------------------------------------------------------------------------

  async function refreshWallet() {
    if (!isPlayer) return;
    try {
      const w = await ctx.api('GET', '/wallet');
      if (w && typeof w.balance === 'number') ctx.wallet(w.balance);
    } catch (err) {
      /* the header keeps its last balance; the next view brings the wallet */
    }
  }

  async function command(fn) {
    if (S.busy) return;
    S.busy = true;
    render();
    try {
      await fn();
    } catch (err) {
      fail(err);
    } finally {
      S.busy = false;
      await refresh();
      refreshWallet();
    }
  }

  function pendingOf(box) {
    if (!S.pending.has(box)) S.pending.set(box, { main: 0, side: {}, streak: {} });
    return S.pending.get(box);
  }
  function addPending(box, field, key, amount) {
    const p = pendingOf(box);
    if (field === 'main') p.main += amount;
    else p[field][key] = (p[field][key] || 0) + amount;
    S.undo.push({ box, field, key, amount });
  }
  function pendingSum(p) {
    return p.main + sum(Object.values(p.side)) + sum(Object.values(p.streak));
  }
  function pendingTotal() {
    return sum([...S.pending.values()].map(pendingSum));
  }
  function clearPending() {
    S.pending.clear();
    S.undo = [];
  }

  function onChip(amount) {
    S.chip = amount;
    render();
  }
  function onBetBox(n) {
    S.selectedBox = n;
    if (!S.chip) {
      ctx.toast('info', ctx.t('bj.hint.pick_chip'));
      render();
      return;
    }
    addPending(n, 'main', null, S.chip);
    play('chip');
    render();
  }
  function onSide(kind) {
    if (S.selectedBox === null) return ctx.toast('info', ctx.t('bj.hint.pick_box'));
    if (!S.chip) return ctx.toast('info', ctx.t('bj.hint.pick_chip'));
    addPending(S.selectedBox, 'side', kind, S.chip);
    play('chip');
    render();
  }
  function onStreak(level) {
    if (S.selectedBox === null) return ctx.toast('info', ctx.t('bj.hint.pick_box'));
    if (!S.chip) return ctx.toast('info', ctx.t('bj.hint.pick_chip'));
    addPending(S.selectedBox, 'streak', level, S.chip);
    play('chip');
    render();
  }
  function onUndo() {
    const last = S.undo.pop();
    if (!last) return;
    const p = pendingOf(last.box);
    if (last.field === 'main') p.main -= last.amount;
    else {
      p[last.field][last.key] -= last.amount;
      if (p[last.field][last.key] <= 0) delete p[last.field][last.key];
    }
    if (!p.main && !Object.keys(p.side).length && !Object.keys(p.streak).length) S.pending.delete(last.box);
    render();
  }
  function onClear() {
    clearPending();
    render();
  }
  function loadBets(bets, factor) {
    for (const b of bets) {
      if (b.main) addPending(b.box, 'main', null, b.main * factor);
      for (const [k, v] of Object.entries(b.side || {})) addPending(b.box, 'side', k, v * factor);
    }
  }
  function onRebet() {
    if (!S.lastBets.length) return ctx.toast('info', ctx.t('bj.hint.nothing_to_rebet'));
    clearPending();
    loadBets(S.lastBets, 1);
    play('chip');
    render();
  }
  function onDouble() {
    if (!S.pending.size) {
      if (!S.lastBets.length) return ctx.toast('info', ctx.t('bj.hint.nothing_to_double'));
      loadBets(S.lastBets, DOUBLE_FACTOR);
    } else {
      const now = [...S.pending.entries()].map(([box, p]) => ({ box, main: p.main, side: { ...p.side }, streak: { ...p.streak } }));
      for (const b of now) {
        if (b.main) addPending(b.box, 'main', null, b.main);
        for (const [k, v] of Object.entries(b.side)) addPending(b.box, 'side', k, v);
        for (const [k, v] of Object.entries(b.streak)) addPending(b.box, 'streak', k, v);
      }
    }
    play('chip');
    render();
  }
  function onConfirm() {
    if (!S.pending.size) return ctx.toast('info', ctx.t('bj.hint.no_bets'));
    command(async () => {
      const sent = [];
      const entries = [...S.pending.entries()].sort((a, b) => a[0] - b[0]);
      for (const [box, p] of entries) {
        const body = { box };
        if (p.main) body.main = p.main;
        if (Object.keys(p.side).length) body.side = { ...p.side };
        if (Object.keys(p.streak).length) body.streak = { ...p.streak };
        const seed = seedForBet(S.desc.fair); // a provably fair table: the player's seed (docs/fairness.md)
        if (seed) body.client_seed = seed;
        await ctx.api('POST', `/tables/${tableId}/bets`, body, keyed());
        S.pending.delete(box);
        sent.push({ box, main: p.main, side: { ...p.side } });
      }
      S.undo = [];
      const roundId = S.desc.round;
      if (S.lastRoundWithBets !== roundId) S.lastBets = [];
      S.lastRoundWithBets = roundId;
      S.lastBets = [...S.lastBets, ...sent];
      play('chip');
      ctx.toast('info', ctx.t('bj.bets_placed'));
    });
  }
  function onAction(action) {
    const turn = round() && round().turn;
    if (!turn) return;
    const body = { action, box: turn.box };
    if (turn.hand !== null && turn.hand !== undefined) body.hand = turn.hand;
    if (action === 'insurance') {
      const field = root.querySelector('[data-testid="insurance-amount"]');
      const amount = Number(field ? field.value : S.insurance);
      if (!Number.isInteger(amount) || amount < 1) return ctx.toast('error', ctx.t('bj.hint.insurance_amount'));
      body.amount = amount;
    }
    command(() => ctx.api('POST', `/tables/${tableId}/actions`, body, keyed()));
  }

  // The keyboard: the chips by their place in the rack, C to confirm, B to bet again, U to undo, and one letter per
  // answer the server offers (each shown on its button). A shortcut only ever clicks a button the page shows and
  // enables, so it can do nothing a click could not.
  function shortcutTarget(e) {
    const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
    const byId = (id) => root.querySelector(`[data-testid="${id}"]`);
    if (key === CONFIRM_KEY) return byId('confirm-bets');
    if (key === REBET_KEY) return byId('rebet');
    if (key === UNDO_KEY) return byId('undo');
    const chip = root.querySelector(`.bj-chip[data-key="${key}"]`);
    if (chip) return chip;
    const action = Object.keys(SHORTCUTS).find((a) => SHORTCUTS[a] === key);
    return action ? root.querySelector(`[data-testid="action-${action}"]`) : null;
  }
  function onKey(e) {
    if (!isPlayer || e.defaultPrevented || e.repeat || e.altKey || e.ctrlKey || e.metaKey || !root.isConnected) return;
    const t = e.target;
    if (t && t.closest && t.closest('input, textarea, select, [contenteditable]')) return;
    const target = shortcutTarget(e);
    if (!target || target.disabled) return;
    e.preventDefault();
    target.click();
  }

  // -- reading the table ----------------------------------------------------------------------------------------

  async function refresh() {
    const seq = ++S.refreshSeq;
    try {
      const desc = await ctx.api('GET', `/tables/${tableId}`);
      if (seq === S.refreshSeq) apply(desc);
    } catch (err) {
      /* app.js re-reads the table on reconnect */
    }
  }
  function scheduleRefresh() {
    if (S.refreshTimer) return;
    S.refreshTimer = setTimeout(() => {
      S.refreshTimer = null;
      refresh();
    }, REFRESH_MS);
  }
  async function loadRules() {
    try {
      S.rules = await ctx.api('GET', `/tables/${tableId}/rules`);
    } catch (err) {
      S.rules = null;
    }
    render();
  }
  // A page opened (or reconnected) during the result moment heard no `settled` event: it reads the caller's net of the
  // round from the caller's own rounds, once per round.
  async function loadMyNet(rid) {
    if (!isPlayer || !rid || S.netAsked === rid || (S.settled && S.settled.round === rid)) return;
    S.netAsked = rid;
    try {
      const rounds = await ctx.api('GET', `/me/rounds?table=${encodeURIComponent(tableId)}&last=1`);
      const mine = Array.isArray(rounds) ? rounds.find((r) => r.round === rid) : null;
      if (mine && typeof mine.net === 'number' && !(S.settled && S.settled.round === rid)) {
        S.settled = { round: rid, net: mine.net };
        render();
      }
    } catch (err) {
      /* the moment shows the bets' nets without the total */
    }
  }

  async function loadDealerHands() {
    try {
      const h = await ctx.api('GET', `/tables/${tableId}/history?last=${LAST_ROUNDS}`);
      S.dealerHands = h && Array.isArray(h.results) ? h.results : [];
      render();
    } catch (err) {
      /* the board keeps what it had */
    }
  }

  function apply(desc) {
    if (!desc) return;
    const before = { round: S.desc.round, status: S.desc.status };
    S.desc = { ...S.desc, ...desc, fair: desc.fair || null }; // a view without `fair` has no commitment
    if (before.round && desc.round && before.round !== desc.round) {
      S.selectedBox = null;
      S.until = null;
      S.fresh.clear();
    }
    // The next betting window is open: the result moment is over.
    if (desc.status === 'betting' && desc.round !== S.outcomeRound && pauses()) {
      S.outcome = null;
      S.outcomeRound = null;
    }
    if (before.status === 'betting' && desc.status === 'playing' && before.round === desc.round) play('bell');
    const turn = desc.view && desc.view.turn;
    if (turn && turn.max_insurance && S.insurance === null) S.insurance = turn.max_insurance;
    if (!turn || !turn.max_insurance) S.insurance = null;
    if (isPlayer && typeof desc.wallet === 'number') ctx.wallet(desc.wallet);
    if (desc.status === 'settled' && desc.view && desc.view.outcome) loadMyNet(desc.round);
    render();
  }

  function onEvent(e) {
    if (!e || typeof e !== 'object') return;
    if (e.type === 'events' && Array.isArray(e.events)) return e.events.forEach(onEvent);
    if (e.type === 'snapshot' && e.view) return apply(e.view);
    if (e.type === 'result' && e.outcome) {
      S.outcome = e.outcome;
      S.outcomeRound = e.round || S.desc.round;
    } else if (e.type === 'settled') {
      const net = e.players && me in e.players ? e.players[me] : null;
      if (net !== null) {
        const rid = e.round || S.outcomeRound || S.desc.round;
        S.settled = { round: rid, net };
        S.history.unshift({ round: rid, dealer: S.outcome && S.outcome.dealer ? S.outcome.dealer.total : null, net });
        S.history.length = Math.min(S.history.length, LAST_ROUNDS);
        if (net > 0) play('win');
        else if (net < 0) play('lose');
      }
      refreshWallet();
      loadDealerHands();
    } else if (e.type === 'decision' && Array.isArray(e.actions)) {
      S.until = e.until || null;
    } else if (e.type === 'void') {
      S.outcome = null;
      ctx.toast('info', ctx.t('bj.round_void', { reason: e.reason || '', rule: e.rule || '' }));
      refreshWallet();
    }
    scheduleRefresh();
  }

  // -- drawing --------------------------------------------------------------------------------------------------

  // Something the page shows for the first time (a card dealt, a win) moves in, not under prefers-reduced-motion; when
  // the table is drawn again meanwhile, its animation goes on where it was (a negative delay) until it ends. What
  // was already on the table when the page opened does not move. The attributes for its element, or null.
  function motion(key, cls) {
    const now = Date.now();
    if (!S.seen.has(key)) {
      S.seen.set(key, now);
      if (S.primed && !reducedMotion()) S.fresh.add(key);
      if (S.primed) S.newNow.add(cls);
    }
    if (!S.fresh.has(key)) return null;
    return {
      class: cls,
      style: `animation-delay: -${now - S.seen.get(key)}ms`,
      onanimationend: (ev) => {
        S.fresh.delete(key);
        ev.currentTarget.classList.remove(cls);
      },
    };
  }

  function cardEl(code, key) {
    const moving = key ? motion(`${key}:${code}`, 'bj-card--deal') : null;
    const attrs = { 'data-card': code || HIDDEN, ...(moving || {}) };
    const cls = (extra) => ['bj-card', extra, moving ? moving.class : null].filter(Boolean).join(' ');
    if (!code || code === HIDDEN) {
      return el('span', { ...attrs, class: cls('bj-card--back'), role: 'img', 'aria-label': ctx.t('bj.card.hidden') });
    }
    const suit = code.slice(-1);
    const rank = code.slice(0, -1);
    const shown = rank === TEN ? TEN_LABEL : rank;
    const rankName = /^[0-9]+$/.test(shown) ? shown : ctx.t(`bj.rank.${rank}`);
    const red = RED_SUITS.includes(suit);
    return el(
      'span',
      { ...attrs, class: cls(red ? 'bj-card--red' : null), role: 'img', 'aria-label': ctx.t('bj.card.name', { rank: rankName, suit: ctx.t(`bj.suit.${suit}`) }) },
      el('span', { class: 'bj-card__rank', 'aria-hidden': 'true', text: shown }),
      el('span', { class: 'bj-card__suit', 'aria-hidden': 'true', text: SUIT_SYMBOL[suit] || suit }),
    );
  }

  function kbd(key) {
    return el('kbd', { class: 'bj-kbd', 'aria-hidden': 'true', text: key });
  }

  function stakeLine(label, amount, extra) {
    return el('li', { class: `bj-stake${extra ? ` ${extra}` : ''}` }, el('span', { class: 'bj-stake__label', text: label }), el('span', { class: 'bj-stake__amount', text: money(amount) }));
  }

  function betKindLabel(kind) {
    const m = /^streak_(\d+)$/.exec(kind);
    if (m) return ctx.t('bj.streak.level', { wins: m[1] });
    return tk('bj.kind', kind);
  }

  function bettorList(n, box, pending) {
    const items = [];
    for (const bt of box ? box.bettors : []) {
      const mine = bt.player === me;
      const cls = mine ? 'bj-stake--mine' : '';
      const side = (bet) => (mine ? ctx.t('bj.stake.mine_side', { bet }) : ctx.t('bj.stake.side', { player: bt.player, bet }));
      if (bt.main) items.push(stakeLine(mine ? ctx.t('bj.stake.mine_main') : ctx.t('bj.stake.main', { player: bt.player }), bt.main, cls));
      for (const [k, v] of Object.entries(bt.side || {})) items.push(stakeLine(side(betKindLabel(k)), v, cls));
      for (const [k, v] of Object.entries(bt.streak || {})) items.push(stakeLine(side(ctx.t('bj.streak.level', { wins: k })), v, cls));
      if (bt.insurance) items.push(stakeLine(side(ctx.t('bj.kind.insurance')), bt.insurance, cls));
    }
    if (pending) {
      if (pending.main) items.push(stakeLine(ctx.t('bj.stake.pending', { bet: ctx.t('bj.kind.main') }), pending.main, 'bj-stake--pending'));
      for (const [k, v] of Object.entries(pending.side)) items.push(stakeLine(ctx.t('bj.stake.pending', { bet: betKindLabel(k) }), v, 'bj-stake--pending'));
      for (const [k, v] of Object.entries(pending.streak)) items.push(stakeLine(ctx.t('bj.stake.pending', { bet: ctx.t('bj.streak.level', { wins: k }) }), v, 'bj-stake--pending'));
    }
    return items.length ? el('ul', { class: 'bj-stakes', testid: `stakes-${n}` }, items) : null;
  }

  // What a screen reader hears for a box: its number, the stakes on it (the caller's share) and the chips not yet
  // placed there.
  function boxLabel(n, box, pending) {
    const stakes = (bt) => bt.main + sum(Object.values(bt.side || {})) + sum(Object.values(bt.streak || {})) + (bt.insurance || 0);
    const all = sum((box ? box.bettors : []).map(stakes));
    const mine = myBettor(box);
    let label = !all
      ? ctx.t('bj.box_label.empty', { n })
      : mine
        ? ctx.t('bj.box_label.mine', { n, stake: money(all), mine: money(stakes(mine)) })
        : ctx.t('bj.box_label.staked', { n, stake: money(all) });
    if (pending && pendingSum(pending)) label = ctx.t('bj.box_label.pending', { label, amount: money(pendingSum(pending)) });
    return label;
  }

  function handEl(boxNo, hand, index, { active, result }) {
    const cards = hand.cards || [];
    const attrs = {
      class: `bj-hand${active ? ' bj-hand--active' : ''}${result ? ` bj-hand--${result}` : ''}`,
      testid: `hand-${boxNo}-${index}`,
      'data-box': boxNo,
      'data-hand': index,
      'data-total': hand.total === null || hand.total === undefined ? '' : hand.total,
      'data-status': hand.status || '',
      'data-cards': cards.join(','),
      'data-active': active ? 'true' : 'false',
      'aria-current': active ? 'true' : null,
    };
    if (result) attrs['data-result'] = result;
    const mine = hand.stakes && me in hand.stakes ? hand.stakes[me] : null;
    return el(
      'div',
      attrs,
      el('div', { class: 'bj-cards' }, cards.map((c, k) => cardEl(c, `${boxNo}-${index}:${k}`))),
      el(
        'div',
        { class: 'bj-hand__info' },
        hand.total === null || hand.total === undefined ? null : el('span', { class: 'bj-total', text: ctx.t('bj.total', { total: hand.total }) }),
        hand.status ? el('span', { class: 'bj-hand__status', text: tk('bj.status', hand.status) }) : null,
        hand.doubled ? el('span', { class: 'bj-hand__status', text: ctx.t('bj.doubled') }) : null,
        mine ? el('span', { class: 'bj-hand__stake', text: ctx.t('bj.hand_stake', { amount: money(mine) }) }) : null,
        result ? el('span', { class: `bj-result bj-result--${result}`, text: tk('bj.result', result) }) : null,
      ),
    );
  }

  function streakMarker(n) {
    const r = round();
    const open = (r && r.streaks ? r.streaks : []).filter((s) => s.box === n);
    if (!streakBet() && !open.length) return null;
    const wins = open.length ? Math.max(...open.map((s) => s.wins)) : 0;
    const levels = open.map((s) => s.level).sort((a, b) => a - b);
    const mine = open.filter((s) => s.player === me);
    return el(
      'div',
      {
        class: `bj-streak${open.length ? ' bj-streak--open' : ''}`,
        testid: `streak-${n}`,
        'data-wins': wins,
        'data-levels': levels.join(','),
        'data-mine': mine.length ? 'true' : 'false',
        title: ctx.t('bj.streak.marker_title'),
      },
      el('span', { class: 'bj-streak__dot', 'aria-hidden': 'true', text: wins }),
      el('span', { text: open.length ? ctx.t('bj.streak.marker', { count: wins, levels: levels.join(', ') }) : ctx.t('bj.streak.none') }),
    );
  }

  function boxEl(n, outcomeBox, outcome) {
    const box = boxOf(n);
    const pending = S.pending.get(n) || null;
    const mine = !!myBettor(box) || !!pending;
    const turn = round() && round().turn;
    const bettors = box ? box.bettors.length : 0;
    const limit = document_().max_bettors_per_box;
    const full = limit !== null && limit !== undefined && bettors >= limit && !myBettor(box);
    const back = bettors > 0 && !myBettor(box);
    const useOutcome = !!outcome && !!outcomeBox;
    const hands = useOutcome ? outcomeBox.hands : box ? box.hands : [];
    const boxResult = useOutcome ? outcomeBox.result : null;
    const myBets = useOutcome ? (outcomeBox.bets || []).filter((b) => b.player === me) : [];
    const seated = box ? box.seated : null;
    const label = boxLabel(n, box, pending);
    const empty = !bettors && !pending && !useOutcome;
    const betText = full ? ctx.t('bj.box_full') : back ? ctx.t('bj.back_bet', { amount: S.chip ? money(S.chip) : '' }) : ctx.t('bj.bet_box', { amount: S.chip ? money(S.chip) : '' });
    return el(
      'li',
      {
        class: `bj-box${mine ? ' bj-box--mine' : ''}${empty ? ' bj-box--empty' : ''}${S.selectedBox === n ? ' bj-box--selected' : ''}${turn && turn.box === n ? ' bj-box--turn' : ''}`,
        testid: `box-${n}`,
        'data-box': n,
        'data-mine': mine ? 'true' : 'false',
        'data-seated': seated || '',
        'data-bettors': bettors,
        'data-result': boxResult || null,
        'aria-label': label,
      },
      el(
        'header',
        { class: 'bj-box__head' },
        el('span', { class: 'bj-box__number', text: ctx.t('bj.box', { n }) }),
        seated ? el('span', { class: 'bj-box__seated', text: seated === me ? ctx.t('bj.you') : seated }) : null,
      ),
      streakMarker(n),
      hands.length
        ? el(
            'div',
            { class: 'bj-hands' },
            hands.map((h, i) =>
              handEl(n, h, useOutcome ? i : h.index, {
                active: !useOutcome && turn && turn.box === n && turn.hand === h.index,
                result: useOutcome ? h.result || boxResult : null,
              }),
            ),
          )
        : null,
      bettorList(n, box, pending),
      myBets.length
        ? el(
            'ul',
            { class: 'bj-nets', testid: `nets-${n}` },
            myBets.map((b) => el('li', { 'data-kind': b.kind, 'data-net': b.net }, ctx.t('bj.net_line', { bet: betKindLabel(b.kind), net: money(b.net, true) }))),
          )
        : null,
      isPlayer && betting()
        ? el('button', {
            type: 'button',
            class: 'bj-btn bj-btn--bet',
            testid: `bet-box-${n}`,
            'data-back': back ? 'true' : 'false',
            disabled: full || S.busy,
            'aria-pressed': S.selectedBox === n ? 'true' : 'false',
            'aria-label': ctx.t('bj.bet_box_label', { action: betText, box: label }),
            onclick: () => onBetBox(n),
            text: betText,
          })
        : null,
    );
  }

  function dealerEl(outcome) {
    const r = round();
    const d = outcome ? outcome.dealer : r ? r.dealer : { cards: [], total: null };
    const total = d.total === null || d.total === undefined ? '' : d.total;
    return el(
      'section',
      { class: 'bj-dealer', testid: 'dealer-hand', 'data-total': total, 'data-cards': (d.cards || []).join(','), 'data-blackjack': d.blackjack ? 'true' : 'false', 'aria-label': ctx.t('bj.dealer') },
      el('h3', { class: 'bj-dealer__title', text: ctx.t('bj.dealer') }),
      el('div', { class: 'bj-cards' }, (d.cards || []).map((c, k) => cardEl(c, `d:${k}`))),
      total === '' ? null : el('span', { class: 'bj-total', text: ctx.t('bj.total', { total }) }),
      d.blackjack ? el('span', { class: 'bj-hand__status', text: ctx.t('bj.status.blackjack') }) : null,
    );
  }

  // The result moment, in the middle of the felt (above the fold on a phone): the dealer's total, every box's
  // result, and the caller's nets bet by bet with the round's total in a win display.
  function momentEl(outcome) {
    if (!outcome) {
      if (status() !== 'voided') return null;
      return el('section', { class: 'bj-moment bj-moment--void', testid: 'round-result', 'data-round': S.desc.round || '', 'aria-live': 'polite' }, el('p', { class: 'bj-banner bj-banner--push', text: ctx.t('bj.moment.void') }));
    }
    const mine = myResult();
    const d = outcome.dealer || {};
    const next = finished() ? secondsLeft(S.desc.deadline) : null;
    const net = mine ? mine.net : null;
    const tone = net === null ? null : net > 0 ? 'win' : net < 0 ? 'loss' : 'push';
    const show = net !== null ? motion(`win:${mine.round}`, 'bj-banner--show') : null;
    return el(
      'section',
      { class: `bj-moment${tone ? ` bj-moment--${tone}` : ''}`, testid: 'round-result', 'data-round': shownRound() || '', 'aria-live': 'polite', 'aria-label': ctx.t('bj.moment.title') },
      el('p', { class: 'bj-moment__dealer', testid: 'dealer-result', 'data-total': d.total ?? '', 'data-blackjack': d.blackjack ? 'true' : 'false' }, d.blackjack ? ctx.t('bj.moment.dealer_blackjack') : ctx.t('bj.moment.dealer', { total: d.total ?? '' })),
      el(
        'ul',
        { class: 'bj-moment__boxes' },
        (outcome.boxes || []).map((b) =>
          el('li', { class: `bj-moment__box bj-result--${b.result}`, testid: `box-result-${b.box}`, 'data-box': b.box, 'data-result': b.result }, el('span', { text: ctx.t('bj.box', { n: b.box }) }), el('strong', { text: tk('bj.result', b.result) })),
        ),
      ),
      net !== null
        ? el(
            'p',
            { ...(show || {}), class: `bj-banner bj-banner--${tone}${show ? ` ${show.class}` : ''}`, testid: 'round-net', 'data-net': net, role: 'status' },
            el('span', { class: 'bj-banner__text', text: net > 0 ? ctx.t('bj.you_won', { amount: money(net) }) : net < 0 ? ctx.t('bj.you_lost', { amount: money(-net) }) : ctx.t('bj.you_push') }),
          )
        : null,
      mine
        ? el(
            'ul',
            { class: 'bj-moment__nets', testid: 'my-nets' },
            mine.bets.map((b) => el('li', { 'data-box': b.box, 'data-kind': b.kind, 'data-net': b.net }, el('span', { text: ctx.t('bj.moment.bet', { box: b.box, bet: betKindLabel(b.kind) }) }), el('strong', { text: money(b.net, true) }))),
            net === null ? null : el('li', { class: 'bj-moment__total', 'data-total': net }, el('span', { text: ctx.t('bj.moment.total') }), el('strong', { text: money(net, true) })),
          )
        : null,
      next === null ? null : el('p', { class: 'bj-moment__next', testid: 'next-round', 'data-seconds': next, text: ctx.t('bj.next_round', { seconds: next }) }),
    );
  }

  function turnEl() {
    const r = round();
    const turn = r && r.turn;
    const seconds = secondsLeft(S.desc.deadline || S.until);
    const timer = el('span', { class: 'bj-timer', testid: 'decision-timer', 'data-seconds': turn && seconds !== null ? seconds : '', hidden: !turn }, turn && seconds !== null ? ctx.t('bj.seconds', { seconds }) : '');
    if (!turn) return el('section', { class: 'bj-turn bj-turn--idle' }, timer);
    const whose = turn.actions
      ? turn.hand === null || turn.hand === undefined
        ? ctx.t('bj.turn.yours_box', { box: turn.box })
        : ctx.t('bj.turn.yours_hand', { box: turn.box, hand: turn.hand + 1 })
      : ctx.t('bj.turn.other', { player: turn.player, box: turn.box });
    const parts = [el('p', { class: 'bj-turn__who', testid: 'turn', 'data-box': turn.box, 'data-hand': turn.hand ?? '', 'data-kind': turn.kind, text: whose }), timer];
    if (isPlayer && turn.actions) {
      parts.push(el('p', { class: 'bj-turn__kind', text: tk('bj.question', turn.kind) }));
      if (turn.actions.includes('insurance')) {
        const unit = chipUnit();
        parts.push(
          el(
            'label',
            { class: 'bj-insurance' },
            el('span', { text: ctx.t('bj.insurance_amount', { max: money(turn.max_insurance) }) }),
            el('input', {
              type: 'number',
              inputmode: 'numeric',
              testid: 'insurance-amount',
              min: unit,
              step: unit,
              max: turn.max_insurance,
              value: S.insurance ?? turn.max_insurance,
              oninput: (ev) => {
                S.insurance = Number(ev.target.value);
              },
            }),
          ),
        );
      }
      parts.push(
        el(
          'div',
          { class: 'bj-actions', role: 'group', 'aria-label': ctx.t('bj.actions') },
          turn.actions.map((a) =>
            el(
              'button',
              { type: 'button', class: `bj-btn bj-btn--action bj-btn--${a}`, testid: `action-${a}`, 'data-action': a, 'aria-keyshortcuts': SHORTCUTS[a] || null, disabled: S.busy, onclick: () => onAction(a) },
              el('span', { text: tk('bj.action', a) }),
              SHORTCUTS[a] ? kbd(SHORTCUTS[a]) : null,
            ),
          ),
        ),
      );
    }
    return el('section', { class: `bj-turn${isPlayer && turn.actions ? ' bj-turn--mine' : ''}`, 'aria-live': 'polite' }, parts);
  }

  function chipRack() {
    return el(
      'div',
      { class: 'bj-chips', role: 'radiogroup', 'aria-label': ctx.t('bj.chips') },
      chips().map((c, i) => {
        const key = String(i + 1);
        return el(
          'button',
          { type: 'button', class: `bj-chip${S.chip === c ? ' bj-chip--on' : ''}`, testid: `chip-${c}`, 'data-amount': c, 'data-key': key, role: 'radio', 'aria-checked': S.chip === c ? 'true' : 'false', 'aria-label': money(c), 'aria-keyshortcuts': key, onclick: () => onChip(c) },
          el('span', { class: 'bj-chip__face', 'aria-hidden': 'true', text: amountText(c) }),
          kbd(key),
        );
      }),
    );
  }

  // A side or streak spot's name for the screen reader: the spot and, on the selected box, the caller's stake there
  // (placed and not yet placed).
  function spotLabel(spot, field, key) {
    const sel = S.selectedBox;
    if (sel === null) return spot;
    const bt = myBettor(boxOf(sel));
    const placed = bt && bt[field] ? Number(bt[field][key]) || 0 : 0;
    const p = S.pending.get(sel);
    const laid = p && p[field] ? Number(p[field][key]) || 0 : 0;
    return ctx.t('bj.spot_label', { spot, box: sel, stake: money(placed + laid) });
  }

  function bettingEl() {
    if (!isPlayer || !betting()) return null;
    const sel = S.selectedBox;
    const sides = sideBets();
    const levels = streakLevels();
    const payout = (p) => (p === null || p === undefined || typeof p === 'object' ? null : ctx.t('bj.pays', { odds: p }));
    const control = (testid, label, disabled, onclick, key, extra) =>
      el('button', { type: 'button', class: `bj-btn${extra ? ` ${extra}` : ''}`, testid, disabled, onclick, 'aria-keyshortcuts': key ? key.aria : null, 'data-total': testid === 'confirm-bets' ? pendingTotal() : null }, el('span', { text: label }), key ? kbd(key.shown) : null);
    const rack = el(
      'section',
      { class: 'bj-betting', 'aria-label': ctx.t('bj.betting') },
      chipRack(),
      el(
        'div',
        { class: 'bj-controls' },
        control('undo', ctx.t('bj.undo'), !S.undo.length || S.busy, onUndo, { aria: UNDO_KEY, shown: UNDO_KEY }),
        control('clear', ctx.t('bj.clear'), !S.pending.size || S.busy, onClear),
        control('rebet', ctx.t('bj.rebet'), !S.lastBets.length || S.busy, onRebet, { aria: REBET_KEY, shown: REBET_KEY }),
        control('double', ctx.t('bj.double_bets'), (!S.pending.size && !S.lastBets.length) || S.busy, onDouble),
        control('confirm-bets', ctx.t('bj.confirm', { total: money(pendingTotal()) }), !S.pending.size || S.busy, onConfirm, { aria: CONFIRM_KEY, shown: CONFIRM_KEY }, 'bj-btn--primary'),
      ),
    );
    return [
      rack,
      sides.length || levels.length
        ? el(
            'section',
            { class: 'bj-sides', 'aria-label': ctx.t('bj.side_bets') },
            el('p', { class: 'bj-sides__target', testid: 'selected-box', 'data-box': sel ?? '', text: sel === null ? ctx.t('bj.hint.pick_box') : ctx.t('bj.side_target', { box: sel }) }),
            sides.map((b) => {
              const spot = [betKindLabel(b.kind), payout(b.payout)].filter(Boolean).join(' ');
              return el('button', { type: 'button', class: 'bj-btn bj-btn--side', testid: `side-${b.kind}`, 'data-kind': b.kind, disabled: sel === null || S.busy, 'aria-label': spotLabel(spot, 'side', b.kind), onclick: () => onSide(b.kind) }, el('span', { text: betKindLabel(b.kind) }), payout(b.payout) ? el('small', { text: payout(b.payout) }) : null);
            }),
            levels.map((lv) => {
              const spot = `${ctx.t('bj.streak.level', { wins: lv })} ${ctx.t('bj.pays', { odds: streakBet().payout[lv] })}`;
              return el('button', { type: 'button', class: 'bj-btn bj-btn--side', testid: `streak-bet-${lv}`, 'data-level': lv, disabled: sel === null || S.busy, 'aria-label': spotLabel(spot, 'streak', lv), onclick: () => onStreak(lv) }, el('span', { text: ctx.t('bj.streak.level', { wins: lv }) }), el('small', { text: ctx.t('bj.pays', { odds: streakBet().payout[lv] }) }));
            }),
          )
        : null,
    ];
  }

  // The shoe indicator (a table that deals from a shoe; none under a continuous shuffler): the cards dealt of the
  // shoe, where the cut card sits, and the shuffle.
  function shoeEl() {
    const r = round();
    const shoe = r && r.shoe;
    if (!shoe) return null;
    const share = (n) => `${Math.max(0, Math.min(PERCENT, (PERCENT * n) / shoe.cards))}%`;
    return el(
      'div',
      {
        class: `bj-shoe${shoe.shuffled ? ' bj-shoe--shuffled' : ''}`,
        testid: 'shoe',
        'data-cards': shoe.cards,
        'data-dealt': shoe.dealt,
        'data-cut-at': shoe.cut_at,
        'data-shuffled': shoe.shuffled ? 'true' : 'false',
        'data-shuffle-due': shoe.shuffle_due ? 'true' : 'false',
        role: 'group',
        'aria-label': ctx.t('bj.shoe.name'),
      },
      el('span', { class: 'bj-shoe__bar', 'aria-hidden': 'true' }, el('span', { class: 'bj-shoe__dealt', style: `width: ${share(shoe.dealt)}` }), el('span', { class: 'bj-shoe__cut', style: `left: ${share(shoe.cut_at - 1)}` })),
      el('span', { class: 'bj-shoe__text', text: ctx.t('bj.shoe.dealt', { count: shoe.dealt, dealt: shoe.dealt, cards: shoe.cards }) }),
      el('span', { class: 'bj-shoe__text', text: ctx.t('bj.shoe.cut', { position: shoe.cut_at }) }),
      shoe.shuffled ? el('span', { class: 'bj-shoe__badge bj-shoe__badge--shuffled', testid: 'shoe-shuffled', text: ctx.t('bj.shoe.shuffled') }) : null,
      shoe.shuffle_due ? el('span', { class: 'bj-shoe__badge', testid: 'shoe-shuffle-due', text: ctx.t('bj.shoe.shuffle_due') }) : null,
    );
  }

  function headEl() {
    const st = status() || '';
    const r = round();
    const phase = r ? r.phase : null;
    // After the bell a live deal waits for its cards: the engine's round is still "betting", the table is not.
    const shown = phase === 'betting' && st === 'playing' ? 'dealing' : phase;
    const seconds = betting() ? secondsLeft(S.desc.deadline) : null;
    return el(
      'header',
      { class: 'bj-bar' },
      el('span', { class: 'bj-phase', testid: 'phase', 'data-phase': st, 'data-round-phase': phase || '', 'data-round': S.desc.round || '', text: shown ? tk('bj.phase', shown) : tk('bj.phase', 'waiting') }),
      el('span', { class: 'bj-countdown', testid: 'countdown', 'data-seconds': seconds ?? '', hidden: seconds === null }, seconds === null ? '' : ctx.t('bj.closes_in', { seconds })),
      S.desc.live ? el('span', { class: 'bj-live', text: ctx.t('bj.live') }) : null,
      r && r.cut_card_out && !(r.shoe && r.shoe.shuffle_due) ? el('span', { class: 'bj-cut', text: ctx.t('bj.cut_card') }) : null,
      shoeEl(),
    );
  }

  function dealerHandText(h) {
    if (h.dealer_blackjack) return ctx.t('bj.status.blackjack');
    return h.dealer_bust ? ctx.t('bj.board.bust', { total: h.dealer_total }) : ctx.t('bj.total', { total: h.dealer_total });
  }

  function lastResultsEl() {
    return el(
      'section',
      { class: 'bj-last', testid: 'last-results', 'aria-label': ctx.t('bj.last_results') },
      el('h3', { text: ctx.t('bj.board.dealer') }),
      S.dealerHands.length
        ? el('ul', { class: 'bj-board', testid: 'dealer-board' }, S.dealerHands.map((h) => el('li', { class: `bj-board__hand${h.dealer_bust ? ' bj-board__hand--bust' : ''}${h.dealer_blackjack ? ' bj-board__hand--bj' : ''}`, 'data-round': h.round, 'data-total': h.dealer_total, text: dealerHandText(h) })))
        : el('p', { text: ctx.t('bj.no_results') }),
      isPlayer ? el('h3', { text: ctx.t('bj.last_results') }) : null,
      isPlayer
        ? S.history.length
          ? el('ul', { class: 'bj-mine' }, S.history.map((h) => el('li', { 'data-round': h.round, 'data-net': h.net }, el('span', { text: ctx.t('bj.history_line', { dealer: h.dealer ?? '' }) }), el('strong', { text: money(h.net, true) }))))
          : el('p', { text: ctx.t('bj.no_rounds') })
        : null,
    );
  }

  // The caller's result has just come: where the page is scrolled away from it (a phone, after the action buttons),
  // bring the dealer's hand and the result moment into view.
  function revealMoment() {
    const dealer = root.querySelector('[data-testid="dealer-hand"]');
    const moment = root.querySelector('[data-testid="round-result"]');
    if (!dealer || !moment || typeof dealer.scrollIntoView !== 'function') return;
    const top = dealer.getBoundingClientRect().top;
    const bottom = moment.getBoundingClientRect().bottom;
    if (top >= 0 && bottom <= globalThis.innerHeight) return;
    dealer.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
  }

  function render() {
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.getAttribute('data-testid') : null;
    const n = boxCount();
    const outcome = shownOutcome();
    const outcomeBoxes = new Map(((outcome && outcome.boxes) || []).map((b) => [b.box, b]));
    const boxes = [];
    S.newNow.clear();
    for (let i = n; i >= 1; i -= 1) boxes.push(boxEl(i, outcomeBoxes.get(i), outcome)); // the dealer's left is box 1: drawn on the right
    const dealer = dealerEl(outcome);
    root.replaceChildren(
      el(
        'div',
        { class: `bj${isPlayer ? '' : ' bj--watching'}`, 'data-game': 'blackjack', 'data-showing': outcome ? 'last-round' : 'round', 'data-status': status() || '' },
        headEl(),
        el('div', { class: 'bj-felt' }, dealer, momentEl(outcome), el('ol', { class: 'bj-boxes', 'aria-label': ctx.t('bj.boxes') }, boxes)),
        turnEl(),
        bettingEl(),
        lastResultsEl(),
      ),
    );
    if (S.newNow.has('bj-card--deal')) play('card');
    if (S.newNow.has('bj-banner--show')) revealMoment();
    S.primed = true;
    if (focused) {
      const again = root.querySelector(`[data-testid="${focused}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  let staleReadAt = 0;
  function tick() {
    const now = Date.now();
    const stale = (iso) => now - Date.parse(iso) > STALE_MS && now - staleReadAt > REREAD_MS;
    const timer = root.querySelector('[data-testid="decision-timer"]');
    const turn = round() && round().turn;
    if (timer && turn) {
      const s = secondsLeft(S.desc.deadline || S.until);
      timer.dataset.seconds = s === null ? '' : s;
      timer.textContent = s === null ? '' : ctx.t('bj.seconds', { seconds: s });
    }
    const cd = root.querySelector('[data-testid="countdown"]');
    if (cd && betting()) {
      const s = secondsLeft(S.desc.deadline);
      cd.dataset.seconds = s === null ? '' : s;
      cd.textContent = s === null ? '' : ctx.t('bj.closes_in', { seconds: s });
      cd.hidden = s === null;
      // At 0 with nothing heard, the server may have extended the window: re-read its view (no rule here).
      if (s === 0 && stale(S.desc.deadline)) {
        staleReadAt = now;
        refresh();
      }
    }
    const next = root.querySelector('[data-testid="next-round"]');
    if (next && finished()) {
      const s = secondsLeft(S.desc.deadline);
      next.dataset.seconds = s === null ? '' : s;
      next.textContent = s === null ? '' : ctx.t('bj.next_round', { seconds: s });
      // The pause is over and no `betting_open` came: re-read the table.
      if (s === 0 && stale(S.desc.deadline)) {
        staleReadAt = now;
        refresh();
      }
    }
  }

  const ticker = setInterval(tick, TICK_MS);
  const offLanguage = typeof ctx.onLanguage === 'function' ? ctx.onLanguage(() => render()) : null;
  document.addEventListener('keydown', onKey);
  render();
  if (!S.rules) loadRules();
  loadDealerHands();

  return {
    update(view) {
      apply(view);
    },
    event(e) {
      onEvent(e);
    },
    unmount() {
      clearInterval(ticker);
      document.removeEventListener('keydown', onKey);
      if (S.refreshTimer) clearTimeout(S.refreshTimer);
      S.refreshSeq += 1;
      if (typeof offLanguage === 'function') offLanguage();
      root.replaceChildren();
    },
  };
}
