// The single-zero roulette layout (RO 6): 0 and 1–36 in three columns of twelve rows, with a spot for every bet the
// table publishes (GET /api/tables/{id}/rules): straight on a number; split, corner and street (0-1-2, 0-2-3)
// between numbers; street and six-line on the left edge; columns, dozens, the even-money bets, the nine-number
// blocks and the two twelve-number sets below. The server checks every placement; the page only proposes it.
// The layout is one tab stop (arrow keys move between spots); the result moment spins a wheel drawn from the
// table's own wheel order; the history boards show the server's statistics (GET /api/tables/{id}/history).

import { el, fill, odds } from './dom.js';
import { createWager, roving, startTable, tableHandle } from './wager.js';

const HISTORY = 100;
const STRIP = 20;
const G = 12; // % of the board's width: the left edge where streets and six-lines lie
const CW = (100 - G) / 3; // a column's width, %
const RH = 100 / 13; // a row's height, % (the zero row and twelve rows)
const SPIN_MS = 2400; // the wheel's spin in the result moment
const SPIN_TURNS = 3;
const OUTSIDE_ROW = 30; // keyboard rows below the board's (0–24)
const NAV_WIDTH = 6; // the keyboard grid's width: the edge, three numbers and the lines between them

const numberAt = (r, c) => 3 * r + c + 1; // row r (0-11), column c (0-2)

export function mount(root, ctx) {
  const tableId = ctx.table.table;
  let rules = ctx.rules;
  let history = null;
  let lastPocket = null;
  const spots = []; // {bet, node, key, row, col}

  const kinds = () => new Set(((rules && rules.bets) || []).map((b) => b.kind));
  const betOf = (kind) => ((rules && rules.bets) || []).find((b) => b.kind === kind) || null;
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

  const payout = (bet) => (betOf(bet.type) ? odds(betOf(bet.type).payout) : '');

  const wager = createWager(ctx, {
    module: 'roulette',
    describe,
    payout,
    highlight,
    resultSound: 'spin',
    drawOutcome: drawWheel,
    outcomeText: (out) => (typeof out.pocket === 'number' ? ctx.t('roulette.outcome', { number: out.pocket, colour: ctx.t(`roulette.colour.${colourOf(out.pocket)}`) }) : ''),
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
  const board = el('div', { class: 'ro-board' });
  const outside = el('div', { class: 'ro-outside' });
  const layoutBox = el('div', { class: 'ro-layout', role: 'group' }, wager.isPlayer ? wager.tip : null, board, outside);
  const nav = wager.isPlayer ? roving(layoutBox) : null;
  const winning = el('div', { class: 'winning-number', testid: 'winning-number', 'aria-live': 'polite' });
  const strip = el('ol', { class: 'last-results ro-strip', testid: 'last-results' });
  const hotCold = el('div', { class: 'hot-cold', testid: 'hot-cold' });
  const statsBox = el('div', { class: 'ro-stats', testid: 'roulette-stats' });
  const stripTitle = el('h3');
  const hotTitle = el('h3');
  const statsTitle = el('h3');
  const historyBox = el('section', { class: 'history card' }, stripTitle, strip, hotTitle, hotCold, statsTitle, statsBox);
  fill(
    root,
    el(
      'div',
      { class: `wager-table roulette${wager.isPlayer ? '' : ' watching'}` },
      el('div', { class: 'wager-main' }, wager.statusBar, layoutBox, wager.controls, wager.slipBox),
      el('div', { class: 'wager-side' }, wager.moment, winning, wager.settlementBox, historyBox),
    ),
  );

  // -- spots -----------------------------------------------------------------------------------------------------------
  function spot(bet, { cls = '', style = '', label = '', row = 0, col = 0 } = {}) {
    const numbers = bet.numbers || numbersOf(bet);
    const node = wager.makeSpot(
      bet,
      {
        class: `spot ${cls}`,
        'data-bet': bet.type,
        'data-numbers': numbers.length ? [...numbers].sort((a, b) => a - b).join(',') : null,
        'data-index': bet.index ?? null,
        style,
      },
      label ? el('span', { class: 'spot-label', text: label }) : null,
    );
    spots.push({ bet, node, key: node.dataset.key, row, col });
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
  // A zone between numbers is placed by its centre (wager.css centres it and, on a phone, makes it at least 32 px).
  const centred = (cx, cy, w, h) => box(cx, cy, w, h);
  // The keyboard grid: row 0 the zero, 1 the line under it, 2r+2 the numbers of row r and 2r+3 the line under them;
  // columns 0.5 the left edge, 1.5 + 2c the numbers of column c and 2.5 + 2c the line to their right.
  const numCol = (c) => 1.5 + 2 * c;

  function renderBoard() {
    spots.length = 0;
    wager.clearTip();
    const k = kinds();
    const items = [];
    layoutBox.setAttribute('aria-label', ctx.t('roulette.layout'));
    // Zero, then every number (straight).
    if (k.has('straight')) {
      items.push(spot({ type: 'straight', numbers: [0] }, { cls: 'num green zero', style: box(G, 0, 100 - G, RH), label: '0', row: 0, col: numCol(1) }));
      for (let r = 0; r < 12; r++) {
        for (let c = 0; c < 3; c++) {
          const n = numberAt(r, c);
          items.push(spot({ type: 'straight', numbers: [n] }, { cls: `num ${colourOf(n)}`, style: box(G + c * CW, (r + 1) * RH, CW, RH), label: String(n), row: 2 * r + 2, col: numCol(c) }));
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
        if (k.has('split') && c < 2) items.push(spot({ type: 'split', numbers: [n, n + 1] }, { cls: 'zone vline', style: centred(G + (c + 1) * CW, top + RH / 2, SW, RH * 0.55), row: 2 * r + 2, col: numCol(c) + 1 }));
        if (k.has('split') && r < 11) items.push(spot({ type: 'split', numbers: [n, n + 3] }, { cls: 'zone hline', style: centred(G + (c + 0.5) * CW, top + RH, CW * 0.6, SH), row: 2 * r + 3, col: numCol(c) }));
        if (k.has('corner') && c < 2 && r < 11) items.push(spot({ type: 'corner', numbers: [n, n + 1, n + 3, n + 4] }, { cls: 'zone dot', style: centred(G + (c + 1) * CW, top + RH, SW, SH), row: 2 * r + 3, col: numCol(c) + 1 }));
      }
      if (k.has('street')) items.push(spot({ type: 'street', numbers: [numberAt(r, 0), numberAt(r, 1), numberAt(r, 2)] }, { cls: 'zone edge', style: centred(G / 2, top + RH / 2, G * 0.8, RH * 0.55), row: 2 * r + 2, col: 0.5 }));
      if (k.has('six_line') && r < 11) items.push(spot({ type: 'six_line', numbers: [0, 1, 2, 3, 4, 5].map((i) => numberAt(r, 0) + i) }, { cls: 'zone edge dot', style: centred(G / 2, top + RH, G * 0.8, SH), row: 2 * r + 3, col: 0.5 }));
    }
    // Zero with the first row: splits 0-1, 0-2, 0-3; streets 0-1-2, 0-2-3; the corner 0-1-2-3.
    for (let c = 0; c < 3; c++) {
      if (k.has('split')) items.push(spot({ type: 'split', numbers: [0, c + 1] }, { cls: 'zone hline', style: centred(G + (c + 0.5) * CW, RH, CW * 0.6, SH), row: 1, col: numCol(c) }));
    }
    if (k.has('street')) {
      items.push(spot({ type: 'street', numbers: [0, 1, 2] }, { cls: 'zone dot', style: centred(G + CW, RH, SW, SH), row: 1, col: numCol(0) + 1 }));
      items.push(spot({ type: 'street', numbers: [0, 2, 3] }, { cls: 'zone dot', style: centred(G + 2 * CW, RH, SW, SH), row: 1, col: numCol(1) + 1 }));
    }
    if (k.has('corner')) items.push(spot({ type: 'corner', numbers: [0, 1, 2, 3] }, { cls: 'zone edge dot', style: centred(G / 2, RH, G * 0.8, SH), row: 1, col: 0.5 }));
    fill(board, items);
    renderOutside();
    if (nav) nav.set(spots);
    markSpots();
  }

  function renderOutside() {
    const k = kinds();
    const rows = [];
    let row = OUTSIDE_ROW;
    const line = (cls, list) => {
      const r = row++;
      return el('div', { class: `ro-row ${cls}` }, list.map((make, i) => make(r, ((i + 0.5) * NAV_WIDTH) / list.length)));
    };
    if (k.has('column')) {
      rows.push(line('cols3', [1, 2, 3].map((i) => (r, col) => spot({ type: 'column', index: i }, { cls: 'out', label: ctx.t('roulette.column_short', { n: i, pays: payout({ type: 'column' }) }), row: r, col }))));
    }
    if (k.has('dozen')) rows.push(line('cols3', [1, 2, 3].map((i) => (r, col) => spot({ type: 'dozen', index: i }, { cls: 'out', label: range(numbersOf({ type: 'dozen', index: i })) || String(i), row: r, col }))));
    const even = ['low', 'even', 'red', 'black', 'odd', 'high'].filter((x) => k.has(x));
    if (even.length) rows.push(line('cols6', even.map((x) => (r, col) => spot({ type: x }, { cls: `out even-money ${x}`, label: ctx.t(`roulette.bet.${x}`), row: r, col }))));
    if (k.has('twelve_special')) {
      rows.push(line('cols2', [1, 2].map((i) => (r, col) => spot({ type: 'twelve_special', index: i }, { cls: 'out', label: ctx.t('roulette.twelve_set', { set: i === 1 ? 'A' : 'B' }), row: r, col }))));
    }
    const blocks = layout().nine_number_blocks || [];
    if (k.has('nine') && blocks.length) {
      rows.push(el('p', { class: 'ro-row-title', text: `${ctx.t('roulette.bet.nine')} · ${payout({ type: 'nine' })}` }));
      rows.push(line('cols5', blocks.map((b) => (r, col) => spot({ type: 'nine', numbers: b }, { cls: 'out small', label: range(b), row: r, col }))));
    }
    fill(outside, rows);
  }

  function range(numbers) {
    const s = [...numbers].sort((a, b) => a - b);
    const contiguous = s.every((n, i) => i === 0 || n === s[i - 1] + 1);
    return contiguous ? `${s[0]}–${s[s.length - 1]}` : s.join(' ');
  }

  function markSpots() {
    wager.markSpots(spots);
    for (const node of board.querySelectorAll('.num')) node.classList.toggle('win', lastPocket !== null && node.dataset.numbers === String(lastPocket));
  }

  // The numbers a spot covers, lit on the layout while its tip shows.
  function highlight(bet) {
    const covered = new Set(bet ? bet.numbers || numbersOf(bet) : []);
    for (const node of board.querySelectorAll('.num')) node.classList.toggle('covered', covered.has(Number(node.dataset.numbers)));
  }

  // -- the result moment: the wheel turns to the winning pocket --------------------------------------------------------
  function drawWheel(outcome, animate) {
    const pocket = outcome.pocket;
    const order = layout().wheel_order || [];
    const step = order.length ? 360 / order.length : 0;
    const wheel = el(
      'div',
      { class: 'ro-wheel', 'aria-hidden': 'true' },
      order.map((n, i) => el('span', { class: `wheel-pocket ${colourOf(n)}`, style: `transform: rotate(${i * step}deg)` }, el('span', { text: n }))),
    );
    const at = order.indexOf(pocket);
    const rest = at < 0 ? 0 : -at * step;
    const number = el('span', { class: `pocket big ${colourOf(pocket)}`, testid: 'moment-number', 'data-number': pocket, text: pocket });
    if (animate && wheel.animate) {
      wheel.animate([{ transform: 'rotate(0deg)' }, { transform: `rotate(${rest - SPIN_TURNS * 360}deg)` }], { duration: SPIN_MS, easing: 'cubic-bezier(0.12, 0.6, 0.2, 1)', fill: 'forwards' });
      // The number is there from the start (never faded: its contrast holds); it pops as the wheel comes to rest.
      number.animate([{ transform: 'scale(1)' }, { transform: 'scale(1.25)' }, { transform: 'scale(1)' }], { duration: SPIN_MS / 4, delay: SPIN_MS });
    } else wheel.style.transform = `rotate(${rest}deg)`;
    return el('div', { class: 'ro-moment' }, el('div', { class: 'wheel-frame' }, wheel, el('span', { class: 'wheel-pointer' })), number);
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

  function bar(name, pct, label) {
    return el(
      'div',
      { class: `bar ${name}`, 'data-name': name, 'data-pct': pct },
      el('span', { class: 'bar-label', text: `${label} ${pct}%` }),
      el('span', { class: 'bar-fill', style: `width:${pct}%` }),
    );
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
    const empty = !stats || !stats.count;
    hotTitle.hidden = empty;
    statsTitle.hidden = empty;
    if (empty) {
      fill(hotCold);
      fill(statsBox);
      return;
    }
    statsTitle.textContent = ctx.t('roulette.stats_title', { count: stats.count });
    const pockets = (list) =>
      list.map((n) => {
        const count = stats.numbers[String(n)] || 0;
        return el(
          'span',
          { class: 'hc-item', 'data-number': n, 'data-count': count, role: 'img', 'aria-label': `${n}: ${ctx.t('roulette.times', { count })}` },
          el('span', { class: `pocket ${colourOf(n)}`, 'aria-hidden': 'true', text: n }),
          el('small', { class: 'hc-count', 'aria-hidden': 'true', text: count }),
        );
      });
    fill(
      hotCold,
      el('div', { class: 'stat-line' }, el('span', { class: 'stat-label', text: ctx.t('roulette.hot') }), el('span', { class: 'hot', 'data-numbers': stats.hot.join(',') }, pockets(stats.hot))),
      el('div', { class: 'stat-line' }, el('span', { class: 'stat-label', text: ctx.t('roulette.cold') }), el('span', { class: 'cold', 'data-numbers': stats.cold.join(',') }, pockets(stats.cold))),
    );
    const group = (title, bars) => el('div', { class: 'bar-group' }, el('p', { class: 'bar-title', text: title }), bars);
    const pct = (obj, key) => (obj && obj[key] !== undefined ? obj[key] : 0);
    fill(
      statsBox,
      group(ctx.t('roulette.stat.colour'), [bar('red', pct(stats.colour_pct, 'red'), ctx.t('roulette.bet.red')), bar('black', pct(stats.colour_pct, 'black'), ctx.t('roulette.bet.black')), bar('zero', pct(stats.colour_pct, 'green'), ctx.t('roulette.stat.zero'))]),
      group(ctx.t('roulette.stat.parity'), [bar('odd', pct(stats.parity_pct, 'odd'), ctx.t('roulette.bet.odd')), bar('even', pct(stats.parity_pct, 'even'), ctx.t('roulette.bet.even'))]),
      group(ctx.t('roulette.stat.half'), [bar('low', pct(stats.half_pct, 'low'), ctx.t('roulette.bet.low')), bar('high', pct(stats.half_pct, 'high'), ctx.t('roulette.bet.high'))]),
      group(
        ctx.t('roulette.stat.dozens'),
        [1, 2, 3].map((i) => bar(`dozen-${i}`, pct(stats.dozen_pct, String(i)), ctx.t('roulette.dozen_n', { n: i }))),
      ),
      group(
        ctx.t('roulette.stat.columns'),
        [1, 2, 3].map((i) => bar(`column-${i}`, pct(stats.column_pct, String(i)), ctx.t('roulette.column_n', { n: i }))),
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

  startTable(ctx, rules, {
    setRules: (r) => {
      rules = r;
    },
    renderAll,
    loadHistory,
  });

  return tableHandle(wager, root, (out) => {
    if (typeof out.pocket === 'number') {
      lastPocket = out.pocket;
      renderWinning();
    }
  });
}
