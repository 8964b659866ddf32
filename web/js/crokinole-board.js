// Pure geometry and words of a Crokinole room (docs/crokinole.md), no DOM: where a
// disc may start (002 5), the flick from a pull, and a ruling read out with its paragraph.
// World coordinates are the server's: mm from the south-west corner of the square around
// the playing surface, the centre at board.centre.

/** The quadrant a seat shoots from: singles sit opposite (002 1). */
export function quadrantOf(seat, players) {
  return players === 2 ? 2 * seat : seat;
}

/** Direction (radians) from the centre to the middle of a quadrant: 0 south, clockwise. */
export function quadrantCentre(quadrant) {
  return -Math.PI / 2 - (quadrant * Math.PI) / 2;
}

/**
 * The start spot nearest to a pointer: on the shooting line (touching it, 002 5), the
 * angle kept within the seat's quadrant.
 */
export function startSpot(board, quadrant, px, py) {
  const [cx, cy] = board.centre;
  const mid = quadrantCentre(quadrant);
  let off = Math.atan2(py - cy, px - cx) - mid;
  off = Math.atan2(Math.sin(off), Math.cos(off));
  const lim = Math.PI / 4 - (board.disc_radius + 1) / board.shooting_radius;
  const a = mid + Math.max(-lim, Math.min(lim, off));
  return { x: cx + board.shooting_radius * Math.cos(a), y: cy + board.shooting_radius * Math.sin(a) };
}

/** The flick of a slingshot pull: away from the pointer, speed growing with the pull. */
export function flick(board, start, px, py, fullPull = 150) {
  const dx = start.x - px;
  const dy = start.y - py;
  const pull = Math.hypot(dx, dy);
  const power = Math.min(1, pull / fullPull);
  return { angle: Math.atan2(dy, dx), speed: power * board.max_speed * 0.5, power };
}

const WORDS = {
  valid: "Valid shot",
  no_opponent_struck: "Invalid shot: no opposing disc struck; your disc and the discs it struck go to the ditch",
  not_direct: "Invalid shot: your own disc struck first; your disc and your discs it moved go to the ditch, the opponent's go back",
  not_in_15: "Invalid shot: no opposing disc in play and no disc ended touching or inside the 15 line; your disc and the discs it struck go to the ditch",
};

/** A ruling in words with its paragraph, e.g. "Valid shot (3 a); a twenty set aside (2 b)". */
export function rulingWords(ruling) {
  const parts = [`${WORDS[ruling.code] ?? ruling.code} (${ruling.rule})`];
  if (ruling.twenties?.length) parts.push(`${ruling.twenties.length} twenty set aside (2 b)`);
  if (ruling.out_of_play?.length) parts.push(`${ruling.out_of_play.length} out of play over the shooting line (4 e, 6)`);
  if (ruling.restored?.length) parts.push(`${ruling.restored.length} put back (7 a)`);
  return parts.join("; ");
}

/** A finished round in words, one figure per colour (002 4 f, 4 g, 7 d). */
export function roundWords(round) {
  const totals = round.totals.join(" to ");
  const points = round.points.join(" to ");
  return `Round ${round.round}: ${totals} on the board with the twenties; points ${points} (${round.rule}); game ${round.score.join(" to ")}`;
}
