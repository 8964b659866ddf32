// The client's wiring: one connection, the protocol (docs/protocol.md) applied to one
// state object, and the screens (name, lobby, waiting room, match) drawn from it.
import { ChatBox } from "./chat.js";
import { ComputerView, drawHint, nameComputers, quickMessage } from "./computer.js";
import { $, el, showScreen, toast } from "./dom.js";
import { MatchHud } from "./hud.js";
import { AimController } from "./input.js";
import { inviteCode, LobbyView, lookingFor, roomPage, RoomView, waitingFor } from "./lobby.js";
import { Connection, socketUrl } from "./net.js";
import { Playback } from "./playback.js";
import { ratedName } from "./rating.js";
import { Renderer } from "./render.js";
import { showRecord } from "./record.js";
import { humanize, ownerOfPuck, whosePucks } from "./rulings.js";
import { firstTouch, toWorld as toWorldOf } from "./geometry.js";
import { initLanguage, languageMenu, onLanguage, refusalText, t, translatePage } from "./i18n.js";
import { puckList } from "./puck-list.js";
import { citeHref } from "./puck-rules.js";
import { PuckWatch } from "./puck-watch.js";
import { drawLoupe } from "./loupe.js";
import { Sounds } from "./sound.js";
import { ContactSounds } from "./sound-events.js";
import { COMPETITION, pocketCentres, tableFrom } from "./table.js";

const STORE = { name: "novuss.name", token: "novuss.token" };
const AIM_EVERY_MS = 70; // the server coalesces aims to 15 a second
const HIGHLIGHT_MS = 4000;
const CUE_ROOM_MM = 140; // room in front of the player's rail for pulling the cue

initLanguage();
translatePage(document);

const state = {
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
  lastSeen: new Map(), // puck id -> where the motion last showed it (for "in the hole" marks)
  result: null,
  ghost: null, // the striking player's live aim, seen by everybody else
  highlights: [],
  held: [], // events that wait until the motion has played out
  motionStroke: null,
  framesSeen: 0, // frames of the last stroke that reached this page
  pendingIntent: intentFromUrl(),
  joinedByLink: false, // the room was reached by an invite or a shared link
  invite: null, // {code, ref} of the last invite used: a full room is watched with it
  strikeRef: null,
  hint: null, // practice: the computer's suggestion for this player's stroke
  leaving: false, // the player asked to leave: the `left` that follows is no news
  returnTo: null, // the competition's page to go back to after leaving its table
};
const playback = new Playback();
const sounds = new Sounds();
const contacts = new ContactSounds(COMPETITION);
let conn = null;
let nextRef = 1;

function intentFromUrl() {
  const m = location.pathname.match(/^\/r\/([^/]+)/);
  if (m) return { t: "join", invite: inviteCode(location.pathname) };
  const q = new URLSearchParams(location.search);
  // A public room's shareable link (/?join=<id>): take a seat, or watch if it is full.
  if (q.get("join")) return { t: "join", room: q.get("join") };
  return q.get("room") ? { t: "watch", room: q.get("room") } : null;
}

/** Send a message; a player's action while the link is down is not silently lost. */
function send(msg) {
  const sent = !!conn?.send(msg);
  if (!sent && msg.t !== "aim" && msg.t !== "lobby") toast(t("toast.not_connected"));
  return sent;
}
const mySeat = () => (state.room?.you?.role === "player" ? state.room.you.seat : null);

/** A competition's table plays one match (docs/competitions.md): once its players have seen
 * the result they leave it and go back to the competition's page, which sends them to their
 * next table. */
const COMPETITION_RETURN_MS = 4000;
function backToCompetition(tid) {
  toast(t("toast.back_to_competition"), COMPETITION_RETURN_MS);
  state.returnTo = `/tournaments/${encodeURIComponent(tid)}`;
  setTimeout(() => {
    if (!send({ t: "leave" })) return location.assign(state.returnTo);
    state.leaving = true;
    setTimeout(() => location.assign(state.returnTo), COMPETITION_RETURN_MS); // no `left`
  }, COMPETITION_RETURN_MS);
}

/** Leave the room (or the queue): the `left` that answers is expected. */
function leave() {
  state.leaving = send({ t: "leave" });
}

/** Take a seat by invite; if the table is full the same invite lets us watch. */
function joinByInvite(code) {
  state.invite = { code, ref: nextRef++ };
  send({ t: "join", invite: code, ref: state.invite.ref });
}

function mySide() {
  const r = state.room;
  if (!r) return "S";
  const me = mySeat();
  const s = me !== null ? r.seats[me] : r.seats.find((x) => x?.side);
  return s?.side || "S";
}

// ---- screens and their intents -------------------------------------------------

const chat = new ChatBox($("chat-template"), (channel, text) => send({ t: "chat", text, team: channel === "team" }));

const lobbyView = new LobbyView({
  create: (msg) => send(msg),
  quick: (mode, game) => {
    const { after, level } = computerView.quickChoice();
    const msg = quickMessage(mode, game, after, level);
    send(msg);
    const computer = msg.computer_after ? () => t("computer.waiting", { n: msg.computer_after }) : null;
    lobbyView.setQuickStatus(() => lookingFor(game, mode) + (computer ? ` ${computer()}` : ""));
  },
  cancelQuick: () => {
    leave();
    lobbyView.setQuickStatus("");
  },
  invite: (code) => joinByInvite(code),
  join: (room) => send({ t: "join", room }),
  watch: (room) => send({ t: "watch", room }),
});

const computerView = new ComputerView({
  play: (msg) => send(msg),
  hint: () => send({ t: "hint" }),
  takeback: () => send({ t: "takeback" }),
});

const roomView = new RoomView({
  sit: (seat) => send({ t: "join", room: state.room.id, seat }),
  ready: (ready) => send({ t: "ready", ready }),
  leave,
  copyInvite: () => copyText($("invite-link").value),
});

const hud = new MatchHud({
  pass: () => send({ t: "pass" }),
  resign: () => send({ t: "resign" }),
  leave,
  rematch: () => send({ t: "rematch" }),
  lobby: leave,
});

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API refused (plain http): fall back to selecting the field.
    $("invite-link").select();
    document.execCommand("copy");
  }
  toast(t("toast.copied"));
}

$("name-form").addEventListener("submit", (e) => {
  e.preventDefault();
  // The server takes 1..24 characters without control characters.
  const name = $("name-input").value.replace(/\p{Cc}/gu, "").trim().slice(0, 24);
  if (!name) return;
  state.name = name;
  localStorage.setItem(STORE.name, name);
  start(); // the lobby shows once the server has welcomed us: its buttons need the link
});

// A new name is a new session: the server keeps a session's name.
$("rename").addEventListener("click", () => {
  conn?.close();
  conn = null;
  localStorage.removeItem(STORE.token);
  $("rename").hidden = true;
  $("name-input").value = state.name;
  showScreen("screen-name");
});

function showLobby() {
  showScreen("screen-lobby");
  $("rename").hidden = false;
  send({ t: "lobby", on: true });
  if (location.pathname !== "/" || location.search) history.replaceState(null, "", "/");
}

/** Show the waiting room or the table, whichever fits the room's state. */
function showRoomScreen() {
  const r = state.room;
  const inMatch = !!r.match;
  const id = inMatch ? "screen-match" : "screen-room";
  if (document.body.dataset.screen !== id) {
    showScreen(id);
    chat.mount($(inMatch ? "match-chat-slot" : "room-chat-slot"));
  }
  chat.setTeamChat(r.mode === "doubles" && mySeat() !== null);
  if (!inMatch) roomView.render(r, r.invite ? `${location.origin}/r/${r.invite}` : `${location.origin}/?join=${encodeURIComponent(r.id)}`, invitedBy());
  else renderHud();
}

/** A ruling's lines as a player reads them, in the page's language: names for seats, whose pucks. */
function readRuling(r) {
  if (!r) return [];
  return humanize(r.lines, { seats: state.room?.seats || [], mode: state.room?.mode, me: mySeat() });
}

function rulingTitle(r) {
  const name = state.room?.seats[r.seat]?.name;
  if (!r.stroke) return name || "";
  return name ? t("hud.stroke_title_who", { stroke: r.stroke, name }) : t("hud.stroke_title", { stroke: r.stroke });
}

/** The ids of the pucks a ruling says went into the holes. */
function pocketedIds(ruling) {
  const p = ruling?.pocketed;
  if (!Array.isArray(p)) return [];
  return p.map((x) => (Array.isArray(x) ? x[0] : typeof x === "object" && x ? x.id : x)).filter((x) => typeof x === "number");
}

/** Who invited this player, when the room was reached by an invite or a shared link. */
function invitedBy() {
  const r = state.room;
  if (!state.joinedByLink || !r) return null;
  const host = r.seats.find((s, i) => s && i !== mySeat());
  return host ? host.name : null;
}

function renderHud() {
  const r = state.room;
  if (!r?.match) return;
  hud.render({ room: r, discs: state.discs, turn: state.turn, phase: state.phase, me: mySeat(), score: state.score, debts: state.debts, set: state.set });
  // Earlier rulings are kept as the server sent them and worded now: a change of language
  // rewords them too.
  const history = state.history.map((r) => ({ title: rulingTitle(r), lines: readRuling(r), legal: r.legal }));
  hud.renderRuling(readRuling(state.ruling), state.ruling?.legal, history);
  hud.renderResult(state.result, r, mySeat(), r.rematch);
}

// ---- the table: rendering and aiming --------------------------------------------

const canvas = $("table");
const renderer = new Renderer(canvas);
let aimSentAt = 0;
let aimTimer = null;

const aimer = new AimController(canvas, {
  getView: () => renderer.view,
  onChange: () => {
    // Rate-limit the live preview, always sending the latest aim last.
    clearTimeout(aimTimer);
    const wait = AIM_EVERY_MS - (performance.now() - aimSentAt);
    if (wait <= 0) sendAim();
    else aimTimer = setTimeout(sendAim, wait);
  },
  onStrike: (shot) => {
    clearTimeout(aimTimer);
    state.strikeRef = nextRef++;
    if (send({ t: "strike", ...shot, ref: state.strikeRef })) return;
    aimer.stop(); // not sent: the striker is still the player's
    updateAimer();
  },
});

function sendAim() {
  const a = aimer.aim;
  if (!a || !aimer.enabled) return;
  aimSentAt = performance.now();
  send({ t: "aim", x: a.x, y: a.y, angle: a.angle, power: a.power });
}

/** Give the player the striker when it is his turn and the table is still. */
function updateAimer() {
  const me = mySeat();
  const mine = me !== null && state.phase === "play" && state.turn === me && !playback.active && !state.result;
  aimer.doubles = state.room?.mode === "doubles";
  if (mine && !aimer.enabled) aimer.start(state.table, mySide(), state.discs, me);
  else if (!mine && aimer.enabled) aimer.stop();
  else if (mine) aimer.pucks = state.discs;
  renderPuckList();
  computerView.renderControls(state.room, me, state.turn, playback.active ? "motion" : state.phase);
}

function renderPuckList() {
  const box = $("puck-list");
  const w = watchContext();
  if (w) {
    // Someone else strikes: the pucks say what they are for him (puck-watch.js).
    box.setAttribute("aria-label", t("seen.list", { name: w.name }));
    puckList(box, w.pucks, w.seat, (p) => watch.press(p), (whose, k) => t("seen.item", { whose, k, name: w.name }));
    return;
  }
  box.setAttribute("aria-label", t("puck.list"));
  const pucks = aimer.enabled ? state.discs.filter((d) => d.id !== 0) : [];
  puckList(box, pucks, mySeat(), (p, again) => aimer.enabled && aimer.pressPuck(p, again));
}

/** While someone else is to strike and the table is still: what pressing a puck needs. */
function watchContext() {
  const turn = state.turn;
  if (aimer.enabled || state.phase !== "play" || playback.active || turn === null || turn === undefined || turn === mySeat()) return null;
  const name = state.room?.seats[turn]?.name ?? t("seat", { seat: turn + 1 });
  const pucks = state.discs.filter((d) => d.id !== 0);
  return { table: state.table, seat: turn, side: sideOf(turn), name, doubles: state.room?.mode === "doubles", pucks };
}
const watch = new PuckWatch(canvas, $("watch-note"), { getView: () => renderer.view, context: watchContext });

/** The side a seat strikes from this set. */
function sideOf(seat) {
  return state.room?.seats[seat]?.side || "S";
}

/** Seconds left on the stroke clock, and its full length. */
function clockLeft(now) {
  const c = state.clock;
  if (!c || state.phase === "over") return null;
  const left = c.running ? c.remaining - (now - c.at) / 1000 : c.remaining;
  return { seat: c.seat, left: Math.max(0, left), total: state.room?.clock || c.remaining || 30, running: c.running };
}

function scene(now) {
  const moving = playback.active;
  const discs = moving ? playback.sample(now) : state.discs;
  const striker = discs.find((d) => d.id === 0);
  const mine = aimer.enabled ? aimer.aim : null;
  const ghost = !moving && !mine && state.ghost && state.ghost.seat === state.turn ? state.ghost : null;
  const playing = !moving && state.phase === "play" && state.turn !== null && state.turn !== undefined;
  const clock = clockLeft(now);
  return {
    moving,
    table: state.table,
    side: mySide(),
    below: mySeat() === null ? 30 : CUE_ROOM_MM,
    pucks: discs.filter((d) => d.id !== 0),
    striker: mine ? { ...mine, illegal: !mine.legal } : striker || (ghost ? { x: ghost.x, y: ghost.y, ghost: true } : null),
    aim: mine,
    ghost,
    // Blind pucks and the first touch, for whoever holds the turn (004 § 21).
    blind: playing ? { side: sideOf(state.turn), seat: state.turn } : null,
    clock: playing && clock && clock.seat === state.turn ? clock : null,
    highlights: state.highlights.filter((h) => now - h.since < HIGHLIGHT_MS),
    players: (state.room?.seats || [])
      .filter((s) => s?.side)
      // the rail names carry the ratings as the lobby and the waiting room show them
      .map((s) => ({ side: s.side, name: ratedName(s), active: s.seat === state.turn && state.phase !== "over" })),
    now,
  };
}

function frame(now) {
  requestAnimationFrame(frame);
  if (playback.active && playback.finished(now)) {
    playback.clear();
    releaseHeld();
  }
  if (document.body.dataset.screen !== "screen-match") return;
  if (playback.active) sounds.play(contacts.step(playback.sample(now), now));
  else contacts.reset();
  renderer.draw(scene(now));
  if (!playback.active && state.phase === "play") drawHint(renderer.ctx, renderer.view, renderer.dpr, state.hint, state.discs, state.table);
  const names = state.room ? state.room.seats.map((s) => s?.name) : [];
  hud.renderClock(state.phase === "over" ? null : state.clock, now, names);
  hud.renderDropped([...state.dropped.values()], now);
  const a = aimer.enabled ? aimer.aim : null;
  placePower(a, now);
  const hint = $("place-hint");
  const reason = a && !a.legal ? a.reason : null;
  hint.hidden = !reason;
  if (reason) hint.textContent = reason === "touching" ? t("aim.touching") : t("aim.outside");
  tickClock(now);
  drawLoupe($("loupe"), canvas, renderer, aimer, a, now);
}

/**
 * The power control beside the striker, in the room in front of the player's rail,
 * with a number and what a release does now; and a word about the aim near it.
 */
function placePower(a, now) {
  const box = $("power");
  const note = $("aim-note");
  box.hidden = !a;
  const text = a?.note && a.note.until > now ? a.note.text : "";
  note.hidden = !text;
  if (!a) return;
  const view = renderer.view;
  const tab = state.table;
  const [sx, sy] = view.toScreen(a.x, a.y);
  const [, railY] = view.toScreen(...toWorldOf(mySide(), tab.size / 2, -tab.railWidth));
  const pct = Math.round(a.power * 100);
  $("power-fill").style.width = `${pct}%`;
  $("power-fill").style.background = `hsl(${Math.round(120 * (1 - a.power))} 75% 45%)`; // green to red
  $("power-num").textContent = `${pct}%`;
  const g = aimer.gesture;
  $("power-hint").textContent =
    g === "pull" ? (a.power > 0 ? t("aim.release") : t("aim.pull")) : g === "place" ? t("aim.moving") : "";
  box.dataset.gesture = g;
  // Below the rail, on the side of the striker away from the cue's butt.
  const cueGoesRight = Math.cos(view.screenAngle(a.angle) + Math.PI) > 0;
  const w = box.offsetWidth || 120;
  const room = view.height - railY;
  const top = railY + Math.max(2, (room - box.offsetHeight) / 2);
  let left = cueGoesRight ? sx - w - 18 : sx + 18;
  left = Math.max(4, Math.min(view.width - w - 4, left));
  box.style.left = `${Math.round(left)}px`;
  box.style.top = `${Math.round(top)}px`;
  if (text) {
    const cite = a.note.cite || "";
    if (note.dataset.text !== text || note.dataset.cite !== cite) {
      // The paragraph the word rests on, a link to its text on the rules page.
      const href = citeHref(cite);
      note.dataset.text = text;
      note.dataset.cite = cite;
      note.replaceChildren(text, ...(href ? [" ", Object.assign(el("a", { text: `(${cite})` }), { href, target: "_blank", rel: "noopener" })] : []));
    }
    const nw = note.offsetWidth || 200;
    note.style.left = `${Math.round(Math.max(4, Math.min(view.width - nw - 4, sx - nw / 2)))}px`;
    note.style.top = `${Math.round(sy - tab.strikerRadius * view.scale - 44 - note.offsetHeight)}px`;
  }
}

// The last five seconds of the player's own stroke clock: a short tick each second.
let tickedAt = null;
function tickClock(now) {
  const c = clockLeft(now);
  const me = mySeat();
  if (!c || !c.running || me === null || c.seat !== me || state.phase !== "play" || c.left > 5 || c.left <= 0) {
    tickedAt = null;
    return;
  }
  const second = Math.ceil(c.left);
  if (second === tickedAt) return;
  tickedAt = second;
  $("table-wrap").dataset.ticks = String(Number($("table-wrap").dataset.ticks || 0) + 1);
  sounds.tick(second <= 2);
}

// ---- the protocol ---------------------------------------------------------------

const SEQUENCED = new Set(["room", "stroke", "ruling", "result", "chat", "gone", "back", "hidden", "takeback"]);

function onMessage(msg) {
  if (SEQUENCED.has(msg.t) && msg.t !== "room" && typeof msg.seq === "number" && !acceptSeq(msg.seq)) return;
  const handler = HANDLERS[msg.t];
  if (handler) handler(msg);
}

/** The protocol's rule for events: drop duplicates, ask for what a gap missed. */
function acceptSeq(seq) {
  if (!state.room) return false;
  if (seq <= state.last) return false;
  if (seq > state.last + 1 && state.resumeAskedAt !== state.last) {
    state.resumeAskedAt = state.last;
    askSince(state.last);
    return false;
  }
  // In order, or a gap that asking again did not fill: take it rather than ask forever.
  state.last = seq;
  state.resumeAskedAt = null;
  return true;
}

/** Ask for the events after `since`: players resume, watchers watch again. */
function askSince(since) {
  const r = state.room;
  if (r.you?.role === "player") {
    send({ t: "resume", room: r.id, since });
    return;
  }
  const invite = state.invite?.code;
  send({ t: "watch", room: r.id, since, ...(invite ? { invite } : {}) });
}

/** Events after a stroke wait until its motion has been seen to the end. */
function applyOrHold(fn) {
  if (playback.active) {
    state.held.push(fn);
    return;
  }
  fn();
  updateAimer();
}

function releaseHeld() {
  const held = state.held;
  state.held = [];
  for (const fn of held) fn();
  updateAimer();
  if (state.room) showRoomScreen();
}

function setDropped(seat, name, seconds, now = performance.now()) {
  if (seconds === null || seconds === undefined) state.dropped.delete(seat);
  else state.dropped.set(seat, { seat, name, until: now + seconds * 1000 });
}

const HANDLERS = {
  welcome(m) {
    state.session = m.session;
    playback.rate = m.speed_factor > 0 ? m.speed_factor : 1;
    localStorage.setItem(STORE.token, m.token);
    $("me-name").textContent = m.name;
    // logged in (the login cookie): the header links to the profile, else to the log-in page
    $("account-link").dataset.i18n = m.account ? "ui.profile" : "ui.log_in";
    $("account-link").textContent = t($("account-link").dataset.i18n);
    $("account-link").href = m.account ? `/u/${encodeURIComponent(m.account)}` : "/account";
    if (m.seat) {
      // Still seated somewhere: pick up where we were (a fresh page has seen nothing).
      const since = state.room?.id === m.seat.room ? state.last : 0;
      if (since === 0) state.room = null;
      send({ t: "resume", room: m.seat.room, since });
    } else if (state.room && state.room.you?.role === "watcher") {
      askSince(state.last);
    } else if (state.pendingIntent?.invite) {
      state.joinedByLink = true;
      joinByInvite(state.pendingIntent.invite);
    } else if (state.pendingIntent) {
      state.joinedByLink = state.pendingIntent.t === "join";
      state.joinRef = state.joinedByLink ? nextRef : null;
      send(state.joinedByLink ? { ...state.pendingIntent, ref: nextRef++ } : state.pendingIntent);
    } else {
      state.room = null;
      showLobby();
    }
    state.pendingIntent = null;
  },

  lobby(m) {
    for (const r of [...(m.rooms || []), ...(m.live || [])]) nameComputers(r.players);
    state.lobby = m;
    lobbyView.render(m);
  },

  queued(m) {
    lobbyView.setQuickStatus(() => waitingFor(m.game, m.mode, m.waiting));
  },

  room(m) {
    // A Crokinole room is played on its own page, which resumes the seat or watches.
    const page = roomPage(m.game, m.id, m.you?.role === "watcher", state.invite?.code);
    if (page) return location.assign(page);
    const newRoom = state.room?.id !== m.id;
    $("rename").hidden = true;
    if (newRoom) {
      chat.clear();
      state.history = [];
      send({ t: "lobby", on: false });
      lobbyView.setQuickStatus("");
      history.replaceState(null, "", `/?room=${encodeURIComponent(m.id)}`);
    }
    nameComputers(m.seats);
    state.hint = null;
    state.room = m;
    state.last = m.seq;
    state.resumeAskedAt = null;
    state.table = tableFrom(m.table);
    state.held = [];
    playback.clear();
    const match = m.match;
    state.discs = m.discs || [];
    state.turn = match ? match.turn : null;
    state.phase = match ? match.phase : null;
    state.score = match ? match.score : [0, 0];
    state.set = match ? match.set : null;
    state.debts = match?.rules?.debt ?? [];
    state.clock = match?.clock ? { ...match.clock, at: performance.now() } : null;
    state.result = match?.result ? { ...match.result, score: match.result.score ?? match.score } : null;
    state.motionStroke = m.motion ? m.motion.stroke : null;
    const last = match?.last_ruling;
    state.ruling = last ? { lines: last.lines, legal: !!last.ruling?.legal, seat: last.seat, cause: last.cause, stroke: last.stroke, seq: m.seq } : null;
    state.dropped.clear();
    m.seats.forEach((s, i) => s && setDropped(i, s.name, s.away));
    updateAimer();
    showRoomScreen();
  },

  aim(m) {
    if (m.seat === mySeat()) return;
    state.ghost = m;
  },

  stroke(m) {
    // A stroke that comes while the last one still plays here: show its end at once.
    if (playback.active) {
      playback.clear();
      releaseHeld();
    }
    state.motionStroke = m.stroke;
    state.hint = null;
    state.framesSeen = 0;
    state.phase = "motion";
    state.ghost = null;
    state.clock = state.clock ? { ...state.clock, running: false } : null;
    aimer.stop();
    renderHud();
  },

  frame(m) {
    if (m.stroke !== state.motionStroke) return;
    playback.push(m.time, m.discs, performance.now());
    for (const d of m.discs || []) if (Array.isArray(d)) state.lastSeen.set(d[0], [d[1], d[2]]);
    for (const d of m.discs || []) if (d && !Array.isArray(d) && d.id !== undefined) state.lastSeen.set(d.id, [d.x, d.y]);
    state.framesSeen += 1;
    if (m.k === m.n - 1) playback.complete = true;
  },

  ruling(m) {
    playback.complete = true; // frames end before the ruling (some may have been dropped)
    applyOrHold(() => {
      const now = performance.now();
      state.discs = (m.discs || []).filter((d) => d.id !== 0);
      state.turn = m.turn;
      state.score = m.score ?? state.score;
      state.set = m.set ?? state.set;
      state.phase = m.turn === null ? "over" : "play";
      state.debts = m.ruling?.debts ?? state.debts;
      if (state.ruling) {
        state.history.push(state.ruling);
        if (state.history.length > 30) state.history.shift();
      }
      state.ruling = { lines: m.lines, legal: !!m.ruling?.legal, seat: m.seat, cause: m.cause, stroke: m.stroke, seq: m.seq };
      state.motionStroke = null;
      if (Array.isArray(m.sides)) m.sides.forEach((side, i) => state.room.seats[i] && (state.room.seats[i].side = side));
      const marks = [];
      const names = (i) => state.room?.seats[i]?.name ?? t("seat", { seat: i + 1 });
      const whose = (id) => whosePucks([id], names, mySeat());
      for (const kind of ["restored", "respotted", "penalty_placed"]) {
        for (const [id, x, y] of m.ruling?.[kind] || []) {
          const k = kind === "penalty_placed" ? "penalty" : kind;
          marks.push({ id, x, y, kind: k, label: t(`mark.${k}`, { pucks: whose(id) }), since: now });
        }
      }
      // Pocketed pucks: marked at the hole they went into.
      const pockets = pocketCentres(state.table);
      for (const id of pocketedIds(m.ruling)) {
        const at = state.lastSeen.get(id);
        if (!at) continue;
        const [, [px, py]] = Object.entries(pockets).reduce((best, e) =>
          Math.hypot(e[1][0] - at[0], e[1][1] - at[1]) < Math.hypot(best[1][0] - at[0], best[1][1] - at[1]) ? e : best,
        );
        marks.push({ id, x: px, y: py, kind: "pocketed", label: t("mark.pocketed", { pucks: whose(id) }), since: now, owner: ownerOfPuck(id) });
      }
      state.highlights = marks;
      state.lastSeen.clear();
      renderHud();
      hud.flashRuling(readRuling(state.ruling));
    });
  },

  watchers(m) {
    if (state.room?.id !== m.room) return;
    state.room.watchers = m.n;
    renderHud();
  },

  clock(m) {
    state.clock = { ...m, at: performance.now() };
  },

  chat(m) {
    // the role beside the name: two people in a room may share a name, never a role
    const role = m.seat === null || m.seat === undefined ? t("chat.watcher") : t("seat", { seat: m.seat + 1 });
    chat.add({ from: m.name, role, text: m.text, channel: m.team === null || m.team === undefined ? "room" : "team" });
  },

  gone(m) {
    setDropped(m.seat, m.name, m.grace);
    if (state.room.seats[m.seat]) state.room.seats[m.seat].away = m.grace;
    chat.add({ system: true, text: t("chat.gone", { name: m.name }) });
    showRoomScreen();
  },

  back(m) {
    setDropped(m.seat, m.name, null);
    if (state.room.seats[m.seat]) state.room.seats[m.seat].away = null;
    chat.add({ system: true, text: t("chat.back", { name: m.name }) });
    showRoomScreen();
  },

  result(m) {
    applyOrHold(() => {
      state.result = m;
      state.phase = "over";
      state.turn = null;
      state.score = m.score ?? state.score;
      renderHud();
      const competition = state.room?.options?.tournament;
      if (competition && mySeat() !== null) backToCompetition(competition);
    });
  },

  left(m) {
    if (m.room === null || m.room === undefined) {
      state.leaving = false;
      lobbyView.setQuickStatus(""); // out of the quick-match queue
      return;
    }
    if (state.room && m.room !== state.room.id) return;
    const asked = state.leaving;
    state.leaving = false;
    if (!asked) {
      // Not asked for: the server closed the room (maybe one this page never got into,
      // e.g. a room just created). Say so rather than drop the player in the lobby mutely.
      console.warn(`room ${m.room} closed by the server`);
      toast(t("toast.room_closed"), 6000);
    }
    state.room = null;
    state.last = 0;
    state.held = [];
    playback.clear();
    aimer.stop();
    if (state.returnTo) return location.assign(state.returnTo);
    showLobby();
  },

  error(m) {
    if (m.code === "not_now" || m.code === "no_room") state.leaving = false; // a leave refused
    if (m.ref !== undefined && m.ref === state.strikeRef) {
      // The stroke was refused: the striker is the player's again.
      aimer.stop();
      updateAimer();
    }
    if (m.code === "replaced") {
      // The same player opened another tab: this one steps aside instead of fighting it.
      conn.close();
      toast(t("toast.replaced"), 10000);
      return;
    }
    if (m.code === "logged_out") {
      // The login this socket was opened with ended (here or on another device): the server
      // closes it, and the reconnect that follows is a guest's unless logged in again.
      toast(refusalText(m), 10000);
      return;
    }
    if (m.code === "bad_token") {
      localStorage.removeItem(STORE.token);
      send({ t: "hello", name: state.name });
      return;
    }
    if (state.joinRef && m.ref === state.joinRef && ["room_full", "seat_taken", "not_now"].includes(m.code)) {
      send({ t: "watch", room: state.pendingRoom ?? new URLSearchParams(location.search).get("join") });
      toast(t("toast.full_watching"));
      return;
    }
    if (state.invite && m.ref === state.invite.ref && ["room_full", "seat_taken", "not_now"].includes(m.code)) {
      send({ t: "watch", invite: state.invite.code });
      toast(t("toast.full_watching"));
      return;
    }
    if (m.code === "no_room" || m.code === "bad_invite") {
      if (!state.room) showLobby();
    }
    toast(refusalText(m));
  },

  hidden() {}, // another team's event: it only moves `last` on

  // practice: the computer's suggestion, drawn on the table until the next stroke
  hint(m) {
    if (!m.current || m.seat !== mySeat()) return;
    state.hint = m;
    toast(t("computer.hint_shown"));
  },

  takeback() {
    toast(t("computer.taken_back")); // the `room` that follows puts the pucks back
  },

  // quick match waited as long as the player set: the computer plays (the room follows)
  computer(m) {
    toast(t("computer.instead", { waited: m.waited, level: m.level }), 8000);
  },

  pong() {},
};

function setConnState(s) {
  const c = $("conn");
  c.dataset.state = s;
  c.textContent = ["idle", "connecting", "open", "reconnecting", "closed"].includes(s) ? t(`conn.${s}`) : s;
}

/** After a change of language (the menu in the header), everything on screen reworded. */
function setUpLanguages() {
  languageMenu($("lang"));
  const soundButton = sounds.bind($("sound"));
  onLanguage(() => {
    soundButton();
    setConnState($("conn").dataset.state);
    if (state.room) nameComputers(state.room.seats);
    for (const r of [...(state.lobby?.rooms || []), ...(state.lobby?.live || [])]) nameComputers(r.players);
    renderPuckList();
    if (state.lobby) lobbyView.render(state.lobby);
    if (state.room && document.body.dataset.screen !== "screen-lobby") showRoomScreen();
    if (state.pendingIntent?.t === "join") nameInvite();
    const recordId = new URLSearchParams(location.search).get("match");
    if (recordId) showRecord(recordId, new URLSearchParams(location.search).get("invite"));
  });
}

function nameInvite() {
  $("name-invite").textContent = state.pendingIntent.invite ? t("name.invited") : t("name.linked");
}

function start() {
  $("me-name").textContent = state.name;
  if (conn) return;
  conn = new Connection(socketUrl("/ws"), {
    onOpen: () => {
      const token = localStorage.getItem(STORE.token);
      send(token ? { t: "hello", name: state.name, token } : { t: "hello", name: state.name });
    },
    onMessage,
    onState: setConnState,
  });
  conn.connect();
}

/** The first-touch preview of this player's aim now (what the guide line shows). */
function previewNow() {
  if (!aimer.enabled) return null;
  const a = aimer.aim;
  const r = firstTouch(state.table, mySide(), mySeat(), a.x, a.y, a.angle, state.discs, pocketCentres(state.table));
  return { kind: r.kind, id: r.id, legal: r.legal, reason: r.reason };
}

// A read-only window for tests and curious players: what this page believes.
window.__novuss = Object.freeze({
  get state() {
    return {
      screen: document.body.dataset.screen,
      room: state.room ? { id: state.room.id, seq: state.last, status: state.room.status, you: state.room.you, seats: state.room.seats } : null,
      discs: state.discs.map((d) => ({ ...d })),
      turn: state.turn,
      phase: state.phase,
      moving: playback.active,
      framesSeen: state.framesSeen,
      held: state.held.length,
      score: state.score,
      debts: state.debts,
      ruling: state.ruling,
      result: state.result,
      aim: aimer.enabled ? { ...aimer.aim } : null,
      gesture: aimer.gesture,
      preview: previewNow(),
      explained: aimer.enabled && aimer.explained ? { ...aimer.explained } : null,
      watched: watch.explained ? { ...watch.explained } : null, // a puck pressed by a non-striker
      sounds: { muted: sounds.muted, played: sounds.played },
      blind: renderer.blindIds ? [...renderer.blindIds] : [],
      clockRing: renderer.clockDrawn ? { ...renderer.clockDrawn } : null,
      labels: (renderer.labels || []).map((b) => ({ ...b })),
      ghost: state.ghost,
      hint: state.hint,
      side: mySide(),
      connected: !!conn?.open,
      session: state.session,
    };
  },
  /** Screen position (CSS px, relative to the page) of a world point on the table. */
  toPage(x, y) {
    const [px, py] = renderer.view.toScreen(x, y);
    const r = canvas.getBoundingClientRect();
    return [r.left + px, r.top + py];
  },
});

setUpLanguages();
requestAnimationFrame(frame);
const recordId = new URLSearchParams(location.search).get("match");
if (recordId) {
  // A finished match's record: a page to read, no seat taken.
  showScreen("screen-record");
  setConnState("idle");
  showRecord(recordId, new URLSearchParams(location.search).get("invite"));
} else if (state.name) start();
else {
  showScreen("screen-name");
  setConnState("idle"); // nothing tried yet: no red "offline" for a newcomer
  if (state.pendingIntent?.t === "join") {
    $("name-invite").hidden = false;
    nameInvite();
  }
  $("name-input").focus();
}
