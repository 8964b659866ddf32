// The one place that reads and writes the address bar (docs/client.md, "Addresses and Back").
// The main page's screens are addresses: "/" the lobby, "/?screen=name" the name form,
// "/?room=<id>" a room (waiting room or table), "/?match=<id>" a finished match's record;
// "/r/<invite>" and "/?join=<id>" are links into a room that become "/?room=<id>" once in it.
// A screen entered from another of this page is pushed, so Back returns to the one before;
// leaving it by a button goes back to that entry rather than pushing a new one, so Back never
// reopens a room already left. Other pages read their path's key and hash through it too.

/**
 * @typedef {object} Route
 * @property {"lobby" | "name" | "room" | "record"} screen the main page's screen the address names
 * @property {string | null} room a room's id (/?room=)
 * @property {string | null} join a public room's shareable link (/?join=)
 * @property {string | null} invite a private room's invite code (/r/<code>)
 * @property {string | null} match a finished match's id (/?match=)
 * @property {string | null} key a record's or replay's invite key (&invite=)
 */

/** Marks the entries this page pushed (history.state), to go back to rather than over them. */
const PUSHED = "novuss.pushed";

/**
 * The screen an address names.
 * @param {Location | URL} loc
 * @returns {Route}
 */
export function route(loc = location) {
  const q = new URLSearchParams(loc.search);
  const m = loc.pathname.match(/^\/r\/([^/?#]+)/);
  const invite = m ? decodeURIComponent(m[1]) : null;
  const room = q.get("room");
  const join = q.get("join");
  const match = q.get("match");
  /** @type {Route["screen"]} */
  let screen = "lobby";
  if (match) screen = "record";
  else if (invite || room || join) screen = "room";
  else if (q.get("screen") === "name") screen = "name";
  return { screen, room, join, invite, match, key: q.get("invite") };
}

/**
 * The address of a screen.
 * @param {"lobby" | "name" | "room"} screen
 * @param {string} [id] the room's id
 * @returns {string}
 */
export function screenUrl(screen, id) {
  if (screen === "room") return `/?room=${encodeURIComponent(id ?? "")}`;
  return screen === "name" ? "/?screen=name" : "/";
}

/**
 * A public room's shareable link (takes a seat, or watches a full room).
 * @param {string} id
 * @returns {string}
 */
export const joinLink = (id) => `${location.origin}/?join=${encodeURIComponent(id)}`;

/**
 * A private room's invite link.
 * @param {string} code
 * @returns {string}
 */
export const inviteLink = (code) => `${location.origin}/r/${code}`;

/** @returns {string} this address as the page compares it: path and query */
const here = () => `${location.pathname}${location.search}`;

/**
 * Go to a screen of this page: a new history entry, so that Back returns to this one.
 * @param {string} url
 */
export function push(url) {
  if (url !== here()) history.pushState({ [PUSHED]: true }, "", url);
}

/**
 * Name this screen without a new entry (an address that became another: an invite link once
 * in its room, a reload).
 * @param {string} url
 */
export function replace(url) {
  if (url !== here()) history.replaceState(history.state, "", url);
}

let ownBacks = 0;

/**
 * Return to `url` having left a screen by a button: back to the entry below when this one was
 * pushed over it (the Back button then leaves the site or goes on down, not into the room
 * left), otherwise the address is replaced.
 * @param {string} url
 */
export function returnTo(url) {
  if (url === here()) return;
  if (history.state?.[PUSHED]) undo();
  else replace(url);
}

/** Step back over a history move this page does not follow (a Forward into a room left). */
export function undo() {
  ownBacks++;
  history.back();
}

/**
 * Call `onChange` with the new route when the player moves through the history (Back,
 * Forward); the page's own `returnTo` is not such a move.
 * @param {(r: Route) => void} onChange
 */
export function onHistory(onChange) {
  addEventListener("popstate", () => {
    if (ownBacks > 0) {
      ownBacks--;
      return;
    }
    onChange(route());
  });
}

/**
 * A segment of the path, decoded: `pathPart(1)` of "/u/ann" is "ann" (a profile's name, a
 * replay's match, a competition's id).
 * @param {number} n
 * @returns {string}
 */
export function pathPart(n) {
  return decodeURIComponent(location.pathname.split("/")[n + 1] || "");
}

/**
 * A query parameter of this address, or null.
 * @param {string} name
 * @returns {string | null}
 */
export const param = (name) => new URLSearchParams(location.search).get(name);

/** @returns {string} the address's hash without its "#", decoded */
export const hash = () => decodeURIComponent(location.hash.slice(1));

/**
 * Set (or with null remove) the hash, without a new history entry: a view's detail (a
 * lesson, a stroke, a list's tab) kept by a reload, not a step for Back.
 * @param {string | null} h
 */
export function setHash(h) {
  history.replaceState(history.state, "", `${location.pathname}${location.search}${h === null ? "" : `#${h}`}`);
}
