// The Crokinole board drawn to scale on a canvas (docs/crokinole.md): the ditch, the
// playing surface, its rings and quadrant lines, the 20-hole, the pegs and the discs at the
// places given. World coordinates are the server's: mm from the south-west corner of the
// square around the playing surface, north up. Shared by the Crokinole room
// (js/crokinole-app.js) and the replay viewer (js/pages/replay.js).

export const COLOURS = ["#c0392b", "#222222", "#2e86c1", "#f1c40f"]; // 002 7 d: up to four colours
const MARGIN = 20; // mm around the playing surface (the ditch)

/** Canvas pixels per mm. */
export function boardScale(canvas, board) {
  return canvas.width / (board.size + 2 * MARGIN);
}

/**
 * World mm to canvas pixels.
 * @returns {[number, number]}
 */
export function toPx(canvas, board, x, y) {
  const s = boardScale(canvas, board);
  return [(x + MARGIN) * s, canvas.height - (y + MARGIN) * s];
}

/** Canvas-relative client pixels (a pointer) to world mm. */
export function toWorld(canvas, board, px, py) {
  const r = canvas.getBoundingClientRect();
  const s = boardScale(canvas, board) * (r.width / canvas.width);
  return [(px - r.left) / s - MARGIN, (r.bottom - py) / s - MARGIN];
}

/** A circle of radius r mm at world (x, y). */
export function circle(ctx, board, x, y, r, fill, stroke) {
  const [cx, cy] = toPx(ctx.canvas, board, x, y);
  ctx.beginPath();
  ctx.arc(cx, cy, r * boardScale(ctx.canvas, board), 0, 2 * Math.PI);
  if (fill) (ctx.fillStyle = fill), ctx.fill();
  if (stroke) (ctx.strokeStyle = stroke), ctx.stroke();
}

/** The board and the discs ({x, y, owner}: owner is the colour) on it. */
export function drawBoard(ctx, board, discs) {
  const canvas = ctx.canvas;
  ctx.fillStyle = "#1d2a24";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const b = board;
  const [cx, cy] = b.centre;
  circle(ctx, b, cx, cy, b.surface_radius + 18, "#5a3d22"); // the ditch
  circle(ctx, b, cx, cy, b.surface_radius, "#e8d3a6");
  for (const r of [b.shooting_radius, b.ring10_radius, b.ring15_radius]) circle(ctx, b, cx, cy, r, null, "#222");
  for (let k = 0; k < 4; k++) {
    const a = Math.PI / 4 + (k * Math.PI) / 2; // the quadrant lines, between the rings 10 and the shooting line
    ctx.beginPath();
    ctx.moveTo(...toPx(canvas, b, cx + b.ring10_radius * Math.cos(a), cy + b.ring10_radius * Math.sin(a)));
    ctx.lineTo(...toPx(canvas, b, cx + b.shooting_radius * Math.cos(a), cy + b.shooting_radius * Math.sin(a)));
    ctx.stroke();
  }
  circle(ctx, b, cx, cy, b.hole_radius, "#3b2a18");
  for (const [x, y] of b.pegs) circle(ctx, b, x, y, b.peg_radius, "#444");
  for (const d of discs) circle(ctx, b, d.x, d.y, b.disc_radius, COLOURS[d.owner] ?? "#888", "#000");
}

/**
 * A Crokinole suggestion on the board, as js/computer.js draws a Novuss hint (the replay
 * viewer's "what would the computer strike here?"): where the disc is placed (a dashed blue
 * ring), the way it is shot, and the disc it is aimed at, ringed.
 * @param {CanvasRenderingContext2D} ctx
 * @param {{disc_radius: number, size: number}} board the served board
 * @param {{shot: {x: number, y: number, angle: number}, target: number|null}} hint
 * @param {Array<{id: number, x: number, y: number}>} discs at rest at the step
 * @returns {void}
 */
export function drawShotHint(ctx, board, hint, discs) {
  const { x, y, angle } = hint.shot;
  const target = discs.find((d) => d.id === hint.target);
  const reach = target ? Math.hypot(target.x - x, target.y - y) : 200;
  ctx.save();
  ctx.lineWidth = 2;
  ctx.setLineDash([6, 4]);
  circle(ctx, board, x, y, board.disc_radius, "rgba(30,123,224,0.18)", "#1e7be0");
  ctx.beginPath();
  ctx.moveTo(...toPx(ctx.canvas, board, x, y));
  ctx.lineTo(...toPx(ctx.canvas, board, x + Math.cos(angle) * reach, y + Math.sin(angle) * reach));
  ctx.stroke();
  ctx.setLineDash([]);
  if (target) circle(ctx, board, target.x, target.y, board.disc_radius + 3, null, "#1e7be0");
  ctx.restore();
}
