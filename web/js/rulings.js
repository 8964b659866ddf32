// The referee's words as a player reads them at a glance: players by name (not compass
// sides), teams as the room names them, pucks by whose they are (they carry no numbers
// on the table), neutral pronouns, one line per fact. Pure functions: the server's
// ruling lines and the room in, lines out. (When rulings become codes with parameters,
// issue 19, the same names fill the parameters here.)

const SIDE_WORDS = { South: "S", West: "W", North: "N", East: "E" };
export const PUCKS_PER_PLAYER = 8;

/** The seat whose puck `id` is (server/rules/state.py puck_ids: seat 0 has 1..8, ...). */
export const ownerOfPuck = (id) => Math.floor((id - 1) / PUCKS_PER_PLAYER);

import { teamLetter } from "./lobby.js";

export { teamLetter };

/** "Bob's puck", "2 of Bob's pucks", "your puck" for the pucks `ids`. */
export function whosePucks(ids, nameOfSeat, me) {
  const bySeat = new Map();
  for (const id of ids) {
    const seat = ownerOfPuck(id);
    bySeat.set(seat, (bySeat.get(seat) || 0) + 1);
  }
  return [...bySeat.entries()]
    .map(([seat, n]) => {
      const who = seat === me ? "your" : `${nameOfSeat(seat)}'s`;
      return n === 1 ? `${who} puck` : `${n} of ${who} pucks`;
    })
    .join(", ");
}

/**
 * lines: [[text, cite], ...] from the server; ctx: {seats: [{name, side}], mode, seat
 * (the striker or whose turn the ruling concerned), me (this page's seat or null)}.
 * Returns [{text, cite}] with names filled in and repeats dropped.
 */
export function humanize(lines, ctx) {
  const seats = ctx.seats || [];
  const nameOfSeat = (i) => seats[i]?.name ?? `seat ${i + 1}`;
  const bySide = {};
  seats.forEach((s, i) => s?.side && (bySide[s.side] = nameOfSeat(i)));
  const striker = ctx.seat === null || ctx.seat === undefined ? "the player" : nameOfSeat(ctx.seat);
  const teamName = (team) => {
    if (ctx.mode === "doubles") return `Team ${teamLetter(team)}`;
    const i = seats.findIndex((s, k) => s && k % 2 === team);
    return i >= 0 ? nameOfSeat(i) : `Team ${teamLetter(team)}`;
  };
  const out = [];
  const seen = new Set();
  let turnPasses = false;
  for (const [raw, cite] of lines || []) {
    let text = String(raw);
    text = text.replace(/\b(South|West|North|East)\b/g, (w) => bySide[SIDE_WORDS[w]] ?? w);
    text = text.replace(/\bteam ([01])\b/g, (_, t) => teamName(Number(t)));
    // Puck numbers: nobody sees them on the table. A list names whose; "(#9)" goes.
    text = text.replace(/#\d+(?:, #\d+)*/g, (list) => {
      const ids = list.split(",").map((x) => Number(x.trim().slice(1)));
      return whosePucks(ids, nameOfSeat, ctx.me);
    });
    text = text.replace(/ \((?:your|[^()]*'s) puck\)/g, "");
    text = text.replace(/penalty puck\(s\)/g, "penalty puck" + (/\b1 penalty/.test(text) ? "" : "s"));
    // Neutral words.
    text = text
      .replace(/\bthe set is his\b/g, "the set is theirs")
      .replace(/\bhe\b/g, striker)
      .replace(/\bHe\b/g, striker)
      .replace(/\bhis\b/g, "their")
      .replace(/\bHis\b/g, "Their")
      .replace(/\bhim\b/g, "them");
    if (/the turn passes|The strike right passes/.test(text)) {
      // One fact: the turn passes, said once.
      if (turnPasses) continue;
      turnPasses = true;
    }
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({ text, cite: cite || "" });
  }
  return out;
}
