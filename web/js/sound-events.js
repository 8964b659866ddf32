// Pure: the sounds a stroke's motion makes, read from the discs as they are shown frame after
// frame (the server sends positions, not contacts): a puck set moving (by the striker first,
// then by another puck), a disc turned back by a rail, a disc gone into a hole.

const MOVING = 5; // mm/s: slower is at rest
const NEAR_RAIL = 40; // mm beyond the disc's rim within which a turn is the rail's doing (a frame's way)
const LOUD = 2500; // mm/s: a contact this fast or faster is at full volume

export class ContactSounds {
  /** table: {size, puckRadius, strikerRadius} */
  constructor(table) {
    this.table = table;
    this.reset();
  }

  /** A new stroke: nothing seen yet. */
  reset() {
    /** @type {Map<number, {x: number, y: number, vx: number, vy: number}>} */
    this.last = new Map(); // id -> {x, y, vx, vy}
    this.at = null;
    this.struck = false; // the striker has set a puck moving in this stroke
  }

  /**
   * The discs shown at `time` (ms); the sounds since the last call: [{kind, strength}],
   * kind "strike" (the striker on a puck), "puck" (puck on puck), "rail", "pocket".
   */
  step(discs, time) {
    const out = [];
    const dt = this.at === null ? 0 : (time - this.at) / 1000;
    const now = new Map();
    for (const d of discs) {
      const before = this.last.get(d.id);
      const vx = before && dt > 0 ? (d.x - before.x) / dt : 0;
      const vy = before && dt > 0 ? (d.y - before.y) / dt : 0;
      now.set(d.id, { x: d.x, y: d.y, vx, vy });
      if (!before || dt <= 0) continue;
      const speed = Math.hypot(vx, vy);
      const was = Math.hypot(before.vx, before.vy);
      const strength = Math.min(1, speed / LOUD);
      if (d.id !== 0 && was < MOVING && speed >= MOVING) {
        out.push({ kind: this.struck ? "puck" : "strike", strength });
        this.struck = true;
      } else if (speed >= MOVING && this.offRail(d, before, vx, vy)) {
        out.push({ kind: "rail", strength: Math.min(1, was / LOUD) });
      }
    }
    for (const [id, before] of this.last) {
      if (!now.has(id) && Math.hypot(before.vx, before.vy) >= MOVING) out.push({ kind: "pocket", strength: 1 });
    }
    this.last = now;
    this.at = time;
    return out;
  }

  /** Did the disc's way turn back from a rail it is touching? */
  offRail(d, before, vx, vy) {
    const r = (d.id === 0 ? this.table.strikerRadius : this.table.puckRadius) + NEAR_RAIL;
    const L = this.table.size;
    const flippedX = Math.sign(vx) !== Math.sign(before.vx) && Math.abs(before.vx) >= MOVING;
    const flippedY = Math.sign(vy) !== Math.sign(before.vy) && Math.abs(before.vy) >= MOVING;
    const nearX = Math.min(d.x, before.x) < r || Math.max(d.x, before.x) > L - r;
    const nearY = Math.min(d.y, before.y) < r || Math.max(d.y, before.y) > L - r;
    return (flippedX && nearX) || (flippedY && nearY);
  }
}
