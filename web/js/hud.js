// The match panel: whose turn, the stroke clock, sets won, pucks left, debts, a
// dropped player's countdown, the ruling in plain words with its paragraph, the
// result with a rematch button. Everything from others is set as text.
import { $, el } from "./dom.js";
import { teamLetter } from "./rulings.js";

const RULING_BANNER_MS = 5000;

/** Seconds as m:ss, never negative. */
export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class MatchHud {
  /** intents: {pass(), resign(), leave(), rematch(), lobby()} */
  constructor(intents) {
    $("pass-btn").addEventListener("click", () => intents.pass());
    $("resign-btn").addEventListener("click", () => {
      if (window.confirm("Resign the match?")) intents.resign();
    });
    $("match-leave").addEventListener("click", () => {
      // A player leaving a live match resigns it (docs/protocol.md, leave).
      if (!$("resign-btn").hidden && !window.confirm("Leaving resigns the match. Leave?")) return;
      intents.leave();
    });
    $("rematch-btn").addEventListener("click", () => intents.rematch());
    $("cite-toggle").addEventListener("click", () => {
      const on = !$("hud").classList.contains("show-cites");
      $("hud").classList.toggle("show-cites", on);
      $("cite-toggle").setAttribute("aria-pressed", String(on));
    });
    $("result-lobby").addEventListener("click", () => intents.lobby());
    this.clockText = "";
  }

  /**
   * room: the protocol's room; discs: pucks at rest; turn: seat to strike or null;
   * phase: "play" | "motion" | "over"; me: my seat or null.
   */
  render({ room, discs, turn, phase, me, score, debts, set }) {
    const seats = room.seats;
    const nameOf = (i) => seats[i]?.name ?? `seat ${i + 1}`;
    const turnEl = $("turn");
    let text;
    if (phase === "over" || turn === null || turn === undefined) text = "Match over";
    else if (phase === "motion") text = "The discs are moving…";
    else if (turn === me) text = "Your turn: place the striker and strike";
    else text = `${nameOf(turn)} to strike`;
    turnEl.textContent = text;
    turnEl.classList.toggle("mine", phase === "play" && turn === me);
    turnEl.dataset.turn = turn ?? "";

    const left = new Array(seats.length).fill(0);
    for (const d of discs) if (d.id !== 0 && d.owner >= 0 && d.owner < left.length) left[d.owner] += 1;
    $("players").replaceChildren(
      ...seats.map((s, i) => {
        const team = i % 2;
        const row = el(
          "div",
          { class: `player${turn === i && phase !== "over" ? " turn-now" : ""}${s?.away != null ? " away" : ""}`, data: { seat: i } },
          el("span", { class: `dot team${team}` }),
          el("span", { class: "name", text: s ? s.name : "(empty)" }),
          el("span", { class: "sets", title: "sets won", text: score ? String(score[team]) : "0" }),
          el("span", {
            class: "detail",
            text: [
              room.mode === "doubles" ? `Team ${teamLetter(team)}` : null,
              `${left[i]} pucks left`,
              debts && debts[i] ? `owes ${debts[i]} penalty puck${debts[i] > 1 ? "s" : ""}` : null,
            ]
              .filter(Boolean)
              .join(" · "),
          }),
        );
        row.querySelector(".detail").dataset.left = left[i];
        return row;
      }),
    );
    $("set-line").textContent = set ? `Set ${Math.min(set, room.sets)} of ${room.sets}` : "";
    $("watchers").textContent = `${room.watchers ?? 0} watching`;
    const player = me !== null && me !== undefined;
    $("pass-btn").hidden = !(player && phase === "play" && turn === me);
    $("resign-btn").hidden = !(player && phase !== "over");
    $("keys-help").hidden = !player || phase === "over";
  }

  /** clock: {seat, remaining, running, at (local ms)} */
  renderClock(clock, now, names) {
    const c = $("clock");
    if (!clock) {
      if (this.clockText !== "") c.textContent = this.clockText = "";
      return;
    }
    const left = clock.running ? clock.remaining - (now - clock.at) / 1000 : clock.remaining;
    const who = names[clock.seat] ?? "";
    const text = `Clock ${formatClock(left)}${who ? ` · ${who}` : ""}${clock.running ? "" : " (paused)"}`;
    if (text !== this.clockText) {
      c.textContent = this.clockText = text;
      c.classList.toggle("low", clock.running && left <= 5);
    }
  }

  /** dropped: [{seat, name, until (local ms)}] */
  renderDropped(dropped, now) {
    const box = $("dropped");
    box.hidden = dropped.length === 0;
    const text = dropped
      .map((d) => `${d.name} lost the connection: ${formatClock((d.until - now) / 1000)} to come back`)
      .join("\n");
    if (box.textContent !== text) box.textContent = text;
  }

  /** The ruling over the table for a few seconds, in short: seen even on a phone. */
  flashRuling(lines) {
    const banner = $("ruling-banner");
    clearTimeout(this.bannerTimer);
    const facts = lines || [];
    // The penalty first if there is one, else the first fact: one line.
    const key = facts.find((l) => /^Penalty/.test(l.text)) || facts[0];
    banner.textContent = key ? key.text : "";
    banner.hidden = !banner.textContent;
    this.bannerTimer = setTimeout(() => {
      banner.hidden = true;
    }, RULING_BANNER_MS);
  }

  /**
   * The last ruling, one short line a fact (the rules' paragraphs on demand), and the
   * earlier ones in a history the player can open. lines: [{text, cite}];
   * history: [{stroke, lines, legal}] oldest first.
   */
  renderRuling(lines, legal, history = []) {
    const row = ({ text, cite }) =>
      el(
        "div",
        { class: `line${legal ? " legal" : ""}${/^Penalty/.test(text) ? " penalty" : ""}` },
        document.createTextNode(text),
        cite ? el("cite", { text: cite }) : null,
      );
    $("ruling").replaceChildren(...(lines || []).map(row));
    $("ruling-box").hidden = !(lines || []).length && !history.length;
    const box = $("ruling-history");
    box.hidden = history.length === 0;
    const list = [...history].reverse().flatMap((r) => [
      el("div", { class: "stroke-head", text: r.title }),
      ...r.lines.map(({ text, cite }) => el("div", { class: `line${r.legal ? " legal" : ""}` }, document.createTextNode(text), cite ? el("cite", { text: cite }) : null)),
    ]);
    $("ruling-history-list").replaceChildren(...list);
    box.querySelector("summary").textContent = `Earlier rulings (${history.length})`;
  }

  /** result: the protocol's result message, or null to hide. */
  renderResult(result, room, me, rematchSeats) {
    const box = $("result");
    box.hidden = !result;
    if (!result) return;
    const team = result.winner;
    const names = room.seats
      .filter((s, i) => s && i % 2 === team)
      .map((s) => s.name)
      .join(" & ");
    let title;
    if (team === null || team === undefined) title = "Match over: no winner";
    else if (me !== null && me !== undefined) title = me % 2 === team ? "You won the match!" : "You lost the match";
    else title = `${names} won the match`;
    $("result-title").textContent = title;
    const score = result.score ? `Sets ${result.score[0]}–${result.score[1]}` : "";
    $("result-detail").textContent = [score, names && team !== null ? `Winner: ${names}` : ""].filter(Boolean).join(" · ");
    const record = $("result-record");
    const path = typeof result.record === "string" && /^\/(?!\/)/.test(result.record) ? result.record : null;
    record.hidden = !path;
    // A readable page of the record (the client renders /api/matches/<id>).
    // a private room's record is served with its invite only (docs/protocol.md)
    const found = path && path.match(/^\/api\/matches\/([^/?#]+)(?:\?invite=([\w-]+))?$/);
    const readable = found ? `/?match=${encodeURIComponent(found[1])}` : path;
    const invite = found && found[2] ? `&invite=${encodeURIComponent(found[2])}` : "";
    if (path) record.href = found ? readable + invite : path; // only a path on this server
    const player = me !== null && me !== undefined;
    const offered = rematchSeats || [];
    $("rematch-btn").hidden = !player;
    $("rematch-btn").disabled = player && offered.includes(me);
    $("rematch-status").textContent = offered.length
      ? `Rematch offered by ${offered.map((i) => room.seats[i]?.name ?? `seat ${i + 1}`).join(", ")}`
      : "";
  }
}
