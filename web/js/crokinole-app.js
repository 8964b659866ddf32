// The Crokinole page (/crokinole/): a room of seed 002 on the same server. Draws the
// round board to scale, lets the player to shoot set a disc on the shooting line of the
// quadrant and flick it with a slingshot pull, and reads rulings and rounds out in words.
// Create a room here, or open /crokinole/?room=ID to join one (&watch=1 to watch it); the
// main lobby (/) sends its Crokinole players here. The page shares the lobby's session
// (its name and token in localStorage), so a seat taken in the lobby is resumed here.
import { Connection, socketUrl } from "./net.js";
import { figures, flick, quadrantOf, roundWords, rulingWords, startSpot } from "./crokinole-board.js";
import { circle, drawBoard, toPx, toWorld } from "./crokinole-draw.js";
import { initLanguage, languageMenu, onLanguage, refusalText, t, translatePage } from "./i18n.js";
import { Playback } from "./playback.js";

const STORE = { name: "novuss.name", token: "novuss.token" }; // the lobby's (web/js/app.js)
const RETRY_AS_WATCHER = ["room_full", "seat_taken", "not_now"];
// Every sentence of the page, from the catalogs (js/i18n/, crok.* keys; docs/client.md).
const TEXT = {
  seat: (room, seat) => (seat === null ? t("crok.watching", { room }) : t("crok.seat", { room, seat: seat + 1 })),
  ruling: (seat, ruling) => t("crok.ruling", { seat: seat + 1, words: rulingWords(ruling) }),
  over: (winner) => (winner === null ? t("crok.over_tie") : t("crok.over_win", { colour: winner + 1 })),
  refused: (m) => t("crok.refused", { message: refusalText(m) }),
  score: (score, round) =>
    round
      ? t("crok.score_round", { score: figures(score), twenties: round.twenties.join(" / "), round: round.round })
      : t("crok.score", { score: figures(score) }),
};
/** @type {(id: string) => any} the page's own element of an id (its kind known to the caller) */
const $ = (id) => document.getElementById(id);
// What each line of text shows, kept as a function so a change of language rewords it.
const shown = new Map();
function say(id, words) {
  shown.set(id, words);
  $(id).textContent = words();
}

initLanguage();
translatePage(document);
languageMenu($("lang"));
onLanguage(() => {
  for (const [id, words] of shown) $(id).textContent = words();
});
const canvas = $("board");
const ctx = canvas.getContext("2d");
const st = { session: null, room: null, seat: null, board: null, discs: [], turn: null, turns: [], phase: null, round: null, aim: null, leaving: false };
// A shot's motion, drawn from its paths at the display's rate; what follows it (its ruling,
// the round, the result) is held until it has played.
const playback = new Playback();
let held = [];
const query = new URLSearchParams(location.search);
let joinRef = null;

$("name").value = localStorage.getItem(STORE.name) || "Player";

const conn = new Connection(socketUrl("/ws"), {
  onOpen: () => {
    const token = localStorage.getItem(STORE.token);
    conn.send({ t: "hello", name: $("name").value || "Player", ...(token ? { token } : {}) });
  },
  onMessage: (m) => HANDLERS[m.t]?.(m),
  onState: (s) => {
    $("status").dataset.state = s;
    say("status", () => t(`conn.${s}`));
  },
});

/** Now, or once the motion being drawn has played. */
function afterMotion(fn) {
  if (playback.active) held.push(fn);
  else fn();
}

function releaseHeld() {
  const fns = held;
  held = [];
  for (const fn of fns) fn();
}

/** Who may shoot now: one seat, or either opponent with 002 7 c. */
function setTurns(turns, over) {
  st.turns = turns ?? [];
  st.turn = st.turns.length === 1 ? st.turns[0] : null;
  st.phase = over || !st.turns.length ? "over" : "play";
}

const HANDLERS = {
  welcome(m) {
    st.session = m.session;
    playback.rate = m.speed_factor > 0 ? m.speed_factor : 1;
    localStorage.setItem(STORE.token, m.token);
    const [room, invite] = [query.get("room"), query.get("invite")];
    if (m.seat) conn.send({ t: "resume", room: m.seat.room, since: 0 });
    else if (room && query.get("watch")) conn.send({ t: "watch", room, ...(invite ? { invite } : {}) });
    else if (room) conn.send({ t: "join", room, ref: (joinRef = `join-${room}`) });
  },
  room(m) {
    if (m.game !== "crokinole") return location.assign("/"); // the Novuss client's room
    if (m.you) st.seat = m.you.seat;
    st.room = { ...st.room, ...m };
    if (m.table?.game === "crokinole") st.board = m.table;
    st.discs = m.discs ?? st.discs;
    held = [];
    playback.clear();
    // Joined mid-shot: the rest of it, from where the server had it when it sent this.
    if (m.motion?.paths) playback.start(m.motion, m.motion.time, performance.now());
    st.round = m.match?.round ?? null;
    setTurns(m.match?.round.turn, m.match?.phase === "over");
    st.phase = m.match ? (m.match.phase === "motion" ? "motion" : st.phase) : null;
    $("ready").hidden = !!m.match || st.seat === null;
    $("create").hidden = true;
    const seat = st.seat;
    say("status", () => TEXT.seat(m.id, seat));
    if (m.match) showScore(m.match.score, m.match.round);
    const invite = query.get("invite");
    const watching = st.seat === null ? `&watch=1${invite ? `&invite=${encodeURIComponent(invite)}` : ""}` : "";
    history.replaceState(null, "", `/crokinole/?room=${encodeURIComponent(m.id)}${watching}`);
  },
  stroke(m) {
    if (playback.active) releaseHeld(); // the last shot still played here: its end at once
    st.phase = "motion";
    st.aim = null;
    playback.start(m, 0, performance.now()); // the whole motion: it plays from now
  },
  motion(m) {
    // A resume's missed shot: how far it has played (all of it: its end at once).
    if (playback.active && m.stroke === playback.motion.stroke) playback.seek(m.time, performance.now());
  },
  ruling(m) {
    afterMotion(() => {
      st.discs = m.discs;
      st.round = m.round ?? st.round;
      setTurns(m.round?.turn ?? (m.turn === null ? [] : [m.turn]), false);
      say("ruling", () => TEXT.ruling(m.seat, m.ruling));
      showScore(m.score, m.round);
    });
  },
  round(m) {
    afterMotion(() => {
      say("round", () => roundWords(m));
      st.discs = [];
    });
  },
  result(m) {
    afterMotion(() => {
      st.phase = "over";
      const before = shown.get("round");
      say("round", () => [before?.(), TEXT.over(m.winner)].filter(Boolean).join(" · "));
    });
  },
  left() {
    if (st.leaving) location.assign("/");
  },
  error(m) {
    st.leaving = false;
    if (m.code === "bad_token") {
      // the session is gone (expired): a new one, as the lobby does
      localStorage.removeItem(STORE.token);
      return conn.send({ t: "hello", name: $("name").value || "Player" });
    }
    if (joinRef && m.ref === joinRef && RETRY_AS_WATCHER.includes(m.code)) {
      joinRef = null;
      conn.send({ t: "watch", room: query.get("room") }); // the table is full: watch it
      return;
    }
    say("ruling", () => TEXT.refused(m));
  },
};

function showScore(score, round) {
  say("score", () => TEXT.score(score, round));
}

$("create").onclick = () => {
  localStorage.setItem(STORE.name, $("name").value || "Player");
  conn.send({ t: "create", game: "crokinole", mode: "singles", sets: 1, clock: 60, private: false });
};
$("ready").onclick = () => conn.send({ t: "ready" });
// Back to the lobby: out of the room first (a player leaving a live game resigns it, as
// in the lobby's Novuss rooms), else the lobby would resume the seat and send us back.
$("lobby").onclick = () => {
  if (!st.room) return location.assign("/");
  st.leaving = conn.send({ t: "leave" });
};

// ---- drawing: world mm to canvas px, north up (js/crokinole-draw.js) ---------------

function draw(now) {
  requestAnimationFrame(draw);
  if (playback.active && playback.finished(now)) {
    playback.clear();
    releaseHeld();
  }
  const b = st.board;
  if (!b) {
    ctx.fillStyle = "#1d2a24";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    return;
  }
  if (playback.active) st.motionDraws = (st.motionDraws ?? 0) + 1;
  drawBoard(ctx, b, playback.active ? playback.sample(now) : st.discs);
  if (st.aim) {
    circle(ctx, b, st.aim.x, st.aim.y, b.disc_radius, "rgba(255,255,255,0.5)", "#fff");
    if (st.aim.flick) {
      const { angle, power } = st.aim.flick;
      ctx.beginPath();
      ctx.moveTo(...toPx(canvas, b, st.aim.x, st.aim.y));
      ctx.lineTo(...toPx(canvas, b, st.aim.x + 200 * power * Math.cos(angle), st.aim.y + 200 * power * Math.sin(angle)));
      ctx.strokeStyle = "#fff";
      ctx.stroke();
    }
  }
}
requestAnimationFrame(draw);
window.crokinole = st; // read by the browser tests

// ---- shooting: press to set the disc on the line, pull back, release ---------------

function myTurn() {
  return st.phase === "play" && st.seat !== null && st.turns.includes(st.seat) && st.board;
}

canvas.addEventListener("pointerdown", (e) => {
  if (!myTurn()) return;
  const players = st.room.seats.length;
  const [x, y] = toWorld(canvas, st.board, e.clientX, e.clientY);
  st.aim = { ...startSpot(st.board, quadrantOf(st.seat, players), x, y), flick: null };
  canvas.setPointerCapture(e.pointerId);
});
canvas.addEventListener("pointermove", (e) => {
  if (!st.aim) return;
  const [x, y] = toWorld(canvas, st.board, e.clientX, e.clientY);
  st.aim.flick = flick(st.board, st.aim, x, y);
});
canvas.addEventListener("pointerup", () => {
  const a = st.aim;
  if (!a?.flick || a.flick.speed <= 0) return;
  conn.send({ t: "strike", x: a.x, y: a.y, angle: a.flick.angle, speed: a.flick.speed });
});

conn.connect();
