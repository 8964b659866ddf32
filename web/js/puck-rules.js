// Why a puck may or may not be struck first on a direct stroke by this player now: what
// pressing a puck on the table says (docs/client.md, "Pressing a puck"). Pure: the same
// geometry as the blind rings and the guide line (geometry.js inCircle, inZone, teamOf,
// which server/games/novuss/rules/judge.py blind_for judges alike, tests/web/test_preview_referee.py),
// so the words never disagree with the verdict the guide line shows.
import { inCircle, inZone, railDistance, teamOf } from "./geometry.js";

const EPS = 1e-9; // as geometry.js: server/games/novuss/rules/geometry.py EPS

/**
 * Each case: whether a direct stroke may touch the puck first, and the paragraph why.
 * The cites are the rule book's (the rules page anchors them, tests/rules/test_rules_text.py).
 */
export const PUCK_CASES = Object.freeze({
  // 004 § 21 (1): every own puck outside the circle and the own zone
  own_free: { playable: true, cite: "004 § 21 (1)" },
  // 004 § 21 (1): "also those own pucks through whose hole the line is visible" (000 § 3)
  line_circle: { playable: true, cite: "004 § 21 (1)" },
  line_zone: { playable: true, cite: "004 § 21 (1)" },
  // 004 § 28 (3): in doubles the partner's zone is not blind
  partner_zone: { playable: true, cite: "004 § 28 (3)" },
  // 004 § 21 (1), (3): blind in the centre circle or the own zone, struck only by a rebound
  blind_circle: { playable: false, cite: "004 § 21 (1), (3)" },
  blind_zone: { playable: false, cite: "004 § 21 (1), (3)" },
  // 004 § 24 (1) 2): a direct stroke touching an opponent's puck first is a penalty
  opponent: { playable: false, cite: "004 § 24 (1) 2)" },
});

const OPPOSITE = { S: "N", N: "S", E: "W", W: "E" };

/**
 * Why `puck` ({owner, x, y}) is or is not playable directly for `seat` striking from
 * `side`: {reason, playable, cite, whose: "mine"|"partner"|"opponent"}. A puck is blind
 * when its hole lies wholly inside the centre circle or the own edge zone: when the line
 * shows through the hole it is not (004 § 21 (1), 000 § 3). doubles: partners sit
 * opposite, and the partner's zone is not blind (§ 28 (1), (3)).
 */
export function explainPuck(t, side, seat, puck, { doubles = false } = {}) {
  const whose = teamOf(puck.owner) !== teamOf(seat) ? "opponent" : puck.owner === seat ? "mine" : "partner";
  const verdict = (reason) => ({ reason, whose, ...PUCK_CASES[reason] });
  if (whose === "opponent") return verdict("opponent");
  if (inCircle(t, puck.x, puck.y)) return verdict("blind_circle");
  if (inZone(t, side, puck.x, puck.y)) return verdict("blind_zone");
  const h = t.puckHoleRadius;
  const fromCentre = Math.hypot(puck.x - t.size / 2, puck.y - t.size / 2);
  if (fromCentre < t.circleRadius + h - EPS) return verdict("line_circle");
  if (railDistance(t, side, puck.x, puck.y) < t.zoneDepth + h - EPS) return verdict("line_zone");
  if (doubles && inZone(t, OPPOSITE[side], puck.x, puck.y)) return verdict("partner_zone");
  return verdict("own_free");
}

/** The rules page's anchor for the first paragraph a cite names (server/games/novuss/rules/cites.py Ref.anchor). */
export function citeAnchor(cite) {
  const m = /^\s*(\d{3})\s+§\s*(\d+)(?:\s*\((\d+)\)(?:\s+(\d+)\))?)?/.exec(cite || "");
  if (!m) return null;
  const [, doc, section, paragraph, point] = m;
  if (doc !== "004") return `s${doc}-${section}`;
  return ["p", section, paragraph, point].filter(Boolean).join("-");
}

/** The rules page at the paragraph a cite names, or null when it names none. */
export function citeHref(cite) {
  const anchor = citeAnchor(cite);
  return anchor ? `/rules.html#${anchor}` : null;
}
