// Pure geometry and words of a Crokinole room (docs/crokinole.md), no DOM: where a
// disc may start (002 5), the flick from a pull, and a ruling read out with its paragraph
// in the page's language (the catalogs of js/i18n/, crok.* keys).
// World coordinates are the server's: mm from the south-west corner of the square around
// the playing surface, the centre at board.centre.
import { has, t } from "./i18n.js";

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

/** Figures, one per colour, in the page's language: "35 to 20", "40 to 25 to 25". */
export const figures = (values) => values.join(t("crok.figures_joiner"));

/** A ruling in words with its paragraph, e.g. "Valid shot (3 a); 1 twenty set aside (2 b)". */
export function rulingWords(ruling) {
  const key = `crok.ruling.${ruling.code}`;
  const words = has(key) ? t(key) : ruling.code; // a code newer than this page: as it came
  const parts = [t("crok.with_rule", { words, rule: ruling.rule })];
  // What went to the ditch is said from the data, never assumed from the verdict (issue 38).
  if (ruling.to_ditch?.length) {
    parts.push(t("crok.ditched", { n: ruling.to_ditch.length, rule: ruling.code === "not_direct" ? "7 a" : "3 c" }));
  }
  if (ruling.fell?.length) parts.push(t("crok.fell", { n: ruling.fell.length }));
  if (ruling.twenties?.length) parts.push(t("crok.twenties_aside", { n: ruling.twenties.length }));
  if (ruling.out_of_play?.length) parts.push(t("crok.out_of_play", { n: ruling.out_of_play.length }));
  if (ruling.restored?.length) parts.push(t("crok.restored", { n: ruling.restored.length }));
  return parts.join("; ");
}

/** A finished round in words, one figure per colour (002 4 f, 4 g, 7 d). */
export function roundWords(round) {
  return t("crok.round", {
    round: round.round,
    totals: figures(round.totals),
    points: figures(round.points),
    rule: round.rule,
    score: figures(round.score),
  });
}

/** A pull shorter than this share of a full one is a tap: nothing is shot, nothing is left. */
export const MIN_POWER = 0.04;

/**
 * The colour a seat plays (a disc's `owner`): its `team` as the room gives it (002 1: singles
 * and 7 d one each, doubles partners share one).
 * @param {{seats: Array<{team?: number}|null>, mode?: string}} room
 * @param {number} seat
 * @returns {number}
 */
export function colourOf(room, seat) {
  const team = room.seats[seat]?.team;
  if (typeof team === "number") return team;
  return room.mode === "doubles" ? seat % 2 : seat;
}

/**
 * Who a seat is to the reader: "You", "The computer", or the player's name.
 * @param {{seats: Array<{name: string, computer?: number|null}|null>}} room
 * @param {number} seat
 * @param {number|null} me this page's seat, null for a watcher
 * @returns {string}
 */
export function whoIs(room, seat, me) {
  if (seat === me) return t("crok.you");
  const s = room.seats[seat];
  if (s?.computer) return t("crok.the_computer");
  return s?.name ?? t("seat", { seat: seat + 1 });
}
