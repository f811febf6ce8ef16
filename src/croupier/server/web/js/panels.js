// The panels under every table: its rules (GET /api/tables/{id}/rules: catalogue keys with parameters, payouts and
// limits by bet kind), first the few lines a player needs and the full listing behind a "more", and the player's own
// recent rounds (GET /api/me/rounds?table=…): stakes, result and nets. Every payout and every rule comes from the
// server; every amount is shown through money().

import { el, fill, money, odds } from './dom.js';
import { verifyControl } from './fair.js';

const RECALL = 10;
const WIDE = '(min-width: 900px)'; // the stylesheet's desktop width: the panels start open there, folded on a phone
const SUMMARY_LINES = 9; // about the lines a player needs before the "more"

// The rule sentences a player needs first, by the server's catalogue key (its option name for blackjack), in the
// order they are shown; only those the server sends for this table are shown (the rest stay under "more").
const ESSENTIAL = {
  roulette: ['roulette.rule.winning', 'roulette.rule.zero', 'roulette.rule.betting'],
  sicbo: ['sicbo.rule.small', 'sicbo.rule.big', 'sicbo.rule.triples', 'sicbo.rule.single'],
  blackjack: ['dealer_soft_17', 'procedure', 'double_on', 'surrender', 'dealing_device'],
};
// Blackjack's payments the summary names (the server's `paytable` has them where the table pays them); the last three
// are no bet kind and get rows of their own in the full paytable.
const PAYMENTS = ['blackjack', 'insurance', 'five_card', 'special_bonus'];

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
  // The "more" keeps its state across re-renders (a language switch, a late rules answer).
  const more = el('details', { class: 'rules-more', testid: 'rules-more' });
  const moreSummary = el('summary');
  const moreBody = el('div', { class: 'rules-more-body' });
  more.append(moreSummary, moreBody);
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

  /** A payout as one short text: "35:1", or the range of a payout by case ("6:1 – 50:1"). */
  function payoutShort(payout) {
    if (!isObject(payout)) return odds(payout);
    const ratio = (v) => {
      const [a, b = '1'] = String(v).split('/');
      return Number(a) / Number(b);
    };
    const flat = Object.values(payout).filter((v) => !isObject(v));
    if (!flat.length) return '';
    const sorted = [...flat].sort((a, b) => ratio(a) - ratio(b));
    const [low, high] = [sorted[0], sorted[sorted.length - 1]];
    return ratio(low) === ratio(high) ? odds(low) : `${odds(low)} – ${odds(high)}`;
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

  /** The rule sentence's catalogue key stripped to what ESSENTIAL names (a blackjack option's name). */
  const essentialName = (key) => (game === 'blackjack' ? key.replace(/^blackjack\.rule\./, '').split('.')[0] : key);

  /** The few lines a player needs: the stake range, what the main payments pay, and the table's key rules. */
  function summaryLines() {
    const lines = [];
    const limits = (rules.limits && rules.limits.bets) || {};
    const ranges = limits.main ? [limits.main] : Object.values(limits);
    if (ranges.length) {
      const min = Math.min(...ranges.map((b) => b.min));
      const max = Math.max(...ranges.map((b) => b.max));
      lines.push(el('li', { 'data-line': 'limits', 'data-min': min, 'data-max': max, text: ctx.t(limits.main ? 'lobby.limits_main' : 'lobby.limits', { min: money(min), max: money(max) }) }));
    }
    const paytable = rules.paytable || {};
    if (game === 'blackjack') {
      for (const kind of PAYMENTS) {
        if (paytable[kind] === undefined) continue;
        lines.push(el('li', { 'data-line': `pays-${kind}`, 'data-payout': String(paytable[kind]), text: ctx.t(`rules.pays_${kind}`, { odds: odds(paytable[kind]) }) }));
      }
    } else {
      const list = (rules.bets || []).map((b) => `${kindName(b.kind)} ${payoutShort(b.payout)}`).join(' · ');
      if (list) lines.push(el('li', { 'data-line': 'pays', text: ctx.t('rules.pays_line', { list }) }));
    }
    const wanted = ESSENTIAL[game] || [];
    const essential = (rules.text || []).filter((r) => wanted.includes(essentialName(r.key)));
    essential.sort((a, b) => wanted.indexOf(essentialName(a.key)) - wanted.indexOf(essentialName(b.key)));
    for (const r of essential) {
      if (lines.length >= SUMMARY_LINES) break;
      lines.push(ruleLine(r));
    }
    return lines;
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
        el('td', { class: 'num' }, lim ? [el('span', { class: 'amount', text: money(lim.min) }), ' – ', el('span', { class: 'amount', text: money(lim.max) })] : ''),
      );
    });
    const known = new Set((rules.bets || []).map((b) => b.kind));
    const payments = game === 'blackjack' ? PAYMENTS.filter((k) => !known.has(k) && rules.paytable && rules.paytable[k] !== undefined) : [];
    for (const kind of payments) {
      rows.push(el('tr', { 'data-bet': kind, class: 'payment' }, el('th', { scope: 'row', text: ctx.t(`rules.payment.${kind}`) }), el('td', { class: 'num', text: odds(rules.paytable[kind]) }), el('td', {})));
    }
    moreSummary.textContent = ctx.t('rules.more');
    fill(
      moreBody,
      el('h4', { text: ctx.t('rules.paytable', { rule: rules.odds_rule || '' }) }),
      el(
        'table',
        { class: 'paytable', 'data-rule': rules.odds_rule || '' },
        el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: ctx.t('rules.bet') }), el('th', { scope: 'col', text: ctx.t('rules.pays') }), el('th', { scope: 'col', text: ctx.t('rules.limits') }))),
        el('tbody', {}, rows),
      ),
      el('p', { class: 'small muted', text: ctx.t('rules.chip_unit', { unit: money((rules.limits && rules.limits.chip_unit) || 1) }) }),
      el('h4', { text: ctx.t('rules.how') }),
      el('ul', { class: 'rules-text' }, text),
    );
    fill(rulesBody, el('h4', { class: 'rules-summary-title', text: ctx.t('rules.summary') }), el('ul', { class: 'rules-summary', testid: 'rules-summary' }, summaryLines()), more);
  }

  function resultText(r) {
    const res = r.result;
    if (res === null || res === undefined) return '';
    if (Array.isArray(res)) return ctx.t('recall.dice', { dice: res.join(' '), total: res.reduce((s, d) => s + d, 0) });
    if (typeof res === 'object') {
      const total = res.dealer && typeof res.dealer === 'object' ? res.dealer.total : res.total;
      return total === undefined || total === null ? '' : ctx.t('recall.result_dealer', { total });
    }
    return ctx.t('recall.pocket', { pocket: res });
  }

  /** What a bet was, in the page's language: its kind and where it lies ("Straight 17", "Box 3 · Main bet"). */
  function betText(b) {
    const bet = b.bet || {};
    if (bet.type) {
      const where = bet.numbers ? bet.numbers.join('-') : bet.index ?? bet.face ?? bet.total ?? '';
      return `${kindName(bet.type)} ${where}`.trim();
    }
    if (bet.box !== undefined) {
      const kinds = [];
      if (bet.main) kinds.push(kindName('main'));
      for (const kind of Object.keys(bet.side || {})) kinds.push(kindName(kind));
      if (bet.streak && Object.keys(bet.streak).length) kinds.push(kindName('streak'));
      return [ctx.t('recall.box', { box: bet.box }), ...kinds].join(' · ');
    }
    if (bet.action) return tr(`bj.action.${bet.action}`, {}, kindName(bet.action));
    return kindName(b.kind);
  }

  /** The player's seeds sent with the round's bets, `{ref, seed}` (the verify says when one was an input). */
  const ownSeeds = (r) => r.bets.filter((b) => b.bet && typeof b.bet.client_seed === 'string').map((b) => ({ ref: b.ref, seed: b.bet.client_seed }));

  const netClass = (net) => (net > 0 ? 'win' : net < 0 ? 'loss' : 'push');

  function renderRounds() {
    recallSummary.textContent = ctx.t('recall.title');
    if (!isPlayer) return fill(recallBody, el('p', { class: 'muted', text: ctx.t('recall.players_only') }));
    if (rounds === null) return fill(recallBody, el('p', { class: 'muted', text: ctx.t('recall.loading') }));
    if (!rounds.length) return fill(recallBody, el('p', { class: 'muted', text: ctx.t('recall.none') }));
    // No list markers: a round's number never runs into the amount before it ("-400" then "2.").
    fill(
      recallBody,
      el(
        'ul',
        { class: 'recall-list' },
        rounds.map((r) =>
          el(
            'li',
            { class: 'recall-round', 'data-round': r.round, 'data-status': r.status, 'data-net': r.net ?? '' },
            el(
              'p',
              { class: 'recall-head' },
              el('span', { class: 'recall-label', text: ctx.t('recall.round_label') }),
              ' ',
              el('code', { class: 'round-id', text: r.round }),
              ' ',
              el('span', { class: 'badge', 'data-status': r.status, text: ctx.t(`recall.status.${r.status}`) }),
              ' ',
              el('span', { class: 'recall-result', text: resultText(r) }),
              // An RNG table's finished round: check its fairness record here (docs/fairness.md).
              !ctx.table.live && (r.status === 'settled' || r.status === 'voided') ? [' ', verifyControl(ctx, tableId, r.round, ownSeeds(r))] : null,
            ),
            el(
              'table',
              { class: 'recall-bets' },
              el('thead', {}, el('tr', {}, el('th', { scope: 'col', text: ctx.t('recall.bets') }), el('th', { scope: 'col', class: 'num', text: ctx.t('recall.stake_label') }), el('th', { scope: 'col', class: 'num', text: ctx.t('recall.net_label') }))),
              el(
                'tbody',
                {},
                r.bets.map((b) =>
                  el(
                    'tr',
                    { 'data-ref': b.ref, 'data-net': b.net ?? '', 'data-amount': b.amount },
                    el('td', { class: 'recall-kind', text: betText(b) }),
                    el('td', { class: 'num amount', text: money(b.amount) }),
                    el('td', { class: `num amount ${b.net === null || b.net === undefined ? '' : netClass(b.net)}`, text: b.net === null || b.net === undefined ? '—' : money(b.net, true) }),
                  ),
                ),
              ),
            ),
            r.net === null || r.net === undefined ? null : el('p', { class: `recall-net ${netClass(r.net)}`, text: ctx.t('recall.net', { net: money(r.net, true) }) }),
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
