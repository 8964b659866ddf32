// What the Novuss page believes, shared by its modules (app.js, messages.js, table-view.js):
// the one state object the protocol is applied to, the link to the server, and the seat and
// side this player has in it.
import { toast } from "./dom.js";
import { t } from "./i18n.js";
import { STORE } from "./room-client.js";
import { COMPETITION } from "./table.js";
import { route } from "./url.js";

export { STORE }; // the session's keys, kept by the room client (js/room-client.js)

/**
 * The shapes the page keeps (the server's messages as applied by messages.js; fields the
 * protocol leaves open are open here too).
 * @typedef {Record<string, any>} Disc a disc as the room sends it: {id, owner, x, y}
 * @typedef {import("./protocol").Room & {options: {tournament?: string}}} RoomState a competition's
 *   table also names its competition in its options (server/lobby/reserved.py), which
 *   protocol.d.ts's RoomOptions (a cast on the server) does not list
 * @typedef {{seat: number | null, running: boolean, remaining: number, at: number, [k: string]: any}} Clock
 * @typedef {{seat: number, x: number, y: number, angle?: number, [k: string]: any}} Ghost
 * @typedef {{lines?: Record<string, any>[], legal: boolean, seat: number | null, cause?: string,
 *   stroke?: number | null, seq?: number}} Ruling a stroke's ruling as the `ruling` event gives it
 * @typedef {{seat: number, name: string, until: number}} Dropped
 * @typedef {{rating: number, change: number, mode: string}} RatingChange
 * @typedef {{id: number, since: number, [k: string]: any}} Highlight
 */

export const state = {
  name: localStorage.getItem(STORE.name) || "",
  session: /** @type {string | null} */ (null),
  room: /** @type {RoomState | null} */ (null), // the last full room, kept up to date by the events
  last: 0, // highest seq applied for the room
  resumeAskedAt: /** @type {number | null} */ (null), // `last` when a resume was asked, so a gap it cannot fill is accepted
  table: COMPETITION,
  discs: /** @type {Disc[]} */ ([]), // pucks at rest
  turn: /** @type {number | null} */ (null),
  phase: /** @type {string | null} */ (null), // "play" | "motion" | "over"
  score: [0, 0],
  set: /** @type {number | null} */ (null), // the set being played, from 1
  debts: /** @type {any[]} */ ([]),
  clock: /** @type {Clock | null} */ (null),
  dropped: /** @type {Map<number, Dropped>} */ (new Map()), // seat -> {seat, name, until}
  ruling: /** @type {Ruling | null} */ (null), // {lines, legal, seat, ...}
  history: /** @type {Ruling[]} */ ([]), // earlier rulings as the server sent them (worded when drawn)
  lastSeen: new Map(), // puck id -> where the motion takes it off the table (for "in the hole" marks)
  result: /** @type {Record<string, any> | null} */ (null),
  ghost: /** @type {Ghost | null} */ (null), // the striking player's live aim, seen by everybody else
  highlights: /** @type {Highlight[]} */ ([]),
  held: /** @type {any[]} */ ([]), // events that wait until the motion has played out
  motionStroke: /** @type {number | null} */ (null),
  motionDraws: 0, // display frames drawn while the last stroke's motion played
  pendingIntent: intentFromUrl(),
  joinedByLink: false, // the room was reached by an invite or a shared link
  invite: /** @type {{code: string, ref: number} | null} */ (null), // {code, ref} of the last invite used: a full room is watched with it
  strikeRef: /** @type {number | null} */ (null),
  hint: /** @type {Record<string, any> | null} */ (null), // practice: the computer's suggestion for this player's stroke
  leaving: false, // the player asked to leave: the `left` that follows is no news
  returnTo: /** @type {string | null} */ (null), // the competition's page to go back to after leaving its table
  leaveIfOver: false, // resuming a seat from "/": a match over is left, not shown
  account: /** @type {string | null} */ (null), // the logged-in account's username (welcome), or null for a guest
  ratingChange: /** @type {RatingChange | null} */ (null), // after a rated match: {rating, change, mode} of this player, once archived
};

/** The connection to the server (a `Connection`, or null before the name is given) and the
 * next `ref` to put on a message whose answer or refusal must be told apart. */
export const link = { conn: /** @type {import("./net.js").Connection | null} */ (null), nextRef: 1 };

/** @returns {import("./protocol").Join | import("./protocol").Watch | null} what the address asks for */
function intentFromUrl() {
  const r = route();
  if (r.invite) return { t: "join", invite: r.invite };
  // A public room's shareable link (/?join=<id>): take a seat, or watch if it is full.
  if (r.join) return { t: "join", room: r.join };
  return r.room ? { t: "watch", room: r.room } : null;
}

/** Send a message; a player's action while the link is down is not silently lost.
 * @param {import("./protocol").ClientMessage & { ref?: number | string }} msg
 * @returns {boolean} */
export function send(msg) {
  const sent = !!link.conn?.send(msg);
  if (!sent && msg.t !== "aim" && msg.t !== "lobby") toast(t("toast.not_connected"));
  return sent;
}

export const mySeat = () => (state.room?.you?.role === "player" ? state.room.you.seat : null);

export function mySide() {
  const r = state.room;
  if (!r) return "S";
  const me = mySeat();
  const s = me !== null ? r.seats[me] : r.seats.find((x) => x?.side);
  return s?.side || "S";
}

/** The side a seat strikes from this set. */
export function sideOf(seat) {
  return state.room?.seats[seat]?.side || "S";
}

/** Take a seat by invite; if the table is full the same invite lets us watch. */
export function joinByInvite(code) {
  state.invite = { code, ref: link.nextRef++ };
  send({ t: "join", invite: code, ref: state.invite.ref });
}
