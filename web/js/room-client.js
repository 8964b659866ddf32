// @ts-check
// The one client of the room protocol (docs/protocol.md), shared by every game's page (the
// Novuss page through js/messages.js, the Crokinole page through js/crokinole-app.js): the
// session's hello with its resume token, the room's sequenced events applied once and in
// order (a duplicate dropped, a gap asked for again from the last seen `seq`), a resume
// from the last seen `seq`, the events that follow a shot held until its motion has been
// shown, and the presence and hidden events every room has. What an event does to a page
// is the page's: it passes its handlers.

/** Where a browser keeps its session (the name it gave and the server's resume token). */
export const STORE = { name: "novuss.name", token: "novuss.token" };

/** The events that carry the room's `seq` (docs/protocol.md; `round` is Crokinole's). */
export const SEQUENCED = new Set(["room", "stroke", "ruling", "round", "result", "chat", "gone", "back", "hidden", "takeback", "decided"]);

/**
 * What a page believes about its room that the protocol needs: the room (`room.id`,
 * `room.you`), the highest `seq` applied, the `last` at which a gap was asked for again,
 * and the events waiting until the motion has played.
 * @typedef {{
 *   room: {id: string, you?: {role: string, seat: number|null}|null}|null,
 *   last: number,
 *   resumeAskedAt: number|null,
 *   held: Array<() => void>,
 * }} RoomTrack
 */

/**
 * @typedef {{t: string, seq?: number, [field: string]: any}} ServerMessage
 * @typedef {Record<string, (msg: any) => void>} Handlers
 */

/**
 * The hello that opens (or resumes, with the stored token) a session.
 * @param {string} name
 * @returns {{t: "hello", name: string, token?: string}}
 */
export function helloMessage(name) {
  const token = localStorage.getItem(STORE.token);
  return token ? { t: "hello", name, token } : { t: "hello", name };
}

/**
 * Keep the session's resume token (from `welcome`).
 * @param {string} token
 */
export function rememberToken(token) {
  localStorage.setItem(STORE.token, token);
}

/**
 * The server no longer knows the token (`bad_token`): forget it and say hello anew.
 * @param {string} name
 * @returns {{t: "hello", name: string}}
 */
export function freshHello(name) {
  localStorage.removeItem(STORE.token);
  return { t: "hello", name };
}

export class RoomClient {
  /**
   * @param {{
   *   track: RoomTrack,
   *   send: (msg: import("./protocol").ClientMessage) => boolean,
   *   playing: () => boolean,
   *   invite?: () => string|null|undefined,
   * }} opts `track` the page's state (read and written here); `send` to the server;
   *   `playing` whether a motion is being shown; `invite` the code a watcher came with.
   */
  constructor({ track, send, playing, invite }) {
    this.track = track;
    this.send = send;
    this.playing = playing;
    this.invite = invite ?? (() => null);
  }

  /**
   * A message from the server to the page's handler for its type, unless it is a sequenced
   * event already applied or one after a gap (asked for again instead). `room` is a
   * snapshot and always applies (its handler calls `entered`); `hidden` (another team's
   * event) only moves `last` on.
   * @param {ServerMessage} msg
   * @param {Handlers} handlers
   */
  handle(msg, handlers) {
    if (SEQUENCED.has(msg.t) && msg.t !== "room" && typeof msg.seq === "number" && !this.accept(msg.seq)) return;
    handlers[msg.t]?.(msg);
  }

  /**
   * The protocol's rule for events: drop duplicates, ask for what a gap missed.
   * @param {number} seq
   * @returns {boolean} whether the event is to be applied
   */
  accept(seq) {
    const s = this.track;
    if (!s.room) return false;
    if (seq <= s.last) return false;
    if (seq > s.last + 1 && s.resumeAskedAt !== s.last) {
      s.resumeAskedAt = s.last;
      this.askSince(s.last);
      return false;
    }
    // In order, or a gap that asking again did not fill: take it rather than ask forever.
    s.last = seq;
    s.resumeAskedAt = null;
    return true;
  }

  /**
   * Ask for the events after `since`: players resume, watchers watch again.
   * @param {number} since
   */
  askSince(since) {
    const r = this.track.room;
    if (!r) return;
    if (r.you?.role === "player") {
      this.send({ t: "resume", room: r.id, since });
      return;
    }
    const invite = this.invite();
    this.send({ t: "watch", room: r.id, since, ...(invite ? { invite } : {}) });
  }

  /**
   * After `welcome` names a seat in `room`: the `seq` to resume from (the last seen when
   * this page was in that room before the link broke, else 0: a fresh page has seen nothing).
   * @param {string} room
   * @returns {number}
   */
  resumeSince(room) {
    return this.track.room?.id === room ? this.track.last : 0;
  }

  /**
   * A `room` snapshot applied: its `seq` is the last seen, nothing is held any more.
   * @param {{seq: number}} room
   */
  entered(room) {
    this.track.last = room.seq;
    this.track.resumeAskedAt = null;
    this.track.held = [];
  }

  /** Out of the room: nothing seen, nothing held. */
  left() {
    this.track.last = 0;
    this.track.held = [];
  }

  /**
   * Events after a shot wait until its motion has been seen to the end.
   * @param {() => void} fn
   * @returns {boolean} whether it ran now (false: held)
   */
  hold(fn) {
    if (this.playing()) {
      this.track.held.push(fn);
      return false;
    }
    fn();
    return true;
  }

  /** The motion has played (or another shot cut it short): what waited, in order. */
  releaseHeld() {
    const held = this.track.held;
    this.track.held = [];
    for (const fn of held) fn();
  }
}
