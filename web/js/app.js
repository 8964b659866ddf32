// The client's wiring: one connection, the protocol (docs/protocol.md, messages.js) applied to
// one state object (state.js), and the screens (name, lobby, waiting room, match; the table in
// table-view.js) drawn from it.
import { createChallenges } from "./challenges.js";
import { ChatBox } from "./chat.js";
import { ComputerView, nameComputers, quickMessage } from "./computer.js";
import { $, showScreen, toast } from "./dom.js";
import { MatchHud } from "./hud.js";
import { initLanguage, languageMenu, onLanguage, t, translatePage } from "./i18n.js";
import { LobbyView, lookingFor, RoomView } from "./lobby.js";
import { createMessages, showAccount } from "./messages.js";
import { Connection, socketUrl } from "./net.js";
import { createNotices } from "./notices.js";
import { Playback } from "./playback.js";
import { showRecord } from "./record.js";
import { changed } from "./redraw.js";
import { helloMessage } from "./room-client.js";
import { humanize } from "./rulings.js";
import { Sounds } from "./sound.js";
import { ContactSounds } from "./sound-events.js";
import { joinByInvite, link, mySeat, mySide, send, state, STORE } from "./state.js";
import { COMPETITION } from "./table.js";
import { createTableView } from "./table-view.js";
import { foldingMenu } from "./topbar.js";
import { inviteLink, joinLink, onHistory, push, returnTo, route, screenUrl, undo } from "./url.js";

initLanguage();
translatePage(document);

const playback = new Playback();
const sounds = new Sounds();
const contacts = new ContactSounds(COMPETITION);

/** A competition's table plays one match (docs/competitions.md): once its players have seen
 * the result they leave it and go back to the competition's page, which sends them to their
 * next table. */
const COMPETITION_RETURN_MS = 4000;
function backToCompetition(tid) {
  toast(t("toast.back_to_competition"), COMPETITION_RETURN_MS);
  state.returnTo = `/tournaments/${encodeURIComponent(tid)}`;
  setTimeout(() => {
    // returnTo: set just above
    if (!send({ t: "leave" })) return location.assign(/** @type {string} */ (state.returnTo));
    state.leaving = true;
    setTimeout(() => location.assign(/** @type {string} */ (state.returnTo)), COMPETITION_RETURN_MS); // no `left`
  }, COMPETITION_RETURN_MS);
}

/** Leave the room (or the queue): the `left` that answers is expected. */
function leave() {
  state.leaving = send({ t: "leave" });
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
  sit: (seat) => send({ t: "join", room: /** @type {import("./protocol").Room} */ (state.room).id, seat }), // a seat of the room shown
  ready: (ready) => send({ t: "ready", ready }),
  leave,
  copyInvite: () => copyText($("invite-link").value),
});

const hud = new MatchHud({
  pass: () => send({ t: "pass" }),
  resign: () => {
    // during a motion the server keeps it until the discs rest (docs/protocol.md, resign)
    if (send({ t: "resign" }) && state.phase === "motion") toast(t("hud.resign_after_motion"));
  },
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
  $("name-error").hidden = true;
  $("name-input").removeAttribute("aria-invalid");
  if (renaming) {
    // A new name is a new session: the server keeps a session's name.
    renaming = false;
    link.conn?.close();
    link.conn = null;
    localStorage.removeItem(STORE.token);
  }
  start(); // the lobby shows once the server has welcomed us: its buttons need the link
});

/** The server refused the name (a registered player's, or one that reads as it): the name
 * form again, the reason under the field, nothing of the refused session kept. */
function askNameAgain(reason) {
  link.conn?.close();
  link.conn = null;
  localStorage.removeItem(STORE.token);
  localStorage.removeItem(STORE.name);
  $("name-input").value = state.name;
  $("name-error").textContent = reason;
  $("name-error").hidden = false;
  $("name-input").setAttribute("aria-invalid", "true");
  showScreen("screen-name");
  $("name-input").focus();
}

/** The name form opened from the lobby ("change name"): the session is kept until a name is
 * given, so that Back returns to the lobby as it was. */
let renaming = false;

/** Show the name form over the lobby, the name as it is in the field. @returns {void} */
function openRename() {
  renaming = true;
  $("rename").hidden = true;
  $("name-input").value = state.name;
  showScreen("screen-name");
}

$("rename").addEventListener("click", () => {
  push(screenUrl("name"));
  openRename();
});

function showLobby() {
  renaming = false;
  showScreen("screen-lobby");
  $("rename").hidden = !!state.account; // an account plays under its own name
  send({ t: "lobby", on: true });
  returnTo(screenUrl("lobby"));
}

/**
 * Back or Forward to another screen of this page (docs/client.md, "Addresses and Back").
 * @param {import("./url.js").Route} r the screen the address now names
 * @returns {void}
 */
function followHistory(r) {
  if (r.screen === "record") return location.reload(); // a page of its own, no seat taken
  if (r.screen === "name") {
    if (state.room) return push(screenUrl("room", state.room.id)); // not while in a room
    return openRename();
  }
  if (r.screen === "room") {
    // Forward into a room left: not gone back into (leaving was the player's choice, and the
    // room may be closed since); the page stays on the lobby's entry
    if (state.room?.id !== (r.room ?? r.join)) undo();
    return;
  }
  // Back to the lobby
  if (!state.room) {
    if (!link.conn) return start(); // from a reloaded name form: the lobby once welcomed
    return showLobby();
  }
  // Leaving the room as its Leave button does: a player of a match still played is asked
  // first, as that button asks (leaving resigns); staying puts the room's address back.
  const live = mySeat() !== null && state.room.match && state.phase !== "over";
  if ((live && !window.confirm(t("hud.confirm_leave"))) || !send({ t: "leave" })) return push(screenUrl("room", state.room.id));
  state.leaving = true;
}
onHistory(followHistory);

/** Show the waiting room or the table, whichever fits the room's state. */
function showRoomScreen() {
  const r = /** @type {import("./protocol").Room} */ (state.room); // shown only for the room held
  const inMatch = !!r.match;
  const id = inMatch ? "screen-match" : "screen-room";
  if (document.body.dataset.screen !== id) {
    showScreen(id);
    chat.mount($(inMatch ? "match-chat-slot" : "room-chat-slot"));
  }
  chat.setTeamChat(r.mode === "doubles" && mySeat() !== null);
  if (!inMatch) roomView.render(r, r.invite ? inviteLink(r.invite) : joinLink(r.id), invitedBy());
  else renderHud();
}

/** A ruling's lines as a player reads them, in the page's language: names for seats, whose pucks. */
function readRuling(r) {
  if (!r) return [];
  return humanize(r.lines, { seats: state.room?.seats || [], mode: state.room?.mode, me: mySeat(), striker: r.seat });
}

function rulingTitle(r) {
  const name = state.room?.seats[r.seat]?.name;
  if (!r.stroke) return name || "";
  return name ? t("hud.stroke_title_who", { stroke: r.stroke, name }) : t("hud.stroke_title", { stroke: r.stroke });
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
  hud.renderRuling(readRuling(state.ruling), state.ruling?.legal, history, state.ruling ? rulingTitle(state.ruling) : "");
  hud.renderResult(state.result, r, mySeat(), r.rematch, state.ratingChange);
}

// ---- the table and the protocol ---------------------------------------------------

const table = createTableView({ playback, sounds, contacts, hud, computerView, releaseHeld: () => messages.releaseHeld() });
const messages = createMessages({ playback, chat, lobbyView, hud, table, showLobby, showRoomScreen, renderHud, readRuling, backToCompetition, askNameAgain });

// the tab's notice and the challenges (docs/client.md, "Challenges and notices")
const notices = createNotices();
const challenges = createChallenges({ send, notices });

/**
 * Whether it is this player's turn after message `m`, from the message itself: a ruling may
 * be held until its motion has been drawn, which a hidden tab does not do.
 * @param {{t: string, turn?: number|null, match?: {phase: string, turn: number|null}|null}} m
 * @param {boolean} before
 * @returns {boolean}
 */
function myTurnAfter(m, before) {
  if (m.t === "ruling") return m.turn === mySeat();
  if (m.t === "room") return m.match?.phase === "play" && m.match.turn === mySeat();
  if (["stroke", "result", "left", "decided"].includes(m.t)) return false;
  return before;
}

let myTurn = false;
/** @param {{t: string, [k: string]: any}} m a server message */
function onMessage(m) {
  changed();
  if (challenges.onMessage(m)) return; // a refusal of a challenge's message, shown by its form
  messages.onMessage(m);
  myTurn = myTurnAfter(m, myTurn);
  notices.set("turn", myTurn ? t("notice.turn") : null);
}

function bindNotify() {
  const button = $("notify");
  button.hidden = !notices.supported;
  const draw = () => {
    button.setAttribute("aria-pressed", String(notices.enabled()));
    button.textContent = t(notices.enabled() ? "notify.on" : "notify.off");
  };
  button.addEventListener("click", async () => {
    const on = await notices.toggle(); // the browser asks now, on the player's click only
    if (!on && Notification.permission === "denied") toast(t("notify.blocked"), 6000);
    draw();
  });
  onLanguage(draw);
  draw();
}
bindNotify();

function setConnState(s) {
  const c = $("conn");
  c.dataset.state = s;
  c.textContent = ["idle", "connecting", "open", "reconnecting", "closed"].includes(s) ? t(`conn.${s}`) : s;
}

/** After a change of language (the menu in the header), everything on screen reworded. */
function setUpLanguages() {
  languageMenu($("lang"));
  foldingMenu();
  const soundButton = sounds.bind($("sound"));
  onLanguage(() => {
    soundButton();
    setConnState($("conn").dataset.state);
    if (state.room) nameComputers(state.room.seats);
    for (const r of [...(state.lobby?.rooms || []), ...(state.lobby?.live || [])]) nameComputers(r.players);
    table.renderPuckList();
    if (state.lobby) lobbyView.render(state.lobby);
    if (state.room && document.body.dataset.screen !== "screen-lobby") showRoomScreen();
    if (state.pendingIntent?.t === "join") nameInvite();
    const { match, key } = route();
    if (match) showRecord(match, key);
  });
}

function nameInvite() {
  // asked only while the address asks to join (a `join` intent)
  const intent = /** @type {import("./protocol").Join} */ (state.pendingIntent);
  $("name-invite").textContent = intent.invite ? t("name.invited") : t("name.linked");
}

function start() {
  $("me-name").textContent = state.name;
  if (link.conn) return;
  link.conn = new Connection(socketUrl("/ws"), {
    onOpen: () => {
      send(helloMessage(state.name));
    },
    onMessage,
    onState: setConnState,
  });
  link.conn.connect();
}

// A read-only window for tests and curious players: what this page believes.
window.__novuss = Object.freeze({
  /** A ping (answered by a pong) after all this page has sent so far: what a test waits for
   * to know that whatever an earlier gesture would have sent is out. */
  ping: (n) => send({ t: "ping", n }),
  get state() {
    return {
      screen: document.body.dataset.screen,
      room: state.room ? { id: state.room.id, seq: state.last, status: state.room.status, you: state.room.you, seats: state.room.seats } : null,
      discs: state.discs.map((d) => ({ ...d })),
      turn: state.turn,
      phase: state.phase,
      moving: playback.active,
      motionDraws: state.motionDraws,
      draws: table.gate.draws, // display frames the table was drawn in (redraw.js)
      animating: table.gate.moving, // something on the table moves: every frame draws
      motion: playback.motion, // the stroke in flight, its paths; and how far it has played
      played: playback.active ? playback.clock(performance.now()) : null,
      held: state.held.length,
      score: state.score,
      debts: state.debts,
      ruling: state.ruling,
      result: state.result,
      aim: table.aimer.enabled ? { ...table.aimer.aim } : null,
      gesture: table.aimer.gesture,
      preview: table.previewNow(),
      explained: table.aimer.enabled && table.aimer.explained ? { ...table.aimer.explained } : null,
      watched: table.watch.explained ? { ...table.watch.explained } : null, // a puck pressed by a non-striker
      sounds: { muted: sounds.muted, played: sounds.played },
      blind: table.renderer.blindIds ? [...table.renderer.blindIds] : [],
      clockRing: table.renderer.clockDrawn ? { ...table.renderer.clockDrawn } : null,
      labels: (table.renderer.labels || []).map((b) => ({ ...b })),
      ghost: state.ghost,
      hint: state.hint,
      side: mySide(),
      connected: !!link.conn?.open,
      session: state.session,
    };
  },
  /** Screen position (CSS px, relative to the page) of a world point on the table. */
  toPage(x, y) {
    // the table is drawn (its view made) from the first frame, before a test asks
    const [px, py] = /** @type {NonNullable<typeof table.renderer.view>} */ (table.renderer.view).toScreen(x, y);
    const r = table.canvas.getBoundingClientRect();
    return [r.left + px, r.top + py];
  },
});

setUpLanguages();
requestAnimationFrame(table.frame);
const opened = route();
if (opened.screen === "record") {
  // A finished match's record: a page to read, no seat taken.
  showScreen("screen-record");
  setConnState("idle");
  showRecord(/** @type {string} the record's screen names its match */ (opened.match), opened.key);
  loggedIn().then(showAccount);
} else if (opened.screen === "name" && state.name) {
  // the name form reloaded: asked again, nothing connected until a name is given (Back: the lobby)
  setConnState("idle");
  openRename();
  renaming = false; // no session to end
} else if (state.name) start();
else enterOrAskName();

/** The login cookie's account (GET /api/account), or null: a guest, or no answer. */
async function loggedIn() {
  try {
    const r = await fetch("/api/account", { credentials: "same-origin" });
    return r.ok ? ((await r.json()).username ?? null) : null;
  } catch {
    return null;
  }
}

/** A logged-in player plays under the account's name (the server takes it from the cookie
 * whatever is typed), so is asked none: a competition's player sent to his table goes
 * straight to it. A guest gives a name first. */
async function enterOrAskName() {
  const account = await loggedIn();
  if (account) {
    state.name = account;
    return start();
  }
  showScreen("screen-name");
  setConnState("idle"); // nothing tried yet: no red "offline" for a newcomer
  if (state.pendingIntent?.t === "join") {
    $("name-invite").hidden = false;
    nameInvite();
  }
  $("name-input").focus();
}
