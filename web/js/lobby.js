// The lobby (room lists, create, quick match, invite) and the waiting room (seats,
// teams, ready). They render protocol data as text and report intents upwards.
import { $, el } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { ratingSuffix as rated } from "./rating.js";

const MODE_NAMES = { get singles() { return t("mode.singles"); }, get doubles() { return t("mode.doubles"); } };
// The lobby's words for the games (seed 002 for Crokinole), from the catalogs (js/i18n/).
const GAME_TEXT = {
  games: { get novuss() { return t("game.novuss"); }, get crokinole() { return t("game.crokinole"); } },
  players: (n) => t("game.players", { n }),
  get tournament() { return t("game.tournament"); },
  conventional: (target) => t("game.conventional", { target }),
  rules: {
    get direct_hit() { return t("game.rule.direct_hit"); },
    get line_discs_stay() { return t("game.rule.line_discs_stay"); },
    get free_order() { return t("game.rule.free_order"); },
  },
};

/** "Maret v Jaan" or "Maret & Ivo v Jaan & Tiit" (or three or four alone), empty seats as "…". */
export function playersLine(mode, players) {
  const name = (p) => (p ? `${p.name}${rated(p)}` : "…");
  if (mode === "doubles") {
    return `${name(players[0])} & ${name(players[2])} v ${name(players[1])} & ${name(players[3])}`;
  }
  return players.map(name).join(" v ");
}

/**
 * The `create` message of the new-room form's values (docs/protocol.md): Novuss's mode,
 * sets and clock, or Crokinole's players and rule options (seed 002 4 f-g, 7 a-d).
 * @param {Record<string, any>} v the form's values
 * @returns {import("./protocol").Create}
 */
export function createMessage(v) {
  if (v.game !== "crokinole") {
    /** @type {import("./protocol").Create} */
    const msg = { t: "create", mode: v.mode, sets: v.sets, clock: v.clock, private: v.private };
    return v.rated ? { ...msg, rated: true } : msg;
  }
  const alone = v.players === "3" || v.players === "4";
  /** @type {import("./protocol").Create} */
  const msg = { t: "create", game: "crokinole", mode: alone ? "singles" : v.players, sets: 1, clock: 60, private: v.private };
  if (alone) msg.players = Number(v.players); // 7 d
  msg.scoring = alone ? "tournament" : v.scoring; // 4 g is between two sides
  if (msg.scoring === "conventional") msg.target = v.target;
  if (v.direct_hit) msg.direct_hit = true;
  if (v.line_discs_stay) msg.line_discs_stay = true;
  if (v.free_order && v.players === "doubles") msg.free_order = true;
  if (v.rated) msg.rated = true; // rated per game and mode: crokinole-singles, -doubles, -7d
  return msg;
}

/** A room's game and rules as the list shows them: "Crokinole · 3 players · 4 rounds (4 f)". */
export function gameLine(r) {
  if (r.game !== "crokinole") return `${GAME_TEXT.games.novuss} · ${MODE_NAMES[r.mode] || r.mode}`;
  const o = r.options || {};
  const who = o.players ? GAME_TEXT.players(o.players) : MODE_NAMES[r.mode] || r.mode;
  const scoring = o.scoring === "conventional" ? GAME_TEXT.conventional(o.target ?? 100) : GAME_TEXT.tournament;
  const rules = Object.keys(GAME_TEXT.rules).filter((k) => o[k]).map((k) => GAME_TEXT.rules[k]);
  return [GAME_TEXT.games.crokinole, who, scoring, ...rules].join(" · ");
}

/**
 * The page a room is played on: Crokinole rooms on /crokinole/ (docs/client.md).
 * @param {string} game
 * @param {string} id
 * @param {boolean} watching
 * @param {string|null} [invite] a private room's invite
 * @returns {string|null} null: the main page's own
 */
export function roomPage(game, id, watching, invite = null) {
  if (game !== "crokinole") return null;
  const extra = (watching ? "&watch=1" : "") + (watching && invite ? `&invite=${encodeURIComponent(invite)}` : "");
  return `/crokinole/?room=${encodeURIComponent(id)}${extra}`;
}

/** A practice room against the computer (docs/bot.md, "In the product"): never rated, hints allowed. */
function practiceBadge(r) {
  return r.options?.practice ? [el("span", { class: "badge practice", text: t("computer.practice_badge") })] : [];
}

export class LobbyView {
  /** intents: {create(msg), quick(mode, game), cancelQuick(), invite(code), join(roomId), watch(roomId)} */
  constructor(intents) {
    this.intents = intents;
    const form = $("create-form");
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const f = e.target.elements;
      intents.create(
        createMessage({
          game: f.game.value,
          mode: f.mode.value,
          sets: Number(f.sets.value),
          clock: Number(f.clock.value),
          private: f.private.checked,
          players: f.players.value,
          scoring: f.scoring.value,
          target: Number(f.target.value),
          direct_hit: f.direct_hit.checked,
          line_discs_stay: f.line_discs_stay.checked,
          free_order: f.free_order.checked,
          rated: Boolean(f.rated?.checked),
        }),
      );
    });
    form.addEventListener("change", () => this.showGameOptions());
    this.showGameOptions();
    const quick = (mode) => intents.quick(mode, $("quick-game").value);
    $("quick-singles").addEventListener("click", () => quick("singles"));
    $("quick-doubles").addEventListener("click", () => quick("doubles"));
    $("quick-cancel").addEventListener("click", () => intents.cancelQuick());
    onLanguage(() => this.setQuickStatus(this.quickWords));
    $("invite-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const code = inviteCode($("invite-input").value);
      if (code) intents.invite(code);
    });
  }

  /** Each game's own options; those that do not fit the players are off (002 4 g, 7 c). */
  showGameOptions() {
    const f = $("create-form").elements;
    const crokinole = f.game.value === "crokinole";
    $("novuss-options").hidden = crokinole;
    $("crokinole-options").hidden = !crokinole;
    const alone = f.players.value === "3" || f.players.value === "4";
    f.scoring.disabled = alone;
    f.target.disabled = alone || f.scoring.value !== "conventional";
    f.free_order.disabled = f.players.value !== "doubles";
  }

  render(lobby) {
    const rooms = lobby.rooms || [];
    const live = lobby.live || [];
    $("open-rooms").replaceChildren(...rooms.map((r) => this.openRow(r)));
    $("open-empty").hidden = rooms.length > 0;
    $("live-matches").replaceChildren(...live.map((r) => this.liveRow(r)));
    $("live-empty").hidden = live.length > 0;
  }

  openRow(r) {
    const free = r.players.filter((p) => !p).length;
    return el(
      "li",
      { data: { room: r.id } },
      el("span", { class: `badge game-${r.game}`, text: gameLine(r) }),
      el("span", { class: "what", text: playersLine(r.mode, r.players) }),
      ...(r.rated ? [el("span", { class: "badge rated", text: t("lobby.rated") })] : []),
      ...practiceBadge(r),
      el("span", { class: "muted small", text: r.game === "crokinole" ? t("lobby.open_row_crokinole", { free, watchers: r.watchers }) : t("lobby.open_row", { sets: r.sets, clock: r.clock, free, watchers: r.watchers }) }),
      el("button", { type: "button", class: "primary", text: t("lobby.join"), onclick: () => this.intents.join(r.id) }),
      el("button", { type: "button", text: t("lobby.watch"), onclick: () => this.intents.watch(r.id) }),
    );
  }

  liveRow(r) {
    const score = r.score ? r.score.join("–") : "";
    return el(
      "li",
      { data: { room: r.id } },
      el("span", { class: `badge game-${r.game}`, text: gameLine(r) }),
      el("span", { class: "what", text: playersLine(r.mode, r.players) }),
      ...practiceBadge(r),
      el("span", { class: "small", text: score }),
      el("span", { class: "muted small watchers", text: t("hud.watching", { n: r.watchers }) }),
      el("button", { type: "button", text: t("lobby.watch"), onclick: () => this.intents.watch(r.id) }),
    );
  }

  /** What the quick-match queue is doing: a function giving the words (called again when the
   * language changes), or "" when not queued. */
  setQuickStatus(words) {
    this.quickWords = words || null;
    const text = words ? words() : "";
    $("quick-status").textContent = text;
    $("quick-cancel").hidden = !text;
  }
}

/** An invite link (…/r/<code>) or a bare code -> the code. */
export function inviteCode(text) {
  const s = String(text || "").trim();
  const m = s.match(/\/r\/([^/?#\s]+)/);
  return m ? decodeURIComponent(m[1]) : s;
}

export class RoomView {
  /** intents: {sit(seat), ready(bool), leave(), copyInvite()} */
  constructor(intents) {
    this.intents = intents;
    this.room = null;
    $("ready-btn").addEventListener("click", () => {
      const me = this.mySeat();
      intents.ready(!(me && me.ready));
    });
    $("room-leave").addEventListener("click", () => intents.leave());
    $("copy-invite").addEventListener("click", () => intents.copyInvite());
  }

  mySeat() {
    const r = this.room;
    if (!r || r.you?.role !== "player") return null;
    return r.seats[r.you.seat];
  }

  /**
   * @param {any} room the room as the page holds it
   * @param {string} inviteUrl
   * @param {string|null} [invitedBy] who invited this player, if one did
   */
  render(room, inviteUrl, invitedBy = null) {
    this.room = room;
    const what = t(room.private ? "room.title_private" : "room.title", { mode: room.mode, sets: room.sets, clock: room.clock });
    $("room-title").textContent = room.rated ? `${what} · ${t("hud.rated")}` : what;
    const invited = $("room-invited");
    invited.hidden = !invitedBy;
    if (invitedBy) invited.textContent = t("room.invited", { name: invitedBy, mode: room.mode, sets: room.sets, clock: room.clock });
    $("invite-box").hidden = !inviteUrl;
    if (inviteUrl) $("invite-link").value = inviteUrl;
    $("invite-label").textContent = room.private ? t("room.invite_private") : t("room.invite_public");
    const seated = room.you?.role === "player";
    // Seats around a small table, clockwise from the bottom: partners face each other.
    const seats = $("seats");
    seats.className = `seats ${room.mode}`;
    seats.replaceChildren(el("div", { class: "mini-table", title: t("room.table") }), ...room.seats.map((s, i) => this.seatCard(room, s, i, seated)));
    const missing = room.seats
      .map((s, i) => (!s ? t("room.seat_free", { seat: i + 1, team: teamLetter(i % 2) }) : !s.ready ? t("room.not_ready_name", { name: s.name }) : null))
      .filter(Boolean);
    $("room-missing").textContent = missing.length ? t("room.waiting", { list: missing.join("; ") }) : t("room.all_ready");
    const me = this.mySeat();
    $("ready-btn").hidden = !me;
    $("ready-btn").textContent = me && me.ready ? t("room.not_ready") : t("room.ready");
  }

  seatCard(room, s, i, seated) {
    const team = i % 2;
    const where = room.mode === "doubles" ? t("room.team_seat", { team: teamLetter(team), seat: i + 1 }) : t("room.seat", { seat: i + 1 });
    const card = el("div", { class: `seat seat${i} team${team}${s ? " taken" : ""}`, data: { seat: i } }, el("span", { class: "muted small", text: where }));
    if (s) {
      const name = `${s.name}${rated(s)}`;
      card.append(el("span", { class: "who", text: room.you?.seat === i ? t("room.you", { name }) : name }));
      const state = s.away !== null && s.away !== undefined ? "away" : s.ready ? "ready" : "not ready";
      const words = { away: t("room.state_away"), ready: t("room.state_ready"), "not ready": t("room.state_not_ready") };
      card.append(el("span", { class: `state ${state === "not ready" ? "" : state}`, text: words[state] }));
    } else if (!seated) {
      card.append(el("button", { type: "button", class: "sit", text: t("room.sit"), onclick: () => this.intents.sit(i) }));
    } else {
      card.append(el("span", { class: "muted", text: t("room.free") }));
    }
    return card;
  }
}

/**
 * The quick-match queue's status line: looking for a match of that game and mode, or of
 * that many players each alone (002 7 d).
 * @param {string} game
 * @param {string} mode
 * @param {number} [players] 3 or 4 players each alone
 * @returns {string}
 */
export const lookingFor = (game, mode, players) =>
  players ? t("crok.looking_alone", { players }) : t(game === "crokinole" ? "lobby.looking_crokinole" : "lobby.looking", { mode });

/**
 * The quick-match queue's status line: queued, with how many wait.
 * @param {string} game
 * @param {string} mode
 * @param {number} waiting
 * @param {number} [players] 3 or 4 players each alone (002 7 d)
 * @returns {string}
 */
export const waitingFor = (game, mode, waiting, players) =>
  players
    ? t("crok.queued_alone", { players, waiting })
    : t(game === "crokinole" ? "lobby.queued_crokinole" : "lobby.queued", { mode, waiting });

/**
 * A quick match's terms as `queued` tells them, before it starts: rated with the ratings in
 * reach at once (the reach widens with the wait), or unrated (a guest's, an unrated game's).
 * @param {boolean|undefined} rated
 * @param {{from: number, to: number}|null|undefined} reach the ratings in reach at once
 * @returns {string} "" from a server that does not say
 */
export function quickTerms(rated, reach) {
  if (rated === undefined) return "";
  if (!rated || !reach) return t("lobby.quick_unrated");
  // plain digits, as ratings are written everywhere else (no thousands separator)
  return t("lobby.quick_rated", { lo: String(Math.round(reach.from)), hi: String(Math.round(reach.to)) });
}

export const teamLetter = (team) => (team === 0 ? "A" : "B");
