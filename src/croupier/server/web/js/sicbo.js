// The sic bo layout (SB 5): small and big, any triple, the specific triples, the totals 4–17 and the single numbers,
// each with the odds the table publishes (GET /api/tables/{id}/rules); the three dice with their total, and the
// table's history with the big/small and odd/even shares and the hot totals (GET /api/tables/{id}/history). Only
// the bet kinds the server publishes are shown; it checks every bet.

import { el, fill, money, odds } from './dom.js';
import { createWager, spotKey, startTable, tableHandle } from './wager.js';

const HISTORY = 100;
const STRIP = 20;
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
  const spots = new Map();

  const betOf = (kind) => ((rules && rules.bets) || []).find((b) => b.kind === kind) || null;
  const rankOf = (kind) => (betOf(kind) ? betOf(kind).pay_rank ?? 0 : 0);
  const ruleParams = (key) => (((rules && rules.text) || []).find((x) => x.key === key) || { params: {} }).params;

  function describe(bet) {
    const name = ctx.t(`sicbo.bet.${bet.type}`);
    if (bet.type === 'total') return `${name} ${bet.total}`;
    if (bet.type === 'single' || bet.type === 'triple') return `${name} ${bet.face}`;
    return name;
  }

  const wager = createWager(ctx, {
    module: 'sicbo',
    describe,
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
  const diceBox = el('div', { class: 'sb-dice-box card', 'aria-live': 'polite' });
  const strip = el('ol', { class: 'last-results sb-strip', testid: 'last-results' });
  const stats = el('div', { class: 'big-small-stats', testid: 'big-small-stats' });
  const hot = el('div', { class: 'hot-totals', testid: 'hot-totals' });
  const titles = { strip: el('h3'), stats: el('h3'), hot: el('h3') };
  const historyBox = el('section', { class: 'history card' }, titles.strip, strip, titles.stats, stats, titles.hot, hot);
  fill(
    root,
    el(
      'div',
      { class: 'wager-table sicbo' },
      el('div', { class: 'wager-main' }, wager.statusBar, layoutBox, wager.controls, wager.slipBox),
      el('div', { class: 'wager-side' }, diceBox, wager.settlementBox, historyBox),
    ),
  );

  function spot(bet, label, payout, cls = '') {
    const value = bet.total ?? bet.face ?? null;
    const node = el(
      'button',
      {
        type: 'button',
        class: `spot sb-spot ${cls}`,
        testid: 'spot',
        'data-bet': bet.type,
        'data-values': value === null ? '' : String(value),
        'aria-label': `${describe(bet)} · ${ctx.t('table.pays', { odds: payout })}`,
        onclick: () => wager.add(bet),
      },
      el('span', { class: 'spot-label' }, label),
      payout ? el('span', { class: 'pays', text: payout }) : null,
      el('span', { class: 'chip-mark', hidden: true }),
    );
    spots.set(spotKey(bet), node);
    return node;
  }

  function renderLayout() {
    spots.clear();
    layoutBox.setAttribute('aria-label', ctx.t('sicbo.layout'));
    const rows = [];
    const small = betOf('small');
    const big = betOf('big');
    const anyTriple = betOf('any_triple');
    const top = [];
    if (small) {
      const p = ruleParams('sicbo.rule.small');
      top.push(spot({ type: 'small' }, [el('strong', { text: ctx.t('sicbo.bet.small') }), el('small', { text: p.low ? `${p.low}–${p.high}` : '' })], odds(small.payout), 'size small'));
    }
    if (anyTriple) top.push(spot({ type: 'any_triple' }, [el('strong', { text: ctx.t('sicbo.bet.any_triple') }), el('span', { class: 'mini-dice' }, [1, 2, 3, 4, 5, 6].map((f) => el('span', { text: `${f}${f}${f}` })))], odds(anyTriple.payout), 'any-triple'));
    if (big) {
      const p = ruleParams('sicbo.rule.big');
      top.push(spot({ type: 'big' }, [el('strong', { text: ctx.t('sicbo.bet.big') }), el('small', { text: p.low ? `${p.low}–${p.high}` : '' })], odds(big.payout), 'size big'));
    }
    if (top.length) rows.push(el('div', { class: 'sb-row sb-top' }, top));
    const triple = betOf('triple');
    if (triple) {
      rows.push(el('p', { class: 'sb-row-title', text: `${ctx.t('sicbo.bet.triple')} · ${odds(triple.payout)}` }));
      rows.push(el('div', { class: 'sb-row cols6' }, triple.values.map((f) => spot({ type: 'triple', face: f }, [die(f, 'tiny'), die(f, 'tiny'), die(f, 'tiny')], '', 'triple'))));
    }
    const total = betOf('total');
    if (total) {
      rows.push(el('p', { class: 'sb-row-title', text: ctx.t('sicbo.bet.total') }));
      rows.push(el('div', { class: 'sb-row cols7' }, total.values.map((n) => spot({ type: 'total', total: n }, el('strong', { text: n }), odds(total.payout[String(n)]), 'total'))));
    }
    const single = betOf('single');
    if (single) {
      const pays = Object.entries(single.payout || {})
        .map(([k, v]) => ctx.t('sicbo.single_pays', { dice: k, odds: odds(v) }))
        .join(' · ');
      rows.push(el('p', { class: 'sb-row-title', text: `${ctx.t('sicbo.bet.single')} · ${pays}` }));
      rows.push(el('div', { class: 'sb-row cols6' }, single.values.map((f) => spot({ type: 'single', face: f }, die(f), '', 'single'))));
    }
    fill(layoutBox, rows);
    markSpots();
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
  }

  function classified(round) {
    return ((history && history.results) || []).find((r) => r.round === round) || null;
  }

  function renderDice(fresh = false) {
    if (!lastDice) {
      fill(diceBox, el('div', { class: 'dice', testid: 'dice', 'data-dice': '' }, el('span', { class: 'muted', text: ctx.t('sicbo.no_roll_yet') })), el('p', { class: 'dice-total', testid: 'dice-total', 'data-total': '' }));
      return;
    }
    const sum = lastDice.dice.reduce((s, d) => s + d, 0);
    const c = classified(lastDice.round);
    const words = c ? [ctx.t(`sicbo.size.${c.size}`), ctx.t(`sicbo.parity.${c.parity}`)].join(' · ') : '';
    fill(
      diceBox,
      el('p', { class: 'label', text: ctx.t('sicbo.result') }),
      el('div', { class: `dice${fresh ? ' fresh' : ''}`, testid: 'dice', 'data-dice': lastDice.dice.join(',') }, lastDice.dice.map((d) => die(d))),
      el('p', { class: 'dice-total', testid: 'dice-total', 'data-total': sum, 'data-size': c ? c.size : '' }, el('strong', { text: ctx.t('sicbo.total_is', { total: sum }) }), words ? el('span', { class: `size ${c.size}`, text: ` ${words}` }) : null),
    );
  }

  function renderHistory() {
    titles.strip.textContent = ctx.t('table.last_results');
    titles.stats.textContent = ctx.t('sicbo.stats');
    titles.hot.textContent = ctx.t('sicbo.hot_totals');
    const results = (history && history.results) || [];
    fill(
      strip,
      results.length
        ? results.slice(0, STRIP).map((r) =>
            el('li', { class: `sb-result ${r.size}`, 'data-dice': r.dice.join(','), 'data-total': r.total, 'data-size': r.size, title: r.dice.join(' ') }, el('strong', { text: r.total }), el('small', { text: ctx.t(`sicbo.size_short.${r.size}`) })),
          )
        : el('li', { class: 'muted', text: ctx.t('table.no_results') }),
    );
    const s = history && history.stats;
    if (!s || !s.count) {
      fill(stats, el('p', { class: 'muted', text: ctx.t('table.no_results') }));
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
  }

  function renderAll() {
    renderLayout();
    wager.render();
    renderHistory();
    renderDice();
  }

  startTable(ctx, rules, { setRules: (r) => { rules = r; }, renderAll, loadHistory });

  return tableHandle(
    wager,
    root,
    (out, view) => {
      if (Array.isArray(out.dice)) {
        lastDice = { round: view.round, dice: out.dice };
        renderDice();
      }
    },
    [],
  );
}
