// Pure geometry of the table, no DOM: frames per side, legal striker placement,
// the cue's angle limits and the guide line. World coordinates are the server's:
// mm, origin at the SW corner, x east, y north, angles radians CCW from +x.
//
// A side's "local" frame is the table as the player standing at that side sees
// it: u runs along his own rail from his left to his right, v from his own rail
// towards the opposite one. Every side's frame is a rotation of the world (never
// a mirror), so angles convert by adding a constant.

const TAU = 2 * Math.PI;
export const POSITION_ROUNDING = 0.01; // mm, docs/protocol.md: disc x, y

// How much the local frame is turned against the world, per side.
const ROTATION = { S: 0, E: Math.PI / 2, N: Math.PI, W: -Math.PI / 2 };

export function sideRotation(side) {
  const r = ROTATION[side];
  if (r === undefined) throw new Error(`unknown side ${side}`);
  return r;
}

/** World point -> the local frame of `side` on a table of size L.
 * @returns {[number, number]} */
export function toLocal(side, x, y, L) {
  switch (side) {
    case "S":
      return [x, y];
    case "N":
      return [L - x, L - y];
    case "W":
      return [L - y, x];
    case "E":
      return [y, L - x];
    default:
      throw new Error(`unknown side ${side}`);
  }
}

/**
 * A hole as the player at `side` sees it, his own rail nearest: "near_left", "near_right",
 * "far_left" or "far_right" (the i18n keys `hole.*`). A compass name ("NE") meant another
 * hole to every player but the one at S.
 * @param {string} side
 * @param {number[]} centre the hole's centre in world coordinates
 * @param {number} L the table's size
 * @returns {string}
 */
export function holeSeenFrom(side, centre, L) {
  const [u, v] = toLocal(side, centre[0], centre[1], L);
  return `${v < L / 2 ? "near" : "far"}_${u < L / 2 ? "left" : "right"}`;
}

/** Local point of `side` -> world. Inverse of toLocal.
 * @returns {[number, number]} */
export function toWorld(side, u, v, L) {
  switch (side) {
    case "S":
      return [u, v];
    case "N":
      return [L - u, L - v];
    case "W":
      return [v, L - u];
    case "E":
      return [L - v, u];
    default:
      throw new Error(`unknown side ${side}`);
  }
}

/** Normalise an angle to (-pi, pi]. */
export function wrapAngle(a) {
  let r = a % TAU;
  if (r <= -Math.PI) r += TAU;
  if (r > Math.PI) r -= TAU;
  return r;
}

export const angleToLocal = (side, a) => wrapAngle(a - sideRotation(side));
export const angleToWorld = (side, a) => wrapAngle(a + sideRotation(side));

/**
 * The striking field of `side` in its local frame (004 § 20 (1)): the striker's
 * hole entirely inside the own edge zone, between the side zones' lines, and the
 * striker itself on the surface (not on the own rail).
 */
export function strikingField(t) {
  const h = t.strikerHoleRadius;
  return {
    uMin: t.zoneDepth + h,
    uMax: t.size - t.zoneDepth - h,
    vMin: t.strikerRadius,
    vMax: t.zoneDepth - h,
  };
}

/** Clamp a local point into the striking field: where a drag puts the striker. */
export function clampToField(t, u, v) {
  const f = strikingField(t);
  return [Math.min(f.uMax, Math.max(f.uMin, u)), Math.min(f.vMax, Math.max(f.vMin, v))];
}

/**
 * Is the striker at world (x, y) legally placed for `side`? Returns
 * { ok, reason, touching } where touching lists the ids of pucks it would touch
 * (004 § 20 (2), § 24 (1) 10)). Pucks are {id, x, y} on the table.
 */
export function placementCheck(t, side, x, y, pucks) {
  const [u, v] = toLocal(side, x, y, t.size);
  const f = strikingField(t);
  const eps = 1e-9;
  if (u < f.uMin - eps || u > f.uMax + eps || v < f.vMin - eps || v > f.vMax + eps) {
    return { ok: false, reason: "outside", touching: [] };
  }
  // Positions arrive rounded to 0.01 mm: keep that much clear so the server, which
  // knows them exactly, never finds a touch the client did not show.
  const reach = t.strikerRadius + t.puckRadius + POSITION_ROUNDING;
  const touching = pucks
    .filter((p) => Math.hypot(p.x - x, p.y - y) <= reach + eps)
    .map((p) => p.id);
  if (touching.length) return { ok: false, reason: "touching", touching };
  return { ok: true, reason: null, touching };
}

/**
 * The directions the striker may be struck in from world (x, y) by the player
 * at `side` (004 § 20 (5)): the cue lies behind the striker and must cross the
 * own rail between its two corners. Returns local angles [lo, hi], 0 < lo < hi < pi.
 */
export function cueLimitsLocal(t, side, x, y) {
  const [u, v] = toLocal(side, x, y, t.size);
  // The cue's line through a corner of the own rail: the shot points from that
  // corner through the striker.
  return [Math.atan2(v, u), Math.atan2(v, u - t.size)];
}

/** Clamp a world angle into the cue's limits; returns a world angle. */
export function clampCueAngle(t, side, x, y, angle) {
  const [lo, hi] = cueLimitsLocal(t, side, x, y);
  let a = angleToLocal(side, angle);
  // A direction pointing back at the own rail snaps to the nearer limit.
  if (a < lo || a > hi) {
    const dLo = Math.abs(wrapAngle(a - lo));
    const dHi = Math.abs(wrapAngle(a - hi));
    a = dLo <= dHi ? lo : hi;
  }
  return angleToWorld(side, a);
}

export function cueAngleAllowed(t, side, x, y, angle) {
  const [lo, hi] = cueLimitsLocal(t, side, x, y);
  const a = angleToLocal(side, angle);
  return a >= lo - 1e-9 && a <= hi + 1e-9;
}

/** Smallest s >= 0 where the ray p + s*d (|d| = 1) comes within r of c, or null. */
function rayCircle(px, py, dx, dy, cx, cy, r) {
  const ox = px - cx;
  const oy = py - cy;
  const b = ox * dx + oy * dy;
  const c = ox * ox + oy * oy - r * r;
  if (c <= 0) return b < 0 ? 0 : null; // already overlapping: a hit only if moving closer
  const disc = b * b - c;
  if (disc < 0) return null;
  const s = -b - Math.sqrt(disc);
  return s >= 0 ? s : null;
}

/**
 * Where the striker, sliding straight from world (x, y) in direction `angle`,
 * first touches something: a puck (with the struck puck's departure direction
 * along the line of centres), a rail, or a pocket (its centre over the hole).
 * pucks: [{id, x, y}]. Returns {x, y, dist, hit: {kind, id|side|pocket}, puckAngle?}.
 * @typedef {{kind: "puck", id: number, p?: {id: number, x: number, y: number}} | {kind: "pocket", pocket: string} | {kind: "rail", side: string}} GuideHit
 *   what the line meets (`p`, the puck itself, only while it is looked for)
 */
export function guideLine(t, x, y, angle, pucks, pockets) {
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  /** @type {{dist: number, hit: GuideHit | null}} */
  let best = { dist: Infinity, hit: null };
  /** @param {number | null} dist @param {GuideHit} hit */
  const consider = (dist, hit) => {
    if (dist !== null && dist < best.dist) best = { dist, hit };
  };
  const reach = t.strikerRadius + t.puckRadius;
  for (const p of pucks) consider(rayCircle(x, y, dx, dy, p.x, p.y, reach), { kind: "puck", id: p.id, p });
  for (const [name, [cx, cy]] of Object.entries(pockets)) {
    consider(rayCircle(x, y, dx, dy, cx, cy, t.pocketRadius), { kind: "pocket", pocket: name });
  }
  const lo = t.strikerRadius;
  const hi = t.size - t.strikerRadius;
  if (dx > 0) consider((hi - x) / dx, { kind: "rail", side: "E" });
  if (dx < 0) consider((lo - x) / dx, { kind: "rail", side: "W" });
  if (dy > 0) consider((hi - y) / dy, { kind: "rail", side: "N" });
  if (dy < 0) consider((lo - y) / dy, { kind: "rail", side: "S" });
  const out = { x: x + dx * best.dist, y: y + dy * best.dist, dist: best.dist, hit: best.hit };
  if (best.hit && best.hit.kind === "puck") {
    const p = /** @type {{id: number, x: number, y: number}} */ (best.hit.p); // every puck considered carries it
    out.puckAngle = Math.atan2(p.y - out.y, p.x - out.x);
    out.hit = { kind: "puck", id: p.id };
  }
  return out;
}

/** A striker spot for `side` that is legal if one exists: the middle of the own rail first. */
export function defaultPlacement(t, side, pucks) {
  const f = strikingField(t);
  const v = Math.max(f.vMin, Math.min(f.vMax, t.zoneDepth / 2));
  const mid = t.size / 2;
  for (let k = 0; k <= mid; k += 2) {
    for (const u of [mid + k, mid - k]) {
      if (u < f.uMin || u > f.uMax) continue;
      const [x, y] = toWorld(side, u, v, t.size);
      if (placementCheck(t, side, x, y, pucks).ok) return [x, y];
    }
  }
  return toWorld(side, mid, v, t.size);
}

/** @typedef {ReturnType<typeof makeView>} View the screen transform makeView gives */

/**
 * The screen transform for a viewer at `side`: his own rail at the bottom of the
 * canvas. Fits the table, its rails and a margin (`below` is the extra room in
 * front of the viewer's rail for pulling the cue) into width x height CSS pixels.
 */
export function makeView(t, side, width, height, margin = 30, below = 30) {
  const L = t.size;
  const pad = t.railWidth + margin;
  const spanU = L + 2 * pad;
  const spanV = L + 2 * pad + below;
  const scale = Math.max(1e-6, Math.min(width / spanU, height / spanV));
  const ox = (width - spanU * scale) / 2 + pad * scale;
  // Top of the drawing sits at v = L + pad; centre the whole span vertically.
  const oy = (height - spanV * scale) / 2 + pad * scale;
  const rot = sideRotation(side);
  return {
    side,
    scale,
    width,
    height,
    rotation: rot,
    toScreen(x, y) {
      const [u, v] = toLocal(side, x, y, L);
      return [ox + u * scale, oy + (L - v) * scale];
    },
    toWorld(px, py) {
      const u = (px - ox) / scale;
      const v = L - (py - oy) / scale;
      return toWorld(side, u, v, L);
    },
    /** A world angle as drawn on screen (screen y grows downwards). */
    screenAngle(a) {
      return -(a - rot);
    },
  };
}

// ---- blind pucks and the first touch, as the referee judges them (server/games/novuss/rules) ----

const EPS = 1e-9; // server/games/novuss/rules/geometry.py EPS

/** Team of a seat: singles seat = team; doubles partners 0 & 2, 1 & 3. */
export const teamOf = (seat) => ((seat % 2) + 2) % 2;

/** Distance of (x, y) from the rail along `side`: the v of that side's frame. */
export function railDistance(t, side, x, y) {
  return toLocal(side, x, y, t.size)[1];
}

/** A puck at (x, y) lies in the edge zone along `side`, judged by its hole (004 § 21 (1), 000 § 3). */
export function inZone(t, side, x, y) {
  return railDistance(t, side, x, y) <= t.zoneDepth - t.puckHoleRadius + EPS;
}

/** A puck at (x, y) lies in the centre circle, judged by its hole (004 § 21 (1)). */
export function inCircle(t, x, y) {
  const c = t.size / 2;
  return Math.hypot(x - c, y - c) <= t.circleRadius - t.puckHoleRadius + EPS;
}

/**
 * Is a puck blind for a striker at `side`: in the centre circle or in that side's own
 * edge zone (004 § 21 (1), (3)); in doubles the partner's zone is not blind (§ 28 (3)).
 * server/games/novuss/rules/judge.py blind_for.
 */
export function blindFor(t, side, p) {
  return inCircle(t, p.x, p.y) || inZone(t, side, p.x, p.y);
}

/** The words the preview shows for each verdict, and the paragraph behind it. */
export const TOUCH_WORDS = {
  own: { text: "own puck", rule: "004 § 21 (1)" },
  opponent: { text: "opponent's puck", rule: "004 § 24 (1) 2)" },
  blind: { text: "blind puck", rule: "004 § 24 (1) 8), § 21 (3)" },
  rebound: { text: "rebound", rule: "004 § 21 (2), (5)" },
  hole: { text: "into the hole", rule: "004 § 24 (1) 4)" },
};

/**
 * What a stroke from world (x, y) at `angle` by `seat` (at `side`) touches first, and
 * whether that first touch is legal now (a preview; the server's referee decides):
 * { guide, kind: "puck"|"rail"|"pocket", id, legal: true|false|null, reason }.
 * A direct stroke's first puck must be the striker's side's own, not blind, and not
 * in the own edge zone (004 § 24 (1) 2), 8), 11)); a rail first makes a rebound, whose
 * legality depends on where it goes next (legal: null); a hole first is a penalty.
 * pucks: [{id, owner, x, y}] on the table.
 */
export function firstTouch(t, side, seat, x, y, angle, pucks, pockets) {
  const guide = guideLine(t, x, y, angle, pucks, pockets);
  const hit = guide.hit;
  if (!hit) return { guide, kind: "none", id: null, legal: null, reason: null };
  if (hit.kind === "rail") return { guide, kind: "rail", id: null, side: hit.side, legal: null, reason: "rebound" };
  if (hit.kind === "pocket") return { guide, kind: "pocket", id: null, pocket: hit.pocket, legal: false, reason: "hole" };
  const p = pucks.find((q) => q.id === hit.id);
  let reason = "own";
  if (teamOf(p.owner) !== teamOf(seat)) reason = "opponent";
  else if (blindFor(t, side, p)) reason = "blind"; // in the circle or the own zone (§ 24 (1) 8), 11))
  return { guide, kind: "puck", id: p.id, legal: reason === "own", reason };
}

/**
 * Where the striker's centre must be when it touches a puck at (px, py) to send it
 * straight at the point (cx, cy) (the line of centres through it): server/games/novuss/rules/aim.py ghost.
 */
export function ghostPoint(t, px, py, cx, cy) {
  const dx = px - cx;
  const dy = py - cy;
  const n = Math.hypot(dx, dy) || 1;
  const reach = t.puckRadius + t.strikerRadius;
  return [px + (dx / n) * reach, py + (dy / n) * reach];
}

/**
 * The aims at a puck from the striker at world (x, y): straight at its centre, then at
 * the ghost point for each pocket that the striker can reach first and cut into (less
 * than 80 degrees of cut). Each: {angle, pocket|null, allowed} (allowed: inside the
 * cue's limits, 004 § 20 (5)).
 */
export function aimsAtPuck(t, side, x, y, puck, pockets) {
  const out = [];
  const add = (tx, ty, pocket) => {
    const angle = Math.atan2(ty - y, tx - x);
    out.push({ angle, pocket, allowed: cueAngleAllowed(t, side, x, y, angle) });
  };
  add(puck.x, puck.y, null);
  for (const [name, [cx, cy]] of Object.entries(pockets)) {
    const [gx, gy] = ghostPoint(t, puck.x, puck.y, cx, cy);
    const travel = Math.atan2(gy - y, gx - x);
    const push = Math.atan2(cy - puck.y, cx - puck.x);
    if (Math.abs(wrapAngle(travel - push)) < (80 * Math.PI) / 180 && Math.hypot(gx - x, gy - y) > t.strikerRadius) {
      add(gx, gy, name);
    }
  }
  return out;
}
