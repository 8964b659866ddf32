// The match panel: whose turn, the stroke clock, sets won, pucks left, debts, a
// dropped player's countdown, the ruling in plain words with its paragraph, the
// result with a rematch button. Everything from others is set as text.
import { $, el } from "./dom.js";
import { has, language, t } from "./i18n.js";
import { citeHref } from "./puck-rules.js";
import { loadRules, whyOf } from "./rules-text.js";
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
      if (window.confirm(t("hud.confirm_resign"))) intents.resign();
    });
    $("match-leave").addEventListener("click", () => {
      // A player leaving a live match resigns it (docs/protocol.md, leave).
      if (!$("resign-btn").hidden && !window.confirm(t("hud.confirm_leave"))) return;
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
    this.turnText = "";
    this.openWhy = new Set(); // the "why"s a player opened: kept open across redraws
    this.heard = [];
  }

  /**
   * Say `text` to screen readers through the page's live region (#announce): whose turn it
   * is and each ruling. Said together once the current event is handled, the ruling first.
   */
  announce(text, first = false) {
    if (!text) return;
    if (first) this.heard.unshift(text);
    else this.heard.push(text);
    clearTimeout(this.heardTimer);
    this.heardTimer = setTimeout(() => {
      const region = $("announce");
      region.replaceChildren(...this.heard.map((x) => el("p", { text: x })));
      this.heard = [];
    }, 50);
  }

  /**
   * A ruling line's "why": opened, the words of the paragraph it cites (the rule book's,
   * in the player's language where we have the text) and a link to it on the rules page.
   */
  why(key, cite) {
    const href = citeHref(cite);
    if (!href) return null;
    const words = el("p");
    const link = Object.assign(el("a", { text: t("why.read", { cite }) }), { href, target: "_blank", rel: "noopener" });
    const box = el("details", { class: "why" }, el("summary", { text: t("why.open") }), words, link);
    const fill = () => {
      loadRules()
        .then((rules) => {
          const why = whyOf(rules, cite, language());
          words.textContent = why ? why.text + (why.english ? ` ${t("why.in_english")}` : "") : t("why.missing");
        })
        .catch(() => {
          words.textContent = t("why.missing");
        });
    };
    box.addEventListener("toggle", () => {
      if (box.open) {
        this.openWhy.add(key);
        fill();
      } else this.openWhy.delete(key);
    });
    if (this.openWhy.has(key)) box.open = true; // its toggle event fills it
    return box;
  }

  /**
   * room: the protocol's room; discs: pucks at rest; turn: seat to strike or null;
   * phase: "play" | "motion" | "over"; me: my seat or null.
   */
  render({ room, discs, turn, phase, me, score, debts, set }) {
    const seats = room.seats;
    const nameOf = (i) => seats[i]?.name ?? t("seat", { seat: i + 1 });
    const turnEl = $("turn");
    let text;
    if (phase === "over" || turn === null || turn === undefined) text = t("hud.match_over");
    else if (phase === "motion") text = t("hud.moving");
    else if (turn === me) text = t("hud.your_turn");
    else text = t("hud.to_strike", { name: nameOf(turn) });
    turnEl.textContent = text;
    if (text !== this.turnText && phase !== "motion") this.announce(text);
    this.turnText = text;
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
          el(
            "span",
            { class: "name", text: s ? s.name : t("hud.empty") },
            s?.away != null ? el("span", { class: "away-tag", text: t("room.state_away") }) : null,
          ),
          el("span", { class: "sets", title: t("hud.sets_won"), text: score ? String(score[team]) : "0" }),
          el("span", {
            class: "detail",
            text: [
              room.mode === "doubles" ? t("team", { team: teamLetter(team) }) : null,
              t("hud.pucks_left", { n: left[i] }),
              debts && debts[i] ? t("hud.owes", { n: debts[i] }) : null,
            ]
              .filter(Boolean)
              .join(" · "),
          }),
        );
        row.querySelector(".detail").dataset.left = left[i];
        return row;
      }),
    );
    // a rated room says so all through its match (issue 36, 5)
    $("set-line").textContent = [set ? t("hud.set_of", { set: Math.min(set, room.sets), sets: room.sets }) : "", room.rated ? t("hud.rated") : ""].filter(Boolean).join(" · ");
    $("watchers").textContent = t("hud.watching", { n: room.watchers ?? 0 });
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
    const shown = who ? t("hud.clock_who", { time: formatClock(left), name: who }) : t("hud.clock", { time: formatClock(left) });
    const text = clock.running ? shown : t("hud.paused", { text: shown });
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
      .map((d) => t("hud.dropped", { name: d.name, time: formatClock((d.until - now) / 1000) }))
      .join("\n");
    if (box.textContent !== text) box.textContent = text;
  }

  /** The ruling over the table for a few seconds, in short: seen even on a phone. */
  flashRuling(lines) {
    const banner = $("ruling-banner");
    clearTimeout(this.bannerTimer);
    const facts = lines || [];
    // The penalty first if there is one, else the first fact: one line.
    const key = facts.find((l) => l.penalty) || facts[0];
    banner.textContent = key ? key.text : "";
    banner.hidden = !banner.textContent;
    // Every line to screen readers, before whose turn it is now.
    for (const line of [...facts].reverse()) this.announce(line.text, true);
    this.bannerTimer = setTimeout(() => {
      banner.hidden = true;
    }, RULING_BANNER_MS);
  }

  /**
   * The last ruling, one short line a fact (the rules' paragraphs on demand), and the
   * earlier ones in a history the player can open. lines: [{text, cite, penalty}];
   * history: [{stroke, lines, legal}] oldest first; title: whose stroke the last one was.
   */
  renderRuling(lines, legal, history = [], title = "") {
    $("ruling-who").textContent = title;
    // Each line's paragraph is a link to its text (shown with "§ rules"), and its "why"
    // opens the paragraph's words.
    const citeLink = (cite) =>
      el("cite", {}, Object.assign(el("a", { text: cite }), { href: citeHref(cite) ?? "/rules.html", target: "_blank", rel: "noopener" }));
    const row = ({ text, cite, penalty }, cls, key) =>
      el("div", { class: cls + (penalty ? " penalty" : "") }, document.createTextNode(text), cite ? citeLink(cite) : null, cite ? this.why(key, cite) : null);
    const last = (lines || []).map((l, i) => row(l, `line${legal ? " legal" : ""}`, `last|${i}|${l.text}|${l.cite}`));
    $("ruling").replaceChildren(...last);
    $("ruling-box").hidden = !(lines || []).length && !history.length;
    const box = $("ruling-history");
    box.hidden = history.length === 0;
    const list = [...history].reverse().flatMap((r) => [
      el("div", { class: "stroke-head", text: r.title }),
      ...r.lines.map((l, i) => row({ ...l, penalty: false }, `line${r.legal ? " legal" : ""}`, `${r.title}|${i}|${l.text}|${l.cite}`)),
    ]);
    $("ruling-history-list").replaceChildren(...list);
    box.querySelector("summary").textContent = t("hud.earlier", { n: history.length });
  }

  /** result: the protocol's result message, or null to hide.
   * @param {Record<string, any> | null} result
   * @param {import("./protocol").Room} room
   * @param {number | null} me
   * @param {number[]} rematchSeats
   * @param {import("./state.js").RatingChange | null} [ratingChange] the player's new rating, once rated */
  renderResult(result, room, me, rematchSeats, ratingChange = null) {
    const box = $("result");
    box.hidden = !result;
    if (!result) return;
    // a rated match: the player's new rating and its change, once the match is rated
    const rating = $("result-rating");
    rating.hidden = !ratingChange;
    if (ratingChange) {
      const change = `${ratingChange.change >= 0 ? "+" : "−"}${Math.abs(ratingChange.change)}`;
      rating.textContent = t("hud.rating_change", { rating: ratingChange.rating, change });
    }
    const team = result.winner;
    const names = room.seats
      .filter((s, i) => s && i % 2 === team)
      .map((s) => /** @type {import("./protocol").SeatView} */ (s).name) // the empty seats are filtered out
      .join(" & ");
    let title;
    if (team === null || team === undefined) title = t("hud.no_winner");
    else if (me !== null && me !== undefined) title = me % 2 === team ? t("hud.you_won") : t("hud.you_lost");
    else title = t("hud.won_by", { names });
    $("result-title").textContent = title;
    const score = result.score ? t("hud.sets_score", { a: result.score[0], b: result.score[1] }) : "";
    // how it was won when not by sets: "by resignation", "by absence", "by three cautions"
    const reason = result.result?.reason;
    const how = team !== null && team !== undefined && reason && reason !== "sets" && has(`hud.by_${reason}`) ? t(`hud.by_${reason}`) : "";
    $("result-detail").textContent = [score, names && team !== null ? t("hud.winner", { names }) : "", how].filter(Boolean).join(" · ");
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
      ? t("hud.rematch_by", { names: offered.map((i) => room.seats[i]?.name ?? t("seat", { seat: i + 1 })).join(", ") })
      : "";
  }
}
