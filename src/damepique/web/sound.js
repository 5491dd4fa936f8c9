// Optional sounds (off by default, the switch is remembered): a card played,
// a trick won, your turn. Made with the Web Audio API, so no sound files.
import { prefs, setPrefs } from "./prefs.js";

let ctx = null;

export function soundOn() {
  return !!prefs().sound;
}

/** Turn the sounds on or off; called from the switch, a user gesture, which lets audio start. */
export function setSound(on) {
  setPrefs({ sound: on });
  if (on && !ctx && globalThis.AudioContext) ctx = new AudioContext();
  if (on) play("turn");
}

function tone(freq, start, length, gain = 0.12, type = "sine", to = freq) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, start);
  osc.frequency.exponentialRampToValueAtTime(to, start + length);
  amp.gain.setValueAtTime(gain, start);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length);
}

function snap(start, length, freq) {
  // A card on cloth: a burst of noise through a band-pass, falling fast.
  const frames = Math.floor(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 3;
  const src = ctx.createBufferSource();
  const band = ctx.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = freq;
  band.Q.value = 0.9;
  const amp = ctx.createGain();
  amp.gain.value = 0.5;
  src.buffer = buffer;
  src.connect(band).connect(amp).connect(ctx.destination);
  src.start(start);
}

/** `kind`: "card", "trick" or "turn"; nothing while the switch is off. */
export function play(kind) {
  if (!soundOn()) return;
  if (!ctx) {
    if (!globalThis.AudioContext) return;
    ctx = new AudioContext();
  }
  if (ctx.state === "suspended") ctx.resume();
  const now = ctx.currentTime + 0.01;
  if (kind === "card") snap(now, 0.07, 1800);
  else if (kind === "trick") {
    snap(now, 0.12, 900);
    snap(now + 0.06, 0.12, 700);
  } else if (kind === "turn") {
    tone(880, now, 0.18, 0.08);
    tone(1320, now + 0.09, 0.22, 0.06);
  }
}
