// The panels under every table: its rules in plain words with the paytable and the limits (GET
// /api/tables/{id}/rules: catalogue keys with parameters, payouts and limits by bet kind), and the player's own
// recent rounds (GET /api/me/rounds?table=…): stakes, result and nets.

import { el, fill, money, odds } from './dom.js';

const RECALL = 10;
const WIDE = '(min-width: 900px)'; // the stylesheet's desktop width: the panels start open there, folded on a phone

export function mount(root, ctx) {
  const tableId = ctx.table.table;
  const game = ctx.table.game;
  const isPlayer = ctx.me && ctx.me.role === 'player';
  let rules = ctx.rules;
  let rounds = null;

  const tr = (key, params, fallback) => {
    const text = ctx.t(key, params);
    return text === key ? fallback ?? key : text;
  };
  const kindName = (kind) => tr(`${game === 'blackjack' ? 'bj' : game}.bet.${kind}`, {}, tr(`bj.kind.${kind}`, {}, kind));

  const wide = !globalThis.matchMedia || globalThis.matchMedia(WIDE).matches;
  const rulesBody = el('div', { class: 'panel-body' });
  const rulesSummary = el('summary');
  const rulesPanel = el('details', { class: 'panel card', testid: 'rules-panel', open: wide }, rulesSummary, rulesBody);
  const recallBody = el('div', { class: 'panel-body' });
  const recallSummary = el('summary');
  const recallPanel = el('details', { class: 'panel card', testid: 'recall-panel', open: wide }, recallSummary, recallBody);
  recallPanel.addEventListener('toggle', () => {
    if (recallPanel.open) loadRounds();
  });
  fill(root, el('div', { class: 'panels' }, rulesPanel, recallPanel));

  // Catalogue prefix of the game's own texts (bet kinds, payout labels, rule sentences).
  const prefix = game === 'blackjack' ? 'blackjack' : game;
  const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  /** A name the catalogues know for a server word (a side bet, a payout line), else the word itself. */
  const word = (w) => tr(`${prefix}.payout.${w}`, {}, kindName(w));
  const shown = (v) => (v === null || v === undefined ? '—' : Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? word(x) : String(x))).join(', ') || '—' : isObject(v) ? '' : String(v));
  const params = (p) => Object.fromEntries(Object.entries(p || {}).map(([k, v]) => [k, shown(v)]));

  /** The label of one line of a nested payout (`kind`'s `key`): "Total 9", "2 dice show it", "Perfect pair". */
  function payoutLabel(kind, key) {
    for (const k of [`${prefix}.payout.${kind}_level`, `${prefix}.payout.${kind}`]) {
      if (kind && ctx.t(k).includes('{key}')) return ctx.t(k, { key });
    }
    return word(key);
  }

  /** A payout: odds to 1 as text, or, for a payout by case (sic bo totals and singles, a side bet's hands), a small table. */
  function payoutCell(payout, kind) {
    if (payout === null || payout === undefined) return '';
    if (!isObject(payout)) return Array.isArray(payout) ? payout.map((p) => odds(p)).join(' / ') : odds(payout);
    return el(
      'table',
      { class: 'sub-paytable', 'data-bet': kind },
      el(
        'tbody',
        {},
        Object.entries(payout).map(([key, v]) =>
          el('tr', { 'data-key': key }, el('th', { scope: 'row', text: isObject(v) ? word(key) : payoutLabel(kind, key) }), el('td', { class: 'num' }, isObject(v) ? payoutCell(v, key) : odds(v))),
        ),
      ),
    );
  }

  /** One rule as a translated sentence; a nested parameter (a paytable) follows it as a small table. */
  function ruleLine(r) {
    const p = r.params || {};
    const fallback = ctx.t('rules.option', { name: p.name !== undefined ? word(String(p.name)) : r.key, value: shown(p.value) });
    const nested = Object.entries(p).filter(([, v]) => isObject(v));
    return el(
      'li',
      { 'data-rule': r.rule, 'data-key': r.key },
      tr(r.key, params(p), fallback),
      ' ',
      el('span', { class: 'rule-id', text: `(${r.rule})` }),
      nested.map(([, v]) => payoutCell(v, '')),
    );
  }

  function renderRules() {
    rulesSummary.textContent = ctx.t('rules.title');
    if (!rules) return fill(rulesBody, el('p', { class: 'muted', text: ctx.t('rules.loading') }));
    const text = (rules.text || []).map(ruleLine);
    const limits = (rules.limits && rules.limits.bets) || {};
    const rows = (rules.bets || []).map((b) => {
      const lim = limits[b.kind];
      return el(
        'tr',
        { 'data-bet': b.kind },
        el('th', { scope: 'row', text: kindName(b.kind) }),
        el('td', { class: 'num' }, payoutCell(b.payout, b.kind)),
        el('td', { class: 'num', text: lim ? `${money(lim.min)} – ${money(lim.max)}` : '' }),
      );
    });
    fill(
      rulesBody,
      el('h4', { text: ctx.t('rules.paytable', { rule: rules.odds_rule || '' }) }),
      el(
        'table',
        { class: 'paytable', 'data-rule': rules.odds_rule || '' },
        el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: ctx.t('rules.bet') }), el('th', { scope: 'col', text: ctx.t('rules.pays') }), el('th', { scope: 'col', text: ctx.t('rules.limits') }))),
        el('tbody', {}, rows),
      ),
      el('p', { class: 'small muted', text: ctx.t('rules.chip_unit', { unit: (rules.limits && rules.limits.chip_unit) || 1 }) }),
      el('h4', { text: ctx.t('rules.how') }),
      el('ul', { class: 'rules-text' }, text),
    );
  }

  function resultText(r) {
    if (r.result === null || r.result === undefined) return '';
    if (Array.isArray(r.result)) return ctx.t('recall.dice', { dice: r.result.join(' '), total: r.result.reduce((s, d) => s + d, 0) });
    return ctx.t('recall.pocket', { pocket: r.result });
  }

  function betText(b) {
    const bet = b.bet || {};
    if (bet.type) {
      const where = bet.numbers ? bet.numbers.join('-') : bet.index ?? bet.face ?? bet.total ?? '';
      return `${kindName(bet.type)} ${where}`.trim();
    }
    if (bet.box !== undefined) return ctx.t('recall.box', { box: bet.box });
    if (bet.action) return kindName(bet.action);
    return b.kind;
  }

  function renderRounds() {
    recallSummary.textContent = ctx.t('recall.title');
    if (!isPlayer) return fill(recallBody, el('p', { class: 'muted', text: ctx.t('recall.players_only') }));
    if (rounds === null) return fill(recallBody, el('p', { class: 'muted', text: ctx.t('recall.loading') }));
    if (!rounds.length) return fill(recallBody, el('p', { class: 'muted', text: ctx.t('recall.none') }));
    fill(
      recallBody,
      el(
        'ol',
        { class: 'recall-list' },
        rounds.map((r) =>
          el(
            'li',
            { class: 'recall-round', 'data-round': r.round, 'data-status': r.status, 'data-net': r.net ?? '' },
            el(
              'p',
              { class: 'recall-head' },
              el('strong', { text: ctx.t('recall.round', { round: r.round }) }),
              ' ',
              el('span', { class: 'badge', 'data-status': r.status, text: ctx.t(`recall.status.${r.status}`) }),
              ' ',
              el('span', { text: resultText(r) }),
            ),
            el(
              'ul',
              { class: 'recall-bets' },
              r.bets.map((b) =>
                el('li', { 'data-ref': b.ref, 'data-net': b.net ?? '' }, `${betText(b)} · ${ctx.t('recall.stake', { amount: money(b.amount) })}`, b.net === null || b.net === undefined ? '' : ` · ${money(b.net, true)}`),
              ),
            ),
            r.net === null || r.net === undefined ? null : el('p', { class: `recall-net ${r.net > 0 ? 'win' : r.net < 0 ? 'loss' : ''}`, text: ctx.t('recall.net', { net: money(r.net, true) }) }),
          ),
        ),
      ),
    );
  }

  async function loadRules() {
    if (rules) return renderRules();
    try {
      rules = await ctx.api('GET', `/tables/${tableId}/rules`);
    } catch {
      rules = null;
    }
    renderRules();
  }

  async function loadRounds() {
    if (!isPlayer) return renderRounds();
    try {
      rounds = await ctx.api('GET', `/me/rounds?table=${encodeURIComponent(tableId)}&last=${RECALL}`);
    } catch {
      rounds = rounds || [];
    }
    renderRounds();
  }

  ctx.onLanguage(() => {
    renderRules();
    renderRounds();
  });
  renderRules();
  renderRounds();
  loadRules();
  loadRounds();

  return {
    update() {},
    event(e) {
      if (['settled', 'void', 'bet_placed'].includes(e.type) && (e.type !== 'bet_placed' || (ctx.me && e.player === ctx.me.username))) loadRounds();
    },
    unmount() {
      root.replaceChildren();
    },
  };
}
