// The protocol's events (docs/protocol.md) applied to the Novuss page's state: each message's
// handler. The order of the sequenced events (duplicates dropped, a gap asked for again) and
// the events held until a stroke's motion has been shown are the room client's
// (js/room-client.js), shared with the Crokinole page.
import { nameComputers } from "./computer.js";
import { $, toast } from "./dom.js";
import { refusalText, t } from "./i18n.js";
import { quickTerms, roomPage, waitingFor } from "./lobby.js";
import { restingPlaces } from "./replay-motion.js";
import { freshHello, rememberToken, RoomClient } from "./room-client.js";
import { ownerOfPuck, whosePucks } from "./rulings.js";
import { joinByInvite, link, mySeat, send, state } from "./state.js";
import { pocketCentres, tableFrom } from "./table.js";
import { push, replace, route, screenUrl } from "./url.js";

/** The ids of the pucks a ruling says went into the holes. */
function pocketedIds(ruling) {
  const p = ruling?.pocketed;
  if (!Array.isArray(p)) return [];
  return p.map((x) => (Array.isArray(x) ? x[0] : typeof x === "object" && x ? x.id : x)).filter((x) => typeof x === "number");
}

const RATING_POLL_MS = 1000;
const RATING_TRIES = 30;
const FIRST_RATING = 1500; // the shown rating before any rated match (server/ratings/model.py)

/**
 * A player's rating after match `mid` in `mode` and its change, from the profile's chart
 * (docs/accounts.md: `history[mode]`, points `{at, rating, match}`), or null while the match
 * is not rated yet.
 * @returns {Promise<{rating: number, change: number, mode: string}|null>}
 */
async function ratingChangeOf(name, mode, mid) {
  try {
    const r = await fetch(`/api/players/${encodeURIComponent(name)}`, { credentials: "same-origin" });
    if (!r.ok) return null;
    const points = (await r.json()).history?.[mode] || [];
    const i = points.findIndex((p) => p.match === mid);
    if (i < 0) return null;
    const before = i > 0 ? points[i - 1].rating : FIRST_RATING;
    return { rating: points[i].rating, change: points[i].rating - before, mode };
  } catch {
    return null;
  }
}

/**
 * The competition whose table a room is (its options carry the competition's id:
 * server/lobby/reserved.py).
 * @param {import("./protocol").Room|null} room
 * @returns {string|undefined}
 */
function competitionOf(room) {
  return room?.options?.tournament;
}

/** The header as an account (the login cookie's username) or a guest (null) sees it: the
 * link to the profile, else to the log-in page. */
export function showAccount(account) {
  state.account = account ?? null;
  const a = $("account-link");
  a.dataset.i18n = account ? "ui.profile" : "ui.log_in";
  a.textContent = t(a.dataset.i18n);
  a.href = account ? `/u/${encodeURIComponent(account)}` : "/account";
}

/**
 * What a player (`seat`, or null for a watcher) is told when the table's result was decided
 * outside the room: `m.sets` by team (team = seat % 2), `m.forfeit` the team that lost by
 * absence ("both", or null), `m.withdrawn`.
 * @param {{sets: number[], forfeit: number|string|null, withdrawn: boolean}} m
 * @param {number|null} seat
 * @returns {string}
 */
export function decidedText(m, seat) {
  if (m.withdrawn) return t("decided.withdrawn");
  if (m.forfeit === "both") return t("decided.both_absent");
  const team = seat === null ? null : seat % 2;
  if (m.forfeit !== null && m.forfeit !== undefined) {
    if (team === null) return t("decided.forfeit");
    return t(m.forfeit === team ? "decided.forfeit_you" : "decided.forfeit_them");
  }
  const [a, b] = m.sets;
  if (team === null) return t("decided.result", { score: `${a}:${b}` });
  return t("decided.result_you", { score: team === 0 ? `${a}:${b}` : `${b}:${a}` });
}

/**
 * The page's handling of the server's messages. `ctx` holds the parts of the page they change:
 * `playback`, `chat`, `lobbyView`, `hud`, `table` (from `createTableView`), and the screens'
 * functions `showLobby`, `showRoomScreen`, `renderHud`, `readRuling`, `backToCompetition`.
 * Returns `onMessage` (for the connection) and `releaseHeld` (for the end of a motion).
 */
export function createMessages(ctx) {
  /** @type {string|null} */
  let leavingFor = null; // the page a Crokinole room sent this one to
  const { playback, chat, lobbyView, hud, showLobby, showRoomScreen, renderHud, readRuling, backToCompetition, askNameAgain } = ctx;
  const { aimer, updateAimer } = ctx.table;
  const roomClient = new RoomClient({ track: state, send, playing: () => playback.active, invite: () => state.invite?.code });

  /** @param {import("./room-client.js").ServerMessage} msg */
  function onMessage(msg) {
    roomClient.handle(msg, HANDLERS);
  }

  /** Events after a stroke wait until its motion has been seen to the end. */
  function applyOrHold(fn) {
    if (roomClient.hold(fn)) updateAimer();
  }

  function releaseHeld() {
    roomClient.releaseHeld();
    updateAimer();
    if (state.room) showRoomScreen();
  }

  /** Play a motion `time` s into it, noting where each puck that leaves the table leaves
   * it (the ruling marks its pocket). */
  function play(motion, time) {
    playback.start(motion, time, performance.now());
    for (const p of restingPlaces(motion)) if (p.where !== "table") state.lastSeen.set(p.id, [p.x, p.y]);
  }

  function setDropped(seat, name, seconds, now = performance.now()) {
    if (seconds === null || seconds === undefined) state.dropped.delete(seat);
    else state.dropped.set(seat, { seat, name, until: now + seconds * 1000 });
  }

  /** After a rated match: the player's new rating and its change, once the archivist has
   * rated the match (its point in the profile's chart names the match), on the result. */
  async function awaitRatingChange(mid, mode) {
    const name = state.account;
    for (let tries = 0; tries < RATING_TRIES && state.result?.match === mid; tries += 1) {
      const change = await ratingChangeOf(name, mode, mid);
      if (change && state.result?.match === mid) {
        state.ratingChange = change;
        renderHud();
        return;
      }
      await new Promise((done) => setTimeout(done, RATING_POLL_MS));
    }
  }

  const HANDLERS = {
    /** @param {import("./protocol").Welcome} m */
    welcome(m) {
      state.session = m.session;
      playback.rate = m.speed_factor > 0 ? m.speed_factor : 1;
      rememberToken(m.token);
      $("me-name").textContent = m.name;
      showAccount(m.account);
      if (m.seat) {
        // Still seated somewhere: pick up where we were (a fresh page has seen nothing).
        const since = roomClient.resumeSince(m.seat.room);
        if (since === 0) state.room = null;
        // opened at "/" (a reload keeps its room's address): a match still played is resumed,
        // one over is left for the lobby rather than its old result shown (issue 36)
        state.leaveIfOver = since === 0 && !state.pendingIntent && route().screen === "lobby";
        send({ t: "resume", room: m.seat.room, since });
      } else if (state.room && state.room.you?.role === "watcher") {
        roomClient.askSince(state.last);
      } else if (state.pendingIntent?.invite) {
        state.joinedByLink = true;
        joinByInvite(state.pendingIntent.invite);
      } else if (state.pendingIntent) {
        state.joinedByLink = state.pendingIntent.t === "join";
        state.joinRef = state.joinedByLink ? link.nextRef : null;
        send(state.joinedByLink ? { ...state.pendingIntent, ref: link.nextRef++ } : state.pendingIntent);
      } else {
        state.room = null;
        showLobby();
      }
      state.pendingIntent = null;
    },

    /** @param {import("./protocol").Lobby} m */
    lobby(m) {
      for (const r of [...(m.rooms || []), ...(m.live || [])]) nameComputers(r.players);
      state.lobby = m;
      lobbyView.render(m);
    },

    /** @param {import("./protocol").Queued} m */
    queued(m) {
      lobbyView.setQuickStatus(() => [waitingFor(m.game, m.mode, m.waiting, m.players), quickTerms(m.rated, m.window)].filter(Boolean).join(" · "));
    },

    /** @param {import("./protocol").Room} m */
    room(m) {
      if (state.leaveIfOver) {
        state.leaveIfOver = false;
        if (m.match?.phase === "over") return (state.leaving = send({ t: "leave" }));
      }
      // A Crokinole room is played on its own page, which resumes the seat or watches.
      const page = roomPage(m.game, m.id, m.you?.role === "watcher", state.invite?.code);
      if (page) {
        // once: the room's next message, arriving before the page is left, would start the
        // same navigation again and abort the first (ERR_ABORTED)
        if (leavingFor !== page) location.assign((leavingFor = page));
        return;
      }
      const newRoom = state.room?.id !== m.id;
      $("rename").hidden = true;
      if (newRoom) {
        chat.clear();
        state.history = [];
        send({ t: "lobby", on: false });
        lobbyView.setQuickStatus("");
        // from the lobby a new step for Back; an invite or shared link becomes the room's address
        (route().screen === "lobby" ? push : replace)(screenUrl("room", m.id));
      }
      nameComputers(m.seats);
      state.hint = null;
      state.room = m;
      roomClient.entered(m);
      state.table = tableFrom(m.table);
      playback.clear();
      // Joined mid-motion: the rest of it, from where the server had it when it sent this.
      if (m.motion?.paths) play(m.motion, m.motion.time);
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

    /** @param {import("./protocol").StrokeViewEvent} m */
    stroke(m) {
      // A stroke that comes while the last one still plays here: show its end at once.
      if (playback.active) {
        playback.clear();
        releaseHeld();
      }
      state.motionStroke = m.stroke;
      play(m, 0); // the whole motion: it plays from now
      state.hint = null;
      state.motionDraws = 0;
      state.phase = "motion";
      state.ghost = null;
      state.clock = state.clock ? { ...state.clock, running: false } : null;
      aimer.stop();
      renderHud();
    },

    /** @param {import("./protocol").Motion} m */
    motion(m) {
      // A resume's missed stroke: how far it has played (all of it: its end at once).
      if (playback.active && m.stroke === state.motionStroke) playback.seek(m.time, performance.now());
    },

    /** @param {import("./protocol").RulingViewEvent} m */
    ruling(m) {
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
        // a ruling comes only in a room (the room's message came first)
        const room = /** @type {import("./protocol").Room} */ (state.room);
        if (Array.isArray(m.sides)) m.sides.forEach((side, i) => room.seats[i] && (room.seats[i].side = side));
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

    /** @param {import("./protocol").Watchers} m */
    watchers(m) {
      if (state.room?.id !== m.room) return;
      state.room.watchers = m.n;
      renderHud();
    },

    clock(m) {
      state.clock = { ...m, at: performance.now() };
    },

    /** @param {import("./protocol").ChatLineEvent} m */
    chat(m) {
      // the role beside the name: two people in a room may share a name, never a role
      const role = m.seat === null || m.seat === undefined ? t("chat.watcher") : t("seat", { seat: m.seat + 1 });
      chat.add({ from: m.name, role, text: m.text, channel: m.team === null || m.team === undefined ? "room" : "team" });
    },

    /** @param {import("./protocol").GoneEvent} m */
    gone(m) {
      setDropped(m.seat, m.name, m.grace);
      const seat = /** @type {import("./protocol").Room} */ (state.room).seats[m.seat]; // a room's event: in the room
      if (seat) seat.away = m.grace;
      chat.add({ system: true, text: t("chat.gone", { name: m.name }) });
      showRoomScreen();
    },

    /** @param {import("./protocol").BackEvent} m */
    back(m) {
      setDropped(m.seat, m.name, null);
      const seat = /** @type {import("./protocol").Room} */ (state.room).seats[m.seat]; // a room's event: in the room
      if (seat) seat.away = null;
      chat.add({ system: true, text: t("chat.back", { name: m.name }) });
      showRoomScreen();
    },

    result(m) {
      applyOrHold(() => {
        state.result = m;
        state.ratingChange = null;
        if (state.room?.rated && state.account && mySeat() !== null) awaitRatingChange(m.match, state.room.mode);
        state.phase = "over";
        state.turn = null;
        state.score = m.score ?? state.score;
        renderHud();
        const competition = competitionOf(state.room);
        if (competition && mySeat() !== null) backToCompetition(competition);
      });
    },

    /** A competition's table decided outside its room (the organiser's result by hand, a
     * withdrawal): the match here is over; its players go back to the competition's page,
     * which says why and sends them to their next table. The `left` that follows is
     * expected. */
    decided(m) {
      const text = decidedText(m, mySeat());
      toast(text, 8000);
      chat.add({ system: true, text });
      state.leaving = true;
      playback.clear();
      aimer.stop();
      const tid = m.tournament ?? competitionOf(state.room);
      if (tid && mySeat() !== null) {
        sessionStorage.setItem("nv-tour-notice", text);
        state.returnTo = `/tournaments/${encodeURIComponent(tid)}`;
      }
    },

    /** @param {import("./protocol").Left} m */
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
      roomClient.left();
      playback.clear();
      aimer.stop();
      if (state.returnTo) return location.assign(state.returnTo);
      showLobby();
    },

    /** @param {import("./protocol").ErrorMessage} m */
    error(m) {
      if (m.code === "not_now" || m.code === "no_room") state.leaving = false; // a leave refused
      if (m.ref !== undefined && m.ref === state.strikeRef) {
        // The stroke was refused: the striker is the player's again.
        aimer.stop();
        updateAimer();
      }
      if (m.code === "replaced") {
        // The same player opened another tab: this one steps aside instead of fighting it.
        /** @type {import("./net.js").Connection} */ (link.conn).close(); // the error came on it
        toast(t("toast.replaced"), 10000);
        return;
      }
      if (m.code === "logged_out") {
        // The login this socket was opened with ended (here or on another device): the server
        // closes it, and the reconnect that follows is a guest's unless logged in again.
        toast(refusalText(m), 10000);
        return;
      }
      if (m.code === "name_taken") {
        // a guest's name that is (or reads as) a member's: asked again, the reason under it
        askNameAgain(refusalText(m));
        return;
      }
      if (m.code === "bad_token") {
        send(freshHello(state.name));
        return;
      }
      if (state.joinRef && m.ref === state.joinRef && ["room_full", "seat_taken", "not_now"].includes(m.code)) {
        send({ t: "watch", room: state.pendingRoom ?? route().join });
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
    /** @param {import("./protocol").ComputerTakes} m */
    computer(m) {
      toast(t("computer.instead", { waited: m.waited, level: m.level }), 8000);
    },

    pong() {},
  };

  return { onMessage, releaseHeld };
}
