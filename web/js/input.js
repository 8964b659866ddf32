// Placing and striking: the pointer drags the striker along the own edge zone and
// pulls the cue back behind it (direction and power); a click or tap aims at a puck
// (again: at its pots) or a point, and locks that aim: a pull then sets the power only
// (Esc, a right click, the lock's button or moving the striker frees it); the keyboard
// fine-adjusts. A pull is let go (no
// stroke) by Esc, a right click, a second finger, dragging back onto the striker or
// releasing with no power.
// The controller only edits an aim and reports it; the app decides what to send.
import {
  aimsAtPuck,
  angleToLocal,
  angleToWorld,
  clampCueAngle,
  clampToField,
  cueAngleAllowed,
  defaultPlacement,
  firstTouch,
  holeSeenFrom,
  placementCheck,
  toLocal,
  toWorld,
} from "./geometry.js";
import { t as say } from "./i18n.js";
import { explainPuck } from "./puck-rules.js";
import { pocketCentres } from "./table.js";

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

// Grab areas and slop, in CSS pixels: a finger needs more than a mouse.
const GRAB_PAD = { mouse: 12, touch: 22 }; // beyond the striker's rim, still "move it"
const GRAB_MIN = { mouse: 20, touch: 32 }; // however small the table is drawn
const SLOP = { mouse: 5, touch: 10 }; // a press that moves less is a click (a tap)
const NEAR = 2.2; // within this many grab radii a sideways first move still moves the striker

const kindOf = (e) => (e.pointerType === "touch" || e.pointerType === "pen" ? "touch" : "mouse");

/**
 * The gesture a press starts, decided by its first real move: `place` (the press is on
 * or near the striker and the pointer moves along its rim or the press is on it), `pull`
 * (the pointer moves away from or towards the striker: the cue), or a click that aims.
 * press: {dist} from the striker's centre; move: {radial, tangential} px of the first move.
 */
export function decideGesture(grabPx, pressDist, move) {
  if (pressDist <= grabPx) return "place";
  if (pressDist <= NEAR * grabPx && Math.abs(move.tangential) > Math.abs(move.radial)) return "place";
  return "pull";
}

/**
 * The player's aim: the striker's place (world mm), the cue's direction and power, whether
 * the place is legal (and why not), the hole aimed at, a word shown near the striker, and
 * whether a click locked the direction.
 * @typedef {{x: number, y: number, angle: number, power: number, legal: boolean, reason: string | null,
 *   pocket: string | null, note: {text: string, until: number, cite: string | null} | null, locked: boolean}} Aim
 * @typedef {{time: number, angle: number, power: number}} PullSample
 * @typedef {{mode: string, pointerId: number, type: string, kind: "mouse" | "touch", grab: number,
 *   pressPx: number, press: number[], offset: number[], samples: PullSample[]}} Drag
 * @typedef {{x: number, y: number, angle: number, speed: number}} Shot
 */

export class AimController {
  /**
   * canvas: the table canvas; getView(): the current screen transform;
   * onChange(aim): the aim moved; onStrike(shot): the player struck; lockButton: the
   * button that frees a locked aim (the view shows it while `aim.locked`).
   * @param {HTMLElement} canvas
   * @param {{getView: () => import("./geometry.js").View, onChange?: (aim: Aim) => void,
   *   onStrike?: (shot: Shot) => void, lockButton?: HTMLElement | null}} hooks
   */
  constructor(canvas, { getView, onChange, onStrike, lockButton = null }) {
    this.canvas = canvas;
    this.getView = getView;
    this.onChange = onChange;
    this.onStrike = onStrike;
    this.enabled = false;
    this.table = null;
    this.side = "S";
    this.seat = 0;
    this.pucks = [];
    this.doubles = false; // the partner's zone is not blind (004 § 28 (3))
    this.explained = null; // the last puck pressed: {id, reason, playable, cite, whose, text}
    // Set by start(); the handlers below read it only once started (they wait for `enabled`).
    /** @type {Aim | null} */
    this.aim = null;
    // {mode: "press"|"place"|"pull", pointerId, type, pressPx, pressAt, offset, samples}
    /** @type {Drag | null} */
    this.drag = null;
    /** @type {{id: number, index: number, angle: number} | null} */
    this.lastClick = null; // {id, index}: clicking the same puck again tries its next pot
    this.loupeUntil = 0; // a touch shows the magnifier until then
    canvas.addEventListener("pointerdown", (e) => this.down(e));
    canvas.addEventListener("pointermove", (e) => this.move(e));
    canvas.addEventListener("pointerup", (e) => this.up(e));
    canvas.addEventListener("pointercancel", () => this.cancelPull("cancelled"));
    canvas.addEventListener("pointerleave", () => this.hover(null));
    canvas.addEventListener("contextmenu", (e) => {
      // A right click cancels a pull; it never opens a menu over the table.
      e.preventDefault();
      if (this.drag) this.cancelPull("cancelled");
      else this.unlock();
    });
    window.addEventListener("keydown", (e) => this.key(e));
    lockButton?.addEventListener("click", () => {
      this.unlock();
      canvas.focus({ preventScroll: true }); // the keys aim and strike again
    });
  }

  /** What the pointer does now: "place", "pull", "press", or "" (for the cursor and tests). */
  get gesture() {
    return this.drag ? this.drag.mode : "";
  }

  /** A new turn for this player: put the striker on a legal spot, aim straight ahead. */
  start(table, side, pucks, seat = this.seat) {
    const keep = this.aim && this.side === side && this.table === table;
    this.table = table;
    this.side = side;
    this.seat = seat;
    this.pucks = pucks;
    let x;
    let y;
    const kept = /** @type {Aim} */ (this.aim); // read only when `keep`
    if (keep && placementCheck(table, side, kept.x, kept.y, pucks).ok) {
      ({ x, y } = kept);
    } else {
      [x, y] = defaultPlacement(table, side, pucks);
    }
    this.aim = { x, y, angle: angleToWorld(side, Math.PI / 2), power: 0, legal: true, reason: null, pocket: null, note: null, locked: false };
    this.enabled = true;
    this.lastClick = null;
    this.explained = null;
    this.recheck();
  }

  stop() {
    this.enabled = false;
    this.drag = null;
    this.setCursor("");
  }

  recheck() {
    const a = /** @type {Aim} */ (this.aim);
    const r = placementCheck(this.table, this.side, a.x, a.y, this.pucks);
    a.legal = r.ok;
    a.reason = r.reason;
    a.angle = clampCueAngle(this.table, this.side, a.x, a.y, a.angle);
    this.onChange?.(a);
  }

  pointerWorld(e) {
    const rect = this.canvas.getBoundingClientRect();
    const px = e.clientX - rect.left;
    const py = e.clientY - rect.top;
    return { px, py, w: this.getView().toWorld(px, py) };
  }

  /** The striker's screen position and the radius (px) within which a press grabs it. */
  grabArea(kind) {
    const view = this.getView();
    const a = /** @type {Aim} */ (this.aim);
    const [sx, sy] = view.toScreen(a.x, a.y);
    const rim = this.table.strikerRadius * view.scale;
    return { sx, sy, grab: Math.max(rim + GRAB_PAD[kind], GRAB_MIN[kind]) };
  }

  setCursor(c) {
    if (this.canvas.style.cursor !== c) this.canvas.style.cursor = c;
    this.canvas.dataset.gesture = this.gesture;
  }

  /** The cursor says what a press here would do: move the striker, or aim and pull. */
  hover(e) {
    if (!this.enabled || !e) return this.setCursor("");
    const { px, py } = this.pointerWorld(e);
    const { sx, sy, grab } = this.grabArea("mouse");
    this.setCursor(Math.hypot(px - sx, py - sy) <= grab ? "grab" : "crosshair");
  }

  down(e) {
    if (!this.enabled) return;
    if (this.drag) {
      // A second finger or another button while pulling: let go of the stroke.
      if (e.pointerId !== this.drag.pointerId || e.button === 2) this.cancelPull("cancelled");
      return;
    }
    if (e.button > 0) return;
    const kind = kindOf(e);
    const { px, py, w } = this.pointerWorld(e);
    const { sx, sy, grab } = this.grabArea(kind);
    const distPx = Math.hypot(px - sx, py - sy);
    const a = /** @type {Aim} */ (this.aim);
    this.drag = {
      mode: distPx <= grab ? "place" : "press",
      pointerId: e.pointerId,
      type: e.pointerType,
      kind,
      grab,
      pressPx: distPx,
      press: [px, py],
      offset: [w[0] - a.x, w[1] - a.y], // the striker keeps its place under the pointer
      samples: [],
    };
    this.canvas.setPointerCapture?.(e.pointerId);
    e.preventDefault();
    // The keys adjust this aim next, not a chat box or button focused before.
    this.canvas.focus({ preventScroll: true });
    this.setCursor(this.drag.mode === "place" ? "grabbing" : "crosshair");
  }

  move(e) {
    const drag = this.drag;
    if (!drag) return this.hover(e);
    if (e.pointerId !== drag.pointerId) return;
    if (drag.mode === "pull" && e.buttons & 2) return this.cancelPull("cancelled");
    const { px, py, w } = this.pointerWorld(e);
    if (drag.mode === "press") {
      const mx = px - drag.press[0];
      const my = py - drag.press[1];
      if (Math.hypot(mx, my) < SLOP[drag.kind]) return;
      // Split the first move into along the striker-to-press line and across it.
      const { sx, sy } = this.grabArea(drag.kind);
      const rx = drag.press[0] - sx;
      const ry = drag.press[1] - sy;
      const n = Math.hypot(rx, ry) || 1;
      const radial = (mx * rx + my * ry) / n;
      const tangential = (-mx * ry + my * rx) / n;
      drag.mode = decideGesture(drag.grab, drag.pressPx, { radial, tangential });
      this.setCursor(drag.mode === "place" ? "grabbing" : "crosshair");
      /** @type {Aim} */ (this.aim).pocket = null;
    }
    if (drag.mode === "place") this.placeAt([w[0] - drag.offset[0], w[1] - drag.offset[1]]);
    else this.pullTo(px, py, e.timeStamp);
  }

  up(e) {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointerId) return;
    this.drag = null;
    this.setCursor("crosshair");
    if (drag.kind === "touch") this.loupeUntil = performance.now() + 1800; // a finger hid what it touched
    if (drag.mode === "press") {
      this.clickAt(this.pointerWorld(e));
      return;
    }
    if (drag.mode !== "pull") return;
    const a = /** @type {Aim} */ (this.aim);
    if (drag.type === "touch") {
      const s = settledSample(drag.samples, e.timeStamp);
      if (s) Object.assign(a, { angle: s.angle, power: s.power });
    } else {
      const { px, py } = this.pointerWorld(e);
      this.pullTo(px, py, e.timeStamp, drag);
    }
    // Released back on the striker, or with no pull left: no stroke.
    if (a.power < MIN_POWER || this.backOnStriker(drag, e)) return this.cancelPull("cancelled", drag);
    this.onChange?.(a);
    this.strike();
  }

  backOnStriker(drag, e) {
    const { px, py } = this.pointerWorld(e);
    const { sx, sy } = this.grabArea(drag.kind);
    return Math.hypot(px - sx, py - sy) <= drag.grab;
  }

  /** Let go of a pull: nothing is struck, the power drops to zero. */
  cancelPull(why, drag = this.drag) {
    this.drag = null;
    if (!this.enabled || !this.aim) return;
    const wasPull = drag && drag.mode === "pull";
    this.aim.power = 0;
    if (wasPull) this.notify(why === "cancelled" ? say("aim.cancelled") : why, 1500);
    this.setCursor("crosshair");
    this.onChange?.(this.aim);
  }

  /** A short word on the table near the striker, for `ms`, with the paragraph it rests on. */
  notify(text, ms = 2500, cite = null) {
    /** @type {Aim} */ (this.aim).note = { text, until: performance.now() + ms, cite };
  }

  /** Whether `puck` may be struck first directly now, and why (puck-rules.js), worded. */
  explain(puck) {
    const why = explainPuck(this.table, this.side, this.seat, puck, { doubles: this.doubles });
    return { id: puck.id, ...why, text: say(`puck.${why.reason}`, { whose: why.whose }) };
  }

  /** A click or tap on the table aims: at a puck (again: at its pots in turn) or a point. */
  clickAt({ px, py, w }) {
    const view = this.getView();
    const t = this.table;
    const a = /** @type {Aim} */ (this.aim);
    let best = null;
    let bestD = Infinity;
    for (const p of this.pucks) {
      const [qx, qy] = view.toScreen(p.x, p.y);
      const d = Math.hypot(qx - px, qy - py);
      if (d <= t.puckRadius * view.scale + 10 && d < bestD) {
        best = p;
        bestD = d;
      }
    }
    a.note = null;
    if (!best) {
      this.lastClick = null;
      a.locked = true;
      this.aimAt(Math.atan2(w[1] - a.y, w[0] - a.x), null);
      return;
    }
    this.pressPuck(best);
  }

  /** Free a locked aim: a pull sets the direction again. */
  unlock() {
    if (!this.enabled || !this.aim?.locked) return;
    this.aim.locked = false;
    this.notify(say("aim.unlocked"), 2500);
    this.onChange?.(this.aim);
  }

  /**
   * Pressing a puck (a click, a tap, or the keyboard's focus on it in the puck list):
   * aim straight at it, pressed again at the ghost point for each hole in turn, and say
   * beside the striker whether it may be struck first directly now and why (004 § 21 (1),
   * (3), § 24 (1) 2)), with any word about the aim under it. again: false starts over
   * at its centre (a new focus), whatever was pressed before.
   */
  pressPuck(puck, again = true) {
    const t = this.table;
    const a = /** @type {Aim} */ (this.aim);
    a.note = null;
    a.locked = true; // the pull that follows keeps this direction (it sets the power only)
    if (!again) this.lastClick = null;
    const options = aimsAtPuck(t, this.side, a.x, a.y, puck, pocketCentres(t));
    const allowed = options.filter((o) => o.allowed);
    if (!allowed.length) {
      this.lastClick = null;
      this.aimAt(options[0].angle, null);
    } else {
      const last = this.lastClick;
      const repeat = last && last.id === puck.id && last.angle === a.angle;
      const index = repeat ? (last.index + 1) % allowed.length : 0;
      const o = allowed[index];
      a.angle = o.angle;
      a.pocket = o.pocket;
      this.lastClick = { id: puck.id, index, angle: a.angle };
      const hole = o.pocket ? say(`hole.${holeSeenFrom(this.side, pocketCentres(t)[o.pocket], t.size)}`) : "";
      if (o.pocket && !options[0].allowed) {
        this.notify(say("aim.pot_forced", { pocket: hole }));
      } else if (o.pocket) {
        this.notify(say("aim.pot", { pocket: hole }));
      }
    }
    // What the guide line shows when the striker would not reach this puck first leads: the
    // word about the puck ("free: you may strike it directly") must not read as a promise
    // about the stroke (a player who read it first struck the foul the line showed). Then
    // the explanation, and the word about the aim (a pot, out of reach) on its own line.
    this.explained = this.explain(puck);
    const note = /** @type {Aim["note"]} */ (a.note); // notify() above may have set it
    const about = note ? note.text : null;
    const lines = [this.blockedBefore(puck), this.explained.text, about];
    this.notify(lines.filter(Boolean).join("\n"), 7000, this.explained.cite);
    this.onChange?.(a);
  }

  /**
   * What the striker meets before `puck` on the aim now, worded, or null: a hole (004 § 24
   * (1) 4)) or another puck first (as the guide line shows: geometry.js firstTouch).
   * @param {{id: number}} puck
   * @returns {string | null}
   */
  blockedBefore(puck) {
    const a = /** @type {Aim} */ (this.aim);
    const first = firstTouch(this.table, this.side, this.seat, a.x, a.y, a.angle, this.pucks, pocketCentres(this.table));
    if (first.kind === "pocket") return say("aim.first_hole");
    if (first.kind === "puck" && first.id !== puck.id) return say("aim.first_other");
    return null;
  }

  /** Aim at a world angle; outside the cue's limits, the nearest allowed and a word why. */
  aimAt(angle, pocket) {
    const a = /** @type {Aim} */ (this.aim);
    a.pocket = pocket;
    if (!cueAngleAllowed(this.table, this.side, a.x, a.y, angle)) {
      this.notify(say("aim.out_of_reach"), 3500);
    }
    a.angle = clampCueAngle(this.table, this.side, a.x, a.y, angle);
    this.onChange?.(a);
  }

  placeAt([wx, wy]) {
    const [u, v] = toLocal(this.side, wx, wy, this.table.size);
    const [cu, cv] = clampToField(this.table, u, v);
    const a = /** @type {Aim} */ (this.aim);
    [a.x, a.y] = toWorld(this.side, cu, cv, this.table.size);
    a.pocket = null;
    a.locked = false; // aimed from elsewhere: the lock's line no longer holds
    this.recheck();
  }

  /**
   * The cue points from the pointer through the striker; pulling further back adds power.
   * A locked aim (a puck, a hole or a point clicked) keeps its direction: the pull sets the
   * power only, so a slip of the hand does not turn the shot.
   */
  pullTo(px, py, time, drag = /** @type {Drag} */ (this.drag)) {
    const view = this.getView();
    const a = /** @type {Aim} */ (this.aim);
    const [sx, sy] = view.toScreen(a.x, a.y);
    const dist = Math.hypot(px - sx, py - sy);
    if (dist > 4 && !a.locked) {
      const [wx, wy] = view.toWorld(px, py);
      a.angle = clampCueAngle(this.table, this.side, a.x, a.y, Math.atan2(a.y - wy, a.x - wx));
    }
    const full = PULL_OF_FULL_POWER * this.table.size * view.scale;
    // Back on the striker the pull is let go: no power.
    a.power = dist <= drag.grab ? 0 : Math.min(1, Math.max(0, (dist - drag.pressPx) / full));
    drag.samples.push({ time, angle: a.angle, power: a.power });
    if (drag.samples.length > 64) drag.samples.shift();
    this.onChange?.(a);
  }

  key(e) {
    if (!this.enabled) return;
    const a = /** @type {Aim} */ (this.aim);
    if (e.code === "Escape") {
      if (this.drag || a.power > 0) {
        e.preventDefault();
        this.cancelPull(this.drag ? "cancelled" : null);
      } else if (a.locked) {
        e.preventDefault();
        this.unlock();
      }
      return;
    }
    if (this.drag) return;
    const focus = document.activeElement;
    // The puck list (pressing a puck by keyboard) aims with the table's keys too, but
    // Enter and Space there press the puck, they do not strike.
    const inList = !!focus?.closest?.("[data-aim-keys]");
    if (focus && focus !== this.canvas && focus !== document.body && !inList) return; // typing elsewhere
    if (inList && (e.code === "Enter" || e.code === "Space")) return;
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
    const a = /** @type {Aim} */ (this.aim);
    const local = angleToLocal(this.side, a.angle) + da;
    a.angle = clampCueAngle(this.table, this.side, a.x, a.y, angleToWorld(this.side, local));
    a.pocket = null;
    this.onChange?.(a);
  }

  powerBy(dp) {
    const a = /** @type {Aim} */ (this.aim);
    a.power = Math.min(1, Math.max(0, a.power + dp));
    this.onChange?.(a);
  }

  strike() {
    const a = /** @type {Aim} */ (this.aim);
    if (!this.enabled || !a.legal) return;
    this.enabled = false;
    this.setCursor("");
    this.onStrike?.({ x: a.x, y: a.y, angle: a.angle, speed: a.power * this.table.maxSpeed });
  }
}
