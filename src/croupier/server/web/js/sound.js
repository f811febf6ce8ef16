// The table's sounds, synthesised with the Web Audio API (no audio files): a chip laid, the bell, the wheel's spin,
// the dice, a card, a win and a loss. Nothing plays before the person's first gesture on the page (the browsers'
// autoplay policy, and good manners), nothing plays while muted, and nothing here ever throws: a page without audio
// plays silently. The mute choice is remembered per browser (localStorage).

const MUTE_KEY = 'croupier.muted';
const KINDS = new Set(['chip', 'bell', 'spin', 'dice', 'card', 'win', 'lose']);
const GESTURES = ['pointerdown', 'keydown', 'touchend'];

let audio = null; // the AudioContext, made at the first gesture
let noise = null; // one second of white noise, for the chips, the dice and the cards
let gestured = false; // a pointer, key or touch on the page (sound.js loads with the page, before any gesture)
const listeners = new Set();

function readMuted() {
  try {
    return localStorage.getItem(MUTE_KEY) === '1';
  } catch {
    return false;
  }
}

let muted = readMuted();

/** Whether the person has turned the sound off (in this browser). */
export function isMuted() {
  return muted;
}

/** Turn the sound off (true) or on (false), remembered in this browser; `onMute` listeners hear of it. */
export function setMuted(value) {
  muted = Boolean(value);
  try {
    localStorage.setItem(MUTE_KEY, muted ? '1' : '0');
  } catch {
    /* a private window may refuse storage: the choice lasts for the page */
  }
  if (muted && audio && audio.state === 'running') audio.suspend().catch(() => {});
  if (!muted && audio && audio.state === 'suspended' && gestured) audio.resume().catch(() => {});
  for (const fn of [...listeners]) {
    try {
      fn(muted);
    } catch (err) {
      console.error(err);
    }
  }
}

/** Call `fn(muted)` after every change; returns the function that stops it. */
export function onMute(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function unlock() {
  gestured = true;
  for (const g of GESTURES) document.removeEventListener(g, unlock, true);
  if (muted) return;
  const context = ensureContext();
  if (context && context.state === 'suspended') context.resume().catch(() => {});
}

if (typeof document !== 'undefined') {
  for (const g of GESTURES) document.addEventListener(g, unlock, true);
}

function ensureContext() {
  if (audio) return audio;
  const Ctor = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Ctor) return null;
  audio = new Ctor();
  const n = Math.floor(audio.sampleRate);
  noise = audio.createBuffer(1, n, audio.sampleRate);
  const data = noise.getChannelData(0);
  for (let i = 0; i < n; i += 1) data[i] = Math.random() * 2 - 1;
  return audio;
}

// -- the voices ------------------------------------------------------------------------------------------------------

/** A tone of `freq` Hz from `at` for `length` s, its level falling from `gain` (an exponential decay). */
function tone(ctx, at, freq, length, gain, type = 'sine') {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.005);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** A burst of noise through a band-pass filter at `freq` Hz: a click, a rattle, a card's swish. */
function burst(ctx, at, freq, length, gain, q = 1) {
  const src = ctx.createBufferSource();
  src.buffer = noise;
  const filter = ctx.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.setValueAtTime(freq, at);
  filter.Q.setValueAtTime(q, at);
  const amp = ctx.createGain();
  amp.gain.setValueAtTime(gain, at);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  src.connect(filter).connect(amp).connect(ctx.destination);
  src.start(at, Math.random() * 0.5);
  src.stop(at + length + 0.02);
}

const VOICES = {
  chip(ctx, t0) {
    burst(ctx, t0, 3200, 0.05, 0.5, 4);
    tone(ctx, t0, 2400, 0.06, 0.08, 'triangle');
  },
  bell(ctx, t0) {
    for (const [freq, gain] of [
      [880, 0.25],
      [1760, 0.1],
      [2640, 0.05],
    ]) {
      tone(ctx, t0, freq, 1.4, gain);
      tone(ctx, t0 + 0.35, freq, 1.2, gain * 0.8);
    }
  },
  spin(ctx, t0) {
    // The ball's ticks on the frets, slowing down.
    let at = t0;
    for (let i = 0; i < 24; i += 1) {
      burst(ctx, at, 2600, 0.025, 0.25, 6);
      at += 0.05 + i * 0.008;
    }
  },
  dice(ctx, t0) {
    let at = t0;
    for (let i = 0; i < 9; i += 1) {
      burst(ctx, at, 1200 + Math.random() * 1400, 0.04, 0.35, 3);
      at += 0.03 + Math.random() * 0.06;
    }
  },
  card(ctx, t0) {
    burst(ctx, t0, 5000, 0.09, 0.2, 0.7);
  },
  win(ctx, t0) {
    [523.25, 659.25, 783.99, 1046.5].forEach((freq, i) => tone(ctx, t0 + i * 0.09, freq, 0.35, 0.18, 'triangle'));
  },
  lose(ctx, t0) {
    tone(ctx, t0, 392, 0.3, 0.15, 'sine');
    tone(ctx, t0 + 0.18, 311.13, 0.45, 0.15, 'sine');
  },
};

/**
 * Play one of the table's sounds: 'chip', 'bell', 'spin', 'dice', 'card', 'win' or 'lose'. Silent while muted,
 * before the first gesture, for an unknown kind, and where the browser has no audio; never throws.
 */
export function play(kind) {
  try {
    if (muted || !KINDS.has(kind) || !gestured) return false;
    const ctx = ensureContext();
    if (!ctx) return false;
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
    VOICES[kind](ctx, ctx.currentTime + 0.01);
    return true;
  } catch (err) {
    console.warn('sound', kind, err);
    return false;
  }
}
