// Plays a stroke's motion from the server's snapshots at the display's refresh rate:
// a short buffer behind the newest snapshot, positions interpolated between the two
// snapshots around the play clock. Pure: the caller passes the time in.

export const BUFFER_MS = 120; // one or two snapshots of slack against network jitter

export class Playback {
  constructor(bufferMs = BUFFER_MS) {
    this.bufferMs = bufferMs;
    this.rate = 1; // simulated seconds per wall second: the server's speed_factor
    this.frames = []; // [{time (s of the stroke), discs: Map id -> {id, x, y, where, ...}}]
    this.origin = null; // local ms at which stroke time 0 plays
    this.complete = false; // no more snapshots will come: the last one is the end
  }

  get active() {
    return this.frames.length > 0;
  }

  clear() {
    this.frames = [];
    this.origin = null;
    this.complete = false;
  }

  /** Add a snapshot: time in stroke seconds, discs an array of {id, x, y, ...}. */
  push(time, discs, now) {
    const last = this.frames[this.frames.length - 1];
    if (last && time <= last.time) return; // a duplicate after a resync
    this.frames.push({ time, discs: new Map(discs.map((d) => [d.id, d])) });
    const playAt = this.origin === null ? null : this.clock(now);
    // Start (or catch up after a stall) a buffer's length behind the newest snapshot.
    if (playAt === null || playAt > time) this.origin = now + this.bufferMs - (time * 1000) / this.rate;
  }

  /** The stroke time shown at local time `now`. */
  clock(now) {
    return ((now - this.origin) / 1000) * this.rate;
  }

  /** Has the play clock passed the last snapshot, and is it the last there will be?
   * (A late snapshot only pauses the motion: it does not end it.) */
  finished(now) {
    if (!this.active) return true;
    return this.complete && this.clock(now) >= this.frames[this.frames.length - 1].time;
  }

  /** Discs at local time `now`: an array of {id, x, y, ...} interpolated. */
  sample(now) {
    const f = this.frames;
    if (!f.length) return [];
    const at = this.clock(now);
    if (at <= f[0].time) return [...f[0].discs.values()];
    let i = f.length - 1;
    if (at >= f[i].time) return [...f[i].discs.values()];
    while (f[i].time > at) i--;
    const a = f[i];
    const b = f[i + 1];
    const k = (at - a.time) / (b.time - a.time);
    const out = [];
    for (const [id, da] of a.discs) {
      const db = b.discs.get(id);
      // A disc gone by the next snapshot (pocketed, off) stays where it was seen last.
      if (!db) out.push(da);
      else out.push({ ...db, x: da.x + (db.x - da.x) * k, y: da.y + (db.y - da.y) * k });
    }
    return out;
  }
}
