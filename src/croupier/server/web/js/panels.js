// The panels under every table: its rules in plain words with the paytable and the limits (GET
// /api/tables/{id}/rules: catalogue keys with parameters, payouts and limits by bet kind), and the player's own
// recent rounds (GET /api/me/rounds?table=…): stakes, result and nets.

import { el, fill, money, odds } from './dom.js';

const RECALL = 10;

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

  const rulesBody = el('div', { class: 'panel-body' });
  const rulesSummary = el('summary');
  const rulesPanel = el('details', { class: 'panel card', testid: 'rules-panel', open: true }, rulesSummary, rulesBody);
  const recallBody = el('div', { class: 'panel-body' });
  const recallSummary = el('summary');
  const recallPanel = el('details', { class: 'panel card', testid: 'recall-panel', open: true }, recallSummary, recallBody);
  recallPanel.addEventListener('toggle', () => {
    if (recallPanel.open) loadRounds();
  });
  fill(root, el('div', { class: 'panels' }, rulesPanel, recallPanel));

  const shown = (v) => (v === null || v === undefined ? '—' : Array.isArray(v) ? v.join(', ') || '—' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const params = (p) => Object.fromEntries(Object.entries(p || {}).map(([k, v]) => [k, shown(v)]));

  function payoutText(payout) {
    if (payout === null || payout === undefined) return '';
    if (typeof payout !== 'object') return odds(payout);
    return Object.entries(payout)
      .map(([k, v]) => `${k}: ${typeof v === 'object' ? payoutText(v) : odds(v)}`)
      .join(' · ');
  }

  function renderRules() {
    rulesSummary.textContent = ctx.t('rules.title');
    if (!rules) return fill(rulesBody, el('p', { class: 'muted', text: ctx.t('rules.loading') }));
    const text = (rules.text || []).map((r) =>
      el('li', { 'data-rule': r.rule, 'data-key': r.key }, tr(r.key, params(r.params), ctx.t('rules.option', params(r.params))), ' ', el('span', { class: 'rule-id', text: `(${r.rule})` })),
    );
    const limits = (rules.limits && rules.limits.bets) || {};
    const rows = (rules.bets || []).map((b) => {
      const lim = limits[b.kind];
      return el(
        'tr',
        { 'data-bet': b.kind },
        el('th', { scope: 'row', text: kindName(b.kind) }),
        el('td', { class: 'num', text: payoutText(b.payout) }),
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
