// The single-zero roulette layout (RO 6): 0 and 1–36 in three columns of twelve rows, with a spot for every bet the
// table publishes (GET /api/tables/{id}/rules): straight on a number; split, corner and street (0-1-2, 0-2-3)
// between numbers; street and six-line on the left edge; columns, dozens, the even-money bets, the nine-number
// blocks and the two twelve-number sets below. The server checks every placement; the page only proposes it.

import { el, fill, money, odds } from './dom.js';
import { createWager, spotKey, startTable, tableHandle } from './wager.js';

const HISTORY = 100;
const STRIP = 20;
const G = 12; // % of the board's width: the left edge where streets and six-lines lie
const CW = (100 - G) / 3; // a column's width, %
const RH = 100 / 13; // a row's height, % (the zero row and twelve rows)

const numberAt = (r, c) => 3 * r + c + 1; // row r (0-11), column c (0-2)

export function mount(root, ctx) {
  const tableId = ctx.table.table;
  let rules = ctx.rules;
  let history = null;
  let lastPocket = null;
  const spots = new Map(); // spotKey → element
  const bag = [];

  const kinds = () => new Set(((rules && rules.bets) || []).map((b) => b.kind));
  const payRank = () => Object.fromEntries(((rules && rules.bets) || []).map((b) => [b.kind, b.pay_rank ?? 0]));
  const layout = () => (rules && rules.layout) || {};
  const red = () => new Set(layout().red || []);
  const colourOf = (n) => (n === 0 ? 'green' : red().has(n) ? 'red' : 'black');

  function describe(bet) {
    const name = ctx.t(`roulette.bet.${bet.type}`);
    if (bet.type === 'dozen') return ctx.t('roulette.dozen_n', { n: bet.index });
    if (bet.type === 'column') return ctx.t('roulette.column_n', { n: bet.index });
    if (bet.type === 'twelve_special') return ctx.t('roulette.twelve_set', { set: bet.index === 1 ? 'A' : 'B' });
    if (bet.numbers && bet.numbers.length) return `${name} ${[...bet.numbers].sort((a, b) => a - b).join('-')}`;
    return name;
  }

  const wager = createWager(ctx, {
    module: 'roulette',
    describe,
    rank: (bet) => payRank()[bet.type] ?? 0,
    onChange: markSpots,
    onResult(outcome) {
      if (outcome && typeof outcome.pocket === 'number') {
        lastPocket = outcome.pocket;
        renderWinning(true);
      }
    },
    onSettled() {
      loadHistory();
    },
    onMissed() {
      lastPocket = null; // the last result is the history's newest
      loadHistory();
    },
  });

  // -- elements ------------------------------------------------------------------------------------------------------
  const board = el('div', { class: 'ro-board', role: 'group' });
  const outside = el('div', { class: 'ro-outside' });
  const winning = el('div', { class: 'winning-number', testid: 'winning-number', 'aria-live': 'polite' });
  const strip = el('ol', { class: 'last-results ro-strip', testid: 'last-results' });
  const hotCold = el('div', { class: 'hot-cold', testid: 'hot-cold' });
  const stripTitle = el('h3');
  const hotTitle = el('h3');
  const historyBox = el('section', { class: 'history card' }, stripTitle, strip, hotTitle, hotCold);
  fill(
    root,
    el(
      'div',
      { class: 'wager-table roulette' },
      el('div', { class: 'wager-main' }, wager.statusBar, el('div', { class: 'ro-layout' }, board, outside), wager.controls, wager.slipBox),
      el('div', { class: 'wager-side' }, winning, wager.settlementBox, historyBox),
    ),
  );

  // -- spots -----------------------------------------------------------------------------------------------------------
  function spot(bet, { cls = '', style = '', label = '', aria = '' } = {}) {
    const numbers = bet.numbers || numbersOf(bet);
    const node = el(
      'button',
      {
        type: 'button',
        class: `spot ${cls}`,
        testid: 'spot',
        'data-bet': bet.type,
        'data-numbers': numbers.length ? [...numbers].sort((a, b) => a - b).join(',') : null,
        'data-index': bet.index ?? null,
        style,
        'aria-label': aria || describe(bet),
        onclick: () => wager.add(bet),
      },
      label ? el('span', { class: 'spot-label', text: label }) : null,
      el('span', { class: 'chip-mark', hidden: true }),
    );
    spots.set(spotKey(bet), node);
    return node;
  }

  function numbersOf(bet) {
    const L = layout();
    const at = (list, i) => (list && list[i - 1]) || [];
    if (bet.type === 'column') return at(L.columns, bet.index);
    if (bet.type === 'dozen') return at(L.dozens, bet.index);
    if (bet.type === 'twelve_special') return at(L.twelve_special, bet.index);
    if (L.sets && L.sets[bet.type]) return L.sets[bet.type];
    return [];
  }

  const box = (x, y, w, h) => `left:${x}%;top:${y}%;width:${w}%;height:${h}%`;
  const centred = (cx, cy, w, h) => box(cx - w / 2, cy - h / 2, w, h);

  function renderBoard() {
    spots.clear();
    const k = kinds();
    const items = [];
    board.setAttribute('aria-label', ctx.t('roulette.layout'));
    // Zero, then every number (straight).
    if (k.has('straight')) {
      items.push(spot({ type: 'straight', numbers: [0] }, { cls: 'num green zero', style: box(G, 0, 100 - G, RH), label: '0' }));
      for (let r = 0; r < 12; r++) {
        for (let c = 0; c < 3; c++) {
          const n = numberAt(r, c);
          items.push(spot({ type: 'straight', numbers: [n] }, { cls: `num ${colourOf(n)}`, style: box(G + c * CW, (r + 1) * RH, CW, RH), label: String(n) }));
        }
      }
    }
    // Between numbers.
    const SW = 6; // width of a zone across a vertical line, %
    const SH = 2.6; // height of a zone across a horizontal line, %
    for (let r = 0; r < 12; r++) {
      const top = (r + 1) * RH;
      for (let c = 0; c < 3; c++) {
        const n = numberAt(r, c);
        if (k.has('split') && c < 2) items.push(spot({ type: 'split', numbers: [n, n + 1] }, { cls: 'zone vline', style: centred(G + (c + 1) * CW, top + RH / 2, SW, RH * 0.55) }));
        if (k.has('split') && r < 11) items.push(spot({ type: 'split', numbers: [n, n + 3] }, { cls: 'zone hline', style: centred(G + (c + 0.5) * CW, top + RH, CW * 0.6, SH) }));
        if (k.has('corner') && c < 2 && r < 11) items.push(spot({ type: 'corner', numbers: [n, n + 1, n + 3, n + 4] }, { cls: 'zone dot', style: centred(G + (c + 1) * CW, top + RH, SW, SH) }));
      }
      if (k.has('street')) items.push(spot({ type: 'street', numbers: [numberAt(r, 0), numberAt(r, 1), numberAt(r, 2)] }, { cls: 'zone edge', style: centred(G / 2, top + RH / 2, G * 0.8, RH * 0.55) }));
      if (k.has('six_line') && r < 11) items.push(spot({ type: 'six_line', numbers: [0, 1, 2, 3, 4, 5].map((i) => numberAt(r, 0) + i) }, { cls: 'zone edge dot', style: centred(G / 2, top + RH, G * 0.8, SH) }));
    }
    // Zero with the first row: splits 0-1, 0-2, 0-3; streets 0-1-2, 0-2-3; the corner 0-1-2-3.
    for (let c = 0; c < 3; c++) {
      if (k.has('split')) items.push(spot({ type: 'split', numbers: [0, c + 1] }, { cls: 'zone hline', style: centred(G + (c + 0.5) * CW, RH, CW * 0.6, SH) }));
    }
    if (k.has('street')) {
      items.push(spot({ type: 'street', numbers: [0, 1, 2] }, { cls: 'zone dot', style: centred(G + CW, RH, SW, SH) }));
      items.push(spot({ type: 'street', numbers: [0, 2, 3] }, { cls: 'zone dot', style: centred(G + 2 * CW, RH, SW, SH) }));
    }
    if (k.has('corner')) items.push(spot({ type: 'corner', numbers: [0, 1, 2, 3] }, { cls: 'zone edge dot', style: centred(G / 2, RH, G * 0.8, SH) }));
    fill(board, items);
    renderOutside();
    markSpots();
  }

  function renderOutside() {
    const k = kinds();
    const pay = (kind) => {
      const b = ((rules && rules.bets) || []).find((x) => x.kind === kind);
      return b ? odds(b.payout) : '';
    };
    const rows = [];
    if (k.has('column')) {
      rows.push(el('div', { class: 'ro-row cols3' }, [1, 2, 3].map((i) => spot({ type: 'column', index: i }, { cls: 'out', label: ctx.t('roulette.column_short', { n: i, pays: pay('column') }) }))));
    }
    if (k.has('dozen')) rows.push(el('div', { class: 'ro-row cols3' }, [1, 2, 3].map((i) => spot({ type: 'dozen', index: i }, { cls: 'out', label: range(numbersOf({ type: 'dozen', index: i })) || String(i) }))));
    const even = ['low', 'even', 'red', 'black', 'odd', 'high'].filter((x) => k.has(x));
    if (even.length) rows.push(el('div', { class: 'ro-row cols6' }, even.map((x) => spot({ type: x }, { cls: `out even-money ${x}`, label: ctx.t(`roulette.bet.${x}`) }))));
    if (k.has('twelve_special')) {
      rows.push(el('div', { class: 'ro-row cols2' }, [1, 2].map((i) => spot({ type: 'twelve_special', index: i }, { cls: 'out', label: ctx.t('roulette.twelve_set', { set: i === 1 ? 'A' : 'B' }) }))));
    }
    const blocks = layout().nine_number_blocks || [];
    if (k.has('nine') && blocks.length) {
      rows.push(el('p', { class: 'ro-row-title', text: `${ctx.t('roulette.bet.nine')} · ${pay('nine')}` }));
      rows.push(el('div', { class: 'ro-row cols5' }, blocks.map((b) => spot({ type: 'nine', numbers: b }, { cls: 'out small', label: range(b) }))));
    }
    fill(outside, rows);
  }

  function range(numbers) {
    const s = [...numbers].sort((a, b) => a - b);
    const contiguous = s.every((n, i) => i === 0 || n === s[i - 1] + 1);
    return contiguous ? `${s[0]}–${s[s.length - 1]}` : s.join(' ');
  }

  function markSpots() {
    for (const [key, node] of spots) {
      const { placed, pending } = wager.stakeOn(key);
      const mark = node.querySelector('.chip-mark');
      const amount = placed + pending;
      mark.hidden = !amount;
      mark.textContent = amount ? money(amount) : '';
      mark.classList.toggle('pending', pending > 0);
      node.classList.toggle('staked', amount > 0);
    }
    for (const node of board.querySelectorAll('.num')) node.classList.toggle('win', lastPocket !== null && node.dataset.numbers === String(lastPocket));
  }

  // -- the winning number and the history --------------------------------------------------------------------------------
  function renderWinning(fresh = false) {
    if (lastPocket === null) {
      fill(winning, el('span', { class: 'muted', text: ctx.t('roulette.no_result_yet') }));
      winning.dataset.number = '';
      return;
    }
    winning.dataset.number = String(lastPocket);
    winning.dataset.colour = colourOf(lastPocket);
    fill(winning, el('span', { class: 'label', text: ctx.t('roulette.winning_number') }), el('span', { class: `pocket big ${colourOf(lastPocket)}`, text: String(lastPocket) }), el('span', { class: 'colour', text: ctx.t(`roulette.colour.${colourOf(lastPocket)}`) }));
    winning.classList.toggle('fresh', fresh);
    markSpots();
  }

  function renderHistory() {
    stripTitle.textContent = ctx.t('table.last_results');
    hotTitle.textContent = ctx.t('roulette.hot_cold');
    const results = (history && history.results) || [];
    fill(
      strip,
      results.length
        ? results.slice(0, STRIP).map((r) => el('li', { class: `pocket ${r.colour}`, 'data-number': r.pocket, 'data-round': r.round, text: r.pocket }))
        : el('li', { class: 'muted', text: ctx.t('table.no_results') }),
    );
    const stats = history && history.stats;
    if (!stats || !stats.count) {
      fill(hotCold);
      return;
    }
    const pockets = (list) => list.map((n) => el('span', { class: `pocket ${colourOf(n)}`, 'data-number': n, title: ctx.t('roulette.times', { count: stats.numbers[String(n)] || 0 }), text: n }));
    fill(
      hotCold,
      el('p', { class: 'stat-line' }, el('span', { class: 'stat-label', text: ctx.t('roulette.hot') }), el('span', { class: 'hot', 'data-numbers': stats.hot.join(',') }, pockets(stats.hot))),
      el('p', { class: 'stat-line' }, el('span', { class: 'stat-label', text: ctx.t('roulette.cold') }), el('span', { class: 'cold', 'data-numbers': stats.cold.join(',') }, pockets(stats.cold))),
      el(
        'p',
        { class: 'stat-line small' },
        ctx.t('roulette.colour_share', { red: stats.colour_pct.red, black: stats.colour_pct.black, green: stats.colour_pct.green, count: stats.count }),
      ),
    );
  }

  async function loadHistory() {
    try {
      history = await ctx.api('GET', `/tables/${tableId}/history?last=${HISTORY}`);
      if (lastPocket === null && history.results.length) lastPocket = history.results[0].pocket;
    } catch {
      history = null;
    }
    renderHistory();
    renderWinning();
  }

  function renderAll() {
    renderBoard();
    wager.render();
    renderHistory();
    renderWinning();
  }

  startTable(ctx, rules, { setRules: (r) => { rules = r; }, renderAll, loadHistory });

  return tableHandle(
    wager,
    root,
    (out, view) => {
      if (typeof out.pocket === 'number') {
        lastPocket = out.pocket;
        renderWinning();
      }
    },
    bag,
  );
}
