// Placing and striking: the pointer drags the striker along the own edge zone and
// pulls the cue back behind it (direction and power); the keyboard fine-adjusts.
// The controller only edits an aim and reports it; the app decides what to send.
import {
  angleToLocal,
  angleToWorld,
  clampCueAngle,
  clampToField,
  defaultPlacement,
  placementCheck,
  toLocal,
  toWorld,
} from "./geometry.js";

// A finger rolls as it lifts off glass; the aim it had this long before the lift is
// the one the player saw and meant.
export const TOUCH_SETTLE_MS = 90;
const MIN_POWER = 0.02; // below this a release is a cancel, not a stroke
const PULL_OF_FULL_POWER = 0.3; // of the table's width on screen

/** The aim a touch meant: the last sample at least `settleMs` older than the lift. */
export function settledSample(samples, upTime, settleMs = TOUCH_SETTLE_MS) {
  let chosen = samples[0] ?? null;
  for (const s of samples) {
    if (s.time <= upTime - settleMs) chosen = s;
  }
  return chosen;
}

export class AimController {
  /**
   * canvas: the table canvas; getView(): the current screen transform;
   * onChange(aim): the aim moved; onStrike(shot): the player struck.
   */
  constructor(canvas, { getView, onChange, onStrike }) {
    this.canvas = canvas;
    this.getView = getView;
    this.onChange = onChange;
    this.onStrike = onStrike;
    this.enabled = false;
    this.table = null;
    this.side = "S";
    this.pucks = [];
    this.aim = null; // {x, y, angle, power, legal, reason}
    this.drag = null; // {mode: "place"|"pull", pointerId, type, pressPx, samples}
    canvas.addEventListener("pointerdown", (e) => this.down(e));
    canvas.addEventListener("pointermove", (e) => this.move(e));
    canvas.addEventListener("pointerup", (e) => this.up(e));
    canvas.addEventListener("pointercancel", () => this.cancel());
    window.addEventListener("keydown", (e) => this.key(e));
  }

  /** A new turn for this player: put the striker on a legal spot, aim straight ahead. */
  start(table, side, pucks) {
    const keep = this.aim && this.side === side && this.table === table;
    this.table = table;
    this.side = side;
    this.pucks = pucks;
    let x;
    let y;
    if (keep && placementCheck(table, side, this.aim.x, this.aim.y, pucks).ok) {
      ({ x, y } = this.aim);
    } else {
      [x, y] = defaultPlacement(table, side, pucks);
    }
    this.aim = { x, y, angle: angleToWorld(side, Math.PI / 2), power: 0, legal: true, reason: null };
    this.enabled = true;
    this.recheck();
  }

  stop() {
    this.enabled = false;
    this.drag = null;
  }

  recheck() {
    const a = this.aim;
    const r = placementCheck(this.table, this.side, a.x, a.y, this.pucks);
    a.legal = r.ok;
    a.reason = r.reason;
    a.angle = clampCueAngle(this.table, this.side, a.x, a.y, a.angle);
    this.onChange?.(this.aim);
  }

  pointerWorld(e) {
    const rect = this.canvas.getBoundingClientRect();
    const px = e.clientX - rect.left;
    const py = e.clientY - rect.top;
    return { px, py, w: this.getView().toWorld(px, py) };
  }

  down(e) {
    if (!this.enabled || e.button > 0) return;
    const view = this.getView();
    const { px, py, w } = this.pointerWorld(e);
    const [sx, sy] = view.toScreen(this.aim.x, this.aim.y);
    const distPx = Math.hypot(px - sx, py - sy);
    // Grab the striker if the press is on it (a finger needs a bigger target).
    const grab = Math.max(this.table.strikerRadius * view.scale * 1.3, e.pointerType === "touch" ? 28 : 14);
    const mode = distPx <= grab ? "place" : "pull";
    this.drag = { mode, pointerId: e.pointerId, type: e.pointerType, pressPx: distPx, samples: [] };
    this.canvas.setPointerCapture?.(e.pointerId);
    e.preventDefault();
    // The keys adjust this aim next, not a chat box or button focused before.
    this.canvas.focus({ preventScroll: true });
    if (mode === "place") this.placeAt(w);
    else this.pullTo(px, py, e.timeStamp);
  }

  move(e) {
    if (!this.drag || e.pointerId !== this.drag.pointerId) return;
    const { px, py, w } = this.pointerWorld(e);
    if (this.drag.mode === "place") this.placeAt(w);
    else this.pullTo(px, py, e.timeStamp);
  }

  up(e) {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointerId) return;
    this.drag = null;
    if (drag.mode !== "pull") return;
    if (drag.type === "touch") {
      const s = settledSample(drag.samples, e.timeStamp);
      if (s) Object.assign(this.aim, { angle: s.angle, power: s.power });
    } else {
      const { px, py } = this.pointerWorld(e);
      this.pullTo(px, py, e.timeStamp, drag);
    }
    this.onChange?.(this.aim);
    if (this.aim.power >= MIN_POWER) this.strike();
  }

  cancel() {
    this.drag = null;
  }

  placeAt([wx, wy]) {
    const [u, v] = toLocal(this.side, wx, wy, this.table.size);
    const [cu, cv] = clampToField(this.table, u, v);
    [this.aim.x, this.aim.y] = toWorld(this.side, cu, cv, this.table.size);
    this.recheck();
  }

  /** The cue points from the pointer through the striker; pulling further back adds power. */
  pullTo(px, py, time, drag = this.drag) {
    const view = this.getView();
    const a = this.aim;
    const [sx, sy] = view.toScreen(a.x, a.y);
    const dist = Math.hypot(px - sx, py - sy);
    if (dist > 4) {
      const [wx, wy] = view.toWorld(px, py);
      a.angle = clampCueAngle(this.table, this.side, a.x, a.y, Math.atan2(a.y - wy, a.x - wx));
    }
    const full = PULL_OF_FULL_POWER * this.table.size * view.scale;
    a.power = Math.min(1, Math.max(0, (dist - drag.pressPx) / full));
    drag.samples.push({ time, angle: a.angle, power: a.power });
    if (drag.samples.length > 64) drag.samples.shift();
    this.onChange?.(a);
  }

  key(e) {
    if (!this.enabled || this.drag) return;
    const focus = document.activeElement;
    if (focus && focus !== this.canvas && focus !== document.body) return; // typing elsewhere
    const a = this.aim;
    const fine = !e.shiftKey;
    const turn = (fine ? 0.25 : 2) * (Math.PI / 180);
    const stepMm = fine ? 1 : 10;
    const [u, v] = toLocal(this.side, a.x, a.y, this.table.size);
    const nudge = (du, dv) => this.placeAt(toWorld(this.side, u + du, v + dv, this.table.size));
    const actions = {
      ArrowLeft: () => this.turnBy(turn),
      ArrowRight: () => this.turnBy(-turn),
      ArrowUp: () => this.powerBy(fine ? 0.01 : 0.05),
      ArrowDown: () => this.powerBy(fine ? -0.01 : -0.05),
      KeyA: () => nudge(-stepMm, 0),
      KeyD: () => nudge(stepMm, 0),
      KeyW: () => nudge(0, stepMm),
      KeyS: () => nudge(0, -stepMm),
      Enter: () => a.power >= MIN_POWER && this.strike(),
      Space: () => a.power >= MIN_POWER && this.strike(),
    };
    const act = actions[e.code];
    if (!act) return;
    e.preventDefault();
    act();
  }

  /** Turn the aim to the player's left (positive) or right, inside the cue's limits. */
  turnBy(da) {
    const a = this.aim;
    const local = angleToLocal(this.side, a.angle) + da;
    a.angle = clampCueAngle(this.table, this.side, a.x, a.y, angleToWorld(this.side, local));
    this.onChange?.(a);
  }

  powerBy(dp) {
    this.aim.power = Math.min(1, Math.max(0, this.aim.power + dp));
    this.onChange?.(this.aim);
  }

  strike() {
    const a = this.aim;
    if (!this.enabled || !a.legal) return;
    this.enabled = false;
    this.onStrike?.({ x: a.x, y: a.y, angle: a.angle, speed: a.power * this.table.maxSpeed });
  }
}
