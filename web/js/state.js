// What the Novuss page believes, shared by its modules (app.js, messages.js, table-view.js):
// the one state object the protocol is applied to, the link to the server, and the seat and
// side this player has in it.
import { toast } from "./dom.js";
import { t } from "./i18n.js";
import { STORE } from "./room-client.js";
import { COMPETITION } from "./table.js";
import { route } from "./url.js";

export { STORE }; // the session's keys, kept by the room client (js/room-client.js)

export const state = {
  name: localStorage.getItem(STORE.name) || "",
  session: null,
  room: null, // the last full room, kept up to date by the events
  last: 0, // highest seq applied for the room
  resumeAskedAt: null, // `last` when a resume was asked, so a gap it cannot fill is accepted
  table: COMPETITION,
  discs: [], // pucks at rest
  turn: null,
  phase: null, // "play" | "motion" | "over"
  score: [0, 0],
  set: null, // the set being played, from 1
  debts: [],
  clock: null,
  dropped: new Map(), // seat -> {seat, name, until}
  ruling: null, // {lines, legal, seat, ...}
  history: [], // earlier rulings as the server sent them (worded when drawn)
  lastSeen: new Map(), // puck id -> where the motion takes it off the table (for "in the hole" marks)
  result: null,
  ghost: null, // the striking player's live aim, seen by everybody else
  highlights: [],
  held: [], // events that wait until the motion has played out
  motionStroke: null,
  motionDraws: 0, // display frames drawn while the last stroke's motion played
  pendingIntent: intentFromUrl(),
  joinedByLink: false, // the room was reached by an invite or a shared link
  invite: null, // {code, ref} of the last invite used: a full room is watched with it
  strikeRef: null,
  hint: null, // practice: the computer's suggestion for this player's stroke
  leaving: false, // the player asked to leave: the `left` that follows is no news
  returnTo: null, // the competition's page to go back to after leaving its table
  leaveIfOver: false, // resuming a seat from "/": a match over is left, not shown
  account: null, // the logged-in account's username (welcome), or null for a guest
  ratingChange: null, // after a rated match: {rating, change, mode} of this player, once archived
};

/** The connection to the server (a `Connection`, or null before the name is given) and the
 * next `ref` to put on a message whose answer or refusal must be told apart. */
export const link = { conn: null, nextRef: 1 };

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
