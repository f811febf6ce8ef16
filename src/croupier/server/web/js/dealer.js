// The dealer's console on a live table: report the result (a roulette pocket 0–36, three sic bo dice, a blackjack
// card code such as KD) or a void spin / roll, void the round with a reason, and ring the bell (close betting).
// POST /api/tables/{id}/results, /void and /close-betting; the server checks every input and answers with the rule.

import { el, fill } from './dom.js';

/** The dealer's typed result as the server takes it: a number, a list of dice, a card code or "void". */
export function parseResult(game, text) {
  const raw = String(text || '').trim();
  if (!raw) return null;
  if (raw.toLowerCase() === 'void') return 'void';
  if (game === 'roulette') return /^-?\d+$/.test(raw) ? Number(raw) : raw;
  if (game === 'sicbo') {
    const parts = raw.split(/[\s,;/-]+/).filter(Boolean);
    if (parts.length === 1 && /^\d{3}$/.test(parts[0])) return parts[0].split('').map(Number);
    return parts.every((p) => /^-?\d+$/.test(p)) ? parts.map(Number) : raw;
  }
  return raw.toUpperCase();
}

export function mount(root, ctx) {
  const game = ctx.table.game;
  const tableId = ctx.table.table;
  let status = ctx.table.status;
  let busy = false;
  const log = [];

  const title = el('h2');
  const help = el('p', { class: 'small muted' });
  const statusLine = el('p', { class: 'dealer-status', 'aria-live': 'polite' });
  const inputLabel = el('label', { for: 'dealer-result-input' });
  const input = el('input', {
    id: 'dealer-result-input',
    testid: 'dealer-result-input',
    autocomplete: 'off',
    inputmode: game === 'blackjack' ? 'text' : 'numeric',
    maxlength: 16,
  });
  const report = el('button', { type: 'submit', class: 'primary', testid: 'dealer-report' });
  const voidResult = game === 'blackjack' ? null : el('button', { type: 'button', testid: 'dealer-void-result' });
  const form = el('form', { class: 'dealer-report' }, inputLabel, el('div', { class: 'inline' }, input, report, voidResult));
  const close = el('button', { type: 'button', testid: 'dealer-close-betting' });
  const reasonLabel = el('label', { for: 'dealer-void-reason' });
  const reason = el('input', { id: 'dealer-void-reason', testid: 'dealer-void-reason', maxlength: 200, autocomplete: 'off' });
  const voidRound = el('button', { type: 'button', class: 'danger', testid: 'dealer-void' });
  const voidForm = el('div', { class: 'dealer-void' }, reasonLabel, el('div', { class: 'inline' }, reason, voidRound));
  const history = el('ol', { class: 'dealer-log small' });
  const consoleBox = el('section', { class: 'dealer-console card', testid: 'dealer-console', 'data-game': game }, title, help, statusLine, el('div', { class: 'inline' }, close), form, voidForm, history);
  fill(root, consoleBox);

  async function send(what, call) {
    if (busy) return;
    busy = true;
    render();
    try {
      const answer = await call();
      log.unshift(what);
      log.splice(8);
      ctx.toast('info', what);
      return answer;
    } catch (err) {
      ctx.toast('error', ctx.errorText ? ctx.errorText(err) : err.detail);
      return null;
    } finally {
      busy = false;
      render();
    }
  }

  async function doReport(value) {
    if (value === null) {
      input.focus();
      return ctx.toast('error', ctx.t('dealer.enter_result'));
    }
    const shown = Array.isArray(value) ? value.join(' ') : String(value);
    const answer = await send(ctx.t(value === 'void' ? 'dealer.sent_void_result' : 'dealer.sent_result', { result: shown }), () => ctx.api('POST', `/tables/${tableId}/results`, { result: value }));
    if (answer) {
      input.value = '';
      input.focus();
    }
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    doReport(parseResult(game, input.value));
  });
  if (voidResult) voidResult.addEventListener('click', () => doReport('void'));
  close.addEventListener('click', () => send(ctx.t('dealer.sent_close'), () => ctx.api('POST', `/tables/${tableId}/close-betting`)));
  voidRound.addEventListener('click', async () => {
    const why = reason.value.trim();
    if (!why) {
      reason.focus();
      return ctx.toast('error', ctx.t('dealer.reason_needed'));
    }
    const answer = await send(ctx.t('dealer.sent_void', { reason: why }), () => ctx.api('POST', `/tables/${tableId}/void`, { reason: why }));
    if (answer) reason.value = '';
  });

  function render() {
    title.textContent = ctx.t('dealer.title');
    help.textContent = ctx.t(`dealer.help.${game}`);
    statusLine.textContent = ctx.t('dealer.status', { phase: ctx.t(`phase.${status || 'waiting'}`) });
    statusLine.dataset.phase = status || '';
    inputLabel.textContent = ctx.t(`dealer.input.${game}`);
    input.placeholder = ctx.t(`dealer.placeholder.${game}`);
    report.textContent = ctx.t('dealer.report');
    if (voidResult) voidResult.textContent = ctx.t(`dealer.void_result.${game}`);
    close.textContent = ctx.t('dealer.close_betting');
    reasonLabel.textContent = ctx.t('dealer.void_reason');
    voidRound.textContent = ctx.t('dealer.void');
    for (const b of [report, voidResult, close, voidRound]) if (b) b.disabled = busy;
    close.disabled = busy || status !== 'betting';
    fill(history, log.map((line) => el('li', { text: line })));
  }

  ctx.onLanguage(render);
  render();

  return {
    update(view) {
      if (view && view.status) status = view.status;
      render();
    },
    event(e) {
      if (e.type === 'betting_open') status = 'betting';
      else if (e.type === 'betting_closed') status = 'playing';
      else if (e.type === 'settled') status = 'settled';
      else if (e.type === 'void') status = 'voided';
      else return;
      render();
    },
    unmount() {
      root.replaceChildren();
    },
  };
}
