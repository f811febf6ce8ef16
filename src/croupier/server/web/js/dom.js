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

/** An amount as the page shows it: an integer with a sign when asked. */
export function money(amount, signed = false) {
  const n = Number(amount) || 0;
  const text = String(Math.abs(n));
  if (!signed) return (n < 0 ? '-' : '') + text;
  return (n > 0 ? '+' : n < 0 ? '-' : '±') + text;
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
