// What roulette and sic bo share: the phase and countdown, the chip rack, the bet slip (pending bets, undo, clear,
// rebet, double, confirm), the player's bets of the round and the settlement lines. The layout itself is the game
// module's. Every bet is checked by the server; the page only proposes.

import { el, fill, money, secondsUntil } from './dom.js';

const CHIP_FACES = [1, 5, 10, 25, 100, 500, 1000, 5000];
const MAX_CHIPS = 7;
const STALE_MS = 1000; // the countdown at 0 this long with no news: re-read the table
const REREAD_MS = 3000; // and at most this often while it stays at 0
const RECALL_ROUNDS = 5;

/** The identity of a placement (its kind and where it lies), whatever its amount. */
export function spotKey(bet) {
  const where = bet.numbers ? [...bet.numbers].sort((a, b) => a - b).join(',') : bet.index ?? bet.face ?? bet.total ?? '';
  return `${bet.type}:${where}`;
}

/**
 * createWager(ctx, {module, describe(bet), onChange(), onResult(outcome), onSettled()}) → the shared machinery.
 * `describe(bet)` names a placement ("split 17-20"), `onChange()` re-marks the layout.
 */
export function createWager(ctx, hooks) {
  const me = ctx.me || {};
  const isPlayer = me.role === 'player';
  const tableId = ctx.table.table;
  const S = {
    status: ctx.table.status,
    deadline: ctx.table.deadline,
    round: ctx.table.round,
    chip: null,
    pending: [], // {bet, key?}: not yet sent
    placed: [], // {ref, bet}: held by the server this round
    last: [], // the bets of the previous round (rebet)
    undo: [],
    busy: false,
    settlement: null, // {round, lines: [{bet, net}], total}
    noMoreBets: false,
    view: null,
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
  const statusBar = el('div', { class: 'status-bar' }, phase, countdown, nomore);
  const chipRack = el('div', { class: 'chips', role: 'radiogroup' });
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
  const controls = isPlayer ? el('div', { class: 'bet-controls' }, chipRack, actionBar) : el('div', { class: 'bet-controls watching' });
  const slipBox = isPlayer ? slip : el('div', { class: 'slip watching' });

  // -- the slip -------------------------------------------------------------------------------------------------------
  const total = (list) => list.reduce((s, p) => s + p.bet.amount, 0);
  function snapshot() {
    S.undo.push(S.pending.map((p) => ({ bet: { ...p.bet } })));
    if (S.undo.length > 50) S.undo.shift();
  }
  function changed() {
    render();
    hooks.onChange && hooks.onChange();
  }
  function add(placement) {
    if (!isPlayer) return;
    if (!S.chip) return ctx.toast('info', ctx.t('bet.pick_chip'));
    if (S.status !== 'betting') ctx.toast('info', ctx.t('bet.next_round'));
    snapshot();
    const key = spotKey(placement);
    const same = S.pending.find((p) => spotKey(p.bet) === key);
    if (same) {
      same.bet = { ...same.bet, amount: same.bet.amount + S.chip };
      same.key = null;
    } else S.pending.push({ bet: { ...placement, amount: S.chip } });
    changed();
  }
  function onUndo() {
    if (!S.undo.length) return;
    S.pending = S.undo.pop();
    changed();
  }
  function onClear() {
    if (!S.pending.length) return;
    snapshot();
    S.pending = [];
    changed();
  }
  function onRebet() {
    if (!S.last.length) return ctx.toast('info', ctx.t('bet.nothing_to_rebet'));
    snapshot();
    S.pending = S.last.map((b) => ({ bet: { ...b } }));
    changed();
  }
  function onDouble() {
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
    if (!S.pending.length || S.busy) return;
    S.busy = true;
    render();
    let ok = 0;
    const failed = [];
    for (const p of [...S.pending]) {
      p.key = p.key || (globalThis.crypto && crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`);
      try {
        const answer = await ctx.api('POST', `/tables/${tableId}/bets`, p.bet, { key: p.key });
        S.pending = S.pending.filter((x) => x !== p);
        if (!S.placed.some((x) => x.ref === answer.ref && x.round === answer.round)) S.placed.push({ ref: answer.ref, round: answer.round, bet: answer.bet || p.bet });
        ok += 1;
      } catch (err) {
        if (err.status !== 0) p.key = null; // a refusal: a new attempt is a new command; a lost answer keeps its key
        failed.push(err);
      }
    }
    S.busy = false;
    if (ok) ctx.toast('info', ctx.t('bet.placed', { count: ok }));
    if (failed.length) ctx.toast('error', ctx.errorText(failed[0]));
    if (ctx.refreshWallet) ctx.refreshWallet();
    changed();
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
    countdown.setAttribute('aria-label', left === null ? '' : ctx.t('table.seconds_left', { seconds: left }));
    countdown.hidden = left === null;
  }
  const clock = setInterval(renderClock, 250);

  function render() {
    phase.dataset.phase = S.status || '';
    phase.textContent = ctx.t(`phase.${S.status || 'waiting'}`);
    nomore.hidden = !S.noMoreBets;
    nomore.textContent = ctx.t('table.no_more_bets');
    renderClock();
    chipRack.setAttribute('aria-label', ctx.t('bet.chips'));
    fill(
      chipRack,
      chips().map((c) =>
        el('button', {
          type: 'button',
          class: `chip${S.chip === c ? ' on' : ''}`,
          testid: `chip-${c}`,
          role: 'radio',
          'aria-checked': S.chip === c ? 'true' : 'false',
          'data-amount': c,
          onclick: () => {
            S.chip = c;
            render();
          },
          text: c,
        }),
      ),
    );
    buttons.undo.textContent = ctx.t('bet.undo');
    buttons.clear.textContent = ctx.t('bet.clear');
    buttons.rebet.textContent = ctx.t('bet.rebet');
    buttons.double.textContent = ctx.t('bet.double');
    buttons['confirm-bets'].textContent = ctx.t('bet.confirm', { total: total(S.pending) });
    buttons['confirm-bets'].dataset.total = String(total(S.pending));
    buttons.undo.disabled = !S.undo.length || S.busy;
    buttons.clear.disabled = !S.pending.length || S.busy;
    buttons['confirm-bets'].disabled = !S.pending.length || S.busy;
    const line = (p, cls) => el('li', { class: cls, 'data-bet': p.bet.type }, `${hooks.describe(p.bet)} · ${money(p.bet.amount)}`);
    fill(
      slip,
      S.placed.length ? el('p', { class: 'slip-title', text: ctx.t('bet.on_layout', { total: total(S.placed) }) }) : null,
      S.placed.length ? el('ul', { class: 'slip-list placed' }, S.placed.map((p) => line(p, 'placed'))) : null,
      S.pending.length ? el('p', { class: 'slip-title', text: ctx.t('bet.pending', { total: total(S.pending) }) }) : null,
      S.pending.length ? el('ul', { class: 'slip-list pending' }, S.pending.map((p) => line(p, 'pending'))) : null,
      !S.placed.length && !S.pending.length ? el('p', { class: 'muted', text: ctx.t('bet.hint') }) : null,
    );
    settlementBox.querySelector('.settlement-title').textContent = ctx.t('table.settlement');
    renderSettlement();
  }

  function renderSettlement() {
    const s = S.settlement;
    settlementBox.hidden = !s;
    if (!s) return fill(settlement);
    settlement.dataset.round = s.round || '';
    fill(
      settlement,
      s.lines.map((l) =>
        el('li', { class: l.net > 0 ? 'win' : l.net < 0 ? 'loss' : 'push', 'data-net': l.net, 'data-bet': l.bet.type }, el('span', { text: hooks.describe(l.bet) }), el('strong', { text: money(l.net, true) })),
      ),
      el('li', { class: 'total', 'data-total': s.total }, el('span', { text: ctx.t('table.round_net') }), el('strong', { text: money(s.total, true) })),
    );
  }

  // -- the player's bets of the round, recalled after a (re)connect ----------------------------------------------------
  async function recallMine(round) {
    if (!isPlayer || !round) return;
    try {
      const rounds = await ctx.api('GET', `/me/rounds?table=${encodeURIComponent(tableId)}&last=3`);
      const mine = rounds.find((r) => r.round === round);
      if (!mine || S.round !== round) return;
      for (const b of mine.bets) {
        if (b.kind !== 'bet' || S.placed.some((p) => p.ref === b.ref && p.round === round)) continue;
        S.placed.push({ ref: b.ref, round, bet: b.bet });
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
  }

  // -- a round settled while the page was away (a reconnect): its lines from the player's own rounds ---------------
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
    const missed = !!(view.round && S.round && view.round !== S.round); // rounds went by unseen (a reconnect)
    if (view.round && view.round !== S.round) newRound(view.round);
    S.status = view.status;
    S.deadline = view.deadline;
    S.noMoreBets = view.status === 'playing';
    S.view = view.view || null;
    recallMine(view.round);
    changed();
    if (missed) recallSettlement();
    if (missed && hooks.onMissed) hooks.onMissed();
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
  }

  function event(e) {
    heardAt = Date.now();
    switch (e.type) {
      case 'betting_open':
        if (e.round !== S.round) newRound(e.round);
        S.status = 'betting';
        S.deadline = e.closes_at || null;
        S.noMoreBets = false;
        break;
      case 'betting_closed':
        S.status = 'playing';
        S.deadline = null;
        S.noMoreBets = true;
        break;
      case 'bet_placed':
        if (isPlayer && e.player === me.username && !S.placed.some((p) => p.ref === e.ref && p.round === e.round)) {
          S.placed.push({ ref: e.ref, round: e.round, bet: e.bet });
          if (ctx.refreshWallet) ctx.refreshWallet(); // placed from another device: the wallet moved
        }
        break;
      case 'result':
        hooks.onResult && hooks.onResult(e.outcome, e);
        break;
      case 'settled':
        S.status = 'settled';
        S.noMoreBets = false;
        settle(e);
        hooks.onSettled && hooks.onSettled(e);
        break;
      case 'void':
        S.status = 'voided';
        S.noMoreBets = false;
        ctx.toast('info', ctx.t('table.round_void', { reason: e.reason || '', rule: e.rule || '' }));
        S.placed = [];
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
    add,
    render,
    update,
    event,
    isPlayer,
    /** What the player has on a spot: {placed, pending}. */
    stakeOn(key) {
      const sum = (list) => list.filter((p) => spotKey(p.bet) === key).reduce((s, p) => s + p.bet.amount, 0);
      return { placed: sum(S.placed), pending: sum(S.pending) };
    },
    unmount() {
      clearInterval(clock);
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
