// A stroke's motion as the server's core computed it: every disc's exact piecewise path
// (docs/protocol.md, "Discs, motion and the table"), sampled at any instant with the same
// arithmetic as server/games/core/paths.py and server/games/novuss/sim/result.py
// (DiscPath.position), so live play (js/playback.js), a lesson and a replay (GET
// /api/matches/<id>/replay/<n>) all show what the referee judged, not an interpolation of
// frames. Either game: a motion may name its places (`wheres`, the first one in play:
// Crokinole's board, hole, ditch) and the origin of its paths (`origin`: Crokinole's paths are
// from the board's centre). Pure: no DOM.

const WHERE = ["table", "pocket", "off"];

/** One path of the compact form: [id, kind, owner, where, t_end, x_end, y_end, t0, x0, y0, vx, vy, ...]. */
export function pathOf(row, wheres = WHERE) {
  const [id, kind, owner, where, tEnd, xEnd, yEnd, ...segments] = row;
  return { id, striker: kind === 0, owner, where: wheres[where], live: wheres[0], tEnd, xEnd, yEnd, segments };
}

/**
 * Where a path's disc is at time t (s from the stroke): [x, y, where], as DiscPath.position.
 * From t_end on, a disc that left play is where it left it; so is a disc in play whose path
 * gives the time it came to rest (t_end > 0: Crokinole's exact resting places).
 */
export function position(path, t, decel) {
  const live = path.live ?? "table";
  if (t >= path.tEnd && (path.where !== live || path.tEnd > 0)) return [path.xEnd, path.yEnd, path.where];
  const segs = path.segments;
  // the last segment starting at or before t (bisect_right - 1 over the start times)
  let k = 0;
  for (let i = 0; i < segs.length; i += 5) if (segs[i] <= t) k = i;
  const [t0, x0, y0, vx, vy] = segs.slice(k, k + 5);
  const sp = (vx * vx + vy * vy) ** 0.5;
  if (sp === 0) return [x0, y0, live];
  const dt = Math.min(Math.max(t - t0, 0), sp / decel);
  const s = sp - decel * dt;
  const d = (sp + s) * 0.5 * dt;
  return [x0 + (vx / sp) * d, y0 + (vy / sp) * d, live];
}

/** The discs in play at time t (clamped to the stroke), as {id, owner, x, y, striker}, moved
 * by the motion's origin (the protocol's coordinates, as the table's discs at rest). */
export function discsAt(motion, t) {
  const at = Math.min(Math.max(t, 0), motion.duration);
  const [ox, oy] = motion.origin || [0, 0];
  const out = [];
  for (const row of motion.paths) {
    const p = pathOf(row, motion.wheres);
    const [x, y, where] = position(p, at, motion.decel);
    if (where === p.live) out.push({ id: p.id, owner: p.owner, x: x + ox, y: y + oy, striker: p.striker });
  }
  return out;
}

/** Every disc where the motion leaves it, in the core's order (the striker first), with
 * where it ended, in the paths' own coordinates: what the stroke's state hash is taken over
 * (server/games/novuss/sim/result.py, server/games/crokinole/physics.py). */
export function restingPlaces(motion) {
  return motion.paths.map((row) => {
    const p = pathOf(row, motion.wheres);
    const [x, y, where] = position(p, motion.duration, motion.decel);
    return { id: p.id, where, x, y };
  });
}

/** Index of the step to open at for `#stroke=N` (the step after stroke N), or null. */
export function stepOfStroke(steps, hash) {
  const m = /(?:^#|&)stroke=(\d+)/.exec(hash || "");
  if (!m) return null;
  const i = steps.findIndex((s) => s.kind === "stroke" && s.stroke === Number(m[1]));
  return i < 0 ? null : i + 1;
}
