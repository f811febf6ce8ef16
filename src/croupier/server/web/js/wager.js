// What roulette and sic bo share: the phase and countdown, the chip rack, the bet slip (pending bets, undo, clear,
// rebet, double, confirm), the player's bets of the round, the bell (chips not confirmed are taken off and named),
// the result moment (the result and the player's own result until the next window opens), the spots' names, tips
// and keyboard navigation (one tab stop, arrow keys), and the keyboard shortcuts. The layout itself is the game
// module's. Every bet is checked by the server; the page only proposes.

import { amountText, el, fill, money, secondsUntil } from './dom.js';
import { seedForBet, withSeed } from './fair.js';
import { play } from './sound.js';

const CHIP_FACES = [1, 5, 10, 25, 100, 500, 1000, 5000];
const MAX_CHIPS = 7;
const STALE_MS = 1000; // the countdown at 0 this long with no news: re-read the table
const REREAD_MS = 3000; // and at most this often while it stays at 0
const RECALL_ROUNDS = 5;
const WARN_SECONDS = 5; // the last seconds of the window: chips not yet confirmed are pointed out
const LONG_PRESS_MS = 450; // a touch held this long shows a spot's tip instead of laying a chip
const UNDO_DEPTH = 50;

/** The identity of a placement (its kind and where it lies), whatever its amount. */
export function spotKey(bet) {
  const where = bet.numbers ? [...bet.numbers].sort((a, b) => a - b).join(',') : bet.index ?? bet.face ?? bet.total ?? '';
  return `${bet.type}:${where}`;
}

/** Whether the person asked the system for reduced motion: no wheel, no dice tumbling, no pulsing. */
export function reducedMotion() {
  return Boolean(globalThis.matchMedia && matchMedia('(prefers-reduced-motion: reduce)').matches);
}

/**
 * One tab stop for a group of controls (a roving tabindex): the arrow keys move between the entries ({key, node, row,
 * col}; left and right within a row, up and down to the nearest entry of the nearest row), Home and End go to the
 * row's ends. The entry last focused keeps the tab stop across re-renders. `onMove(entry)` hears of a move (a radio
 * group selects what it moves to).
 */
export function roving(container, onMove = null) {
  let entries = [];
  let current = null;
  function sync() {
    if (!entries.some((e) => e.key === current)) current = entries.length ? entries[0].key : null;
    for (const e of entries) e.node.tabIndex = e.key === current ? 0 : -1;
  }
  function closest(list, col) {
    return list.reduce((best, e) => (!best || Math.abs(e.col - col) < Math.abs(best.col - col) ? e : best), null);
  }
  function rowFrom(from, dir) {
    const rows = entries.map((e) => e.row).filter((r) => (r - from.row) * dir > 0);
    if (!rows.length) return null;
    const row = dir > 0 ? Math.min(...rows) : Math.max(...rows);
    return closest(
      entries.filter((e) => e.row === row),
      from.col,
    );
  }
  function target(from, key) {
    const same = entries.filter((e) => e.row === from.row).sort((a, b) => a.col - b.col);
    const i = same.indexOf(from);
    switch (key) {
      case 'ArrowRight':
        return same[i + 1] || null;
      case 'ArrowLeft':
        return i > 0 ? same[i - 1] : null;
      case 'ArrowDown':
        return rowFrom(from, 1);
      case 'ArrowUp':
        return rowFrom(from, -1);
      case 'Home':
        return same[0];
      case 'End':
        return same[same.length - 1];
      default:
        return undefined;
    }
  }
  container.addEventListener('keydown', (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const from = entries.find((e) => e.node === ev.target);
    if (!from) return;
    const to = target(from, ev.key);
    if (to === undefined) return;
    ev.preventDefault();
    if (!to) return;
    current = to.key;
    sync();
    to.node.focus();
    if (onMove) onMove(to);
  });
  container.addEventListener('focusin', (ev) => {
    const e = entries.find((x) => x.node === ev.target);
    if (e && e.key !== current) {
      current = e.key;
      sync();
    }
  });
  return {
    set(list) {
      entries = list;
      sync();
    },
    select(key) {
      if (entries.some((e) => e.key === key)) current = key;
      sync();
    },
  };
}

/**
 * createWager(ctx, hooks) → the shared machinery. Hooks: `module` ('roulette' | 'sicbo': the catalogue of the shared
 * texts), `describe(bet)` names a placement ("Split 17-20"), `payout(bet)` its odds as shown ("17:1"),
 * `highlight(bet | null)` marks what a spot covers, `onChange()` re-marks the layout, `drawOutcome(outcome, animate)`
 * the result's picture (the wheel, the dice), `outcomeText(outcome)` its words, `resultSound` ('spin' | 'dice'),
 * `rank(bet)` the order of payment,
 * `onResult(outcome, e)`, `onSettled(e)`, `onMissed()`.
 */
export function createWager(ctx, hooks) {
  const me = ctx.me || {};
  const isPlayer = me.role === 'player';
  const tableId = ctx.table.table;
  const mt = (name, params) => ctx.t(`${hooks.module}.${name}`, params); // the texts both games share
  const S = {
    status: ctx.table.status,
    deadline: ctx.table.deadline,
    round: ctx.table.round,
    fair: ctx.table.fair || null, // the round's commitment (a provably fair table): bets carry the player's seed
    chip: null,
    pending: [], // {bet, key?, seed?, sending?}: not yet sent (`seed` goes with `key`: a resend is the same command)
    placed: [], // {ref, round, bet}: held by the server this round
    last: [], // the bets of the previous round (rebet)
    undo: [], // earlier states of `pending` (only chips not yet placed: a confirmed bet is never undone)
    busy: false,
    settlement: null, // {round, lines: [{bet, net}], total}
    noMoreBets: false,
    view: null,
    unplaced: null, // {round, bets}: chips still unconfirmed at the bell, taken off the layout
    moment: null, // {round, outcome, animate, node}: the result on screen until the next window opens
    closedMoment: null, // the round whose result moment the player closed
    tip: null, // the key of the spot whose tip shows
  };

  // -- the chip rack ---------------------------------------------------------------------------------------------
  const limits = () => (ctx.table.limits && ctx.table.limits.bets) || (ctx.rules && ctx.rules.limits && ctx.rules.limits.bets) || {};
  const chipUnit = () => (ctx.table.limits && ctx.table.limits.chip_unit) || 1;
  function chips() {
    const all = Object.values(limits());
    const low = all.length ? Math.min(...all.map((l) => l.min)) : chipUnit();
    const high = all.length ? Math.max(...all.map((l) => l.max)) : Infinity;
    const faces = CHIP_FACES.map((f) => f * chipUnit()).filter((v) => v > low && v <= high);
    return [low, ...faces].slice(0, MAX_CHIPS);
  }
  S.chip = chips().includes(10 * chipUnit()) ? 10 * chipUnit() : chips()[0];

  // -- elements -----------------------------------------------------------------------------------------------------
  const phase = el('span', { class: 'phase', testid: 'phase', 'data-phase': S.status || '' });
  const countdown = el('span', { class: 'countdown', testid: 'countdown', 'aria-live': 'off' });
  const nomore = el('span', { class: 'no-more-bets', role: 'status', hidden: true });
  const warning = el('p', { class: 'unconfirmed-warning', testid: 'unconfirmed-warning', role: 'status', hidden: true });
  const statusBar = el('div', { class: 'status-bar' }, phase, countdown, nomore);
  const chipRack = el('div', { class: 'chips', role: 'radiogroup' });
  const chipNav = roving(chipRack, (entry) => pickChip(entry.amount));
  const buttons = {};
  for (const name of ['undo', 'clear', 'rebet', 'double', 'confirm-bets']) {
    buttons[name] = el('button', { type: 'button', class: name === 'confirm-bets' ? 'primary' : '', testid: name });
  }
  buttons.undo.addEventListener('click', onUndo);
  buttons.clear.addEventListener('click', onClear);
  buttons.rebet.addEventListener('click', onRebet);
  buttons.double.addEventListener('click', onDouble);
  buttons['confirm-bets'].addEventListener('click', onConfirm);
  const actionBar = el('div', { class: 'bet-actions' }, Object.values(buttons));
  const slip = el('div', { class: 'slip', 'aria-live': 'polite' });
  const settlement = el('ol', { class: 'settlement', testid: 'settlement' });
  const settlementBox = el('section', { class: 'settlement-box card' }, el('h3', { class: 'settlement-title' }), settlement);
  const helpSummary = el('summary');
  const helpList = el('ul', { class: 'help-keys' });
  const help = el('details', { class: 'wager-help', testid: 'wager-help' }, helpSummary, helpList);
  const controls = isPlayer ? el('div', { class: 'bet-controls' }) : el('div', { class: 'bet-controls watching' });
  const slipBox = isPlayer ? el('div', { class: 'slip-box' }, slip, help) : el('div', { class: 'slip watching' });
  // The chips that missed the bell: named until dismissed or the next window opens.
  const unplacedList = el('ul', { class: 'unplaced-list' });
  const unplacedTitle = el('p', { class: 'unplaced-title' });
  const unplacedDismiss = el('button', { type: 'button', class: 'unplaced-dismiss', testid: 'unplaced-dismiss', onclick: dismissUnplaced });
  const unplacedBox = el('section', { class: 'unplaced-notice', testid: 'unplaced-notice', role: 'alert', hidden: true }, unplacedTitle, unplacedList, unplacedDismiss);
  // Beside the chips (at hand on a phone): the warning of the window's last seconds, then the notice of the bell.
  if (isPlayer) controls.append(chipRack, actionBar, warning, unplacedBox);
  // The spot under the pointer (or focused, or long-pressed): its name and payout.
  const tip = el('p', { class: 'spot-tip', testid: 'spot-tip', 'aria-hidden': 'true' });
  // The result moment.
  const momentTitle = el('h2', { class: 'moment-title' });
  const momentPicture = el('div', { class: 'moment-picture' });
  const momentWords = el('p', { class: 'moment-words' });
  const momentMine = el('div', { class: 'moment-mine' });
  const momentNext = el('p', { class: 'moment-next', testid: 'moment-next' });
  const momentClose = el('button', { type: 'button', class: 'moment-close', testid: 'result-close', onclick: closeMoment, text: '×' });
  const moment = el(
    'section',
    { class: 'result-moment', testid: 'result-moment', hidden: true, 'aria-live': 'polite' },
    el('div', { class: 'moment-head' }, momentTitle, momentClose),
    el('div', { class: 'moment-body' }, momentPicture, el('div', { class: 'moment-text' }, momentWords, momentMine)),
    momentNext,
  );

  // -- the slip -------------------------------------------------------------------------------------------------------
  const total = (list) => list.reduce((s, p) => s + p.bet.amount, 0);
  function snapshot() {
    S.undo.push(S.pending.filter((p) => !p.sending).map((p) => ({ bet: { ...p.bet } })));
    if (S.undo.length > UNDO_DEPTH) S.undo.shift();
  }
  function changed() {
    render();
    hooks.onChange && hooks.onChange();
  }
  function pickChip(amount) {
    S.chip = amount;
    renderChips();
  }
  function add(placement) {
    if (!isPlayer) return;
    if (!S.chip) return ctx.toast('info', ctx.t('bet.pick_chip'));
    if (S.status !== 'betting') ctx.toast('info', ctx.t('bet.next_round'));
    snapshot();
    const key = spotKey(placement);
    const same = S.pending.find((p) => !p.sending && spotKey(p.bet) === key);
    if (same) {
      same.bet = { ...same.bet, amount: same.bet.amount + S.chip };
      same.key = null;
    } else S.pending.push({ bet: { ...placement, amount: S.chip } });
    play('chip');
    changed();
  }
  // Undo takes back only chips not yet placed: a confirmed bet is the server's (RO 3, SB 3.1) and never staged again.
  function onUndo() {
    if (!S.undo.length || S.busy) return;
    S.pending = S.undo.pop();
    changed();
  }
  function onClear() {
    if (!S.pending.length || S.busy) return;
    snapshot();
    S.pending = [];
    changed();
  }
  function onRebet() {
    if (S.busy) return;
    if (!S.last.length) return ctx.toast('info', ctx.t('bet.nothing_to_rebet'));
    snapshot();
    S.pending = S.last.map((b) => ({ bet: { ...b } }));
    changed();
  }
  function onDouble() {
    if (S.busy) return;
    snapshot();
    if (S.pending.length) S.pending = S.pending.map((p) => ({ bet: { ...p.bet, amount: p.bet.amount * 2 } }));
    else if (S.placed.length) S.pending = S.placed.map((p) => ({ bet: { ...p.bet } }));
    else if (S.last.length) S.pending = S.last.map((b) => ({ bet: { ...b, amount: b.amount * 2 } }));
    else {
      S.undo.pop();
      return ctx.toast('info', ctx.t('bet.nothing_to_double'));
    }
    changed();
  }
  async function onConfirm() {
    if (!S.pending.length || S.busy || S.status !== 'betting') return;
    S.busy = true;
    render();
    let ok = 0;
    const failed = [];
    for (const p of [...S.pending]) {
      if (!S.pending.includes(p)) continue; // taken off at the bell meanwhile
      if (!p.key) {
        // A new command: a fresh key, and the player's seed as it is now (a resend under the same key sends the same
        // body, whatever the seed became meanwhile: the server refuses a key reused with another payload).
        p.key = globalThis.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
        p.seed = seedForBet(S.fair);
      }
      p.sending = true;
      try {
        const answer = await ctx.api('POST', `/tables/${tableId}/bets`, withSeed(p.bet, p.seed), { key: p.key });
        S.pending = S.pending.filter((x) => x !== p);
        if (!S.placed.some((x) => x.ref === answer.ref && x.round === answer.round)) S.placed.push({ ref: answer.ref, round: answer.round, bet: withSeed(answer.bet || p.bet, null) });
        ok += 1;
      } catch (err) {
        p.sending = false;
        if (err.status !== 0) p.key = null; // a refusal: a new attempt is a new command; a lost answer keeps its key
        failed.push(err);
        if (S.status !== 'betting' && S.pending.includes(p)) {
          S.pending = S.pending.filter((x) => x !== p); // refused at the bell: named with the others
          missed([p.bet]);
        }
      }
    }
    S.busy = false;
    S.undo = []; // what was confirmed is on the layout; undo starts again from here
    if (ok) ctx.toast('info', ctx.t('bet.placed', { count: ok }));
    if (failed.length) ctx.toast('error', ctx.errorText(failed[0]));
    if (ctx.refreshWallet) ctx.refreshWallet();
    changed();
  }

  // -- the bell: chips not confirmed are not bets ------------------------------------------------------------------------
  function missed(bets) {
    if (!bets.length) return;
    if (!S.unplaced || S.unplaced.round !== S.round) S.unplaced = { round: S.round, bets: [] };
    S.unplaced.bets.push(...bets.map((b) => ({ ...b })));
  }
  function bell() {
    if (!isPlayer) return;
    const idle = S.pending.filter((p) => !p.sending);
    S.pending = S.pending.filter((p) => p.sending); // a bet on its way is the server's to accept or refuse
    S.undo = [];
    missed(idle.map((p) => p.bet));
  }
  function dismissUnplaced() {
    S.unplaced = null;
    render();
  }

  // -- phase and countdown -----------------------------------------------------------------------------------------
  // At 0 with nothing heard, the server may have extended the window (no bet yet): re-read its view of the table,
  // a second after the bell time and then every few seconds while the clock still shows 0. No rule lives here.
  let heardAt = Date.now();
  let rereadAt = 0;
  function renderClock() {
    const left = S.status === 'betting' ? secondsUntil(S.deadline) : null;
    const now = Date.now();
    if (left === 0 && now - Date.parse(S.deadline) > STALE_MS && now - heardAt > STALE_MS && now - rereadAt > REREAD_MS) {
      rereadAt = now;
      refetch();
    }
    countdown.textContent = left === null ? '' : String(left);
    countdown.dataset.seconds = left === null ? '' : String(left);
    countdown.setAttribute('aria-label', left === null ? '' : ctx.t('table.seconds_left', { seconds: left, count: left }));
    countdown.hidden = left === null;
    countdown.classList.toggle('closing', left !== null && left <= WARN_SECONDS);
    const waiting = S.pending.filter((p) => !p.sending);
    const warn = isPlayer && left !== null && left <= WARN_SECONDS && waiting.length > 0;
    warning.hidden = !warn;
    if (warn) {
      warning.textContent = mt('unconfirmed', { count: waiting.length, amount: money(total(waiting)) });
      warning.dataset.count = String(waiting.length);
    }
    const next = S.moment && (S.status === 'settled' || S.status === 'voided') ? secondsUntil(S.deadline) : null;
    momentNext.hidden = next === null;
    momentNext.dataset.seconds = next === null ? '' : String(next);
    momentNext.textContent = next === null ? '' : mt('next_in', { count: next });
  }
  const clock = setInterval(renderClock, 250);

  function renderChips() {
    const list = chips();
    if (chipRack.dataset.faces !== list.join(',')) {
      chipRack.dataset.faces = list.join(',');
      const nodes = list.map((c) =>
        el('button', { type: 'button', class: 'chip', testid: `chip-${c}`, role: 'radio', 'data-amount': c, onclick: () => pickChip(c), text: amountText(c) }),
      );
      fill(chipRack, nodes);
      chipNav.set(nodes.map((node, i) => ({ key: String(list[i]), node, row: 0, col: i, amount: list[i] })));
    }
    chipRack.setAttribute('aria-label', ctx.t('bet.chips'));
    for (const node of chipRack.children) {
      const on = Number(node.dataset.amount) === S.chip;
      node.classList.toggle('on', on);
      node.setAttribute('aria-checked', on ? 'true' : 'false');
      node.setAttribute('aria-label', money(Number(node.dataset.amount)));
    }
    chipNav.select(String(S.chip));
  }

  function render() {
    phase.dataset.phase = S.status || '';
    phase.textContent = ctx.t(`phase.${S.status || 'waiting'}`);
    nomore.hidden = !S.noMoreBets;
    nomore.textContent = ctx.t('table.no_more_bets');
    renderClock();
    if (isPlayer) {
      renderChips();
      buttons.undo.textContent = ctx.t('bet.undo');
      buttons.clear.textContent = ctx.t('bet.clear');
      buttons.rebet.textContent = ctx.t('bet.rebet');
      buttons.double.textContent = ctx.t('bet.double');
      buttons['confirm-bets'].textContent = ctx.t('bet.confirm', { total: money(total(S.pending)) });
      buttons['confirm-bets'].dataset.total = String(total(S.pending));
      buttons.undo.disabled = !S.undo.length || S.busy;
      buttons.clear.disabled = !S.pending.length || S.busy;
      buttons['confirm-bets'].disabled = !S.pending.length || S.busy || S.status !== 'betting';
      const line = (p, cls) => el('li', { class: cls, 'data-bet': p.bet.type, 'data-key': spotKey(p.bet), 'data-amount': p.bet.amount }, `${hooks.describe(p.bet)} · ${money(p.bet.amount)}`);
      fill(
        slip,
        S.placed.length ? el('p', { class: 'slip-title', text: ctx.t('bet.on_layout', { total: money(total(S.placed)) }) }) : null,
        S.placed.length ? el('ul', { class: 'slip-list placed' }, S.placed.map((p) => line(p, 'placed'))) : null,
        S.pending.length ? el('p', { class: 'slip-title', text: ctx.t('bet.pending', { total: money(total(S.pending)) }) }) : null,
        S.pending.length ? el('ul', { class: 'slip-list pending' }, S.pending.map((p) => line(p, 'pending'))) : null,
        !S.placed.length && !S.pending.length ? el('p', { class: 'muted', text: ctx.t('bet.hint') }) : null,
      );
      renderHelp();
    }
    renderUnplaced();
    settlementBox.querySelector('.settlement-title').textContent = ctx.t('table.settlement');
    renderSettlement();
    renderMoment();
  }

  function renderHelp() {
    helpSummary.textContent = mt('help.title');
    const keys = [
      ['help.layout', {}],
      ['help.chips', { count: chips().length }],
      ['help.confirm', {}],
      ['help.undo', {}],
      ['help.rebet', {}],
      ['help.double', {}],
      ['help.clear', {}],
      ['help.escape', {}],
    ];
    fill(
      helpList,
      keys.map(([k, p]) => el('li', { text: mt(k, p) })),
    );
  }

  function renderUnplaced() {
    const u = S.unplaced;
    unplacedBox.hidden = !u;
    if (!u) return;
    unplacedBox.dataset.round = u.round || '';
    unplacedTitle.textContent = mt('unplaced.title', { count: u.bets.length, amount: money(u.bets.reduce((s, b) => s + b.amount, 0)) });
    fill(
      unplacedList,
      u.bets.map((b) => el('li', { 'data-bet': b.type, 'data-key': spotKey(b), 'data-amount': b.amount }, `${hooks.describe(b)} · ${money(b.amount)}`)),
    );
    unplacedDismiss.textContent = mt('unplaced.dismiss');
  }

  function settlementLines(s) {
    return s.lines.map((l) =>
      el('li', { class: l.net > 0 ? 'win' : l.net < 0 ? 'loss' : 'push', 'data-net': l.net, 'data-bet': l.bet.type }, el('span', { text: hooks.describe(l.bet) }), el('strong', { text: money(l.net, true) })),
    );
  }

  function renderSettlement() {
    const s = S.settlement;
    settlementBox.hidden = !s;
    if (!s) return fill(settlement);
    settlement.dataset.round = s.round || '';
    fill(settlement, settlementLines(s), el('li', { class: 'total', 'data-total': s.total }, el('span', { text: ctx.t('table.round_net') }), el('strong', { text: money(s.total, true) })));
  }

  // -- the result moment: on screen from the result until the next betting window opens ------------------------------
  function showMoment(round, outcome, animate) {
    if (!outcome || S.closedMoment === round) return;
    if (S.moment && S.moment.round === round) return;
    const motion = animate && !reducedMotion();
    S.moment = { round, outcome, node: hooks.drawOutcome(outcome, motion) };
    moment.dataset.motion = motion ? 'full' : 'reduced';
    fill(momentPicture, S.moment.node);
  }
  function hideMoment() {
    S.moment = null;
    fill(momentPicture);
  }
  function closeMoment() {
    if (S.moment) S.closedMoment = S.moment.round;
    hideMoment();
    render();
  }
  function renderMoment() {
    const m = S.moment;
    moment.hidden = !m;
    if (!m) return;
    moment.dataset.round = m.round || '';
    momentTitle.textContent = mt('moment.title');
    momentClose.setAttribute('aria-label', mt('moment.close'));
    momentWords.textContent = hooks.outcomeText(m.outcome);
    const s = S.settlement && S.settlement.round === m.round ? S.settlement : null;
    moment.dataset.net = s ? String(s.total) : '';
    if (!isPlayer) return fill(momentMine);
    if (!s) {
      const staked = S.placed.some((p) => p.round === m.round);
      return fill(momentMine, staked ? null : el('p', { class: 'muted', text: mt('moment.no_bet') }));
    }
    const head =
      s.total > 0
        ? el('p', { class: 'win-banner', testid: 'win-banner', 'data-amount': s.total, text: mt('moment.won', { amount: money(s.total) }) })
        : el('p', { class: `moment-net ${s.total < 0 ? 'loss' : ''}`, testid: 'moment-net', 'data-amount': s.total, text: s.total < 0 ? mt('moment.lost', { amount: money(-s.total) }) : mt('moment.even') });
    fill(momentMine, head, el('ol', { class: 'settlement moment-lines', 'aria-label': ctx.t('table.settlement') }, settlementLines(s)));
  }

  // -- the spots: names, tips, long press ------------------------------------------------------------------------------
  function spotLabel(bet) {
    const key = spotKey(bet);
    const placed = S.placed.filter((p) => spotKey(p.bet) === key).reduce((s, p) => s + p.bet.amount, 0);
    const pending = S.pending.filter((p) => spotKey(p.bet) === key).reduce((s, p) => s + p.bet.amount, 0);
    const parts = [hooks.describe(bet)];
    const pays = hooks.payout(bet);
    if (pays) parts.push(ctx.t('table.pays', { odds: pays }));
    if (placed + pending) parts.push(mt('spot.stake', { amount: money(placed + pending) }));
    if (pending) parts.push(mt('spot.pending', { amount: money(pending) }));
    return parts.join(' · ');
  }
  function showTip(bet) {
    S.tip = spotKey(bet);
    const pays = hooks.payout(bet);
    tip.textContent = pays ? `${hooks.describe(bet)} · ${ctx.t('table.pays', { odds: pays })}` : hooks.describe(bet);
    tip.dataset.key = S.tip;
    tip.classList.add('on');
    hooks.highlight && hooks.highlight(bet);
  }
  function hideTip(bet) {
    if (bet && S.tip !== spotKey(bet)) return;
    S.tip = null;
    tip.classList.remove('on');
    tip.dataset.key = '';
    tip.textContent = '';
    hooks.highlight && hooks.highlight(null);
  }
  /**
   * A spot of the layout: for a player a button (a click, Enter or Space lays the chip; hovering, focusing or holding
   * a touch shows its name, payout and what it covers), for anyone else a plain box.
   */
  function makeSpot(bet, attrs, ...children) {
    const mark = el('span', { class: 'chip-mark', hidden: true, 'aria-hidden': 'true' });
    if (!isPlayer) return el('div', { ...attrs, testid: 'spot', 'data-key': spotKey(bet) }, children, mark);
    const node = el('button', { ...attrs, type: 'button', testid: 'spot', 'data-key': spotKey(bet), tabindex: '-1', 'aria-label': spotLabel(bet) }, children, mark);
    let timer = null;
    let held = false;
    node.addEventListener('pointerenter', (ev) => ev.pointerType === 'mouse' && showTip(bet));
    node.addEventListener('pointerleave', (ev) => {
      clearTimeout(timer);
      if (ev.pointerType === 'mouse') hideTip(bet);
    });
    node.addEventListener('focus', () => showTip(bet));
    node.addEventListener('blur', () => hideTip(bet));
    node.addEventListener('pointerdown', (ev) => {
      if (ev.pointerType === 'mouse') return;
      held = false;
      clearTimeout(timer);
      timer = setTimeout(() => {
        held = true;
        showTip(bet);
      }, LONG_PRESS_MS);
    });
    node.addEventListener('pointerup', () => clearTimeout(timer));
    node.addEventListener('pointercancel', () => clearTimeout(timer));
    node.addEventListener('contextmenu', (ev) => ev.preventDefault()); // a long press shows the tip, not a menu
    node.addEventListener('click', () => {
      if (held) {
        held = false; // the long press showed the tip: no chip
        return;
      }
      add(bet);
    });
    return node;
  }
  /** Mark each spot ({bet, node}) with the player's chips on it and name it with the stake. */
  function markSpots(entries) {
    for (const { bet, node } of entries) {
      const key = spotKey(bet);
      const placed = S.placed.filter((p) => spotKey(p.bet) === key).reduce((s, p) => s + p.bet.amount, 0);
      const pending = S.pending.filter((p) => spotKey(p.bet) === key).reduce((s, p) => s + p.bet.amount, 0);
      const mark = node.querySelector('.chip-mark');
      const amount = placed + pending;
      mark.hidden = !amount;
      mark.textContent = amount ? amountText(amount) : '';
      mark.dataset.amount = String(amount);
      mark.classList.toggle('pending', pending > 0);
      node.classList.toggle('staked', amount > 0);
      if (isPlayer) node.setAttribute('aria-label', spotLabel(bet));
    }
  }

  // -- keyboard shortcuts (the page's help lists them; docs/browser-ui.md) ---------------------------------------------
  function onKey(ev) {
    if (!isPlayer || ev.defaultPrevented || ev.altKey || ev.metaKey) return;
    const t = ev.target;
    if (t && (t.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(t.tagName))) return;
    const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    if (ev.ctrlKey) {
      if (key === 'z') {
        ev.preventDefault();
        onUndo();
      }
      return;
    }
    const list = chips();
    if (/^[1-9]$/.test(key) && Number(key) <= list.length) pickChip(list[Number(key) - 1]);
    else if (key === 'c') onConfirm();
    else if (key === 'u') onUndo();
    else if (key === 'r') onRebet();
    else if (key === 'd') onDouble();
    else if (key === 'x') onClear();
    else if (key === 'Escape') {
      if (S.unplaced) dismissUnplaced();
      else if (S.moment) closeMoment();
      else return;
    } else return;
    ev.preventDefault();
  }
  document.addEventListener('keydown', onKey);

  // -- the player's bets of the round, recalled after a (re)connect ----------------------------------------------------
  async function recallMine(round) {
    if (!isPlayer || !round) return;
    try {
      const rounds = await ctx.api('GET', `/me/rounds?table=${encodeURIComponent(tableId)}&last=3`);
      const mine = rounds.find((r) => r.round === round);
      if (!mine || S.round !== round) return;
      for (const b of mine.bets) {
        if (b.kind !== 'bet' || S.placed.some((p) => p.ref === b.ref && p.round === round)) continue;
        S.placed.push({ ref: b.ref, round, bet: withSeed(b.bet, null) });
      }
      changed();
    } catch {
      /* the layout shows the pending bets anyway */
    }
  }

  function newRound(round) {
    if (S.placed.length) S.last = S.placed.map((p) => ({ ...p.bet }));
    S.placed = [];
    S.round = round;
    S.undo = [];
  }

  // A new betting window: the last result and the notice of missed chips go.
  function windowOpens() {
    S.unplaced = null;
    S.closedMoment = null;
    hideMoment();
  }

  // -- a round settled while the page was away (a reconnect, a reload in the result moment): its lines ---------------
  async function recallSettlement() {
    if (!isPlayer) return;
    try {
      const rounds = await ctx.api('GET', `/me/rounds?table=${encodeURIComponent(tableId)}&last=${RECALL_ROUNDS}`);
      const r = rounds.find((x) => x.status === 'settled' && x.bets.some((b) => b.kind === 'bet' && b.net !== null && b.net !== undefined));
      if (!r || (S.settlement && S.settlement.round === r.round)) return;
      const placed = r.bets.filter((b) => b.kind === 'bet' && b.net !== null && b.net !== undefined).map((b) => ({ ref: b.ref, round: r.round, bet: b.bet }));
      const nets = Object.fromEntries(r.bets.filter((b) => b.net !== null && b.net !== undefined).map((b) => [b.ref, b.net]));
      settle({ round: r.round, nets, players: { [me.username]: r.net } }, placed);
      changed();
    } catch {
      /* the recall panel lists the rounds anyway */
    }
  }

  function update(view) {
    if (!view) return;
    heardAt = Date.now();
    const missedRounds = !!(view.round && S.round && view.round !== S.round); // rounds went by unseen (a reconnect)
    const ended = view.status === 'settled' || view.status === 'voided';
    const unseenEnd = ended && !missedRounds && S.status !== view.status; // its `settled` or `void` was missed
    if (S.status === 'betting' && (view.status !== 'betting' || missedRounds)) bell();
    if (view.round && view.round !== S.round) newRound(view.round);
    S.status = view.status;
    S.deadline = view.deadline;
    S.noMoreBets = view.status === 'playing';
    S.view = view.view || null;
    S.fair = view.fair || null;
    if (view.status === 'betting') windowOpens();
    const outcome = view.view && view.view.outcome;
    if (ended && outcome) {
      showMoment(view.round, outcome, false); // the result moment, shown again after a reload or a reconnect
      if (isPlayer && !(S.settlement && S.settlement.round === view.round)) recallSettlement();
    }
    recallMine(view.round);
    changed();
    if (missedRounds || unseenEnd) {
      recallSettlement();
      if (hooks.onMissed) hooks.onMissed();
    }
  }

  function settle(e, placed = S.placed) {
    const rank = hooks.rank || (() => 0);
    const mine = placed.filter((p) => p.round === e.round && e.nets && p.ref in e.nets);
    const lines = mine.map((p, i) => ({ bet: p.bet, net: e.nets[p.ref], i }));
    // RO 5 / SB 4: the losing bets are taken first, then the winners are paid in the table's order.
    const losers = lines.filter((l) => l.net < 0);
    const others = lines.filter((l) => l.net >= 0).sort((a, b) => rank(a.bet) - rank(b.bet) || a.i - b.i);
    if (lines.length) {
      S.settlement = { round: e.round, lines: [...losers, ...others], total: e.players && me.username in e.players ? e.players[me.username] : lines.reduce((s, l) => s + l.net, 0) };
    }
    return lines.length ? S.settlement : null;
  }

  function event(e) {
    heardAt = Date.now();
    switch (e.type) {
      case 'betting_open':
        if (e.round !== S.round) newRound(e.round);
        S.fair = e.fair || null;
        S.status = 'betting';
        S.deadline = e.closes_at || null;
        S.noMoreBets = false;
        windowOpens();
        break;
      case 'betting_closed':
        bell();
        S.status = 'playing';
        S.deadline = null;
        S.noMoreBets = true;
        play('bell');
        break;
      case 'bet_placed':
        if (isPlayer && e.player === me.username && !S.placed.some((p) => p.ref === e.ref && p.round === e.round)) {
          S.placed.push({ ref: e.ref, round: e.round, bet: withSeed(e.bet, null) });
          if (ctx.refreshWallet) ctx.refreshWallet(); // placed from another device: the wallet moved
        }
        break;
      case 'result':
        if (hooks.resultSound) play(hooks.resultSound);
        showMoment(e.round || S.round, e.outcome, true);
        hooks.onResult && hooks.onResult(e.outcome, e);
        break;
      case 'settled': {
        S.status = 'settled';
        S.noMoreBets = false;
        const mine = settle(e);
        if (mine && isPlayer) play(mine.total > 0 ? 'win' : mine.total < 0 ? 'lose' : 'chip');
        hooks.onSettled && hooks.onSettled(e);
        refetch(); // the next window's opening (the result moment's deadline)
        break;
      }
      case 'void':
        S.status = 'voided';
        S.noMoreBets = false;
        hideMoment();
        ctx.toast('info', ctx.t('table.round_void', { reason: e.reason || '', rule: e.rule || '' }));
        S.placed = [];
        refetch();
        break;
      case 'void_result':
        ctx.toast('info', ctx.t(hooks.module === 'sicbo' ? 'sicbo.void_roll' : 'roulette.void_spin', { rule: e.rule || '' }));
        refetch();
        break;
      case 'recovered':
        refetch();
        break;
      default:
        return;
    }
    changed();
  }

  async function refetch() {
    try {
      update(await ctx.api('GET', `/tables/${tableId}`));
    } catch {
      /* the next event tells */
    }
  }

  render();
  return {
    S,
    statusBar,
    controls,
    slipBox,
    settlementBox,
    moment,
    tip,
    add,
    render,
    update,
    event,
    isPlayer,
    makeSpot,
    markSpots,
    /** Hide the spot tip (the layout is drawn again). */
    clearTip: () => hideTip(null),
    spotLabel,
    /** What the player has on a spot: {placed, pending}. */
    stakeOn(key) {
      const sum = (list) => list.filter((p) => spotKey(p.bet) === key).reduce((s, p) => s + p.bet.amount, 0);
      return { placed: sum(S.placed), pending: sum(S.pending) };
    },
    unmount() {
      clearInterval(clock);
      document.removeEventListener('keydown', onKey);
    },
  };
}

/**
 * What roulette and sic bo both do once mounted: redraw on a language switch, load the table's rules when app.js
 * did not pass them (`setRules` keeps them), then draw and load the history.
 */
export function startTable(ctx, rules, { setRules, renderAll, loadHistory }) {
  ctx.onLanguage(renderAll);
  (async () => {
    if (!rules) {
      try {
        setRules(await ctx.api('GET', `/tables/${ctx.table.table}/rules`));
      } catch (err) {
        ctx.toast('error', ctx.errorText ? ctx.errorText(err) : err.detail);
      }
    }
    renderAll();
    loadHistory();
  })();
  renderAll();
}

/**
 * The handle a roulette or sic bo module gives app.js: the wager follows every view and event, `onOutcome(outcome,
 * view)` sees a view's outcome, and unmounting runs `cleanups` and empties `root`.
 */
export function tableHandle(wager, root, onOutcome, cleanups = []) {
  return {
    update(view) {
      wager.update(view);
      const out = view && view.view && view.view.outcome;
      if (out) onOutcome(out, view);
    },
    event(e) {
      wager.event(e);
    },
    unmount() {
      wager.unmount();
      cleanups.forEach((f) => f());
      root.replaceChildren();
    },
  };
}
