// The lobby (room lists, create, quick match, invite) and the waiting room (seats,
// teams, ready). They render protocol data as text and report intents upwards.
import { $, el } from "./dom.js";
import { t } from "./i18n.js";

const MODE_NAMES = { get singles() { return t("mode.singles"); }, get doubles() { return t("mode.doubles"); } };

/** "Maret v Jaan" or "Maret & Ivo v Jaan & Tiit", empty seats as "…". */
export function playersLine(mode, players) {
  const name = (p) => (p ? p.name : "…");
  if (mode === "doubles") {
    return `${name(players[0])} & ${name(players[2])} v ${name(players[1])} & ${name(players[3])}`;
  }
  return `${name(players[0])} v ${name(players[1])}`;
}

export class LobbyView {
  /** intents: {create(opts), quick(mode), cancelQuick(), invite(code), join(roomId), watch(roomId)} */
  constructor(intents) {
    this.intents = intents;
    $("create-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const f = e.target.elements;
      intents.create({
        mode: f.mode.value,
        sets: Number(f.sets.value),
        clock: Number(f.clock.value),
        private: f.private.checked,
      });
    });
    $("quick-singles").addEventListener("click", () => intents.quick("singles"));
    $("quick-doubles").addEventListener("click", () => intents.quick("doubles"));
    $("quick-cancel").addEventListener("click", () => intents.cancelQuick());
    $("invite-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const code = inviteCode($("invite-input").value);
      if (code) intents.invite(code);
    });
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
      el("span", { class: "badge", text: MODE_NAMES[r.mode] || r.mode }),
      el("span", { class: "what", text: playersLine(r.mode, r.players) }),
      el("span", { class: "muted small", text: t("lobby.open_row", { sets: r.sets, clock: r.clock, free, watchers: r.watchers }) }),
      el("button", { type: "button", class: "primary", text: t("lobby.join"), onclick: () => this.intents.join(r.id) }),
      el("button", { type: "button", text: t("lobby.watch"), onclick: () => this.intents.watch(r.id) }),
    );
  }

  liveRow(r) {
    const score = r.score ? `${r.score[0]}–${r.score[1]}` : "";
    return el(
      "li",
      { data: { room: r.id } },
      el("span", { class: "badge", text: MODE_NAMES[r.mode] || r.mode }),
      el("span", { class: "what", text: playersLine(r.mode, r.players) }),
      el("span", { class: "small", text: score }),
      el("span", { class: "muted small watchers", text: t("hud.watching", { n: r.watchers }) }),
      el("button", { type: "button", text: t("lobby.watch"), onclick: () => this.intents.watch(r.id) }),
    );
  }

  /** What the quick-match queue is doing; empty when not queued. */
  setQuickStatus(text) {
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

  render(room, inviteUrl, invitedBy = null) {
    this.room = room;
    const what = t(room.private ? "room.title_private" : "room.title", { mode: room.mode, sets: room.sets, clock: room.clock });
    $("room-title").textContent = what;
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
      card.append(el("span", { class: "who", text: room.you?.seat === i ? t("room.you", { name: s.name }) : s.name }));
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

export const teamLetter = (team) => (team === 0 ? "A" : "B");
