// The lobby (room lists, create, quick match, invite) and the waiting room (seats,
// teams, ready). They render protocol data as text and report intents upwards.
import { $, el } from "./dom.js";

const MODE_NAMES = { singles: "Singles", doubles: "Doubles" };

export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** "Maret v Jaan" or "Maret & Ivo v Jaan & Tiit", empty seats as "…". */
export function playersLine(mode, players) {
  const name = (p) => (p ? `${p.name}${rated(p)}` : "…");
  if (mode === "doubles") {
    return `${name(players[0])} & ${name(players[2])} v ${name(players[1])} & ${name(players[3])}`;
  }
  return `${name(players[0])} v ${name(players[1])}`;
}

/** A registered player's rating beside the name (" (1534)", "?" while provisional). */
function rated(p) {
  return p.rating === null || p.rating === undefined ? "" : ` (${p.rating}${p.provisional ? "?" : ""})`;
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
        ...(f.rated?.checked ? { rated: true } : {}),
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
      el("span", { class: "muted small", text: `${plural(r.sets, "set")} · ${r.clock} s${r.rated ? " · rated" : ""} · ${free} free · ${r.watchers} watching` }),
      el("button", { type: "button", class: "primary", text: "Join", onclick: () => this.intents.join(r.id) }),
      el("button", { type: "button", text: "Watch", onclick: () => this.intents.watch(r.id) }),
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
      el("span", { class: "muted small watchers", text: `${r.watchers} watching` }),
      el("button", { type: "button", text: "Watch", onclick: () => this.intents.watch(r.id) }),
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
    const mode = MODE_NAMES[room.mode] || room.mode;
    const what = `${mode} · ${plural(room.sets, "set")} · ${room.clock} s stroke clock${room.private ? " · private" : ""}`;
    $("room-title").textContent = what;
    const invited = $("room-invited");
    invited.hidden = !invitedBy;
    if (invitedBy) invited.textContent = `${invitedBy} invited you to ${mode.toLowerCase()}: ${plural(room.sets, "set")}, ${room.clock} s a stroke.`;
    $("invite-box").hidden = !inviteUrl;
    if (inviteUrl) $("invite-link").value = inviteUrl;
    $("invite-label").textContent = room.private ? "Invite link (private: only with this link)" : "Link to this room";
    const seated = room.you?.role === "player";
    // Seats around a small table, clockwise from the bottom: partners face each other.
    const seats = $("seats");
    seats.className = `seats ${room.mode}`;
    seats.replaceChildren(el("div", { class: "mini-table", title: "the table" }), ...room.seats.map((s, i) => this.seatCard(room, s, i, seated)));
    const missing = room.seats
      .map((s, i) => (!s ? `seat ${i + 1} (Team ${teamLetter(i % 2)}) is free` : !s.ready ? `${s.name} is not ready` : null))
      .filter(Boolean);
    $("room-missing").textContent = missing.length ? `Waiting: ${missing.join("; ")}.` : "Everybody is ready.";
    const me = this.mySeat();
    $("ready-btn").hidden = !me;
    $("ready-btn").textContent = me && me.ready ? "Not ready" : "Ready";
  }

  seatCard(room, s, i, seated) {
    const team = i % 2;
    const where = room.mode === "doubles" ? `Team ${teamLetter(team)} · seat ${i + 1}` : `Seat ${i + 1}`;
    const card = el("div", { class: `seat seat${i} team${team}${s ? " taken" : ""}`, data: { seat: i } }, el("span", { class: "muted small", text: where }));
    if (s) {
      const you = room.you?.seat === i ? " (you)" : "";
      card.append(el("span", { class: "who", text: `${s.name}${rated(s)}${you}` }));
      const state = s.away !== null && s.away !== undefined ? "away" : s.ready ? "ready" : "not ready";
      card.append(el("span", { class: `state ${state === "not ready" ? "" : state}`, text: state }));
    } else if (!seated) {
      card.append(el("button", { type: "button", class: "sit", text: "Sit here", onclick: () => this.intents.sit(i) }));
    } else {
      card.append(el("span", { class: "muted", text: "free" }));
    }
    return card;
  }
}

export const teamLetter = (team) => (team === 0 ? "A" : "B");
