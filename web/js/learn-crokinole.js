// @ts-check
// Crokinole on the "Learn to play" page (js/learn.js): the board drawn with the match's own
// drawing (js/crokinole-draw.js) and the match's shot (js/crokinole-board.js): press on the
// board to set the disc on your part of the shooting line (002 5), pull back to set the
// power, release to shoot. A press and release without a pull shoots nothing and leaves
// nothing on the line. By the keys (the board focused): ← → move the disc along the line,
// A D turn the aim, ↑ ↓ the power (Shift: coarse), Enter shoots, Esc lets go.
import { flick, quadrantCentre, startSpot } from "./crokinole-board.js";
import { circle, drawBoard, toPx, toWorld } from "./crokinole-draw.js";

/** @typedef {{x: number, y: number, angle: number, speed: number}} Shot */
/** @typedef {{x: number, y: number, owner: number, id?: number}} Disc */
/**
 * The board as `GET /api/lessons` gives it (docs/protocol.md, "Crokinole board").
 * @typedef {{size: number, centre: number[], surface_radius: number, shooting_radius: number,
 *   ring10_radius: number, ring15_radius: number, hole_radius: number, peg_radius: number,
 *   pegs: number[][], disc_radius: number, max_speed: number}} Board
 */
/** @typedef {{x: number, y: number, flick: {angle: number, speed: number, power: number} | null}} Aim */

export class CrokinoleAim {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(shot: Shot) => void} onStrike called with the shot at the release of a pull
   */
  constructor(canvas, onStrike) {
    this.canvas = canvas;
    /** @type {Board | null} */
    this.board = null;
    this.quadrant = 0;
    this.enabled = false;
    /** @type {Aim | null} */
    this.aim = null;
    canvas.addEventListener("pointerdown", (e) => {
      if (!this.enabled || !this.board) return;
      const [x, y] = toWorld(canvas, this.board, e.clientX, e.clientY);
      this.aim = { ...startSpot(this.board, this.quadrant, x, y), flick: null };
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener("pointermove", (e) => {
      if (!this.aim || !this.board) return;
      const [x, y] = toWorld(canvas, this.board, e.clientX, e.clientY);
      this.aim.flick = flick(this.board, this.aim, x, y);
    });
    canvas.addEventListener("pointerup", () => {
      const a = this.aim;
      this.aim = null; // shot or not, nothing stays on the line
      if (!this.enabled || !a?.flick || a.flick.speed <= 0) return;
      this.enabled = false;
      onStrike({ x: a.x, y: a.y, angle: a.flick.angle, speed: a.flick.speed });
    });
    canvas.addEventListener("pointercancel", () => {
      this.aim = null;
    });
    canvas.addEventListener("keydown", (e) => {
      if (this.key(e.key, e.shiftKey, onStrike)) e.preventDefault();
    });
  }

  /**
   * One key of the keyboard's aiming; whether it was one.
   * @param {string} key
   * @param {boolean} coarse Shift held: steps five times larger
   * @param {(shot: Shot) => void} onStrike
   * @returns {boolean}
   */
  key(key, coarse, onStrike) {
    const b = this.board;
    if (!this.enabled || !b) return false;
    const step = coarse ? 5 : 1;
    if (key === "Escape") {
      this.aim = null;
      return true;
    }
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "a", "d", "Enter"].includes(key)) return false;
    const [cx, cy] = b.centre;
    const mid = quadrantCentre(this.quadrant);
    // the first key: the disc in the middle of the own part of the line, aimed at the centre
    const a = this.aim ?? { ...startSpot(b, this.quadrant, cx + Math.cos(mid), cy + Math.sin(mid)), flick: null };
    const f = a.flick ?? { angle: Math.atan2(cy - a.y, cx - a.x), speed: 0, power: 0 };
    let { angle, power } = f;
    let spot = { x: a.x, y: a.y };
    if (key === "ArrowLeft" || key === "ArrowRight") {
      // along the shooting line, kept in the own quadrant (002 5)
      const polar = Math.atan2(a.y - cy, a.x - cx) + ((key === "ArrowRight" ? 1 : -1) * step * Math.PI) / 180;
      spot = startSpot(b, this.quadrant, cx + Math.cos(polar), cy + Math.sin(polar));
    }
    if (key === "a" || key === "d") angle += ((key === "a" ? 1 : -1) * step * Math.PI) / 360;
    if (key === "ArrowUp" || key === "ArrowDown") power = Math.max(0, Math.min(1, power + ((key === "ArrowUp" ? 1 : -1) * step) / 100));
    this.aim = { ...spot, flick: { angle, power, speed: power * b.max_speed * 0.5 } };
    if (key === "Enter" && power > 0) {
      this.aim = null;
      this.enabled = false;
      onStrike({ x: spot.x, y: spot.y, angle, speed: power * b.max_speed * 0.5 });
    }
    return true;
  }

  /**
   * The learner may shoot: from `quadrant` of `board`.
   * @param {Board} board
   * @param {number} quadrant
   */
  start(board, quadrant) {
    this.board = board;
    this.quadrant = quadrant;
    this.enabled = true;
    this.aim = null;
  }

  /** No shot now (one is on its way, or the try is over). */
  stop() {
    this.enabled = false;
    this.aim = null;
  }

  /**
   * The board with `discs`, and the disc being aimed with its pull (the power) as a line.
   * @param {Board} board
   * @param {Disc[]} discs
   */
  draw(board, discs) {
    const ctx = this.canvas.getContext("2d");
    if (!ctx) return;
    drawBoard(ctx, board, discs);
    const a = this.aim;
    if (!a) return;
    circle(ctx, board, a.x, a.y, board.disc_radius, "rgba(255,255,255,0.6)", "#fff");
    if (!a.flick) return;
    const { angle, power } = a.flick;
    ctx.beginPath();
    ctx.moveTo(...toPx(this.canvas, board, a.x, a.y));
    ctx.lineTo(...toPx(this.canvas, board, a.x + 200 * power * Math.cos(angle), a.y + 200 * power * Math.sin(angle)));
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#fff";
    ctx.stroke();
    ctx.lineWidth = 1;
  }

  /**
   * Page coordinates of a board point (for tests and the curious).
   * @param {number} x
   * @param {number} y
   * @returns {number[]}
   */
  toPage(x, y) {
    if (!this.board) return [0, 0];
    const [px, py] = toPx(this.canvas, this.board, x, y);
    const r = this.canvas.getBoundingClientRect();
    return [r.left + (px * r.width) / this.canvas.width, r.top + (py * r.height) / this.canvas.height];
  }
}
