// The look of a real board (issue 19): wooden rails with their grain and a bevel throwing a
// shadow on the powdered plywood, painted lines, holes with depth, turned discs lit from the
// upper left with a groove and a hole, soft shadows; and a puck dropping into its hole. Drawn
// in the table's millimetres (render.js has set the transform); no image files to load.

const GRAIN_PX = 256;
/** @type {OffscreenCanvas | null} */
let grainCache = null;

/** A tile of wood grain (made once): fine dark streaks on transparent, to lay over a colour. */
function grainTile() {
  if (grainCache || typeof OffscreenCanvas === "undefined") return grainCache;
  const c = new OffscreenCanvas(GRAIN_PX, GRAIN_PX);
  const g = /** @type {OffscreenCanvasRenderingContext2D} */ (c.getContext("2d")); // a 2d context is always given
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let i = 0; i < 70; i++) {
    const y0 = rnd() * GRAIN_PX;
    const wave = 2 + rnd() * 6;
    const freq = (1 + rnd() * 2) * ((2 * Math.PI) / GRAIN_PX);
    g.strokeStyle = `rgba(40, 20, 5, ${0.15 + rnd() * 0.35})`;
    g.lineWidth = 0.5 + rnd() * 1.5;
    g.beginPath();
    for (let x = 0; x <= GRAIN_PX; x += 4) {
      // whole waves across the tile, so that tiles join without a seam
      const y = y0 + wave * Math.sin(x * freq * Math.round(1 + rnd() * 0.01));
      if (x === 0) g.moveTo(x, y);
      else g.lineTo(x, y);
    }
    g.stroke();
  }
  grainCache = c;
  return c;
}

/** Lay the grain over the rectangle, at `alpha`, its streaks along x (or y when `across`). */
const patterns = new WeakMap(); // ctx -> its grain pattern, made once (not every frame)

function grain(ctx, x, y, w, h, alpha, across = false, mmPerTile = 180) {
  const tile = grainTile();
  if (!tile) return;
  if (!patterns.has(ctx)) patterns.set(ctx, ctx.createPattern(tile, "repeat"));
  const pattern = patterns.get(ctx);
  const k = mmPerTile / GRAIN_PX;
  pattern.setTransform(across ? new DOMMatrix([0, k, k, 0, 0, 0]) : new DOMMatrix([k, 0, 0, k, 0, 0]));
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.fillStyle = pattern;
  ctx.fillRect(x, y, w, h);
  ctx.restore();
}

/** The board: rails, surface, the rails' shadow, the painted lines (`lines`), the holes. */
export function drawBoardLook(ctx, t, C, lines, pockets) {
  const L = t.size;
  const r = t.railWidth;
  ctx.fillStyle = C.railEdge;
  ctx.fillRect(-r - 3, -r - 3, L + 2 * r + 6, L + 2 * r + 6);
  ctx.fillStyle = C.rail;
  ctx.fillRect(-r, -r, L + 2 * r, L + 2 * r);
  // the rails' grain runs along each rail
  grain(ctx, -r, -r, L + 2 * r, r, 0.5);
  grain(ctx, -r, L, L + 2 * r, r, 0.5);
  grain(ctx, -r, 0, r, L, 0.5, true);
  grain(ctx, L, 0, r, L, 0.5, true);
  // a rounded top: light along the outer half, the inner edge dark
  ctx.strokeStyle = "rgba(255, 225, 180, 0.18)";
  ctx.lineWidth = 6;
  ctx.strokeRect(-r + 8, -r + 8, L + 2 * r - 16, L + 2 * r - 16);
  ctx.fillStyle = C.railEdge;
  ctx.fillRect(-4, -4, L + 8, L + 8);
  const light = ctx.createRadialGradient(L / 2, L / 2, L * 0.1, L / 2, L / 2, L * 0.75);
  light.addColorStop(0, C.surfaceLight);
  light.addColorStop(1, C.surface);
  ctx.fillStyle = light;
  ctx.fillRect(0, 0, L, L);
  grain(ctx, 0, 0, L, L, 0.05, false, 420); // the plywood's faint grain under the powder
  // the rails' soft shadow on the surface
  const shade = 14;
  for (const [x, y, w, h, x0, y0, x1, y1] of [
    [0, 0, L, shade, 0, 0, 0, shade],
    [0, L - shade, L, shade, 0, L, 0, L - shade],
    [0, 0, shade, L, 0, 0, shade, 0],
    [L - shade, 0, shade, L, L, 0, L - shade, 0],
  ]) {
    const g = ctx.createLinearGradient(x0, y0, x1, y1);
    g.addColorStop(0, "rgba(60, 35, 10, 0.28)");
    g.addColorStop(1, "rgba(60, 35, 10, 0)");
    ctx.fillStyle = g;
    ctx.fillRect(x, y, w, h);
  }
  ctx.strokeStyle = C.line;
  ctx.lineWidth = 2;
  lines();
  for (const [px, py] of pockets) {
    const depth = ctx.createRadialGradient(px, py, t.pocketRadius * 0.2, px, py, t.pocketRadius);
    depth.addColorStop(0, C.pocket);
    depth.addColorStop(0.75, "#1a120b");
    depth.addColorStop(1, "#3a2615");
    ctx.beginPath();
    ctx.arc(px, py, t.pocketRadius, 0, 2 * Math.PI);
    ctx.fillStyle = depth;
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = "rgba(255, 240, 210, 0.35)"; // the hole's worn edge
    ctx.stroke();
  }
}

/** A turned disc with a soft shadow, lit from the viewer's upper left, its groove and its hole. */
export function drawDiscLook(ctx, x, y, radius, holeRadius, fill, edge, board, down = [1, -1]) {
  // the soft shadow, towards the viewer's lower right (`down`: that way in the world)
  for (const [k, a] of [[0.16, 0.12], [0.1, 0.16]]) {
    ctx.beginPath();
    ctx.arc(x + radius * k * down[0], y + radius * k * down[1], radius * (1 + k / 2), 0, 2 * Math.PI);
    ctx.fillStyle = `rgba(0, 0, 0, ${a})`;
    ctx.fill();
  }
  ctx.beginPath();
  ctx.arc(x, y, radius, 0, 2 * Math.PI);
  ctx.fillStyle = fill;
  ctx.fill();
  const lit = ctx.createRadialGradient(x - radius * 0.35 * down[0], y - radius * 0.35 * down[1], radius * 0.1, x, y, radius);
  lit.addColorStop(0, "rgba(255, 255, 255, 0.32)");
  lit.addColorStop(0.6, "rgba(255, 255, 255, 0.06)");
  lit.addColorStop(1, "rgba(0, 0, 0, 0.28)"); // the bevelled edge
  ctx.fillStyle = lit;
  ctx.fill();
  ctx.lineWidth = Math.max(1, radius * 0.1);
  ctx.strokeStyle = edge;
  ctx.stroke();
  // the turned groove
  ctx.beginPath();
  ctx.arc(x, y, radius * 0.68, 0, 2 * Math.PI);
  ctx.lineWidth = Math.max(0.6, radius * 0.05);
  ctx.strokeStyle = "rgba(0, 0, 0, 0.25)";
  ctx.stroke();
  // the hole: the board seen through it, its inner wall in shadow
  ctx.beginPath();
  ctx.arc(x, y, holeRadius, 0, 2 * Math.PI);
  ctx.fillStyle = board;
  ctx.fill();
  ctx.lineWidth = Math.max(0.6, holeRadius * 0.35);
  ctx.strokeStyle = "rgba(0, 0, 0, 0.35)";
  ctx.stroke();
}

const DROP_MS = 450;

/** Pucks dropping into the holes: a puck gone from one frame of the motion to the next slides
 * on into the nearest hole, shrinking and darkening. */
export class Drops {
  constructor() {
    this.last = new Map(); // id -> the puck as last drawn while moving
    this.falling = []; // {puck, to: [x, y], since}
  }

  /** The pucks drawn now; `moving` while a stroke plays. */
  update(pucks, moving, pockets, now) {
    if (moving) {
      const ids = new Set(pucks.map((p) => p.id));
      for (const [id, p] of this.last) {
        if (ids.has(id)) continue;
        const to = pockets.reduce((a, b) => (Math.hypot(b[0] - p.x, b[1] - p.y) < Math.hypot(a[0] - p.x, a[1] - p.y) ? b : a));
        this.falling.push({ puck: p, to, since: now });
      }
    }
    this.last = moving ? new Map(pucks.map((p) => [p.id, p])) : new Map();
    this.falling = this.falling.filter((f) => now - f.since < DROP_MS);
  }

  /** Draw the falling pucks with `drawPuck(p, scale)`; how many fall now (for tests). */
  draw(ctx, drawPuck, now) {
    for (const f of this.falling) {
      const k = Math.min(1, (now - f.since) / DROP_MS);
      const x = f.puck.x + (f.to[0] - f.puck.x) * Math.min(1, k * 2);
      const y = f.puck.y + (f.to[1] - f.puck.y) * Math.min(1, k * 2);
      ctx.save();
      ctx.globalAlpha = 1 - k;
      drawPuck({ ...f.puck, x, y }, 1 - 0.55 * k);
      ctx.restore();
    }
    return this.falling.length;
  }
}
