// The sic bo layout (SB 5): small and big, any triple, the specific triples, the totals 4–17 and the single numbers,
// each with the odds the table publishes (GET /api/tables/{id}/rules); the three dice with their total, and the
// table's history (GET /api/tables/{id}/history): the dice of each roll, the big/small and odd/even shares, the
// bead roads of a Macau result display, the triples and the hot totals, all counted by the server. Only the bet
// kinds the server publishes are shown; it checks every bet. The layout is one tab stop (arrow keys move between
// spots); the result moment tumbles the dice.

import { el, fill, odds } from './dom.js';
import { createWager, roving, startTable, tableHandle } from './wager.js';

const HISTORY = 100;
const STRIP = 20;
const ROAD_MIN_COLUMNS = 12; // a short road keeps its cells small
const TUMBLE_MS = 1200; // the dice's tumble in the result moment
const NAV_WIDTH = 6;
const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

export function die(face, cls = '') {
  const cells = Array.from({ length: 9 }, (_, i) => el('span', { class: PIPS[face] && PIPS[face].includes(i) ? 'pip on' : 'pip' }));
  return el('span', { class: `die ${cls}`, 'data-face': face, role: 'img', 'aria-label': String(face) }, cells);
}

export function mount(root, ctx) {
  const tableId = ctx.table.table;
  let rules = ctx.rules;
  let history = null;
  let lastDice = null; // {round, dice}
  const spots = []; // {bet, node, key, row, col}

  const betOf = (kind) => ((rules && rules.bets) || []).find((b) => b.kind === kind) || null;
  const rankOf = (kind) => (betOf(kind) ? betOf(kind).pay_rank ?? 0 : 0);
  const ruleParams = (key) => (((rules && rules.text) || []).find((x) => x.key === key) || { params: {} }).params;

  function describe(bet) {
    const name = ctx.t(`sicbo.bet.${bet.type}`);
    if (bet.type === 'total') return `${name} ${bet.total}`;
    if (bet.type === 'single' || bet.type === 'triple') return `${name} ${bet.face}`;
    return name;
  }

  function payout(bet) {
    const b = betOf(bet.type);
    if (!b) return '';
    if (bet.type === 'total') return odds(b.payout[String(bet.total)]);
    if (bet.type === 'single') return singlePays(b);
    return odds(b.payout);
  }

  function singlePays(b) {
    return Object.entries(b.payout || {})
      .map(([k, v]) => ctx.t('sicbo.single_pays', { dice: k, count: Number(k), odds: odds(v) }))
      .join(' · ');
  }

  const wager = createWager(ctx, {
    module: 'sicbo',
    describe,
    payout,
    highlight,
    resultSound: 'dice',
    drawOutcome: drawDice,
    outcomeText(out) {
      if (!Array.isArray(out.dice)) return '';
      const c = classified(out.dice);
      return [ctx.t('sicbo.total_is', { total: out.dice.reduce((s, d) => s + d, 0) }), c ? ctx.t(`sicbo.size.${c.size}`) : null].filter(Boolean).join(' · ');
    },
    rank: (bet) => rankOf(bet.type),
    onChange: markSpots,
    onResult(outcome, e) {
      if (outcome && Array.isArray(outcome.dice)) {
        lastDice = { round: e.round, dice: outcome.dice };
        renderDice(true);
      }
    },
    onSettled() {
      loadHistory();
    },
    onMissed() {
      lastDice = null; // the last result is the history's newest
      loadHistory();
    },
  });

  const layoutBox = el('div', { class: 'sb-layout', role: 'group' });
  const layoutWrap = el('div', { class: 'sb-layout-wrap' }, wager.isPlayer ? wager.tip : null, layoutBox);
  const nav = wager.isPlayer ? roving(layoutBox) : null;
  const diceBox = el('div', { class: 'sb-dice-box card', 'aria-live': 'polite' });
  const strip = el('ol', { class: 'last-results sb-strip', testid: 'last-results' });
  const stats = el('div', { class: 'big-small-stats', testid: 'big-small-stats' });
  const hot = el('div', { class: 'hot-totals', testid: 'hot-totals' });
  const roads = el('div', { class: 'sb-roads' });
  const titles = { strip: el('h3'), stats: el('h3'), roads: el('h3'), hot: el('h3') };
  const historyBox = el('section', { class: 'history card' }, titles.strip, strip, titles.stats, stats, titles.roads, roads, titles.hot, hot);
  fill(
    root,
    el(
      'div',
      { class: `wager-table sicbo${wager.isPlayer ? '' : ' watching'}` },
      el('div', { class: 'wager-main' }, wager.statusBar, layoutWrap, wager.controls, wager.slipBox),
      el('div', { class: 'wager-side' }, wager.moment, diceBox, wager.settlementBox, historyBox),
    ),
  );

  function spot(bet, label, pays, cls, row, col) {
    const value = bet.total ?? bet.face ?? null;
    const node = wager.makeSpot(
      bet,
      { class: `spot sb-spot ${cls}`, 'data-bet': bet.type, 'data-values': value === null ? '' : String(value) },
      el('span', { class: 'spot-label' }, label),
      pays ? el('span', { class: 'pays', text: pays }) : null,
    );
    spots.push({ bet, node, key: node.dataset.key, row, col });
    return node;
  }

  const colOf = (i, n) => ((i + 0.5) * NAV_WIDTH) / n;

  function renderLayout() {
    spots.length = 0;
    wager.clearTip();
    layoutBox.setAttribute('aria-label', ctx.t('sicbo.layout'));
    const rows = [];
    const small = betOf('small');
    const big = betOf('big');
    const anyTriple = betOf('any_triple');
    const top = [];
    if (small) {
      const p = ruleParams('sicbo.rule.small');
      top.push((col) => spot({ type: 'small' }, [el('strong', { text: ctx.t('sicbo.bet.small') }), el('small', { text: p.low ? `${p.low}–${p.high}` : '' })], odds(small.payout), 'size small', 0, col));
    }
    if (anyTriple) top.push((col) => spot({ type: 'any_triple' }, [el('strong', { text: ctx.t('sicbo.bet.any_triple') }), el('span', { class: 'mini-dice' }, [1, 2, 3, 4, 5, 6].map((f) => el('span', { text: `${f}${f}${f}` })))], odds(anyTriple.payout), 'any-triple', 0, col));
    if (big) {
      const p = ruleParams('sicbo.rule.big');
      top.push((col) => spot({ type: 'big' }, [el('strong', { text: ctx.t('sicbo.bet.big') }), el('small', { text: p.low ? `${p.low}–${p.high}` : '' })], odds(big.payout), 'size big', 0, col));
    }
    if (top.length) rows.push(el('div', { class: 'sb-row sb-top' }, top.map((make, i) => make(colOf(i, top.length)))));
    const triple = betOf('triple');
    if (triple) {
      rows.push(el('p', { class: 'sb-row-title', text: `${ctx.t('sicbo.bet.triple')} · ${odds(triple.payout)}` }));
      rows.push(el('div', { class: 'sb-row cols6' }, triple.values.map((f, i) => spot({ type: 'triple', face: f }, [die(f, 'tiny'), die(f, 'tiny'), die(f, 'tiny')], '', 'triple', 1, colOf(i, triple.values.length)))));
    }
    const total = betOf('total');
    if (total) {
      rows.push(el('p', { class: 'sb-row-title', text: ctx.t('sicbo.bet.total') }));
      rows.push(el('div', { class: 'sb-row cols7' }, total.values.map((n, i) => spot({ type: 'total', total: n }, el('strong', { text: n }), odds(total.payout[String(n)]), 'total', 2, colOf(i, total.values.length)))));
    }
    const single = betOf('single');
    if (single) {
      rows.push(el('p', { class: 'sb-row-title', text: `${ctx.t('sicbo.bet.single')} · ${singlePays(single)}` }));
      rows.push(el('div', { class: 'sb-row cols6' }, single.values.map((f, i) => spot({ type: 'single', face: f }, die(f), '', 'single', 3, colOf(i, single.values.length)))));
    }
    fill(layoutBox, rows);
    if (nav) nav.set(spots);
    markSpots();
  }

  function markSpots() {
    wager.markSpots(spots);
  }

  // What a spot covers, lit while its tip shows: small and big light their totals, any triple every triple.
  function highlight(bet) {
    let covered = () => false;
    if (bet && (bet.type === 'small' || bet.type === 'big')) {
      const p = ruleParams(`sicbo.rule.${bet.type}`);
      covered = (s) => s.bet.type === 'total' && s.bet.total >= p.low && s.bet.total <= p.high;
    } else if (bet && bet.type === 'any_triple') covered = (s) => s.bet.type === 'triple';
    for (const s of spots) s.node.classList.toggle('covered', covered(s));
  }

  function classified(dice) {
    const key = dice.join(',');
    return ((history && history.results) || []).find((r) => r.dice.join(',') === key) || null;
  }

  // -- the result moment: the dice tumble, then lie ----------------------------------------------------------------------
  function drawDice(outcome, animate) {
    const dice = Array.isArray(outcome.dice) ? outcome.dice : [];
    const nodes = dice.map((d) => die(d, 'moment-die'));
    if (animate) {
      nodes.forEach((node, i) => {
        if (!node.animate) return;
        node.animate(
          [
            { transform: 'translateY(-24px) rotate(-200deg) scale(0.8)', opacity: 0.4 },
            { transform: 'translateY(6px) rotate(40deg) scale(1.05)', opacity: 1, offset: 0.6 },
            { transform: 'translateY(-4px) rotate(-12deg)', offset: 0.8 },
            { transform: 'none', opacity: 1 },
          ],
          { duration: TUMBLE_MS, delay: i * 90, easing: 'ease-out', fill: 'both' },
        );
      });
    }
    const sum = dice.reduce((s, d) => s + d, 0);
    return el('div', { class: 'sb-moment' }, el('div', { class: 'dice moment-dice', testid: 'moment-dice', 'data-dice': dice.join(','), 'data-total': sum }, nodes), el('strong', { class: 'moment-total', text: sum }));
  }

  function renderDice(fresh = false) {
    if (!lastDice) {
      fill(diceBox, el('div', { class: 'dice', testid: 'dice', 'data-dice': '' }, el('span', { class: 'muted', text: ctx.t('sicbo.no_roll_yet') })), el('p', { class: 'dice-total', testid: 'dice-total', 'data-total': '' }));
      return;
    }
    const sum = lastDice.dice.reduce((s, d) => s + d, 0);
    const c = ((history && history.results) || []).find((r) => r.round === lastDice.round) || null;
    const words = c ? [ctx.t(`sicbo.size.${c.size}`), ctx.t(`sicbo.parity.${c.parity}`)].join(' · ') : '';
    fill(
      diceBox,
      el('p', { class: 'label', text: ctx.t('sicbo.result') }),
      el('div', { class: `dice${fresh ? ' fresh' : ''}`, testid: 'dice', 'data-dice': lastDice.dice.join(',') }, lastDice.dice.map((d) => die(d))),
      el('p', { class: 'dice-total', testid: 'dice-total', 'data-total': sum, 'data-size': c ? c.size : '' }, el('strong', { text: ctx.t('sicbo.total_is', { total: sum }) }), words ? el('span', { class: `size ${c.size}`, text: ` ${words}` }) : null),
    );
  }

  function road(name, cells, rowsCount, short) {
    const columns = cells.length;
    const title = ctx.t(`sicbo.road.${name}`);
    return el(
      'div',
      { class: 'road-box' },
      el('p', { class: 'bar-title', text: title }),
      el(
        'div',
        { class: `road road-${name}`, testid: `${name}-road`, role: 'img', 'aria-label': title, 'data-columns': columns, style: `grid-template-columns: repeat(${Math.max(columns, ROAD_MIN_COLUMNS)}, 1fr); grid-template-rows: repeat(${rowsCount}, auto)` },
        Array.from({ length: Math.max(columns, ROAD_MIN_COLUMNS) * rowsCount }, (_, i) =>
          el('span', { class: 'road-slot', style: `grid-column: ${Math.floor(i / rowsCount) + 1}; grid-row: ${(i % rowsCount) + 1}` }),
        ),
        cells.map((column, x) =>
          column.map((c, y) =>
            el(
              'span',
              {
                class: `road-cell ${c.value}${c.triple ? ' triple' : ''}`,
                'data-value': c.value,
                'data-round': c.round,
                'data-total': c.total,
                'data-triple': c.triple ? 'true' : 'false',
                style: `grid-column: ${x + 1}; grid-row: ${y + 1}`,
                text: short(c.value),
              },
            ),
          ),
        ),
      ),
    );
  }

  function renderHistory() {
    titles.strip.textContent = ctx.t('table.last_results');
    titles.stats.textContent = ctx.t('sicbo.stats');
    titles.roads.textContent = ctx.t('sicbo.roads');
    titles.hot.textContent = ctx.t('sicbo.hot_totals');
    const results = (history && history.results) || [];
    fill(
      strip,
      results.length
        ? results.slice(0, STRIP).map((r) =>
            el(
              'li',
              { class: `sb-result ${r.size}`, 'data-dice': r.dice.join(','), 'data-total': r.total, 'data-size': r.size, 'data-round': r.round, 'aria-label': ctx.t('recall.dice', { dice: r.dice.join(' '), total: r.total }) },
              el('span', { class: 'strip-dice', 'aria-hidden': 'true' }, r.dice.map((d) => die(d, 'tiny'))),
              el('strong', { 'aria-hidden': 'true', text: r.total }),
              el('small', { 'aria-hidden': 'true', text: ctx.t(`sicbo.size_short.${r.size}`) }),
            ),
          )
        : el('li', { class: 'muted', text: ctx.t('table.no_results') }),
    );
    const s = history && history.stats;
    if (!s || !s.count) {
      fill(stats, el('p', { class: 'muted', text: ctx.t('table.no_results') }));
      fill(roads);
      fill(hot);
      return;
    }
    const bar = (name, pct, label) => el('div', { class: `bar ${name}`, 'data-name': name, 'data-pct': pct }, el('span', { class: 'bar-label', text: `${label} ${pct}%` }), el('span', { class: 'bar-fill', style: `width:${pct}%` }));
    fill(
      stats,
      el('p', { class: 'small muted', text: ctx.t('sicbo.over_rounds', { count: s.count }) }),
      bar('big', s.size_pct.big, ctx.t('sicbo.size.big')),
      bar('small', s.size_pct.small, ctx.t('sicbo.size.small')),
      bar('triple', s.size_pct.triple, ctx.t('sicbo.size.triple')),
      bar('odd', s.parity_pct.odd, ctx.t('sicbo.parity.odd')),
      bar('even', s.parity_pct.even, ctx.t('sicbo.parity.even')),
      el('p', { class: 'triple-count', testid: 'triple-count', 'data-count': s.triples ?? 0, text: ctx.t('sicbo.triples', { count: s.triples ?? 0 }) }),
    );
    const rowsCount = s.road_rows || 6;
    fill(
      roads,
      road('size', s.size_road || [], rowsCount, (v) => ctx.t(`sicbo.size_short.${v}`)),
      road('parity', s.parity_road || [], rowsCount, (v) => ctx.t(`sicbo.parity_short.${v}`)),
    );
    fill(hot, el('ol', { class: 'hot-list', 'data-totals': s.hot_totals.join(',') }, s.hot_totals.map((n) => el('li', { 'data-total': n }, el('strong', { text: n }), ' ', el('small', { text: ctx.t('sicbo.times', { count: s.totals[String(n)] || 0 }) })))));
  }

  async function loadHistory() {
    try {
      history = await ctx.api('GET', `/tables/${tableId}/history?last=${HISTORY}`);
      if (!lastDice && history.results.length) lastDice = { round: history.results[0].round, dice: history.results[0].dice };
    } catch {
      history = null;
    }
    renderHistory();
    renderDice();
    wager.render();
  }

  function renderAll() {
    renderLayout();
    wager.render();
    renderHistory();
    renderDice();
  }

  startTable(ctx, rules, {
    setRules: (r) => {
      rules = r;
    },
    renderAll,
    loadHistory,
  });

  return tableHandle(wager, root, (out, view) => {
    if (Array.isArray(out.dice)) {
      lastDice = { round: view.round, dice: out.dice };
      renderDice();
    }
  });
}
