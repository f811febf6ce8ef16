// The bias watch (issue 18, docs/bias-watch.md): for an admin, the game-level tests on a roulette or sic bo table's
// recorded results over a window (GET /api/tables/{id}/watch). The page shows the verdict (the chi-square over the
// window, tested once, is the flag), the sequential view (the chi-square after each checkpoint, drawn here as an
// SVG polyline from the server's numbers, with the critical value), the pockets or faces furthest from expectation
// and the rounds the tests need to detect the bias asked. Routed at #/watch and #/watch/<table> by app.js; the
// header's link to it (index.html, #watch-link) is shown to an admin only, in the page's language, by
// `headerLink()` below, which follows the header's account line (#who, which app.js renders at every sign-in,
// sign-out and change of language).

import { t as translate } from './app.js'; // a cycle app.js ⇄ watch.js: `t` is only called after both are loaded
import { el, fill } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const PLOT = { width: 640, height: 240, left: 56, right: 16, top: 14, bottom: 36 };

/** An SVG element with its attributes (presentation attributes only: the page's CSP allows no style attribute). */
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/**
 * Mount the watch page in `view`. `ctx`: {t, api, errorText, onLanguage(fn) → off, go(hash), me, setConn}.
 * `tableId`: the table to watch at once (from the route), or null to choose one.
 */
export function mount(view, ctx, tableId = null) {
  const { t } = ctx;
  if (typeof ctx.setConn === 'function') ctx.setConn('lobby'); // no socket here
  const offs = [];
  const lang = () => document.documentElement.lang || 'en';
  const number = (value, digits = 2) => (value === null || value === undefined ? '—' : new Intl.NumberFormat(lang(), { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(value));
  const whole = (value) => new Intl.NumberFormat(lang(), { maximumFractionDigits: 0 }).format(value);
  const percent = (value) => (value === null || value === undefined ? '—' : new Intl.NumberFormat(lang(), { style: 'percent', maximumFractionDigits: 1 }).format(value));
  const pValue = (p) => {
    if (p === null || p === undefined) return '—';
    if (p !== 0 && p < 1e-4) return p.toExponential(1);
    return new Intl.NumberFormat(lang(), { maximumSignificantDigits: 3 }).format(p);
  };

  const title = el('h1', { id: 'watch-title' });
  const intro = el('p', { class: 'muted watch-intro' });
  const tableLabel = el('label', { for: 'watch-table' });
  const tableInput = el('input', { id: 'watch-table', testid: 'watch-table', name: 'table', list: 'watch-tables', required: true, maxlength: 32, autocomplete: 'off', value: tableId || '' });
  const tableList = el('datalist', { id: 'watch-tables' });
  const lastLabel = el('label', { for: 'watch-last' });
  const lastInput = el('input', { id: 'watch-last', testid: 'watch-last', name: 'last', type: 'number', min: 1, max: 100000, step: 1, inputmode: 'numeric' });
  const alphaLabel = el('label', { for: 'watch-alpha' });
  const alphaInput = el('input', { id: 'watch-alpha', testid: 'watch-alpha', name: 'alpha', type: 'number', min: 0.0001, max: 0.49, step: 'any', value: '0.01' });
  const powerLabel = el('label', { for: 'watch-power' });
  const powerInput = el('input', { id: 'watch-power', testid: 'watch-power', name: 'power', type: 'number', min: 0.5, max: 0.999, step: 'any', value: '0.9' });
  const biasLabel = el('label', { for: 'watch-bias' });
  const biasInput = el('input', { id: 'watch-bias', testid: 'watch-bias', name: 'bias', type: 'number', min: 0.0001, max: 0.9999, step: 'any' });
  const submit = el('button', { type: 'submit', class: 'primary', testid: 'watch-run' });
  const field = (label, input) => el('div', { class: 'watch-field' }, label, input);
  const form = el(
    'form',
    { class: 'watch-form card', testid: 'watch-form', 'aria-labelledby': 'watch-title' },
    field(tableLabel, tableInput),
    tableList,
    field(lastLabel, lastInput),
    field(alphaLabel, alphaInput),
    field(powerLabel, powerInput),
    field(biasLabel, biasInput),
    el('div', { class: 'watch-actions' }, submit),
  );
  const output = el('div', { class: 'watch-output', testid: 'watch-output', 'aria-live': 'polite' });
  fill(view, el('section', { class: 'watch-page', 'data-table': tableId || '' }, title, intro, form, output));

  let report = null;
  let failure = null;
  let loading = false;

  const texts = () => {
    title.textContent = t('watch.title');
    intro.textContent = t('watch.intro');
    tableLabel.textContent = t('watch.table');
    lastLabel.textContent = t('watch.last');
    lastInput.placeholder = t('watch.last_placeholder');
    alphaLabel.textContent = t('watch.alpha');
    powerLabel.textContent = t('watch.power');
    biasLabel.textContent = t('watch.bias');
    biasInput.placeholder = t('watch.bias_placeholder');
    submit.textContent = t('watch.run');
    render();
  };

  function render() {
    if (loading) return fill(output, el('p', { class: 'muted', testid: 'watch-loading', text: t('watch.loading') }));
    if (failure) return fill(output, el('p', { class: 'watch-error', role: 'alert', testid: 'watch-error', text: ctx.errorText(failure) }));
    if (!report) return fill(output);
    fill(output, verdictBlock(report), summaryBlock(report), plotBlock(report), furthestBlock(report), neededBlock(report));
  }

  const unitKey = (r) => (r.game === 'roulette' ? 'pocket' : 'face');

  function verdictBlock(r) {
    let text;
    if (r.verdict === 'skipped') text = t('watch.verdict.skipped', { rounds: whole(r.rounds), min: whole(r.min_rounds) });
    else text = t(`watch.verdict.${r.verdict}`, { p: pValue(r.chi_square.p_value), alpha: number(r.alpha, 4) });
    return el('p', { class: `watch-verdict verdict-${r.verdict}`, testid: 'watch-verdict', 'data-verdict': r.verdict, 'data-flagged': r.flagged ? 'true' : 'false', role: 'status', text });
  }

  function summaryBlock(r) {
    const lines = [
      t(`watch.window.${r.game}`, { count: r.rounds, rounds: whole(r.rounds), first: r.first_round || '—', last: r.last_round || '—' }),
    ];
    if (r.voids) lines.push(t('watch.voids', { count: r.voids, voids: whole(r.voids) }));
    if (r.verdict !== 'skipped') {
      lines.push(t('watch.chi', { statistic: number(r.chi_square.statistic), df: r.chi_square.df, p: pValue(r.chi_square.p_value), critical: number(r.chi_square.critical), alpha: number(r.alpha, 4) }));
      const adjusted = pValue(r.pocket_test.p_value);
      lines.push(t(`watch.pocket_test.${unitKey(r)}.${r.pocket_test.verdict}`, { p: adjusted }));
    }
    return el('div', { class: 'watch-summary', testid: 'watch-summary' }, lines.map((line) => el('p', { text: line })));
  }

  function plotBlock(r) {
    const seq = r.sequence || [];
    if (seq.length < 2) return null;
    const { width, height, left, right, top, bottom } = PLOT;
    const x0 = seq[0].rounds;
    const x1 = seq[seq.length - 1].rounds;
    const yMax = Math.max(r.chi_square.critical, ...seq.map((p) => p.statistic)) * 1.1;
    const sx = (x) => left + ((x - x0) / Math.max(1, x1 - x0)) * (width - left - right);
    const sy = (y) => top + (1 - y / yMax) * (height - top - bottom);
    const points = seq.map((p) => `${sx(p.rounds).toFixed(1)},${sy(p.statistic).toFixed(1)}`).join(' ');
    const crit = sy(r.chi_square.critical);
    const label = t('watch.plot.label', { from: whole(x0), to: whole(x1), critical: number(r.chi_square.critical) });
    const last = seq[seq.length - 1];
    const chart = svg(
      'svg',
      { class: 'watch-plot', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label, 'data-testid': 'watch-plot', 'data-points': seq.length, focusable: 'false' },
      svg('line', { class: 'axis', x1: left, y1: height - bottom, x2: width - right, y2: height - bottom }),
      svg('line', { class: 'axis', x1: left, y1: top, x2: left, y2: height - bottom }),
      svg('line', { class: 'critical', x1: left, y1: crit, x2: width - right, y2: crit, 'data-testid': 'watch-critical' }),
      svg('text', { class: 'critical-label', x: width - right, y: crit - 4, 'text-anchor': 'end' }, t('watch.plot.critical', { critical: number(r.chi_square.critical) })),
      svg('polyline', { class: `series verdict-${r.verdict}`, points, 'data-testid': 'watch-series' }),
      svg('circle', { class: `series-end verdict-${r.verdict}`, cx: sx(last.rounds), cy: sy(last.statistic), r: 4 }),
      svg('text', { class: 'tick', x: left, y: height - bottom + 16, 'text-anchor': 'start' }, whole(x0)),
      svg('text', { class: 'tick', x: width - right, y: height - bottom + 16, 'text-anchor': 'end' }, whole(x1)),
      svg('text', { class: 'tick', x: (left + width - right) / 2, y: height - 4, 'text-anchor': 'middle' }, t('watch.plot.rounds')),
      svg('text', { class: 'tick', x: left - 6, y: top + 10, 'text-anchor': 'end' }, number(yMax, 0)),
      svg('text', { class: 'tick', x: left - 6, y: height - bottom, 'text-anchor': 'end' }, '0'),
    );
    return el(
      'figure',
      { class: 'watch-figure card', testid: 'watch-figure' },
      el('figcaption', {}, el('strong', { text: t('watch.plot.title') }), el('span', { class: 'muted small', text: ` ${t('watch.plot.note')}` })),
      chart,
    );
  }

  function furthestBlock(r) {
    if (!r.furthest || !r.furthest.length) return null;
    const unit = unitKey(r);
    const head = ['cell', 'count', 'expected', 'z', 'p', 'adjusted'].map((k) => el('th', { scope: 'col', text: t(k === 'cell' ? `watch.furthest.${unit}` : `watch.furthest.${k}`) }));
    const rows = r.furthest.map((c) =>
      el(
        'tr',
        { 'data-cell': c.cell, testid: 'watch-cell', class: c.p_adjusted < r.alpha ? 'out-of-line' : '' },
        el('th', { scope: 'row', text: String(c.cell) }),
        el('td', { class: 'num', text: whole(c.count) }),
        el('td', { class: 'num', text: number(c.expected, 1) }),
        el('td', { class: 'num', text: number(c.z, 2) }),
        el('td', { class: 'num', text: pValue(c.p_value) }),
        el('td', { class: 'num', text: pValue(c.p_adjusted) }),
      ),
    );
    return el(
      'div',
      { class: 'watch-furthest card' },
      el('table', { class: 'watch-table', testid: 'watch-furthest' }, el('caption', { text: t(`watch.furthest.title.${unit}`) }), el('thead', {}, el('tr', {}, head)), el('tbody', {}, rows)),
      el('p', { class: 'muted small', text: t('watch.furthest.note', { cells: r.cells.length }) }),
    );
  }

  function neededBlock(r) {
    const fair = 1 / r.cells.length;
    const params = (d) => ({ bias: percent(r.bias), ratio: number(r.bias / fair, 2), power: percent(r.power), rounds: whole(d.rounds), count: d.rounds, at: percent(d.power_at_window) });
    return el(
      'div',
      { class: 'watch-needed', testid: 'watch-needed', 'data-rounds': r.needed.rounds, 'data-pocket-rounds': r.needed_pocket.rounds },
      el('p', { text: t(`watch.needed.${r.game}`, params(r.needed)) }),
      el('p', { class: 'muted', text: t(`watch.needed_pocket.${r.game}`, params(r.needed_pocket)) }),
    );
  }

  const tables = async () => {
    try {
      const all = await ctx.api('GET', '/tables');
      fill(tableList, all.filter((x) => x.game === 'roulette' || x.game === 'sicbo').map((x) => el('option', { value: x.table, label: `${t(`game.${x.game}`)} · ${x.table}` })));
    } catch {
      /* the list is a convenience: any table id may be typed */
    }
  };

  const run = async (id) => {
    const params = new URLSearchParams();
    for (const [name, input] of [['last', lastInput], ['alpha', alphaInput], ['power', powerInput], ['bias', biasInput]]) {
      if (input.value.trim() !== '') params.set(name, input.value.trim());
    }
    loading = true;
    failure = null;
    render();
    try {
      report = await ctx.api('GET', `/tables/${encodeURIComponent(id)}/watch?${params}`);
    } catch (err) {
      report = null;
      failure = err;
    } finally {
      loading = false;
      render();
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = tableInput.value.trim();
    if (!id) return tableInput.focus();
    if (/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(id) && location.hash !== `#/watch/${id}`) {
      history.replaceState(null, '', `#/watch/${id}`); // a link to this table's watch (no hashchange: no new page)
    }
    run(id);
  });

  offs.push(ctx.onLanguage(texts));
  texts();
  tables();
  if (tableId) run(tableId);
  else tableInput.focus();

  return {
    unmount() {
      offs.forEach((off) => typeof off === 'function' && off());
    },
  };
}

/** The header's link to the watch: shown to a signed-in admin only, its text in the page's language. */
function headerLink() {
  const link = document.getElementById('watch-link');
  const who = document.getElementById('who');
  if (!link || !who) return;
  const update = () => {
    const admin = Boolean(who.querySelector('.who-role[data-role="admin"]')) && !who.hidden;
    link.hidden = !admin;
    if (admin) link.textContent = translate('watch.nav');
  };
  new MutationObserver(update).observe(who, { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden'] });
}

headerLink();
