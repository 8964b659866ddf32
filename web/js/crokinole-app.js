// The Crokinole page (/crokinole/): a room of seed 002 on the same server, around the board
// the table's panel (js/crokinole-hud.js: turn, colour, players, score, discs left, rulings
// with "Why?", result and rematch) and the room's chat. The protocol is the room client's
// (js/room-client.js), the same as the Novuss page's: events applied once and in order, a
// resume from the last seen `seq`, events held while a shot's motion plays.
// Create a room here (2 players, doubles, 3 or 4 each alone: 002 1, 7 d), find one by quick
// match, or open /crokinole/?room=ID to join one (&watch=1 to watch it); the main lobby (/)
// sends its Crokinole players here. The page shares the lobby's session (its name and token
// in localStorage), so a seat taken in the lobby is resumed here.
import { ChatBox } from "./chat.js";
import { nameComputers } from "./computer.js";
import { colourOf, flick, MIN_POWER, quadrantOf, roundWords, startSpot } from "./crokinole-board.js";
import { circle, drawBoard, drawShotHint, toPx, toWorld } from "./crokinole-draw.js";
import { CrokinoleHud } from "./crokinole-hud.js";
import { $ } from "./dom.js";
import { initLanguage, languageMenu, onLanguage, refusalText, t, translatePage } from "./i18n.js";
import { createMessage, lookingFor, waitingFor } from "./lobby.js";
import { Connection, socketUrl } from "./net.js";
import { createNotices } from "./notices.js";
import { Playback } from "./playback.js";
import { changed, DrawGate } from "./redraw.js";
import { freshHello, helloMessage, rememberToken, RoomClient, STORE } from "./room-client.js";
import { param, replace } from "./url.js";

const RETRY_AS_WATCHER = ["room_full", "seat_taken", "not_now"];
const BANNER_MS = 5000;

initLanguage();
translatePage(document);
languageMenu($("lang"));
const canvas = /** @type {HTMLCanvasElement} */ ($("board"));
const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
/**
 * What the page believes; read by the browser tests as window.crokinole. `last`,
 * `resumeAskedAt` and `held` are the room client's; `applied` the seqs of the events applied.
 */
const st = {
  session: null,
  name: "", // the session's name (welcome)
  room: /** @type {any} */ (null),
  seat: /** @type {number|null} */ (null),
  board: /** @type {any} */ (null),
  discs: /** @type {any[]} */ ([]),
  turn: /** @type {number|null} */ (null),
  turns: /** @type {number[]} */ ([]),
  phase: /** @type {string|null} */ (null),
  round: /** @type {any} */ (null),
  score: /** @type {number[]|null} */ (null),
  result: /** @type {any} */ (null),
  aim: /** @type {any} */ (null),
  leaving: false,
  motionDraws: 0,
  draws: 0, // display frames the board was drawn in (redraw.js)
  last: 0,
  resumeAskedAt: /** @type {number|null} */ (null),
  held: /** @type {Array<() => void>} */ ([]),
  applied: /** @type {number[]} */ ([]), // the seqs of the events applied, in order
  snapshots: /** @type {number[]} */ ([]), // the seqs of the `room` snapshots taken
  rulings: 0, // rulings applied since the page opened
  hint: /** @type {any} */ (null), // practice: the computer's suggested shot, until a shot
};
// A shot's motion, drawn from its paths at the display's rate; what follows it (its ruling,
// the round, the result) is held until it has played.
const playback = new Playback();
const hud = new CrokinoleHud();
/** @type {string|null} */
let joinRef = null;
/** @type {(() => string)|null} the last round's words, reworded on a change of language */
let roundText = null;
/** @type {import("./protocol").ClientMessage | null} a create or quick match waiting for the session under a new name */
let afterHello = null;

$("name").value = localStorage.getItem(STORE.name) || "";
const playerName = () => $("name").value.trim() || localStorage.getItem(STORE.name) || t("crok.player");

const conn = new Connection(socketUrl("/ws"), {
  onOpen: () => conn.send(helloMessage(playerName())),
  onMessage: (m) => {
    changed();
    const before = st.last;
    rooms.handle(m, HANDLERS);
    // the seqs of the events applied, each once and in order (a snapshot's are noted apart)
    if (m.t !== "room" && typeof m.seq === "number" && st.last === m.seq && before !== m.seq) st.applied.push(m.seq);
    noteTurn(m);
  },
  onState: (s) => {
    $("status").dataset.state = s;
    $("status").textContent = t(`conn.${s}`);
  },
});
/** @param {import("./protocol").ClientMessage} msg */
const send = (msg) => conn.send(msg);
const rooms = new RoomClient({ track: st, send, playing: () => playback.active, invite: () => param("invite") });
const chat = new ChatBox(/** @type {HTMLTemplateElement} */ ($("chat-template")), (channel, text) => send({ t: "chat", text, team: channel === "team" }));
chat.mount($("chat-slot"));

/** Who may shoot now: one seat, or either opponent with 002 7 c. */
function setTurns(/** @type {number[]|undefined} */ turns, /** @type {boolean} */ over) {
  st.turns = turns ?? [];
  st.turn = st.turns.length === 1 ? st.turns[0] : null;
  st.phase = over || !st.turns.length ? "over" : "play";
}

/** The panel, the bar and the buttons, from what the page believes. */
function render() {
  const r = st.room;
  hud.renderMe(r, st.seat);
  $("setup").hidden = !!r;
  if (!r) return;
  nameComputers(r.seats);
  const view = { room: r, me: st.seat, turns: st.turns, phase: st.phase, score: st.score, round: st.round };
  hud.renderTurn(view);
  hud.renderPlayers(view);
  if (st.score) hud.renderScore(st.score, st.round);
  hud.renderRulings(r, st.seat);
  hud.renderResult(st.result, r, st.seat);
  $("round").textContent = roundText ? roundText() : "";
  $("ready").hidden = !!r.match || st.seat === null || !!r.seats[st.seat]?.ready;
  $("resign").hidden = st.seat === null || !r.match || st.phase === "over";
  // practice (docs/bot.md, "Practice"): a hint at the player's turn, a take-back at rest
  $("practice").hidden = !r.options?.practice || st.seat === null || !r.match || st.phase === "over";
  /** @type {HTMLButtonElement} */ ($("hint-btn")).disabled = !myTurn();
  /** @type {HTMLButtonElement} */ ($("takeback-btn")).disabled = st.phase !== "play";
  $("how").hidden = !myTurn() || !!st.aim;
  $("how").textContent = t("crok.how");
}
onLanguage(() => {
  $("status").textContent = t(`conn.${$("status").dataset.state}`);
  render();
});

/** A short line over the board for a few seconds (a ruling, a refusal). */
function banner(/** @type {string} */ text) {
  const b = $("ruling-banner");
  b.textContent = text;
  b.hidden = !text;
  clearTimeout(banner.timer);
  banner.timer = setTimeout(() => (b.hidden = true), BANNER_MS);
}
banner.timer = /** @type {any} */ (0);

const HANDLERS = {
  welcome(m) {
    st.session = m.session;
    playback.rate = m.speed_factor > 0 ? m.speed_factor : 1;
    rememberToken(m.token);
    st.name = m.name;
    $("name").value = m.name;
    if (afterHello) {
      send(afterHello);
      afterHello = null;
    }
    const [room, invite] = [param("room"), param("invite")];
    if (m.seat) send({ t: "resume", room: m.seat.room, since: rooms.resumeSince(m.seat.room) });
    else if (st.room && st.seat === null) rooms.askSince(st.last); // a watcher back after a break
    else if (room && param("watch")) send({ t: "watch", room, ...(invite ? { invite } : {}) });
    else if (room) send({ t: "join", room, ref: (joinRef = `join-${room}`) });
    render();
  },
  queued(m) {
    $("queue").textContent = waitingFor("crokinole", m.mode, m.waiting, m.players);
  },
  room(m) {
    if (m.game !== "crokinole") return location.assign("/"); // the Novuss client's room
    const fresh = st.room?.id !== m.id || m.match?.id !== st.room?.match?.id;
    if (fresh) {
      hud.clearRulings();
      roundText = null;
    }
    if (st.room?.id !== m.id) chat.clear();
    st.seat = m.you ? m.you.seat : null;
    st.room = m;
    rooms.entered(m);
    st.snapshots.push(m.seq);
    if (m.table?.game === "crokinole") st.board = m.table;
    st.discs = m.discs ?? [];
    playback.clear();
    // Joined mid-shot: the rest of it, from where the server had it when it sent this.
    if (m.motion?.paths) playback.start(m.motion, m.motion.time, performance.now());
    st.round = m.match?.round ?? null;
    st.score = m.match?.score ?? null;
    st.result = m.match?.result ?? null;
    setTurns(m.match?.round.turn, m.match?.phase === "over");
    st.phase = m.match ? (m.match.phase === "motion" ? "motion" : st.phase) : null;
    const last = m.match?.last_ruling;
    if (fresh && last) hud.ruled({ seat: last.seat, ruling: last.ruling });
    chat.setTeamChat(m.mode === "doubles" && st.seat !== null);
    const invite = param("invite");
    const watching = st.seat === null ? `&watch=1${invite ? `&invite=${encodeURIComponent(invite)}` : ""}` : "";
    replace(`/crokinole/?room=${encodeURIComponent(m.id)}${watching}`);
    render();
  },
  stroke(m) {
    if (playback.active) {
      playback.clear(); // the last shot still played here: its end at once
      rooms.releaseHeld();
    }
    st.phase = "motion";
    st.aim = null;
    st.hint = null;
    playback.start(m, 0, performance.now()); // the whole motion: it plays from now
    render();
  },
  motion(m) {
    // A resume's missed shot: how far it has played (all of it: its end at once).
    if (playback.active && m.stroke === playback.motion.stroke) playback.seek(m.time, performance.now());
  },
  ruling(m) {
    rooms.hold(() => {
      st.discs = m.discs;
      st.round = m.round ?? st.round;
      st.score = m.score ?? st.score;
      setTurns(m.round?.turn ?? (m.turn === null ? [] : [m.turn]), false);
      hud.ruled({ seat: m.seat, ruling: m.ruling, seq: m.seq });
      st.rulings += 1;
      // 002 3 b: a shot too weak to count, said in one short line over the board
      banner(hud.last && m.ruling.code === "not_in_15" ? t("crok.ruling.not_in_15") : "");
      render();
    });
  },
  round(m) {
    rooms.hold(() => {
      roundText = () => roundWords(m);
      st.discs = [];
      render();
    });
  },
  result(m) {
    rooms.hold(() => {
      st.phase = "over";
      st.result = m;
      render();
    });
  },
  watchers(m) {
    if (st.room?.id !== m.room) return;
    st.room.watchers = m.n;
    render();
  },
  chat(m) {
    const seat = m.seat === null || m.seat === undefined ? null : m.seat;
    const role = seat === null ? t("chat.watcher") : t(`crok.colour.${colourOf(st.room, seat)}`);
    chat.add({ from: m.name, role, text: m.text, channel: m.team === null || m.team === undefined ? "room" : "team" });
  },
  gone(m) {
    if (st.room.seats[m.seat]) st.room.seats[m.seat].away = m.grace;
    chat.add({ system: true, text: t("chat.gone", { name: m.name }) });
    render();
  },
  back(m) {
    if (st.room.seats[m.seat]) st.room.seats[m.seat].away = null;
    chat.add({ system: true, text: t("chat.back", { name: m.name }) });
    render();
  },
  hint(m) {
    if (m.current) st.hint = m; // else the board changed while the computer thought
  },
  takeback() {
    st.hint = null; // the board before the player's shot follows (room)
    banner(t("computer.taken_back"));
  },
  hidden() {}, // another team's event: it only moves `last` on
  left(m) {
    if (m.room === null || m.room === undefined) return ($("queue").textContent = ""); // out of the quick-match queue
    rooms.left();
    if (st.leaving) return location.assign("/");
    st.room = null; // closed by the server: a room may be made or found again here
    st.seat = null;
    render();
  },
  error(m) {
    st.leaving = false;
    if (m.code === "bad_token") return send(freshHello(playerName())); // the session expired
    if (joinRef && m.ref === joinRef && RETRY_AS_WATCHER.includes(m.code)) {
      joinRef = null;
      send({ t: "watch", room: param("room") }); // the table is full: watch it
      return;
    }
    if (st.aim) dropAim(); // a refused shot: the disc is the player's to set again
    banner(t("crok.refused", { message: refusalText(m) }));
  },
  pong() {},
};

/**
 * Create or queue under the name in the field: a new name is a new session (the form is
 * shown only outside a room, so no seat is given up), the message sent once it is welcomed.
 * @param {import("./protocol").ClientMessage} msg
 */
function sendAs(msg) {
  const name = playerName();
  localStorage.setItem(STORE.name, name);
  if (name === st.name || !conn.open) return send(msg);
  afterHello = msg;
  localStorage.removeItem(STORE.token);
  conn.drop(); // it reconnects at once and says hello under the new name
}
$("setup").addEventListener("submit", (e) => {
  e.preventDefault();
  sendAs(createMessage({ game: "crokinole", players: $("mode").value, private: false, scoring: "tournament" }));
});
$("quick").onclick = () => {
  const chosen = $("mode").value;
  // "3" or "4": a table of that many players each alone (002 7 d), a queue of its own
  const players = chosen === "3" || chosen === "4" ? Number(chosen) : undefined;
  const mode = players ? "singles" : chosen;
  $("queue").textContent = lookingFor("crokinole", mode, players);
  sendAs({ t: "quick", game: "crokinole", mode, ...(players ? { players } : {}) });
};
$("ready").onclick = () => send({ t: "ready" });
$("hint-btn").onclick = () => send({ t: "hint" });
$("takeback-btn").onclick = () => send({ t: "takeback" });
$("resign").onclick = () => {
  if (window.confirm(t("hud.confirm_resign"))) send({ t: "resign" });
};
$("rematch").onclick = () => send({ t: "rematch" });
// Back to the lobby: out of the room first (a player leaving a live game resigns it, as
// in the lobby's Novuss rooms), else the lobby would resume the seat and send us back.
$("lobby").onclick = () => {
  if (!st.room) return location.assign("/");
  if (st.seat !== null && st.phase === "play" && !window.confirm(t("hud.confirm_leave"))) return;
  st.leaving = send({ t: "leave" });
};

// ---- drawing: world mm to canvas px, north up (js/crokinole-draw.js) ---------------

const gate = new DrawGate();
function draw(/** @type {number} */ now) {
  requestAnimationFrame(draw);
  if (playback.active && playback.finished(now)) {
    playback.clear();
    rooms.releaseHeld();
    changed();
  }
  if (!gate.due(now, playback.active)) return;
  st.draws = gate.draws;
  const b = st.board;
  if (!b) {
    ctx.fillStyle = "#1d2a24";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    return;
  }
  if (playback.active) st.motionDraws += 1;
  drawBoard(ctx, b, playback.active ? playback.sample(now) : st.discs);
  if (st.hint && myTurn()) drawShotHint(ctx, b, { shot: st.hint, target: st.hint.target }, st.discs);
  if (st.aim) drawAim(b, st.aim);
}

/** The disc on the line and, once pulled, where it goes and how hard. */
function drawAim(/** @type {any} */ b, /** @type {any} */ aim) {
  circle(ctx, b, aim.x, aim.y, b.disc_radius, "rgba(255,255,255,0.5)", "#fff");
  if (!aim.flick) return;
  const { angle, power } = aim.flick;
  ctx.beginPath();
  ctx.moveTo(...toPx(canvas, b, aim.x, aim.y));
  ctx.lineTo(...toPx(canvas, b, aim.x + 200 * power * Math.cos(angle), aim.y + 200 * power * Math.sin(angle)));
  ctx.lineWidth = 2 + 4 * power;
  ctx.strokeStyle = `hsl(${120 - 120 * power}, 80%, 60%)`;
  ctx.stroke();
  ctx.lineWidth = 1;
}
requestAnimationFrame(draw);
window.crokinole = st; // read by the browser tests
window.crokinoleLink = conn; // the tests break it as a network failure would

// ---- shooting: press to set the disc on the line, pull back, release ---------------

// The tab's notice (js/notices.js, docs/client.md "Challenges and notices"): the turn read
// from the message itself, since a ruling waits for its motion to be drawn, which a hidden
// tab does not do.
const notices = createNotices();
let turnWaits = false;
/** @param {{t: string, turn?: number|null, round?: {turn?: number[]}}} m */
function noteTurn(m) {
  if (m.t === "ruling") turnWaits = st.seat !== null && (m.round?.turn ?? (m.turn === null ? [] : [m.turn])).includes(st.seat);
  else if (m.t === "room") turnWaits = st.phase === "play" && st.seat !== null && st.turns.includes(st.seat);
  else if (["stroke", "result", "left"].includes(m.t)) turnWaits = false;
  notices.set("turn", turnWaits ? t("notice.turn") : null);
}

function myTurn() {
  return st.phase === "play" && st.seat !== null && st.turns.includes(st.seat) && !!st.board;
}

/** The power bar: shown while pulling, with its figure. */
function showPower(/** @type {number|null} */ power) {
  $("power").hidden = power === null;
  if (power === null) return;
  const pct = Math.round(power * 100);
  $("power-fill").style.width = `${pct}%`;
  $("power-figure").textContent = t("crok.power", { n: pct });
}

/** The aim given up: nothing stays on the line (a tap, a cancel). */
function dropAim() {
  st.aim = null;
  showPower(null);
  render();
}

canvas.addEventListener("pointerdown", (e) => {
  if (!myTurn()) return;
  const players = st.room.seats.length;
  const [x, y] = toWorld(canvas, st.board, e.clientX, e.clientY);
  st.aim = { ...startSpot(st.board, quadrantOf(st.seat, players), x, y), flick: null };
  canvas.setPointerCapture(e.pointerId);
  showPower(0);
  $("how").hidden = true;
});
canvas.addEventListener("pointermove", (e) => {
  if (!st.aim) return;
  const [x, y] = toWorld(canvas, st.board, e.clientX, e.clientY);
  st.aim.flick = flick(st.board, st.aim, x, y);
  showPower(st.aim.flick.power);
});
canvas.addEventListener("pointerup", () => {
  const a = st.aim;
  // a tap, or a pull too short to be meant: nothing is shot and the disc goes back
  if (!a?.flick || a.flick.power < MIN_POWER) return dropAim();
  send({ t: "strike", x: a.x, y: a.y, angle: a.flick.angle, speed: a.flick.speed });
  showPower(null);
});
canvas.addEventListener("pointercancel", dropAim);

conn.connect();
