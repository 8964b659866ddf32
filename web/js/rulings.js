// The referee's words as a player reads them at a glance, in the player's language: each
// line arrives as a code with arguments (docs/protocol.md, "ruling") and is rendered from
// the catalogs (js/i18n/). Players by name, teams as the room names them, pucks by whose
// they are (they carry no numbers on the table), one line per fact. Pure functions: the
// server's ruling lines and the room in, lines out.
import { has, list, t } from "./i18n.js";
import { teamLetter } from "./lobby.js";

export const PUCKS_PER_PLAYER = 8;

/** The seat whose puck `id` is (server/games/novuss/rules/state.py puck_ids: seat 0 has 1..8, ...). */
export const ownerOfPuck = (id) => Math.floor((id - 1) / PUCKS_PER_PLAYER);

export { teamLetter };

/** "Bob's puck, 2 of your pucks" for the pucks `ids`, in the page's language. */
export function whosePucks(ids, nameOfSeat, me) {
  const bySeat = new Map();
  for (const id of ids) {
    const seat = ownerOfPuck(id);
    bySeat.set(seat, (bySeat.get(seat) || 0) + 1);
  }
  return list(
    [...bySeat.entries()].map(([seat, n]) => (seat === me ? t("pucks.yours", { n }) : t("pucks.theirs", { n, name: nameOfSeat(seat) }))),
  );
}

// Lines that each say the turn passes: one fact, said once.
const TURN_PASSES = new Set(["turn.passes", "turn.none_in", "turn.opponent_in", "turn.over_rail", "turn.crossed_line", "turn.debt_placed"]);

/**
 * lines: the ruling's lines, each {code, args, cite, text} (or [text, cite] from a record
 * kept before rulings had codes); ctx: {seats: [{name, side}], mode, me (this page's seat
 * or null), striker (the seat whose stroke the ruling judges, if known)}. Returns
 * [{text, cite, code, penalty}] in the page's language, repeats dropped. A line about the
 * reader (its `seat` is `me`, or it has no seat and `me` struck) is read in the second
 * person (`line.<code>.you` where the catalogs have it: "your own puck", "you strike
 * again"); others in the third, by name.
 */
export function humanize(lines, ctx) {
  const seats = ctx.seats || [];
  const nameOfSeat = (i) => seats[i]?.name ?? t("seat", { seat: i + 1 });
  const teamName = (team) => {
    if (ctx.mode !== "doubles") {
      const i = seats.findIndex((s, k) => s && k % 2 === team);
      if (i >= 0) return nameOfSeat(i);
    }
    return t("team", { team: teamLetter(team) });
  };
  const words = (args) => {
    const out = { ...args };
    if ("seat" in out) out.seat = nameOfSeat(out.seat);
    if ("team" in out) out.team = teamName(out.team);
    if ("pucks" in out) out.pucks = whosePucks(out.pucks || [], nameOfSeat, ctx.me);
    return out;
  };
  const out = [];
  const seen = new Set();
  let turnPasses = false;
  for (const line of lines || []) {
    let text;
    let cite;
    /** @type {string | null} */
    let code = null;
    if (Array.isArray(line)) {
      [text, cite] = line.map(String);
    } else {
      code = line.code;
      cite = line.cite;
      const key = aboutReader(line.args || {}, ctx) && has(`line.${code}.you`) ? `line.${code}.you` : `line.${code}`;
      text = has(key) ? t(key, words(line.args || {})) : String(line.text ?? code);
    }
    if (code !== null && TURN_PASSES.has(code)) {
      if (turnPasses) continue;
      turnPasses = true;
    }
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({ text, cite: cite || "", code, penalty: code ? code.startsWith("penalty.") : /^Penalty/.test(text) });
  }
  return out;
}

/** Whether a line (its arguments) is about the reader: its seat is the reader's, or it names
 * no seat nor team and the reader made the stroke. */
function aboutReader(args, ctx) {
  const me = ctx.me;
  if (me === null || me === undefined) return false;
  if ("seat" in args) return args.seat === me;
  if ("team" in args) return false;
  return ctx.striker === me;
}
