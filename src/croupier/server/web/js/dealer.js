// The dealer's console on a live table (docs/browser-ui.md): what to do next as the server says it (the table view's
// `dealer_prompt`: the next card and where it goes, a decision awaited, the bell, the pocket or the dice), and the
// inputs: a blackjack card by rank and suit buttons or typed (a card reader types `QH⏎`, also `10H`, `TH`), a pocket
// by a 0–36 pad or typed (`17⏎`), the dice by three face pickers or typed (`146⏎`). The last entry can be undone
// until the next step: a blackjack card the round has not used yet is taken back by the server
// (POST /api/tables/{id}/results/undo); a pocket or dice are staged here and only sent with `dealer-report`.
// Also a void spin or roll, voiding the round with a reason, and the bell. The server checks every input.

import { el, fill } from './dom.js';

const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
const SUITS = ['S', 'H', 'D', 'C'];
const SUIT_SYMBOL = { S: '♠', H: '♥', D: '♦', C: '♣' };
const FACES = [1, 2, 3, 4, 5, 6];
const REREAD_MS = 40;

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
  return raw.toUpperCase().replace(/\s+/g, '');
}

/** A pocket the pad may stage (0–36: the wheel's pockets, from the table's layout when the page has it). */
function isPocket(value, pockets) {
  return Number.isInteger(value) && pockets.includes(value);
}

function isDice(value) {
  return Array.isArray(value) && value.length === 3 && value.every((d) => FACES.includes(d));
}

/** A rank as a card shows it: a ten is `T` in the code and "10" on the face. */
const rankFace = (r) => (r === 'T' ? '10' : r);

export function mount(root, ctx) {
  const game = ctx.table.game;
  const tableId = ctx.table.table;
  const blackjack = game === 'blackjack';
  const layout = (ctx.rules && ctx.rules.layout) || {};
  const pockets = Array.isArray(layout.pockets) && layout.pockets.length ? layout.pockets : Array.from({ length: 37 }, (_, i) => i);
  const red = new Set(layout.red || []);
  let status = ctx.table.status;
  let prompt = ctx.table.dealer_prompt || null;
  let busy = false;
  let closed = false;
  let rereadTimer = null;
  let rank = null; // blackjack: the rank picked on the pad, waiting for its suit
  let staged = null; // roulette: a pocket; sic bo: three dice — shown, not sent until `dealer-report`
  const dice = [null, null, null]; // sic bo: the face picked on each die
  const log = [];

  // -- the elements ---------------------------------------------------------------------------------------------
  const title = el('h2', { id: 'dealer-console-title' });
  const help = el('p', { class: 'small muted dealer-help' });
  const promptLine = el('p', { class: 'dealer-prompt', testid: 'dealer-prompt', role: 'status', 'aria-live': 'polite' });
  const statusLine = el('p', { class: 'dealer-status small' });
  const close = el('button', { type: 'button', class: 'dealer-bell', testid: 'dealer-close-betting' });

  const inputLabel = el('label', { for: 'dealer-result-input' });
  const input = el('input', {
    id: 'dealer-result-input',
    testid: 'dealer-result-input',
    autocomplete: 'off',
    autocapitalize: 'characters',
    spellcheck: 'false',
    inputmode: blackjack ? 'text' : 'numeric',
    maxlength: 16,
  });
  const report = el('button', { type: 'button', class: 'primary', testid: 'dealer-report' });
  const form = el('form', { class: 'dealer-report' }, inputLabel, el('div', { class: 'inline' }, input, report));

  const undo = el('button', { type: 'button', class: 'dealer-undo', testid: 'dealer-undo' });
  const pending = el('p', { class: 'dealer-pending small', testid: blackjack ? 'dealer-reported' : 'dealer-staged', 'aria-live': 'polite' });
  const voidResult = blackjack ? null : el('button', { type: 'button', testid: 'dealer-void-result' });

  // The pads: rank and suit buttons (blackjack), a pocket pad (roulette), three face pickers (sic bo).
  const rankLabel = el('p', { class: 'dealer-pad-title', id: 'dealer-ranks-title' });
  const suitLabel = el('p', { class: 'dealer-pad-title', id: 'dealer-suits-title' });
  const rankButtons = RANKS.map((r) => el('button', { type: 'button', class: 'dealer-key', testid: `dealer-rank-${r}`, 'data-rank': r, 'aria-pressed': 'false', onclick: () => pickRank(r), text: rankFace(r) }));
  const suitButtons = SUITS.map((s) => el('button', { type: 'button', class: `dealer-key dealer-suit suit-${s}`, testid: `dealer-suit-${s}`, 'data-suit': s, onclick: () => pickSuit(s) }, el('span', { 'aria-hidden': 'true', text: SUIT_SYMBOL[s] }), el('span', { class: 'sr-only' })));
  const pocketLabel = el('p', { class: 'dealer-pad-title', id: 'dealer-pockets-title' });
  const pocketButtons = pockets.map((n) => el('button', { type: 'button', class: `dealer-key dealer-pocket ${n === 0 ? 'zero' : red.has(n) ? 'red' : 'black'}`, testid: `dealer-pocket-${n}`, 'data-pocket': n, 'aria-pressed': 'false', onclick: () => stage(n), text: String(n) }));
  const dieLabels = [0, 1, 2].map((i) => el('p', { class: 'dealer-pad-title', id: `dealer-die-${i + 1}-title` }));
  const dieButtons = [0, 1, 2].map((i) => FACES.map((f) => el('button', { type: 'button', class: 'dealer-key dealer-face', testid: `dealer-die-${i + 1}-${f}`, 'data-face': f, 'aria-pressed': 'false', onclick: () => pickFace(i, f), text: String(f) })));

  let pad;
  if (blackjack) {
    pad = el(
      'div',
      { class: 'dealer-pad dealer-pad--cards', testid: 'dealer-pad' },
      rankLabel,
      el('div', { class: 'dealer-keys ranks', role: 'group', 'aria-labelledby': 'dealer-ranks-title' }, rankButtons),
      suitLabel,
      el('div', { class: 'dealer-keys suits', role: 'group', 'aria-labelledby': 'dealer-suits-title' }, suitButtons),
    );
  } else if (game === 'roulette') {
    pad = el('div', { class: 'dealer-pad dealer-pad--pockets', testid: 'dealer-pad' }, pocketLabel, el('div', { class: 'dealer-keys pockets', role: 'group', 'aria-labelledby': 'dealer-pockets-title' }, pocketButtons));
  } else {
    pad = el(
      'div',
      { class: 'dealer-pad dealer-pad--dice', testid: 'dealer-pad' },
      [0, 1, 2].map((i) => [dieLabels[i], el('div', { class: 'dealer-keys faces', role: 'group', 'aria-labelledby': `dealer-die-${i + 1}-title`, testid: `dealer-die-${i + 1}` }, dieButtons[i])]),
    );
  }

  const reasonLabel = el('label', { for: 'dealer-void-reason' });
  const reason = el('input', { id: 'dealer-void-reason', testid: 'dealer-void-reason', maxlength: 200, autocomplete: 'off' });
  const voidRound = el('button', { type: 'button', class: 'danger', testid: 'dealer-void' });
  const voidForm = el('div', { class: 'dealer-void' }, reasonLabel, el('div', { class: 'inline' }, reason, voidRound));
  const logTitle = el('p', { class: 'dealer-pad-title', id: 'dealer-log-title' });
  const history = el('ol', { class: 'dealer-log small', 'aria-labelledby': 'dealer-log-title' });
  const consoleBox = el(
    'section',
    { class: 'dealer-console card', testid: 'dealer-console', 'data-game': game, 'aria-labelledby': 'dealer-console-title' },
    title,
    promptLine,
    statusLine,
    el('div', { class: 'inline dealer-actions' }, close, voidResult),
    help,
    form,
    pad,
    el('div', { class: 'inline dealer-undo-row' }, undo, pending),
    voidForm,
    logTitle,
    history,
  );
  fill(root, consoleBox);

  // -- talking to the server -----------------------------------------------------------------------------------
  const reread = () => {
    clearTimeout(rereadTimer);
    rereadTimer = setTimeout(async () => {
      try {
        const view = await ctx.api('GET', `/tables/${tableId}`);
        if (!closed) apply(view);
      } catch {
        /* app.js shows a lost table */
      }
    }, REREAD_MS);
  };

  function apply(view) {
    if (!view) return;
    if (view.status) status = view.status;
    if ('dealer_prompt' in view) prompt = view.dealer_prompt || null;
    render();
  }

  async function send(what, call) {
    if (busy) return null;
    busy = true;
    render();
    try {
      const answer = await call();
      log.unshift(what);
      log.splice(5);
      ctx.toast('info', what);
      return answer;
    } catch (err) {
      ctx.toast('error', ctx.errorText ? ctx.errorText(err) : err.detail);
      return null;
    } finally {
      busy = false;
      reread();
      render();
    }
  }

  const shown = (value) => (Array.isArray(value) ? value.join(' ') : String(value));

  async function sendResult(value) {
    const text = value === 'void' ? ctx.t('dealer.sent_void_result') : ctx.t('dealer.sent_result', { result: shown(value) });
    const answer = await send(text, () => ctx.api('POST', `/tables/${tableId}/results`, { result: value }));
    if (answer && value !== 'void') {
      staged = null;
      dice.fill(null);
    }
    return answer;
  }

  async function sendCard(code) {
    const answer = await sendResult(code);
    if (answer) {
      input.value = '';
      rank = null;
      render();
    }
    return answer;
  }

  // -- the inputs -------------------------------------------------------------------------------------------------
  function pickRank(r) {
    rank = rank === r ? null : r;
    render();
  }

  function pickSuit(s) {
    if (!rank) return;
    sendCard(`${rank}${s}`);
  }

  function stage(value) {
    staged = value;
    if (game === 'sicbo') value.forEach((d, i) => (dice[i] = d));
    render();
  }

  function pickFace(i, f) {
    dice[i] = f;
    staged = dice.every((d) => d !== null) ? [...dice] : null;
    render();
  }

  /** A typed pocket or dice: staged when valid (true), else the console says what it takes. */
  function stageTyped(value) {
    if (value === 'void') {
      doVoidResult();
      return false;
    }
    if (game === 'roulette' ? isPocket(value, pockets) : isDice(value)) {
      stage(value);
      input.value = '';
      return true;
    }
    ctx.toast('error', ctx.t(`dealer.bad.${game}`));
    return false;
  }

  function doVoidResult() {
    return sendResult('void');
  }

  /** Blackjack: the typed card goes to the server at once (it can be taken back while the round has not used it). */
  function sendTyped(value) {
    if (value === null) {
      input.focus();
      ctx.toast('error', ctx.t('dealer.enter_result'));
      return;
    }
    sendCard(value).then(() => input.focus());
  }

  /** Roulette and sic bo: what is staged goes to the server. */
  function sendStaged() {
    if (staged === null) {
      input.focus();
      ctx.toast('error', ctx.t('dealer.enter_result'));
      return;
    }
    sendResult(staged);
  }

  // Enter: a card is sent; a typed pocket or dice are staged, and Enter on an empty field sends what is staged.
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const value = parseResult(game, input.value);
    if (blackjack) return sendTyped(value);
    if (value !== null) return stageTyped(value);
    return sendStaged();
  });
  // Report: what is typed (staged first on roulette and sic bo), else what is staged.
  report.addEventListener('click', () => {
    const value = parseResult(game, input.value);
    if (blackjack) return sendTyped(value);
    if (value === 'void') return doVoidResult();
    if (value !== null && !stageTyped(value)) return;
    sendStaged();
  });

  undo.addEventListener('click', async () => {
    if (!blackjack) {
      staged = null;
      dice.fill(null);
      render();
      return;
    }
    const cards = (prompt && prompt.reported) || [];
    const last = cards[cards.length - 1];
    if (!last) return;
    await send(ctx.t('dealer.took_back', { card: last }), () => ctx.api('POST', `/tables/${tableId}/results/undo`, { card: last }));
  });
  if (voidResult) voidResult.addEventListener('click', doVoidResult);
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

  // A card reader (or the dealer) typing while the focus is elsewhere on the page: the keys go to the input.
  const READER_KEY = blackjack ? /^[0-9AJQKTSHDCajqktshdc]$/ : /^[0-9]$/;
  function onKey(e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || !READER_KEY.test(e.key)) return;
    const target = e.target;
    if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
    e.preventDefault();
    input.focus();
    input.value += e.key.toUpperCase();
  }
  document.addEventListener('keydown', onKey);

  // -- what the console shows -------------------------------------------------------------------------------------
  function target(card) {
    if (!card) return '';
    if (card.to === 'box') {
      const where = { box: card.box, hand: (card.hand ?? 0) + 1 };
      return ctx.t(card.face_up ? 'dealer.to.box' : 'dealer.to.box_down', where);
    }
    return ctx.t(`dealer.to.${card.to}`);
  }

  function promptText() {
    if (!prompt) return ctx.t('dealer.prompt.waiting');
    const card = prompt.card || null;
    switch (prompt.expect) {
      case 'bell':
        return card ? ctx.t('dealer.prompt.bell_first', { target: target(card) }) : ctx.t('dealer.prompt.bell');
      case 'card':
        return card ? ctx.t('dealer.prompt.card', { target: target(card) }) : ctx.t('dealer.prompt.waiting');
      case 'decision': {
        const turn = prompt.turn || {};
        return ctx.t('dealer.prompt.decision', { player: turn.player, box: turn.box, hand: (turn.hand ?? 0) + 1 });
      }
      default:
        return ctx.t(`dealer.prompt.${prompt.expect}`);
    }
  }

  function renderPrompt() {
    const card = (prompt && prompt.card) || null;
    promptLine.textContent = promptText();
    promptLine.dataset.expect = (prompt && prompt.expect) || '';
    promptLine.dataset.to = card ? card.to : '';
    promptLine.dataset.box = card && card.box != null ? String(card.box) : '';
    promptLine.dataset.hand = card && card.hand != null ? String(card.hand) : '';
  }

  function renderPending() {
    if (blackjack) {
      const cards = (prompt && prompt.reported) || [];
      pending.dataset.cards = cards.join(',');
      pending.textContent = cards.length ? ctx.t('dealer.reported', { cards: cards.join(' ') }) : ctx.t('dealer.reported_none');
      undo.disabled = busy || !cards.length;
      undo.textContent = cards.length ? ctx.t('dealer.undo_card', { card: cards[cards.length - 1] }) : ctx.t('dealer.undo');
      return;
    }
    pending.dataset.result = staged === null ? '' : Array.isArray(staged) ? staged.join(',') : String(staged);
    pending.textContent = staged === null ? ctx.t('dealer.staged_none') : ctx.t('dealer.staged', { result: shown(staged) });
    undo.disabled = busy || (staged === null && dice.every((d) => d === null));
    undo.textContent = ctx.t('dealer.undo');
  }

  function renderPads() {
    if (blackjack) {
      rankLabel.textContent = ctx.t('dealer.pad.ranks');
      suitLabel.textContent = rank ? ctx.t('dealer.pad.suits_for', { rank: rankFace(rank) }) : ctx.t('dealer.pad.suits');
      for (const b of rankButtons) {
        b.setAttribute('aria-pressed', String(b.dataset.rank === rank));
        b.disabled = busy;
      }
      for (const b of suitButtons) {
        b.lastElementChild.textContent = ctx.t(`dealer.suit.${b.dataset.suit}`);
        b.disabled = busy || !rank;
      }
    } else if (game === 'roulette') {
      pocketLabel.textContent = ctx.t('dealer.pad.pockets');
      for (const b of pocketButtons) b.setAttribute('aria-pressed', String(staged === Number(b.dataset.pocket)));
    } else {
      dieLabels.forEach((node, i) => (node.textContent = ctx.t('dealer.pad.die', { n: i + 1 })));
      dieButtons.forEach((buttons, i) => buttons.forEach((b) => b.setAttribute('aria-pressed', String(dice[i] === Number(b.dataset.face)))));
    }
  }

  function render() {
    title.textContent = ctx.t('dealer.title');
    help.textContent = ctx.t(`dealer.help.${game}`);
    statusLine.textContent = ctx.t('dealer.status', { phase: ctx.t(`phase.${status || 'waiting'}`) });
    statusLine.dataset.phase = status || '';
    renderPrompt();
    inputLabel.textContent = ctx.t(`dealer.input.${game}`);
    input.placeholder = ctx.t(`dealer.placeholder.${game}`);
    report.textContent = blackjack ? ctx.t('dealer.report') : ctx.t('dealer.send');
    if (voidResult) voidResult.textContent = ctx.t(`dealer.void_result.${game}`);
    close.textContent = ctx.t('dealer.close_betting');
    reasonLabel.textContent = ctx.t('dealer.void_reason');
    voidRound.textContent = ctx.t('dealer.void');
    logTitle.textContent = ctx.t('dealer.log');
    for (const b of [report, voidResult, voidRound]) if (b) b.disabled = busy;
    close.disabled = busy || status !== 'betting';
    if (!blackjack) report.disabled = busy || status !== 'playing';
    if (voidResult) voidResult.disabled = busy || status !== 'playing';
    renderPads();
    renderPending();
    fill(history, log.length ? log.map((line) => el('li', { text: line })) : el('li', { class: 'muted', text: ctx.t('dealer.log_empty') }));
  }

  ctx.onLanguage(render);
  render();

  return {
    update(view) {
      apply(view);
    },
    event(e) {
      if (e.type === 'betting_open') status = 'betting';
      else if (e.type === 'betting_closed') status = 'playing';
      else if (e.type === 'settled') status = 'settled';
      else if (e.type === 'void') status = 'voided';
      render();
      reread(); // the prompt moves on with every event (waiting_for_card among them): the server says what comes next
    },
    unmount() {
      closed = true;
      clearTimeout(rereadTimer);
      document.removeEventListener('keydown', onKey);
      root.replaceChildren();
    },
  };
}
