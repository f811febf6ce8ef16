// The page's shell (docs/browser-ui.md): session, router (#/login, #/lobby, #/table/<id>), api(), the table's
// WebSocket with reconnection, the message catalogues, and the header (balance, language, sign out, connection).
// No game rule lives here: every legal action comes from the server.

import { el, fill, freshKey, money, secondsUntil, setMoneyFormat } from './dom.js';
import { isMuted, onMute, play, setMuted } from './sound.js';
import { mount as watchPage } from './watch.js';

const LANGS = ['en', 'pt', 'zh-Hant'];
const MODULES = ['core', 'roulette', 'sicbo', 'blackjack', 'dealer', 'watch'];
const SESSION_KEY = 'croupier.session';
const LANG_KEY = 'croupier.lang';
const LOBBY_REFRESH_MS = 5000;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];
const DEFAULT_CURRENCY = 'MOP';

const state = {
  session: readSession(), // {token, username, role}
  lang: pickLanguage(),
  messages: {}, // the merged catalogues of the current language
  fallback: {}, // English, for a key a catalogue lacks
  languageListeners: new Set(),
  page: null, // {unmount()} of the current view
  currency: DEFAULT_CURRENCY, // the deployment's (GET /api/config)
  balance: null, // the header's last balance, shown again in the new language's format
};

// -- i18n ---------------------------------------------------------------------------------------------------------

function pickLanguage() {
  const stored = localStorage.getItem(LANG_KEY);
  if (LANGS.includes(stored)) return stored;
  const nav = (navigator.language || 'en').toLowerCase();
  if (nav.startsWith('zh')) return 'zh-Hant';
  if (nav.startsWith('pt')) return 'pt';
  return 'en';
}

async function loadCatalogues(lang) {
  const parts = await Promise.all(
    MODULES.map((m) =>
      fetch(`i18n/${m}.${lang}.json`)
        .then((r) => (r.ok ? r.json() : {}))
        .catch(() => ({})),
    ),
  );
  return Object.assign({}, ...parts);
}

/**
 * The form of a plural message (a catalogue value such as {"one": "{count} roll", "other": "{count} rolls"}) for
 * `count`: "zero" when the count is 0 and the catalogue has one, else Intl.PluralRules' category for the page's
 * language, else "other".
 */
function pluralForm(forms, count, lang) {
  const n = Number(count);
  if (n === 0 && typeof forms.zero === 'string') return forms.zero;
  let category = 'other';
  try {
    if (Number.isFinite(n)) category = new Intl.PluralRules(lang).select(n);
  } catch {
    category = 'other';
  }
  return forms[category] ?? forms.other ?? Object.values(forms).find((v) => typeof v === 'string') ?? '';
}

/** The number a plural message is chosen by: `params.count`, else the only number among `params`. */
function countOf(params) {
  if (!params) return undefined;
  if (params.count !== undefined) return params.count;
  const numbers = Object.values(params).filter((v) => typeof v === 'number');
  return numbers.length === 1 ? numbers[0] : undefined;
}

/**
 * The message for `key` in the current language, its `{name}` placeholders filled from `params`. A catalogue value
 * may be an object of plural forms ({"one", "other", "zero"?, …}): the form for `params.count` (else for the only
 * number among `params`) is used.
 */
export function t(key, params = {}) {
  let text = state.messages[key];
  let lang = state.lang;
  if (text === undefined) {
    text = state.fallback[key];
    lang = 'en';
  }
  if (text === undefined || text === null) return key;
  if (typeof text === 'object') text = pluralForm(text, countOf(params), lang);
  return String(text).replace(/\{(\w+)\}/g, (whole, name) => (params && params[name] !== undefined && params[name] !== null ? String(params[name]) : whole));
}

/** Whether a catalogue holds `key`. */
export function hasMessage(key) {
  return key in state.messages || key in state.fallback;
}

function translateStatic(root = document) {
  for (const node of root.querySelectorAll('[data-i18n]')) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll('[data-i18n-aria-label]')) node.setAttribute('aria-label', t(node.dataset.i18nAriaLabel));
  for (const node of root.querySelectorAll('[data-i18n-title]')) node.setAttribute('title', t(node.dataset.i18nTitle));
  document.documentElement.lang = state.lang;
  document.title = t('app.title');
}

async function setLanguage(lang) {
  if (!LANGS.includes(lang)) lang = 'en';
  const [messages, fallback] = await Promise.all([loadCatalogues(lang), lang === 'en' ? null : loadCatalogues('en')]);
  state.lang = lang;
  state.messages = messages;
  state.fallback = fallback || messages;
  localStorage.setItem(LANG_KEY, lang);
  $('lang').value = lang;
  setMoneyFormat(lang, state.currency);
  translateStatic();
  setConn($('conn').dataset.state);
  renderHeader();
  for (const fn of [...state.languageListeners]) {
    try {
      fn(lang);
    } catch (err) {
      console.error(err);
    }
  }
}

// -- session and api() ----------------------------------------------------------------------------------------------

function readSession() {
  try {
    const s = JSON.parse(sessionStorage.getItem(SESSION_KEY) || 'null');
    return s && s.token ? s : null;
  } catch {
    return null;
  }
}

function saveSession(s) {
  state.session = s;
  state.balance = null;
  if (s) sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
  else sessionStorage.removeItem(SESSION_KEY);
  renderHeader();
}

/**
 * fetch `/api${path}` with the bearer token. A command (any POST but sign-in/out) carries an Idempotency-Key:
 * `opts.key`, or a fresh UUID. Resolves to the JSON body; throws {status, error, detail, rule}.
 */
export async function api(method, path, body, opts = {}) {
  const headers = { Accept: 'application/json' };
  if (state.session) headers.Authorization = `Bearer ${state.session.token}`;
  if (body !== undefined && body !== null) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && !['/login', '/logout'].includes(path)) headers['Idempotency-Key'] = opts.key || freshKey();
  let response;
  try {
    response = await fetch(`/api${path}`, { method, headers, body: body === undefined || body === null ? undefined : JSON.stringify(body) });
  } catch {
    throw { status: 0, error: 'network', detail: t('error.network'), rule: null };
  }
  let data = null;
  if (response.status !== 204) {
    try {
      data = await response.json();
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const err = {
      status: response.status,
      error: (data && data.error) || 'http_error',
      detail: (data && data.detail) || t('error.http', { status: response.status }),
      rule: (data && data.rule) || null,
    };
    if (response.status === 401 && path !== '/login' && state.session) {
      saveSession(null);
      toast('error', t('error.session_ended'));
      go('#/login');
    }
    throw err;
  }
  return data;
}

// -- header ---------------------------------------------------------------------------------------------------------

const $ = (id) => document.getElementById(id);

const isPlayer = () => Boolean(state.session && state.session.role === 'player');

/** Show the wallet's balance in the header (an integer, shown through money()); only a player has one. */
export function wallet(balance) {
  if (typeof balance !== 'number' || !isPlayer()) return;
  state.balance = balance;
  renderBalance();
}

function renderBalance() {
  const node = $('balance');
  const shown = isPlayer() && typeof state.balance === 'number';
  $('balance-wrap').hidden = !shown;
  if (!shown) return;
  node.textContent = money(state.balance);
  node.dataset.amount = String(state.balance);
}

async function refreshWallet() {
  if (!state.session || state.session.role !== 'player') return;
  try {
    const w = await api('GET', '/wallet');
    wallet(w.balance);
  } catch {
    /* shown elsewhere */
  }
}

function renderHeader() {
  const s = state.session;
  $('logout').hidden = !s;
  $('who').hidden = !s;
  fill($('who'), s ? [el('span', { class: 'who-name', text: s.username }), ' · ', el('span', { class: 'who-role', 'data-role': s.role, text: t(`role.${s.role}`) })] : []);
  if (!isPlayer()) state.balance = null; // a dealer or an admin has no balance to show
  renderBalance();
  renderMute();
}

function renderMute() {
  const muted = isMuted();
  const button = $('mute');
  button.setAttribute('aria-pressed', muted ? 'true' : 'false');
  button.dataset.muted = muted ? 'true' : 'false';
  fill($('mute-icon'), speaker(muted));
}

/** The mute toggle's icon: a speaker with its sound waves, or struck through (SVG drawn here: no emoji font needed). */
function speaker(muted) {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  for (const [k, v] of Object.entries({ viewBox: '0 0 24 24', width: '20', height: '20', fill: 'none', stroke: 'currentColor', 'stroke-width': '2', 'stroke-linecap': 'round', 'stroke-linejoin': 'round', focusable: 'false' })) svg.setAttribute(k, v);
  const parts = ['M3 9v6h4l5 4V5L7 9H3z', ...(muted ? ['M16 9l6 6', 'M22 9l-6 6'] : ['M16 8.5a5 5 0 0 1 0 7', 'M19 5.5a9 9 0 0 1 0 13'])];
  for (const d of parts) {
    const path = document.createElementNS(NS, 'path');
    path.setAttribute('d', d);
    if (d.startsWith('M3')) path.setAttribute('fill', 'currentColor');
    svg.append(path);
  }
  return svg;
}

function setConn(kind) {
  const node = $('conn');
  node.dataset.state = kind || 'closed';
  $('conn-text').textContent = t(`conn.${node.dataset.state}`);
}

/** A message for the person: errors show the server's detail and its rule. */
export function toast(kind, text) {
  const box = $('toasts');
  const node = el('div', { class: `toast toast-${kind}`, testid: 'toast', role: kind === 'error' ? 'alert' : 'status', 'data-kind': kind }, text);
  const close = el('button', { type: 'button', class: 'toast-close', 'aria-label': t('toast.close'), onclick: () => node.remove(), text: '×' });
  node.append(close);
  box.append(node);
  while (box.children.length > 4) box.firstElementChild.remove();
  setTimeout(() => node.remove(), kind === 'error' ? 8000 : 4000);
}

/** The text of a refusal: the server's detail and, when given, its rule. */
export function errorText(err) {
  if (!err) return t('error.unknown');
  if (err.rule) return t('error.with_rule', { detail: err.detail, rule: err.rule });
  return err.detail || t('error.unknown');
}

// -- router ---------------------------------------------------------------------------------------------------------

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function leavePage() {
  const page = state.page;
  state.page = null;
  if (page) {
    try {
      page.unmount();
    } catch (err) {
      console.error(err);
    }
  }
}

function route() {
  leavePage();
  const hash = location.hash || '#/lobby';
  const view = $('view');
  if (!state.session) {
    if (hash !== '#/login') history.replaceState(null, '', '#/login');
    state.page = loginPage(view);
    return;
  }
  const table = /^#\/table\/([A-Za-z0-9][A-Za-z0-9_-]*)$/.exec(hash);
  const watch = /^#\/watch(?:\/([A-Za-z0-9][A-Za-z0-9_-]*))?$/.exec(hash); // the admin's bias watch (js/watch.js)
  if (table) state.page = tablePage(view, table[1]);
  else if (watch) state.page = watchPage(view, { t, api, errorText, onLanguage, setConn, me: state.session }, watch[1] || null);
  else {
    if (hash !== '#/lobby') history.replaceState(null, '', '#/lobby');
    state.page = lobbyPage(view);
  }
  view.focus({ preventScroll: true });
}

function onLanguage(fn, bag) {
  state.languageListeners.add(fn);
  if (bag) bag.push(() => state.languageListeners.delete(fn));
  return () => state.languageListeners.delete(fn);
}

// -- sign-in --------------------------------------------------------------------------------------------------------

function loginPage(view) {
  setConn('closed');
  const user = el('input', { id: 'login-username', testid: 'login-username', name: 'username', autocomplete: 'username', required: true, maxlength: 64 });
  const pass = el('input', { id: 'login-password', testid: 'login-password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const error = el('p', { class: 'login-error', testid: 'login-error', role: 'alert', hidden: true });
  const submit = el('button', { type: 'submit', class: 'primary', testid: 'login-submit' });
  const title = el('h1');
  const userLabel = el('label', { for: 'login-username' });
  const passLabel = el('label', { for: 'login-password' });
  const form = el('form', { class: 'login card', novalidate: true }, title, userLabel, user, passLabel, pass, error, submit);
  let lastError = null;
  const texts = () => {
    title.textContent = t('login.title');
    userLabel.textContent = t('login.username');
    passLabel.textContent = t('login.password');
    submit.textContent = t('login.submit');
    if (lastError) error.textContent = lastError.status === 401 ? t('login.failed') : errorText(lastError);
  };
  const bag = [];
  onLanguage(texts, bag);
  texts();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.hidden = true;
    submit.disabled = true;
    try {
      const s = await api('POST', '/login', { username: user.value.trim(), password: pass.value });
      saveSession({ token: s.token, username: s.username, role: s.role });
      await refreshWallet();
      go('#/lobby');
    } catch (err) {
      lastError = err;
      texts();
      error.hidden = false;
      pass.select();
    } finally {
      submit.disabled = false;
    }
  });
  fill(view, el('section', { class: 'login-page' }, form));
  user.focus();
  return { unmount: () => bag.forEach((f) => f()) };
}

async function logout() {
  try {
    await api('POST', '/logout');
  } catch {
    /* the session ends here anyway */
  }
  saveSession(null);
  go('#/login');
}

// -- lobby ----------------------------------------------------------------------------------------------------------

/** The stake range a table's card shows: the main bet's where the game has one (blackjack), else every kind's. */
function limitsOf(table) {
  const all = (table.limits && table.limits.bets) || {};
  const bets = all.main ? [all.main] : Object.values(all);
  if (!bets.length) return null;
  return { min: Math.min(...bets.map((b) => b.min)), max: Math.max(...bets.map((b) => b.max)) };
}

/** One of a table's last results on its lobby card: a pocket (with its colour), three dice, or a dealer's total. */
function recentItem(r) {
  if (r === null || r === undefined) return null;
  if (typeof r !== 'object') return el('li', { class: 'recent-item', 'data-result': String(r), text: String(r) });
  if (r.pocket !== undefined) {
    return el('li', { class: `recent-item pocket colour-${r.colour || 'none'}`, 'data-result': String(r.pocket), 'data-colour': r.colour || '', text: String(r.pocket) });
  }
  if (Array.isArray(r.dice)) {
    const total = r.total ?? r.dice.reduce((a, b) => a + b, 0);
    return el(
      'li',
      { class: `recent-item recent-roll size-${r.size || ''}`, 'data-result': r.dice.join(','), 'data-total': total, 'aria-label': t('lobby.recent_dice', { dice: r.dice.join(' '), total }) },
      el('span', { class: 'recent-dice', 'aria-hidden': 'true', text: r.dice.join(' ') }),
      el('span', { class: 'recent-total', 'aria-hidden': 'true', text: String(total) }),
    );
  }
  // blackjack: the dealer's hand (`dealer_total`, `dealer_bust`, `dealer_blackjack` of the table's history)
  const total = r.dealer_total ?? null;
  if (total === null) return null;
  const bust = r.dealer_bust === true;
  const blackjack = r.dealer_blackjack === true;
  const text = blackjack ? t('lobby.recent_blackjack') : bust ? t('lobby.recent_bust', { total }) : String(total);
  return el('li', { class: `recent-item dealer${bust ? ' bust' : ''}${blackjack ? ' blackjack' : ''}`, 'data-result': String(total), text });
}

/** The table's timer as its card says it: the bell of the betting window, or when the next window opens. */
function countdownText(status, seconds) {
  if (seconds === null) return '';
  if (status === 'betting') return t('lobby.closes_in', { count: seconds, seconds });
  if (status === 'settled' || status === 'voided') return t('lobby.next_in', { count: seconds, seconds });
  return t('lobby.decision_in', { count: seconds, seconds });
}

function lobbyPage(view) {
  setConn('lobby'); // no WebSocket outside a table: the header says the person is signed in, not "offline"
  let tables = [];
  let loaded = false;
  const list = el('div', { class: 'lobby-list' });
  const heading = el('h1');
  const section = el('section', { class: 'lobby' }, heading, list);
  fill(view, section);
  const timers = []; // {node, table}: the cards' countdowns, ticked every second from the tables' deadlines
  const tick = () => {
    for (const { node, table } of timers) {
      const seconds = table.deadline ? secondsUntil(table.deadline) : null;
      node.hidden = seconds === null;
      node.dataset.seconds = seconds === null ? '' : String(seconds);
      node.dataset.status = table.status || '';
      node.textContent = countdownText(table.status, seconds);
    }
  };
  const render = () => {
    heading.textContent = t('lobby.title');
    timers.length = 0;
    if (!loaded) return fill(list, el('p', { class: 'muted', text: t('lobby.loading') }));
    if (!tables.length) return fill(list, el('p', { class: 'muted', text: t('lobby.empty') }));
    // The list is re-read every few seconds: a keyboard user's focus stays on the button it was on.
    const active = document.activeElement;
    const focused = active && list.contains(active) ? active.getAttribute('data-testid') : null;
    fill(
      list,
      tables.map((tb) => {
        const lim = limitsOf(tb);
        const seats = tb.game === 'blackjack' && typeof tb.boxes === 'number' ? t('lobby.seats', { taken: (tb.seats || []).length, boxes: tb.boxes, count: tb.boxes }) : null;
        const recent = (tb.recent || []).map(recentItem).filter(Boolean);
        const countdown = el('p', { class: 'table-countdown', testid: 'table-countdown', role: 'timer', 'aria-live': 'off' });
        timers.push({ node: countdown, table: tb });
        const titleId = `card-title-${tb.table}`;
        return el(
          'article',
          { class: `table-card game-${tb.game}`, testid: 'table-card', 'data-table': tb.table, 'data-game': tb.game, 'data-live': tb.live ? 'true' : 'false', 'aria-labelledby': titleId },
          el('h2', { id: titleId }, el('span', { class: 'game-name', text: t(`game.${tb.game}`) }), ' ', el('span', { class: 'table-id', text: tb.table })),
          el('p', { class: 'badges' }, el('span', { class: `badge ${tb.live ? 'live' : 'rng'}`, text: tb.live ? t('lobby.live') : t('lobby.rng') }), el('span', { class: 'badge phase', 'data-phase': tb.status || '', text: t(`phase.${tb.status || 'waiting'}`) })),
          countdown,
          lim ? el('p', { class: 'limits', 'data-min': lim.min, 'data-max': lim.max, text: t(tb.game === 'blackjack' ? 'lobby.limits_main' : 'lobby.limits', { min: money(lim.min), max: money(lim.max) }) }) : null,
          seats ? el('p', { class: 'seats', text: seats }) : null,
          el(
            'div',
            { class: 'recent', testid: 'table-recent', 'data-count': recent.length },
            el('h3', { class: 'recent-title', text: t('lobby.recent') }),
            recent.length ? el('ol', { class: `recent-list game-${tb.game}`, 'aria-label': t('lobby.recent') }, recent) : el('p', { class: 'muted small', text: t('lobby.no_recent') }),
          ),
          el('button', { type: 'button', class: 'primary', testid: `join-${tb.table}`, 'aria-describedby': titleId, onclick: () => go(`#/table/${tb.table}`), text: t('lobby.join') }),
        );
      }),
    );
    tick();
    if (focused) {
      const again = list.querySelector(`[data-testid="${CSS.escape(focused)}"]`);
      if (again) again.focus({ preventScroll: true });
    }
  };
  const load = async () => {
    try {
      tables = await api('GET', '/tables');
      loaded = true;
      render();
    } catch (err) {
      if (err.status !== 401) toast('error', errorText(err));
    }
  };
  const bag = [];
  onLanguage(render, bag);
  render();
  load();
  refreshWallet();
  const timer = setInterval(load, LOBBY_REFRESH_MS);
  const ticker = setInterval(tick, 1000);
  return {
    unmount() {
      clearInterval(timer);
      clearInterval(ticker);
      bag.forEach((f) => f());
    },
  };
}

// -- a table ---------------------------------------------------------------------------------------------------------

function ensureCss(href) {
  if (document.querySelector(`link[href="${href}"]`)) return;
  document.head.append(el('link', { rel: 'stylesheet', href }));
}

function tablePage(view, tableId) {
  let closed = false;
  let socket = null;
  let attempt = 0;
  let retryTimer = null;
  const mounted = []; // {update, event, unmount} of the game module, the dealer console and the panels
  const bag = [];
  const leave = el('button', { type: 'button', class: 'leave', testid: 'leave', onclick: () => go('#/lobby') });
  const title = el('h1', { class: 'table-title' });
  const gameRoot = el('div', { class: 'game-root' });
  const dealerRoot = el('div', { class: 'dealer-root' });
  const panelsRoot = el('div', { class: 'panels-root' });
  const fairRoot = el('div', { class: 'fair-root' }); // a provably fair table's commitment and the player's seed
  const page = el('section', { class: 'table-page', 'data-table': tableId }, el('div', { class: 'table-bar' }, leave, title, fairRoot), gameRoot, dealerRoot, panelsRoot);
  fill(view, page);
  let table = null;
  const texts = () => {
    leave.textContent = t('table.leave');
    title.textContent = table ? `${t(`game.${table.game}`)} · ${tableId}${table.live ? ` · ${t('lobby.live')}` : ''}` : tableId;
  };
  onLanguage(texts, bag);
  texts();

  const ctxFor = (extra = {}) => ({
    t,
    onLanguage: (fn) => onLanguage(fn, bag),
    api,
    me: state.session ? { username: state.session.username, role: state.session.role } : null,
    table,
    toast,
    wallet,
    errorText,
    refreshWallet,
    ...extra,
  });

  const each = (method, arg) => {
    for (const m of mounted) {
      try {
        if (m && typeof m[method] === 'function') m[method](arg);
      } catch (err) {
        console.error(err);
      }
    }
  };

  const reread = async () => {
    try {
      const v = await api('GET', `/tables/${tableId}`);
      table = v;
      if (typeof v.wallet === 'number') wallet(v.wallet);
      each('update', v);
    } catch (err) {
      if (err.status === 404) {
        toast('error', errorText(err));
        go('#/lobby');
      }
    }
  };

  const connect = () => {
    if (closed || !state.session) return;
    setConn('connecting');
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const token = state.session.token;
    // The session token goes in the first message, never in the URL (the server's log shows URLs).
    const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(tableId)}?batch=true`);
    socket = ws;
    let refused = false;
    ws.addEventListener('open', () => {
      if (closed) return ws.close();
      ws.send(JSON.stringify({ type: 'auth', token }));
      attempt = 0;
      setConn('open');
      reread(); // every (re)connect shows the current state
    });
    ws.addEventListener('message', (msg) => {
      let data;
      try {
        data = JSON.parse(msg.data);
      } catch {
        return;
      }
      if (data.type === 'snapshot') {
        if (data.view) {
          table = data.view;
          each('update', data.view);
        }
      } else if (data.type === 'events') {
        for (const e of data.events || []) onEvent(e);
      } else if (data.type === 'error') {
        refused = true;
        toast('error', errorText(data));
        if (data.error === 'unauthenticated') {
          saveSession(null);
          go('#/login');
        } else if (data.error === 'unknown_table') go('#/lobby');
      } else if (data.type) onEvent(data); // an unbatched event
    });
    ws.addEventListener('close', () => {
      if (socket !== ws) return;
      socket = null;
      setConn('closed');
      if (closed || refused) return;
      const wait = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)];
      attempt += 1;
      retryTimer = setTimeout(connect, wait);
    });
  };

  const onEvent = (e) => {
    if (e.type === 'settled' || e.type === 'void') refreshWallet();
    each('event', e);
  };

  (async () => {
    try {
      table = await api('GET', `/tables/${tableId}`);
    } catch (err) {
      if (err.status !== 401) {
        toast('error', errorText(err));
        go('#/lobby');
      }
      return;
    }
    if (closed) return;
    texts();
    if (typeof table.wallet === 'number') wallet(table.wallet);
    let rules = null;
    try {
      rules = await api('GET', `/tables/${tableId}/rules`);
    } catch {
      rules = null;
    }
    if (closed) return;
    const ctx = ctxFor({ rules });
    try {
      if (table.game === 'blackjack') ensureCss('css/blackjack.css');
      const game = await import(`./${table.game}.js`);
      if (closed) return;
      mounted.push(game.mount(gameRoot, ctx));
    } catch (err) {
      console.error(err);
      toast('error', t('error.module', { game: table.game }));
    }
    // The dealer's console: for the table's own dealers (the server gives them, and only them, `dealer_prompt`).
    if (state.session && state.session.role === 'dealer' && table.live && table.dealer_prompt) {
      try {
        const dealer = await import('./dealer.js');
        if (!closed) {
          page.classList.add('has-dealer'); // desktop: the console is a column beside the layout (css/dealer.css)
          mounted.push(dealer.mount(dealerRoot, ctx));
        }
      } catch (err) {
        console.error(err);
      }
    }
    try {
      const fair = await import('./fair.js');
      if (!closed) mounted.push(fair.mountSeed(fairRoot, ctx));
    } catch (err) {
      console.error(err);
    }
    try {
      const panels = await import('./panels.js');
      if (!closed) mounted.push(panels.mount(panelsRoot, ctx));
    } catch (err) {
      console.error(err);
    }
    if (!closed) {
      each('update', table);
      connect();
    }
  })();

  return {
    unmount() {
      closed = true;
      clearTimeout(retryTimer);
      if (socket) {
        const ws = socket;
        socket = null;
        ws.close();
      }
      setConn('closed');
      each('unmount');
      mounted.length = 0;
      bag.forEach((f) => f());
    },
  };
}

// -- boot ------------------------------------------------------------------------------------------------------------

async function loadConfig() {
  try {
    const config = await api('GET', '/config');
    if (config && typeof config.currency === 'string') state.currency = config.currency;
  } catch {
    state.currency = DEFAULT_CURRENCY;
  }
}

async function boot() {
  $('lang').addEventListener('change', (e) => setLanguage(e.target.value));
  $('logout').addEventListener('click', logout);
  $('mute').addEventListener('click', () => {
    setMuted(!isMuted());
    play('chip'); // turning the sound on says so
  });
  onMute(renderMute);
  await loadConfig();
  await setLanguage(state.lang);
  renderHeader();
  window.addEventListener('hashchange', route);
  if (state.session) refreshWallet();
  route();
}

boot();
