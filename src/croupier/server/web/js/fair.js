// Provably fair rounds (docs/fairness.md): the page's own check of a round's fairness record
// (GET /api/tables/{id}/rounds/{round}/fair), computed in the browser and not by the server: SHA-256 of the revealed
// seed against the commitment (WebCrypto), then the outcome derived again with the casino's generator — HMAC-SHA-256
// in counter mode over "croupier-fair-v1|label|inputs digest|counter", 64-bit big-endian words as BigInt, the
// engine's rejection mapping (top bits, retried while too large) and Fisher–Yates for a blackjack shoe — against the
// recorded pocket, dice or cards. `verifyControl` is the "verify" link and the download link of a round in a history.
// The player's own seed (`client_seed`, docs/fairness.md step 2) lives here too: remembered per browser
// (localStorage), checked as the server checks it (1 to 64 printable ASCII characters), and `mountSeed` is the table
// bar's control that shows the round's commitment and lets the player choose the seed the page sends with bets.

import { el, fill } from './dom.js';

export const VERSION = 'croupier-fair-v1';
const SUITS = ['S', 'H', 'D', 'C'];
const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];

function hexToBytes(hex) {
  if (typeof hex !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i += 1) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function sha256Hex(bytes) {
  return toHex(await crypto.subtle.digest('SHA-256', bytes));
}

/** The inputs' canonical encoding: the JSON array of [ref, seed] pairs in bet order, no spaces. */
export function encodeInputs(inputs) {
  return JSON.stringify((inputs || []).map(([ref, seed]) => [String(ref), String(seed)]));
}

/** SHA-256 of the seed's 32 bytes, as hex (null for a malformed seed). */
export async function commitment(seedHex) {
  const bytes = hexToBytes(seedHex);
  return bytes ? sha256Hex(bytes) : null;
}

/** The generator: an async function giving the next 64-bit word (a BigInt) for seed, label and inputs. */
export async function generator(seedHex, label, inputs) {
  const key = await crypto.subtle.importKey('raw', hexToBytes(seedHex), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const digest = await sha256Hex(new TextEncoder().encode(encodeInputs(inputs)));
  const prefix = new TextEncoder().encode(`${VERSION}|${label}|${digest}|`);
  let counter = 0n;
  let words = [];
  return async function next() {
    if (!words.length) {
      const message = new Uint8Array(prefix.length + 8);
      message.set(prefix);
      new DataView(message.buffer).setBigUint64(prefix.length, counter); // big-endian
      counter += 1n;
      const block = new DataView(await crypto.subtle.sign('HMAC', key, message));
      words = [0, 8, 16, 24].map((offset) => block.getBigUint64(offset));
    }
    return words.shift();
  };
}

/** A uniform integer in [0, n): the top bit_length(n) bits of a word, retried while ≥ n (the engine's randbelow). */
async function randbelow(next, n) {
  const bits = BigInt(n.toString(2).length);
  const bound = BigInt(n);
  for (;;) {
    const x = (await next()) >> (64n - bits);
    if (x < bound) return Number(x);
  }
}

export async function derivePocket(seedHex, label, inputs) {
  return randbelow(await generator(seedHex, label, inputs), 37);
}

export async function deriveDice(seedHex, label, inputs) {
  const next = await generator(seedHex, label, inputs);
  const dice = [];
  for (let i = 0; i < 3; i += 1) dice.push(1 + (await randbelow(next, 6)));
  return dice;
}

/** The canonical shoe: `decks` decks, each spades, hearts, diamonds, clubs, each A 2 … T J Q K. */
export function canonicalShoe(decks) {
  const deck = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));
  return Array.from({ length: decks }, () => deck).flat();
}

/** The shoe's order: Fisher–Yates of the canonical shoe, j = randbelow(i + 1) for i from the last down to 1. */
export async function deriveShoeOrder(seedHex, label, inputs, decks) {
  const next = await generator(seedHex, label, inputs);
  const cards = canonicalShoe(decks);
  for (let i = cards.length - 1; i > 0; i -= 1) {
    const j = await randbelow(next, i + 1);
    [cards[i], cards[j]] = [cards[j], cards[i]];
  }
  return cards;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Check a fairness record: `{state, derived, recorded}` with `state` one of `verified`, `commitment` (SHA-256 of the
 * seed is not the commitment: the seed or the commitment was changed), `outcome` (the recorded outcome is not the
 * derived one), `unrevealed` (no seed yet), `no_result` (a voided round), `missing` (a field is missing).
 */
export async function verifyRecord(record) {
  if (!record || typeof record !== 'object' || !record.label || !record.commitment || !record.game) return { state: 'missing' };
  if (!record.seed) return { state: 'unrevealed' };
  const derivedCommitment = await commitment(record.seed);
  if (derivedCommitment === null || derivedCommitment !== String(record.commitment).toLowerCase()) {
    return { state: 'commitment', derived: derivedCommitment, recorded: record.commitment };
  }
  const inputs = Array.isArray(record.inputs) ? record.inputs : [];
  if (record.game === 'blackjack') {
    if (!Array.isArray(record.cards) || !Number.isInteger(record.decks)) return { state: 'missing' };
    const order = await deriveShoeOrder(record.seed, record.label, inputs, record.decks);
    const derived = order.slice(0, record.cards.length);
    return { state: same(derived, record.cards) ? 'verified' : 'outcome', derived, recorded: record.cards };
  }
  if (record.result === null || record.result === undefined) return { state: 'no_result' };
  const derived = record.game === 'roulette'
    ? await derivePocket(record.seed, record.label, inputs)
    : await deriveDice(record.seed, record.label, inputs);
  return { state: same(derived, record.result) ? 'verified' : 'outcome', derived, recorded: record.result };
}

const show = (value) => (Array.isArray(value) ? (value.length > 8 ? `${value.slice(0, 8).join(' ')} …` : value.join(' ')) : String(value));

/** The label of the shoe a blackjack round's deal would shuffle: `B1.7` → `B1.shoe7` (docs/fairness.md). */
export function shoeLabelOf(roundId) {
  return String(roundId || '').replace(/\.(\d+)$/, '.shoe$1');
}

/**
 * The player's own seeds among a record's inputs: `mine` is the player's bets of the round (`{ref, seed}`), and an
 * input counts when both its bet ref and its seed are one of them. Only inputs fixed in this round are compared (a
 * roulette or sic bo round's own; a blackjack shoe's when this round's deal shuffled it): bet refs start again each
 * round. The distinct seeds, in input order.
 */
export function ownSeeds(record, roundId, mine) {
  if (!record || !Array.isArray(record.inputs) || !Array.isArray(mine) || !mine.length) return [];
  const thisRound = record.game === 'blackjack' ? record.label === shoeLabelOf(roundId) : record.label === roundId;
  if (!thisRound) return [];
  const seeds = [];
  for (const [ref, seed] of record.inputs) {
    if (mine.some((m) => m.ref === ref && m.seed === seed) && !seeds.includes(seed)) seeds.push(seed);
  }
  return seeds;
}

/**
 * The "verify" control of a round in a history: a button that fetches the round's fairness record and checks it here
 * (`fair-verify`, `data-round`), the outcome (`fair-result`, `data-state`; once verified `data-yours` says whether
 * one of the player's own seeds, `mine` = the round's bets as `{ref, seed}`, was an input), and a link that downloads
 * the record for `croupier verify` (`fair-download`).
 */
export function verifyControl(ctx, tableId, roundId, mine = []) {
  const result = el('span', { class: 'fair-result', testid: 'fair-result', role: 'status', 'data-state': '' });
  const download = el('a', { class: 'fair-download', testid: 'fair-download', hidden: true, download: `${roundId}.fair.json`, text: ctx.t('fair.download') });
  const button = el('button', { type: 'button', class: 'link fair-verify', testid: 'fair-verify', 'data-round': roundId, text: ctx.t('fair.verify'), 'aria-label': ctx.t('fair.verify_round', { round: roundId }) });
  const say = (state, params = {}, yours = null) => {
    result.dataset.state = state;
    result.dataset.yours = yours === null ? '' : yours.length ? 'true' : 'false';
    const quoted = (yours || []).map((seed) => ctx.t('fair.quote', { seed })).join(', ');
    const own = yours && yours.length ? ` ${ctx.t('fair.state.yours', { seeds: quoted, count: yours.length })}` : '';
    result.textContent = ctx.t(`fair.state.${state}`, params) + own;
  };
  button.addEventListener('click', async () => {
    say('checking');
    let record;
    try {
      record = await ctx.api('GET', `/tables/${encodeURIComponent(tableId)}/rounds/${encodeURIComponent(roundId)}/fair`);
    } catch (err) {
      say('unavailable', { detail: (err && err.detail) || '' });
      return;
    }
    const blob = new Blob([JSON.stringify(record, null, 2)], { type: 'application/json' });
    if (download.href) URL.revokeObjectURL(download.href);
    download.href = URL.createObjectURL(blob);
    download.hidden = false;
    if (!globalThis.crypto || !crypto.subtle) {
      say('no_crypto');
      return;
    }
    try {
      const out = await verifyRecord(record);
      const yours = out.state === 'verified' ? ownSeeds(record, roundId, mine) : null;
      say(out.state, { derived: show(out.derived), recorded: show(out.recorded) }, yours);
    } catch {
      say('missing');
    }
  });
  return el('span', { class: 'fair-verify-box' }, button, ' ', result, ' ', download);
}

// -- the player's own seed ----------------------------------------------------------------------------------------

/** The longest player seed the server takes (`croupier.fair.MAX_CLIENT_SEED`). */
export const MAX_CLIENT_SEED = 64;
const SEED_KEY = 'croupier.client_seed';
const RANDOM_SEED_BYTES = 16; // a new random seed: 16 bytes, 32 hex digits
const SHORT_HEX = 8; // a commitment's short form: its first 8 hex digits
const seedListeners = new Set();
let memorySeed = null; // where storage is refused (a private window): the seed lasts for the page

/**
 * Why `value` is not a player seed, or null when it is one: the server's check (`croupier.fair.check_client_seed`,
 * 1 to 64 printable ASCII characters, space to tilde). `'empty'`, `'chars'` (a character outside printable ASCII:
 * an accented letter, a Chinese character, a tab) or `'long'`.
 */
export function seedProblem(value) {
  if (typeof value !== 'string' || value.length === 0) return 'empty';
  if (!/^[\x20-\x7e]+$/.test(value)) return 'chars';
  if (value.length > MAX_CLIENT_SEED) return 'long';
  return null;
}

/** A new random seed: 16 bytes of `crypto.getRandomValues`, as 32 lower-case hex digits. */
export function randomSeed() {
  const bytes = new Uint8Array(RANDOM_SEED_BYTES);
  crypto.getRandomValues(bytes);
  return toHex(bytes);
}

function storeSeed(value) {
  memorySeed = value;
  try {
    localStorage.setItem(SEED_KEY, value);
  } catch {
    /* a private window may refuse storage: the seed lasts for the page */
  }
}

/**
 * The seed the page sends with the player's bets at a provably fair table: the one remembered in this browser
 * (localStorage `croupier.client_seed`), else a new random one (then remembered).
 */
export function playerSeed() {
  let value = null;
  try {
    value = localStorage.getItem(SEED_KEY);
  } catch {
    value = null;
  }
  if (value === null || seedProblem(value)) value = memorySeed;
  if (value === null || seedProblem(value)) {
    value = randomSeed();
    storeSeed(value);
  }
  return value;
}

/** Remember `value` as the player's seed; returns null, or the problem (`seedProblem`) that refused it. */
export function setPlayerSeed(value) {
  const problem = seedProblem(value);
  if (problem) return problem;
  storeSeed(value);
  for (const fn of [...seedListeners]) fn(value);
  return null;
}

/** Call `fn(seed)` after every change of the player's seed; returns the function that stops it. */
export function onPlayerSeed(fn) {
  seedListeners.add(fn);
  return () => seedListeners.delete(fn);
}

/**
 * The seed to send with a bet at a table whose latest view (or `betting_open` event) published `fair` — the round's
 * commitment — or null where it published none (a live table: nothing is derived, no seed is sent).
 */
export function seedForBet(fair) {
  return fair && fair.commitment ? playerSeed() : null;
}

/** `bet` with `seed` as its `client_seed` (none when `seed` is null), any earlier `client_seed` left out. */
export function withSeed(bet, seed) {
  const { client_seed: _earlier, ...rest } = bet || {};
  return seed ? { ...rest, client_seed: seed } : rest;
}

const shortHex = (hex) => (hex && hex.length > SHORT_HEX ? `${hex.slice(0, SHORT_HEX)}…` : hex || '');
let seedControls = 0; // the control's element ids are unique on the page

/**
 * The table bar's fairness control (`fair-seed`, a `<details>`): on a provably fair table (the view's or the
 * `betting_open` event's `fair`), the commitment of the round (of the shoe, blackjack) in short form in its summary
 * and in full when open; for a player, the seed the page sends with the bets, a field to choose one (checked as the
 * server does; a refused one is said why and not used) and a new random seed. Hidden on a table without a
 * commitment (a live table). `{update(view), event(e), unmount()}`.
 */
export function mountSeed(root, ctx) {
  const isPlayer = Boolean(ctx.me && ctx.me.role === 'player');
  const game = ctx.table && ctx.table.game;
  const n = (seedControls += 1);
  const ids = { input: `fair-seed-input-${n}`, help: `fair-seed-help-${n}`, error: `fair-seed-error-${n}` };
  const S = { fair: (ctx.table && ctx.table.fair) || null, round: (ctx.table && ctx.table.round) || null, problem: null };
  const bag = [];

  const summaryLabel = el('span', { class: 'fair-summary-label' });
  const shortCommitment = el('code', { class: 'fair-commitment', testid: 'fair-commitment' });
  const summarySeed = el('span', { class: 'fair-summary-seed' });
  const summary = el('summary', { class: 'fair-summary' }, summaryLabel, ' ', shortCommitment, isPlayer ? [' ', summarySeed] : null);
  const what = el('span', { class: 'fair-what' });
  const full = el('code', { class: 'fair-hex', testid: 'fair-commitment-full' });
  const shoeNote = el('p', { class: 'small muted fair-shoe-note', testid: 'fair-shoe-note', hidden: true });
  const body = el('div', { class: 'fair-body' }, el('p', { class: 'fair-line' }, what, ' ', full), shoeNote);

  const valueLabel = el('span', { class: 'fair-value-label' });
  const value = el('code', { class: 'fair-hex fair-seed-value', testid: 'fair-seed-value' });
  const inputLabel = el('label', { for: ids.input });
  const input = el('input', {
    id: ids.input,
    testid: 'fair-seed-input',
    type: 'text',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    'aria-describedby': `${ids.error} ${ids.help}`,
  });
  const use = el('button', { type: 'submit', testid: 'fair-seed-use' });
  const random = el('button', { type: 'button', testid: 'fair-seed-random' });
  const error = el('p', { id: ids.error, class: 'fair-seed-error', testid: 'fair-seed-error', role: 'alert', hidden: true });
  const help = el('p', { id: ids.help, class: 'small muted' });
  const form = el('form', { class: 'fair-form', testid: 'fair-seed-form', novalidate: true }, inputLabel, el('div', { class: 'inline' }, input, use, random));
  if (isPlayer) body.append(el('p', { class: 'fair-line', 'aria-live': 'polite' }, valueLabel, ' ', value), form, error, help);

  const details = el('details', { class: 'fair-seed', testid: 'fair-seed', hidden: true }, summary, body);
  fill(root, details);

  function showProblem(problem) {
    S.problem = problem;
    error.hidden = !problem;
    error.dataset.reason = problem || '';
    error.textContent = problem ? ctx.t(`fair.seed.error.${problem}`, { max: MAX_CLIENT_SEED }) : '';
    if (problem) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  }

  function choose(text) {
    const problem = setPlayerSeed(text);
    showProblem(problem);
    if (problem) return false;
    render();
    return true;
  }

  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!choose(input.value)) input.focus();
  });
  // A seed typed and left (a click on Confirm next) is used as if submitted; a refused one keeps the seed in use.
  input.addEventListener('change', () => {
    if (input.value !== playerSeed()) choose(input.value);
  });
  random.addEventListener('click', () => {
    const seed = randomSeed();
    setPlayerSeed(seed);
    input.value = seed;
    showProblem(null);
    render();
  });
  bag.push(
    onPlayerSeed(() => render()),
    ctx.onLanguage(() => {
      if (S.problem) showProblem(S.problem);
      render();
    }),
  );
  const onStorage = (ev) => {
    if (ev.key === SEED_KEY) render(); // chosen in another tab of this browser
  };
  globalThis.addEventListener('storage', onStorage);

  function render() {
    const fair = S.fair;
    details.hidden = !(fair && fair.commitment);
    if (details.hidden) return;
    const shoe = Boolean(fair.shoe);
    details.dataset.label = fair.label || '';
    summaryLabel.textContent = ctx.t('fair.seed.summary');
    shortCommitment.textContent = shortHex(fair.commitment);
    shortCommitment.dataset.commitment = fair.commitment;
    shortCommitment.title = fair.commitment;
    what.textContent = ctx.t(shoe ? 'fair.seed.commitment_shoe' : 'fair.seed.commitment_round', { label: fair.label || '' });
    full.textContent = fair.commitment;
    // Blackjack: the seeds sent in the round whose deal shuffles the shoe are its inputs; later rounds deal on.
    const shuffles = shoe && S.round ? shoeLabelOf(S.round) === fair.label : null;
    shoeNote.hidden = !shoe || game !== 'blackjack' || shuffles === null;
    shoeNote.dataset.shuffles = shuffles ? 'true' : 'false';
    if (!shoeNote.hidden) {
      shoeNote.textContent = shuffles ? ctx.t('fair.seed.shoe_now') : ctx.t('fair.seed.shoe_fixed', { round: String(fair.label || '').replace(/\.shoe(\d+)$/, '.$1') });
    }
    if (!isPlayer) return;
    const seed = playerSeed();
    summarySeed.textContent = ctx.t('fair.seed.summary_seed', { seed: shortHex(seed) });
    valueLabel.textContent = ctx.t('fair.seed.sent');
    value.textContent = seed;
    value.dataset.seed = seed;
    inputLabel.textContent = ctx.t('fair.seed.own');
    use.textContent = ctx.t('fair.seed.use');
    random.textContent = ctx.t('fair.seed.random');
    help.textContent = ctx.t('fair.seed.help', { max: MAX_CLIENT_SEED });
    if (document.activeElement !== input && !S.problem) input.value = seed;
  }

  function follow(fair, round) {
    S.fair = fair || null;
    if (round) S.round = round;
    render();
  }

  render();
  return {
    update(view) {
      if (view) follow(view.fair, view.round);
    },
    event(e) {
      if (e && e.type === 'betting_open') follow(e.fair, e.round);
    },
    unmount() {
      bag.forEach((f) => f());
      globalThis.removeEventListener('storage', onStorage);
      root.replaceChildren();
    },
  };
}
