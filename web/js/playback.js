// Plays a stroke's motion from its exact paths (docs/protocol.md, "Discs, motion and the
// table") at the display's own rate: every drawn frame samples the paths at the stroke's time
// now, with the server's own arithmetic (replay-motion.js), so nothing is interpolated and
// nothing waits for the network while the discs move. Pure: the caller passes the time in.
import { discsAt } from "./replay-motion.js";

export class Playback {
  constructor() {
    this.rate = 1; // simulated seconds per wall second: the server's speed_factor
    this.motion = null; // {stroke, duration, decel, paths, origin?, wheres?}
    /** @type {number | null} */
    this.origin = null; // local ms at which stroke time 0 plays
  }

  get active() {
    return this.motion !== null;
  }

  clear() {
    this.motion = null;
    this.origin = null;
  }

  /** Play `motion` (a `stroke`, or `room.motion`) as `time` s into it at local time `now`. */
  start(motion, time, now) {
    this.motion = motion;
    this.seek(time, now);
  }

  /** The motion has played `time` s at local time `now` (a resume's `motion` message). */
  seek(time, now) {
    this.origin = now - (time * 1000) / this.rate;
  }

  /** The stroke time shown at local time `now`. */
  clock(now) {
    return ((now - /** @type {number} */ (this.origin)) / 1000) * this.rate; // set while a motion plays
  }

  /** Has the motion played to its end by local time `now`? */
  finished(now) {
    return !this.active || this.clock(now) >= this.motion.duration;
  }

  /** The discs in play at local time `now`: {id, owner, x, y, striker}. */
  sample(now) {
    return this.active ? discsAt(this.motion, this.clock(now)) : [];
  }
}
