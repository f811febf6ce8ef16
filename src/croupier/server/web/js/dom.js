// Small DOM helpers shared by the page's modules (no framework).

/**
 * el('button', {class: 'x', testid: 'undo', onclick: fn, text: 'Undo'}, children…)
 * Attributes: `class`, `text`, `testid` (→ data-testid), `style` (set through CSSOM), `on<event>` handlers,
 * `hidden`/`disabled` booleans, anything else as an attribute (null/undefined/false skipped).
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = String(value);
    else if (name === 'testid') node.setAttribute('data-testid', value);
    else if (name === 'style') node.style.cssText = String(value); // CSSOM: the page's CSP allows no style attribute
    else if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, '');
    else node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace every child of `node`. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

// How amounts read: the page's language and the deployment's currency (GET /api/config), set by app.js.
const moneyFormat = { lang: 'en', currency: 'MOP', cache: new Map() };

/** Format amounts for `lang` (a page language: en, pt, zh-Hant) in `currency` (an ISO 4217 code, e.g. MOP). */
export function setMoneyFormat(lang, currency) {
  if (lang) moneyFormat.lang = String(lang);
  if (currency && /^[A-Za-z]{3}$/.test(String(currency))) moneyFormat.currency = String(currency).toUpperCase();
  moneyFormat.cache.clear();
}

/** The language and currency amounts are formatted in now. */
export function moneySettings() {
  return { lang: moneyFormat.lang, currency: moneyFormat.currency };
}

function formatter(kind) {
  let f = moneyFormat.cache.get(kind);
  if (f) return f;
  const base = { minimumFractionDigits: 0, maximumFractionDigits: 0, useGrouping: true };
  const options = kind === 'plain' ? base : { ...base, style: 'currency', currency: moneyFormat.currency, signDisplay: kind === 'signed' ? 'exceptZero' : 'auto' };
  try {
    f = new Intl.NumberFormat(moneyFormat.lang, options);
  } catch {
    f = new Intl.NumberFormat('en', options); // an unknown currency code or language
  }
  moneyFormat.cache.set(kind, f);
  return f;
}

/**
 * An amount (an integer in the table's unit) as the page shows it: thousands separators and the deployment's
 * currency, as Intl.NumberFormat writes them for the page's language ("MOP 1,250"); with `signed`, a "+" for a win
 * and a "-" for a loss (none for zero). Never formatted by hand anywhere else.
 */
export function money(amount, signed = false) {
  const n = Math.trunc(Number(amount) || 0);
  return formatter(signed ? 'signed' : 'money').format(n);
}

/** An amount without the currency, with thousands separators ("1,250"): a chip, a stack on the layout. */
export function amountText(amount) {
  return formatter('plain').format(Math.trunc(Number(amount) || 0));
}

/** Odds as the server writes them (35, "3/2") shown "35:1" or "3:2". */
export function odds(value) {
  if (value === null || value === undefined) return '';
  const s = String(value);
  return s.includes('/') ? s.replace('/', ':') : `${s}:1`;
}

/** A fresh idempotency key (crypto.randomUUID where the page is a secure context). */
export function freshKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Seconds left until an ISO time (null when there is none). */
export function secondsUntil(iso) {
  if (!iso) return null;
  const ms = Date.parse(iso) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, Math.ceil(ms / 1000)) : null;
}
