// The page's shell (docs/browser-ui.md): session, router (#/login, #/lobby, #/table/<id>), api(), the table's
// WebSocket with reconnection, the message catalogues, and the header (balance, language, sign out, connection).
// No game rule lives here: every legal action comes from the server.

import { el, fill, freshKey } from './dom.js';

const LANGS = ['en', 'pt', 'zh-Hant'];
const MODULES = ['core', 'roulette', 'sicbo', 'blackjack', 'dealer'];
const SESSION_KEY = 'croupier.session';
const LANG_KEY = 'croupier.lang';
const LOBBY_REFRESH_MS = 5000;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15000];

const state = {
  session: readSession(), // {token, username, role}
  lang: pickLanguage(),
  messages: {}, // the merged catalogues of the current language
  fallback: {}, // English, for a key a catalogue lacks
  languageListeners: new Set(),
  page: null, // {unmount()} of the current view
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

/** The message for `key` in the current language, its `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  let text = state.messages[key] ?? state.fallback[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (params && params[name] !== undefined && params[name] !== null ? String(params[name]) : whole));
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
  translateStatic();
  setConn($('conn').dataset.state);
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

/** Show the wallet's balance in the header (an integer). */
export function wallet(balance) {
  if (typeof balance !== 'number') return;
  $('balance').textContent = String(balance);
  $('balance-wrap').hidden = false;
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
  $('who').textContent = s ? `${s.username} · ${t(`role.${s.role}`)}` : '';
  if (!s || s.role !== 'player') $('balance-wrap').hidden = true;
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
  if (table) state.page = tablePage(view, table[1]);
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

function limitsOf(table) {
  const bets = Object.values((table.limits && table.limits.bets) || {});
  if (!bets.length) return null;
  return { min: Math.min(...bets.map((b) => b.min)), max: Math.max(...bets.map((b) => b.max)) };
}

function lobbyPage(view) {
  setConn('lobby'); // no WebSocket outside a table: the header says the person is signed in, not "offline"
  let tables = [];
  let loaded = false;
  const list = el('div', { class: 'lobby-list' });
  const heading = el('h1');
  const section = el('section', { class: 'lobby' }, heading, list);
  fill(view, section);
  const render = () => {
    heading.textContent = t('lobby.title');
    if (!loaded) return fill(list, el('p', { class: 'muted', text: t('lobby.loading') }));
    if (!tables.length) return fill(list, el('p', { class: 'muted', text: t('lobby.empty') }));
    fill(
      list,
      tables.map((tb) => {
        const lim = limitsOf(tb);
        const seats = tb.game === 'blackjack' && typeof tb.boxes === 'number' ? t('lobby.seats', { taken: (tb.seats || []).length, boxes: tb.boxes }) : null;
        return el(
          'article',
          { class: `table-card game-${tb.game}`, testid: 'table-card', 'data-table': tb.table, 'data-game': tb.game, 'data-live': tb.live ? 'true' : 'false' },
          el('h2', {}, el('span', { class: 'game-name', text: t(`game.${tb.game}`) }), ' ', el('span', { class: 'table-id', text: tb.table })),
          el('p', { class: 'badges' }, el('span', { class: `badge ${tb.live ? 'live' : 'rng'}`, text: tb.live ? t('lobby.live') : t('lobby.rng') }), el('span', { class: 'badge phase', 'data-phase': tb.status || '', text: t(`phase.${tb.status || 'waiting'}`) })),
          lim ? el('p', { class: 'limits', text: t('lobby.limits', { min: lim.min, max: lim.max }) }) : null,
          seats ? el('p', { class: 'seats', text: seats }) : null,
          el('button', { type: 'button', class: 'primary', testid: `join-${tb.table}`, onclick: () => go(`#/table/${tb.table}`), text: t('lobby.join') }),
        );
      }),
    );
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
  return {
    unmount() {
      clearInterval(timer);
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
  const page = el('section', { class: 'table-page', 'data-table': tableId }, el('div', { class: 'table-bar' }, leave, title), gameRoot, dealerRoot, panelsRoot);
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
    if (state.session && state.session.role === 'dealer' && table.live) {
      try {
        const dealer = await import('./dealer.js');
        if (!closed) {
          mounted.push(dealer.mount(dealerRoot, ctx));
          page.classList.add('has-dealer'); // desktop: the console is a column beside the layout
        }
      } catch (err) {
        console.error(err);
      }
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

async function boot() {
  $('lang').addEventListener('change', (e) => setLanguage(e.target.value));
  $('logout').addEventListener('click', logout);
  await setLanguage(state.lang);
  renderHeader();
  window.addEventListener('hashchange', route);
  if (state.session) refreshWallet();
  route();
}

boot();
