// The table's sounds, made with the Web Audio API (no sound files to load): the striker on a
// puck, puck on puck, the rail, the hole, and the stroke clock's tick; a mute switch,
// remembered in the browser (localStorage `novuss.sound`: "off" when muted).
import { t } from "./i18n.js";

const STORE_KEY = "novuss.sound";

// kind -> how it is made: a filtered noise burst (a click of wood on wood) and/or a falling
// tone (a thud), with their lengths in s
const VOICES = {
  strike: { noise: 2600, q: 1.2, length: 0.05, tone: 0, gain: 0.5 },
  puck: { noise: 3400, q: 1.5, length: 0.04, tone: 0, gain: 0.35 },
  rail: { noise: 700, q: 0.8, length: 0.06, tone: 150, gain: 0.35 },
  pocket: { noise: 400, q: 0.7, length: 0.12, tone: 95, gain: 0.5 },
};

export class Sounds {
  constructor(storage = globalThis.localStorage) {
    this.storage = storage;
    this.muted = storage?.getItem(STORE_KEY) === "off";
    this.ctx = null;
    this.noiseBuffer = null;
    this.played = 0; // sounds started (for tests and the curious)
  }

  setMuted(muted) {
    this.muted = !!muted;
    this.storage?.setItem(STORE_KEY, this.muted ? "off" : "on");
  }

  /** The audio context, made on first use (browsers allow it after a gesture on the page). */
  audio() {
    if (!this.ctx) {
      this.ctx = new AudioContext();
      const n = Math.round(this.ctx.sampleRate * 0.2);
      this.noiseBuffer = this.ctx.createBuffer(1, n, this.ctx.sampleRate);
      const data = this.noiseBuffer.getChannelData(0);
      for (let i = 0; i < n; i++) data[i] = Math.random() * 2 - 1;
    }
    return this.ctx;
  }

  /** Play the sounds of ContactSounds.step ([{kind, strength}]); none when muted. */
  play(events) {
    if (this.muted || !events.length) return;
    try {
      for (const e of events.slice(0, 4)) this.voice(VOICES[e.kind], Math.max(0.15, e.strength));
    } catch {
      // No sound here (no audio device, or the browser refused): the table plays on silently.
    }
  }

  voice(v, strength) {
    const ctx = this.audio();
    const at = ctx.currentTime;
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(v.gain * strength, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + v.length);
    gain.connect(ctx.destination);
    const noise = ctx.createBufferSource();
    noise.buffer = this.noiseBuffer;
    const band = ctx.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = v.noise;
    band.Q.value = v.q;
    noise.connect(band).connect(gain);
    noise.start(at);
    noise.stop(at + v.length);
    if (v.tone) {
      const osc = ctx.createOscillator();
      osc.frequency.setValueAtTime(v.tone, at);
      osc.frequency.exponentialRampToValueAtTime(v.tone * 0.6, at + v.length);
      osc.connect(gain);
      osc.start(at);
      osc.stop(at + v.length);
    }
    this.played++;
  }

  /** The stroke clock's tick in its last seconds: higher in the last two. */
  tick(high) {
    if (this.muted) return;
    try {
      const ctx = this.audio();
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = high ? 1040 : 880;
      gain.gain.setValueAtTime(0.08, ctx.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.12);
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.13);
      this.played++;
    } catch {
      // No sound here: the ring still pulses.
    }
  }

  /** A button that switches the sound on and off, its state and name in the page's language. */
  bind(button) {
    const show = () => {
      button.setAttribute("aria-pressed", String(!this.muted));
      button.textContent = this.muted ? t("ui.sound_off") : t("ui.sound_on");
      button.title = t("ui.sound_title");
    };
    button.addEventListener("click", () => {
      this.setMuted(!this.muted);
      show();
    });
    show();
    return show;
  }
}
