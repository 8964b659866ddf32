// The websocket to the game server: binary msgpack maps with a type key "t",
// reconnecting by itself with a growing, jittered delay. What to say on (re)connect
// (hello with the resume token and the last sequence seen) is the app's business.
import { decode, encode } from "@msgpack/msgpack";

const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];
const PING_EVERY_MS = 10000;
const SILENCE_LIMIT_MS = 25000; // no byte for this long: the link is dead even if not closed

export function socketUrl(path, loc = window.location) {
  const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${loc.host}${path}`;
}

export class Connection {
  /** handlers: onOpen(), onMessage(msg), onState("connecting"|"open"|"reconnecting"|"closed") */
  constructor(url, handlers) {
    this.url = url;
    this.h = handlers;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.lastHeard = 0;
    /** @type {number | undefined} */
    this.timer = undefined;
    /** @type {number | undefined} */
    this.pinger = undefined;
  }

  get open() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.timer);
    this.h.onState?.(this.attempt ? "reconnecting" : "connecting");
    const ws = new WebSocket(this.url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.lastHeard = Date.now();
      this.h.onState?.("open");
      this.startPinging();
      this.h.onOpen?.();
    };
    ws.onmessage = (ev) => {
      this.lastHeard = Date.now();
      let msg;
      try {
        msg = decode(new Uint8Array(ev.data));
      } catch (err) {
        console.warn("undecodable frame", err);
        return;
      }
      if (msg && typeof msg === "object" && typeof msg.t === "string") this.h.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.stopPinging();
      this.ws = null;
      if (!this.stopped) this.retry();
    };
    ws.onerror = () => ws.close();
  }

  retry() {
    const base = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
    this.attempt += 1;
    this.h.onState?.("reconnecting");
    this.timer = setTimeout(() => this.connect(), base * (0.75 + Math.random() * 0.5));
  }

  startPinging() {
    this.stopPinging();
    this.pinger = setInterval(() => {
      if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) {
        this.drop();
        return;
      }
      this.send({ t: "ping" });
    }, PING_EVERY_MS);
  }

  stopPinging() {
    clearInterval(this.pinger);
    this.pinger = undefined;
  }

  /** Send a message; false if the link is down (the caller's intent is then dropped). */
  send(msg) {
    if (!this.open) return false;
    /** @type {WebSocket} */ (this.ws).send(encode(msg)); // open: the socket is there
    return true;
  }

  /** Break the link as a network failure would; it reconnects by itself. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    this.stopPinging();
    ws.onclose = null;
    ws.close();
    this.retry();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.stopPinging();
    this.ws?.close();
    this.ws = null;
    this.h.onState?.("closed");
  }
}
