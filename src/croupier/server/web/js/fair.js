// Provably fair rounds (docs/fairness.md): the page's own check of a round's fairness record
// (GET /api/tables/{id}/rounds/{round}/fair), computed in the browser and not by the server: SHA-256 of the revealed
// seed against the commitment (WebCrypto), then the outcome derived again with the casino's generator — HMAC-SHA-256
// in counter mode over "croupier-fair-v1|label|inputs digest|counter", 64-bit big-endian words as BigInt, the
// engine's rejection mapping (top bits, retried while too large) and Fisher–Yates for a blackjack shoe — against the
// recorded pocket, dice or cards. `verifyControl` is the "verify" link and the download link of a round in a history.

import { el } from './dom.js';

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

/**
 * The "verify" control of a round in a history: a button that fetches the round's fairness record and checks it here
 * (`fair-verify`, `data-round`), the outcome (`fair-result`, `data-state`), and a link that downloads the record for
 * `croupier verify` (`fair-download`).
 */
export function verifyControl(ctx, tableId, roundId) {
  const result = el('span', { class: 'fair-result', testid: 'fair-result', role: 'status', 'data-state': '' });
  const download = el('a', { class: 'fair-download', testid: 'fair-download', hidden: true, download: `${roundId}.fair.json`, text: ctx.t('fair.download') });
  const button = el('button', { type: 'button', class: 'link fair-verify', testid: 'fair-verify', 'data-round': roundId, text: ctx.t('fair.verify'), 'aria-label': ctx.t('fair.verify_round', { round: roundId }) });
  const say = (state, params = {}) => {
    result.dataset.state = state;
    result.textContent = ctx.t(`fair.state.${state}`, params);
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
      say(out.state, { derived: show(out.derived), recorded: show(out.recorded) });
    } catch {
      say('missing');
    }
  });
  return el('span', { class: 'fair-verify-box' }, button, ' ', result, ' ', download);
}
