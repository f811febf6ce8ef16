// The blackjack table (docs/browser-ui.md): renders the server's view of a table and sends the player's bets and
// answers over the REST API. It holds no rule of its own: the boxes, the side bets, the limits and payouts come
// from the table's description and GET /api/tables/{id}/rules; the answers offered are exactly the pending
// decision's `actions`; totals, hand statuses and results are the server's. It never lists the shoe's cards.

// render-constants:begin (how the page draws things; no rule of the game lives here)
const CHIP_FACES = [1, 5, 10, 20, 25, 50, 100, 500, 1000, 5000]; // chip denominations, in chip units
const MAX_CHIPS = 6; // chips shown in the chip rack
const LAST_ROUNDS = 5; // rounds kept in the "last results" panel (totals and nets only, never cards)
const SUIT_SYMBOL = { S: '\u2660', H: '\u2665', D: '\u2666', C: '\u2663' };
const RED_SUITS = ['H', 'D'];
const TEN = 'T'; // the engine writes a ten as T (card codes such as "TH")
const TEN_LABEL = '10'; // and the card shows it as 10
const HIDDEN = '??'; // how the server shows a card the viewer may not see
const REFRESH_MS = 40; // coalesce a burst of events into one read of the table
const TICK_MS = 250; // timer refresh
const STALE_MS = 1000; // the bell's time passed this long ago with no news: re-read the table
const REREAD_MS = 3000; // and again at most this often while the countdown stays at 0
const DOUBLE_FACTOR = 2; // the table's "double" control (not the blackjack double) doubles the chips laid out
// render-constants:end

const MS = 1000;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = String(value);
    else if (name.startsWith('on')) node.addEventListener(name.slice('on'.length), value);
    else if (name === 'testid') node.setAttribute('data-testid', value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

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

export function mount(root, ctx) {
  const me = ctx.me ? ctx.me.username : null;
  const S = {
    desc: ctx.table || {}, // GET /api/tables/{id} (the description and, after update, the round view)
    rules: ctx.rules || null, // GET /api/tables/{id}/rules (app.js reads it before mounting)
    chip: null,
    selectedBox: null,
    pending: new Map(), // box -> {main, side: {key: stake}, streak: {level: stake}}
    undo: [], // [{box, field, key, amount}]
    lastBets: [], // the bets confirmed in the last round with bets (for rebet)
    lastRoundWithBets: null,
    outcome: null, // the last `result` event's outcome, shown until the next deal
    outcomeRound: null,
    settledNet: null,
    history: [], // [{round, dealer_total, net}] — totals and nets only
    until: null, // the latest decision event's deadline
    busy: false,
    insurance: null,
    refreshTimer: null,
    refreshSeq: 0,
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
  function dealt() {
    const r = round();
    return !!(r && ((r.dealer && r.dealer.cards.length) || (r.boxes || []).some((b) => b.hands.length)));
  }
  // The last round's outcome stays on the table until the next round's cards are dealt.
  function showingOutcome() {
    return !!S.outcome && !dealt() && S.outcomeRound !== S.desc.round;
  }

  // -- commands -------------------------------------------------------------------------------------------------

  async function refreshWallet() {
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
  function pendingTotal() {
    return sum([...S.pending.values()].map((p) => p.main + sum(Object.values(p.side)) + sum(Object.values(p.streak))));
  }
  function clearPending() {
    S.pending.clear();
    S.undo = [];
  }

  function onBetBox(n) {
    S.selectedBox = n;
    if (!S.chip) {
      ctx.toast('info', ctx.t('bj.hint.pick_chip'));
      render();
      return;
    }
    addPending(n, 'main', null, S.chip);
    render();
  }
  function onSide(kind) {
    if (S.selectedBox === null) return ctx.toast('info', ctx.t('bj.hint.pick_box'));
    if (!S.chip) return ctx.toast('info', ctx.t('bj.hint.pick_chip'));
    addPending(S.selectedBox, 'side', kind, S.chip);
    render();
  }
  function onStreak(level) {
    if (S.selectedBox === null) return ctx.toast('info', ctx.t('bj.hint.pick_box'));
    if (!S.chip) return ctx.toast('info', ctx.t('bj.hint.pick_chip'));
    addPending(S.selectedBox, 'streak', level, S.chip);
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
        await ctx.api('POST', `/tables/${tableId}/bets`, body, keyed());
        S.pending.delete(box);
        sent.push({ box, main: p.main, side: { ...p.side } });
      }
      S.undo = [];
      const roundId = S.desc.round;
      if (S.lastRoundWithBets !== roundId) S.lastBets = [];
      S.lastRoundWithBets = roundId;
      S.lastBets = [...S.lastBets, ...sent];
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

  function apply(desc) {
    if (!desc) return;
    const before = S.desc.round;
    S.desc = { ...S.desc, ...desc };
    if (before && desc.round && before !== desc.round) {
      S.selectedBox = null;
      S.until = null;
    }
    const turn = desc.view && desc.view.turn;
    if (turn && turn.max_insurance && S.insurance === null) S.insurance = turn.max_insurance;
    if (!turn || !turn.max_insurance) S.insurance = null;
    if (typeof desc.wallet === 'number') ctx.wallet(desc.wallet);
    render();
  }

  function onEvent(e) {
    if (!e || typeof e !== 'object') return;
    if (e.type === 'events' && Array.isArray(e.events)) return e.events.forEach(onEvent);
    if (e.type === 'snapshot' && e.view) return apply(e.view);
    if (e.type === 'result' && e.outcome) {
      S.outcome = e.outcome;
      S.outcomeRound = e.round;
      S.settledNet = null;
    } else if (e.type === 'settled') {
      const net = e.players && me in e.players ? e.players[me] : null;
      S.settledNet = net;
      if (net !== null) {
        S.history.unshift({ round: e.round, dealer: S.outcome && S.outcome.dealer ? S.outcome.dealer.total : null, net });
        S.history.length = Math.min(S.history.length, LAST_ROUNDS);
      }
      refreshWallet();
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

  function cardEl(code) {
    if (!code || code === HIDDEN) {
      return el('span', { class: 'bj-card bj-card--back', role: 'img', 'aria-label': ctx.t('bj.card.hidden'), 'data-card': HIDDEN });
    }
    const suit = code.slice(-1);
    const rank = code.slice(0, -1);
    const shown = rank === TEN ? TEN_LABEL : rank;
    const rankName = /^[0-9]+$/.test(shown) ? shown : ctx.t(`bj.rank.${rank}`);
    const red = RED_SUITS.includes(suit);
    return el(
      'span',
      {
        class: `bj-card${red ? ' bj-card--red' : ''}`,
        role: 'img',
        'aria-label': ctx.t('bj.card.name', { rank: rankName, suit: ctx.t(`bj.suit.${suit}`) }),
        'data-card': code,
      },
      el('span', { class: 'bj-card__rank', 'aria-hidden': 'true', text: shown }),
      el('span', { class: 'bj-card__suit', 'aria-hidden': 'true', text: SUIT_SYMBOL[suit] || suit }),
    );
  }

  function stakeLine(label, amount, extra) {
    return el('li', { class: `bj-stake${extra ? ` ${extra}` : ''}` }, el('span', { class: 'bj-stake__label', text: label }), el('span', { class: 'bj-stake__amount', text: amount }));
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
      const who = mine ? ctx.t('bj.you') : bt.player;
      if (bt.main) items.push(stakeLine(ctx.t('bj.stake.main', { player: who }), bt.main, cls));
      for (const [k, v] of Object.entries(bt.side || {})) items.push(stakeLine(ctx.t('bj.stake.side', { player: who, bet: betKindLabel(k) }), v, cls));
      for (const [k, v] of Object.entries(bt.streak || {})) items.push(stakeLine(ctx.t('bj.stake.side', { player: who, bet: ctx.t('bj.streak.level', { wins: k }) }), v, cls));
      if (bt.insurance) items.push(stakeLine(ctx.t('bj.stake.side', { player: who, bet: ctx.t('bj.kind.insurance') }), bt.insurance, cls));
    }
    if (pending) {
      if (pending.main) items.push(stakeLine(ctx.t('bj.stake.pending', { bet: ctx.t('bj.kind.main') }), pending.main, 'bj-stake--pending'));
      for (const [k, v] of Object.entries(pending.side)) items.push(stakeLine(ctx.t('bj.stake.pending', { bet: betKindLabel(k) }), v, 'bj-stake--pending'));
      for (const [k, v] of Object.entries(pending.streak)) items.push(stakeLine(ctx.t('bj.stake.pending', { bet: ctx.t('bj.streak.level', { wins: k }) }), v, 'bj-stake--pending'));
    }
    return items.length ? el('ul', { class: 'bj-stakes', testid: `stakes-${n}` }, items) : null;
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
      el('div', { class: 'bj-cards' }, cards.map(cardEl)),
      el(
        'div',
        { class: 'bj-hand__info' },
        hand.total === null || hand.total === undefined ? null : el('span', { class: 'bj-total', text: ctx.t('bj.total', { total: hand.total }) }),
        hand.status ? el('span', { class: 'bj-hand__status', text: tk('bj.status', hand.status) }) : null,
        hand.doubled ? el('span', { class: 'bj-hand__status', text: ctx.t('bj.doubled') }) : null,
        mine ? el('span', { class: 'bj-hand__stake', text: ctx.t('bj.hand_stake', { amount: mine }) }) : null,
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
      el('span', { text: open.length ? ctx.t('bj.streak.marker', { wins, levels: levels.join(', ') }) : ctx.t('bj.streak.none') }),
    );
  }

  function boxEl(n, outcomeBox) {
    const box = boxOf(n);
    const pending = S.pending.get(n) || null;
    const mine = !!myBettor(box) || !!pending;
    const turn = round() && round().turn;
    const bettors = box ? box.bettors.length : 0;
    const limit = document_().max_bettors_per_box;
    const full = limit !== null && limit !== undefined && bettors >= limit && !myBettor(box);
    const back = bettors > 0 && !myBettor(box);
    const useOutcome = showingOutcome() && outcomeBox;
    const hands = useOutcome ? outcomeBox.hands : box ? box.hands : [];
    const boxResult = useOutcome ? outcomeBox.result : null;
    const myBets = useOutcome ? (outcomeBox.bets || []).filter((b) => b.player === me) : [];
    const seated = box ? box.seated : null;
    return el(
      'li',
      {
        class: `bj-box${mine ? ' bj-box--mine' : ''}${S.selectedBox === n ? ' bj-box--selected' : ''}${turn && turn.box === n ? ' bj-box--turn' : ''}`,
        testid: `box-${n}`,
        'data-box': n,
        'data-mine': mine ? 'true' : 'false',
        'data-seated': seated || '',
        'data-bettors': bettors,
        'data-result': boxResult || null,
      },
      el(
        'header',
        { class: 'bj-box__head' },
        el('span', { class: 'bj-box__number', text: ctx.t('bj.box', { n }) }),
        seated ? el('span', { class: 'bj-box__seated', text: seated === me ? ctx.t('bj.you') : seated }) : null,
      ),
      streakMarker(n),
      el(
        'div',
        { class: 'bj-hands' },
        hands.map((h, i) =>
          handEl(n, h, useOutcome ? i : h.index, {
            active: !useOutcome && turn && turn.box === n && turn.hand === h.index,
            result: useOutcome ? h.result || boxResult : null,
          }),
        ),
      ),
      bettorList(n, box, pending),
      myBets.length
        ? el(
            'ul',
            { class: 'bj-nets', testid: `nets-${n}` },
            myBets.map((b) => el('li', { 'data-kind': b.kind, 'data-net': b.net }, ctx.t('bj.net_line', { bet: betKindLabel(b.kind), net: b.net > 0 ? `+${b.net}` : b.net }))),
          )
        : null,
      betting()
        ? el('button', {
            type: 'button',
            class: 'bj-btn bj-btn--bet',
            testid: `bet-box-${n}`,
            'data-back': back ? 'true' : 'false',
            disabled: full || S.busy,
            'aria-pressed': S.selectedBox === n ? 'true' : 'false',
            onclick: () => onBetBox(n),
            text: full ? ctx.t('bj.box_full') : back ? ctx.t('bj.back_bet', { amount: S.chip || '' }) : ctx.t('bj.bet_box', { amount: S.chip || '' }),
          })
        : null,
    );
  }

  function dealerEl() {
    const useOutcome = showingOutcome();
    const r = round();
    const d = useOutcome ? S.outcome.dealer : r ? r.dealer : { cards: [], total: null };
    const total = d.total === null || d.total === undefined ? '' : d.total;
    return el(
      'section',
      { class: 'bj-dealer', testid: 'dealer-hand', 'data-total': total, 'data-cards': (d.cards || []).join(','), 'data-blackjack': d.blackjack ? 'true' : 'false' },
      el('h3', { class: 'bj-dealer__title', text: ctx.t('bj.dealer') }),
      el('div', { class: 'bj-cards' }, (d.cards || []).map(cardEl)),
      total === '' ? null : el('span', { class: 'bj-total', text: ctx.t('bj.total', { total }) }),
      d.blackjack ? el('span', { class: 'bj-hand__status', text: ctx.t('bj.status.blackjack') }) : null,
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
    if (turn.actions) {
      parts.push(el('p', { class: 'bj-turn__kind', text: tk('bj.question', turn.kind) }));
      if (turn.actions.includes('insurance')) {
        const unit = chipUnit();
        parts.push(
          el(
            'label',
            { class: 'bj-insurance' },
            el('span', { text: ctx.t('bj.insurance_amount', { max: turn.max_insurance }) }),
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
          turn.actions.map((a) => el('button', { type: 'button', class: `bj-btn bj-btn--action bj-btn--${a}`, testid: `action-${a}`, 'data-action': a, disabled: S.busy, onclick: () => onAction(a), text: tk('bj.action', a) })),
        ),
      );
    }
    return el('section', { class: 'bj-turn', 'aria-live': 'polite' }, parts);
  }

  function bettingEl() {
    if (!betting()) return null;
    const sel = S.selectedBox;
    const sides = sideBets();
    const levels = streakLevels();
    const payout = (p) => (p === null || p === undefined || typeof p === 'object' ? null : ctx.t('bj.pays', { odds: p }));
    return el(
      'section',
      { class: 'bj-betting', 'aria-label': ctx.t('bj.betting') },
      el(
        'div',
        { class: 'bj-chips', role: 'radiogroup', 'aria-label': ctx.t('bj.chips') },
        chips().map((c) =>
          el('button', { type: 'button', class: `bj-chip${S.chip === c ? ' bj-chip--on' : ''}`, testid: `chip-${c}`, 'data-amount': c, role: 'radio', 'aria-checked': S.chip === c ? 'true' : 'false', onclick: () => { S.chip = c; render(); }, text: c }),
        ),
      ),
      sides.length || levels.length
        ? el(
            'div',
            { class: 'bj-sides' },
            el('p', { class: 'bj-sides__target', testid: 'selected-box', 'data-box': sel ?? '', text: sel === null ? ctx.t('bj.hint.pick_box') : ctx.t('bj.side_target', { box: sel }) }),
            sides.map((b) => el('button', { type: 'button', class: 'bj-btn bj-btn--side', testid: `side-${b.kind}`, 'data-kind': b.kind, disabled: sel === null || S.busy, onclick: () => onSide(b.kind) }, el('span', { text: betKindLabel(b.kind) }), payout(b.payout) ? el('small', { text: payout(b.payout) }) : null)),
            levels.map((lv) => el('button', { type: 'button', class: 'bj-btn bj-btn--side', testid: `streak-bet-${lv}`, 'data-level': lv, disabled: sel === null || S.busy, onclick: () => onStreak(lv) }, el('span', { text: ctx.t('bj.streak.level', { wins: lv }) }), el('small', { text: ctx.t('bj.pays', { odds: streakBet().payout[lv] }) }))),
          )
        : null,
      el(
        'div',
        { class: 'bj-controls' },
        el('button', { type: 'button', class: 'bj-btn', testid: 'undo', disabled: !S.undo.length || S.busy, onclick: onUndo, text: ctx.t('bj.undo') }),
        el('button', { type: 'button', class: 'bj-btn', testid: 'clear', disabled: !S.pending.size || S.busy, onclick: onClear, text: ctx.t('bj.clear') }),
        el('button', { type: 'button', class: 'bj-btn', testid: 'rebet', disabled: !S.lastBets.length || S.busy, onclick: onRebet, text: ctx.t('bj.rebet') }),
        el('button', { type: 'button', class: 'bj-btn', testid: 'double', disabled: (!S.pending.size && !S.lastBets.length) || S.busy, onclick: onDouble, text: ctx.t('bj.double_bets') }),
        el('button', { type: 'button', class: 'bj-btn bj-btn--primary', testid: 'confirm-bets', 'data-total': pendingTotal(), disabled: !S.pending.size || S.busy, onclick: onConfirm, text: ctx.t('bj.confirm', { total: pendingTotal() }) }),
      ),
    );
  }

  function headEl() {
    const st = status() || '';
    const r = round();
    const phase = r ? r.phase : null;
    const seconds = betting() ? secondsLeft(S.desc.deadline) : null;
    return el(
      'header',
      { class: 'bj-bar' },
      el('span', { class: 'bj-phase', testid: 'phase', 'data-phase': st, 'data-round-phase': phase || '', 'data-round': S.desc.round || '', text: phase ? tk('bj.phase', phase) : tk('bj.phase', 'waiting') }),
      el('span', { class: 'bj-countdown', testid: 'countdown', 'data-seconds': seconds ?? '', hidden: seconds === null }, seconds === null ? '' : ctx.t('bj.closes_in', { seconds })),
      S.desc.live ? el('span', { class: 'bj-live', text: ctx.t('bj.live') }) : null,
      r && r.cut_card_out ? el('span', { class: 'bj-cut', text: ctx.t('bj.cut_card') }) : null,
    );
  }

  function lastResultsEl() {
    const out = [];
    if (showingOutcome() && S.settledNet !== null) {
      out.push(el('p', { class: `bj-banner bj-banner--${S.settledNet > 0 ? 'win' : S.settledNet < 0 ? 'loss' : 'push'}`, testid: 'round-net', 'data-net': S.settledNet, text: ctx.t(S.settledNet > 0 ? 'bj.you_won' : S.settledNet < 0 ? 'bj.you_lost' : 'bj.you_push', { amount: Math.abs(S.settledNet) }) }));
    }
    out.push(
      el(
        'section',
        { class: 'bj-last', testid: 'last-results' },
        el('h3', { text: ctx.t('bj.last_results') }),
        S.history.length
          ? el('ol', {}, S.history.map((h) => el('li', { 'data-round': h.round, 'data-net': h.net }, ctx.t('bj.history_line', { dealer: h.dealer ?? '', net: h.net > 0 ? `+${h.net}` : h.net }))))
          : el('p', { text: ctx.t('bj.no_results') }),
      ),
    );
    return out;
  }

  function render() {
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.getAttribute('data-testid') : null;
    const n = boxCount();
    const outcomeBoxes = new Map(((S.outcome && S.outcome.boxes) || []).map((b) => [b.box, b]));
    const boxes = [];
    for (let i = n; i >= 1; i -= 1) boxes.push(boxEl(i, outcomeBoxes.get(i))); // the dealer's left is box 1: drawn on the right
    root.replaceChildren(
      el(
        'div',
        { class: 'bj', 'data-game': 'blackjack', 'data-showing': showingOutcome() ? 'last-round' : 'round' },
        headEl(),
        el('div', { class: 'bj-felt' }, dealerEl(), el('ol', { class: 'bj-boxes', 'aria-label': ctx.t('bj.boxes') }, boxes)),
        turnEl(),
        bettingEl(),
        lastResultsEl(),
      ),
    );
    if (focused) {
      const again = root.querySelector(`[data-testid="${focused}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  function tick() {
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
      const now = Date.now();
      if (s === 0 && now - Date.parse(S.desc.deadline) > STALE_MS && now - staleReadAt > REREAD_MS) {
        staleReadAt = now;
        refresh();
      }
    }
  }
  let staleReadAt = 0;

  const ticker = setInterval(tick, TICK_MS);
  const offLanguage = typeof ctx.onLanguage === 'function' ? ctx.onLanguage(() => render()) : null;
  render();
  if (!S.rules) loadRules();

  return {
    update(view) {
      apply(view);
    },
    event(e) {
      onEvent(e);
    },
    unmount() {
      clearInterval(ticker);
      if (S.refreshTimer) clearTimeout(S.refreshTimer);
      S.refreshSeq += 1;
      if (typeof offLanguage === 'function') offLanguage();
      root.replaceChildren();
    },
  };
}
