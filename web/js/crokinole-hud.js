// The Crokinole table's panel (docs/client.md, "The Crokinole page"): whose turn it is, who
// the reader is and the colour played, each player with rating, game points and discs left,
// the watchers, the last ruling with its 002 paragraph on demand ("Why?") and the earlier
// ones, and the result with its rematch. Protocol data in, text out (never markup: names
// and chat are other people's); the page (js/crokinole-app.js) says when to draw.
import { colourOf, figures, rulingWords, whoIs } from "./crokinole-board.js";
import { COLOURS } from "./crokinole-draw.js";
import { paragraphOf } from "./crokinole-rules.js";
import { $, el } from "./dom.js";
import { language, t } from "./i18n.js";
import { ratingSuffix } from "./rating.js";

/**
 * @typedef {{name: string, team?: number, rating?: number|null, provisional?: boolean,
 *   computer?: number|null, away?: number|null}} Seat
 * @typedef {{id: string, mode: string, seats: Array<Seat|null>, watchers?: number,
 *   rematch?: number[], you?: {role: string, seat: number|null}}} Room
 * @typedef {{round: number, twenties: number[], shots_left: number[], turn: number[]}} Round
 * @typedef {{seat: number, ruling: {code: string, rule: string, [k: string]: any}, seq?: number}} Ruled
 */

const HISTORY_MAX = 30;

/** A coloured dot for colour `c`. */
const dot = (/** @type {number} */ c) => {
  const d = el("span", { class: "dot" });
  d.style.background = COLOURS[c] ?? "#888";
  return d;
};

/**
 * The colour's name in the page's language ("red").
 * @param {number} colour
 * @returns {string}
 */
export const colourName = (colour) => t(`crok.colour.${colour}`);

/**
 * A "Why?" that opens the words of the paragraph `rule` of seed 002 cites.
 * @param {string} rule
 * @returns {HTMLElement|null}
 */
export function whyBox(rule) {
  const p = paragraphOf(rule);
  if (!p) return null;
  const english = language() !== "en" ? ` ${t("crok.why_english")}` : "";
  return el("details", { class: "why" }, el("summary", { text: t("why.open") }), el("p", { text: `002 ${p.rule}: ${p.text}${english}` }));
}

export class CrokinoleHud {
  constructor() {
    /** @type {Ruled[]} earlier rulings, oldest first */
    this.history = [];
    /** @type {Ruled|null} */
    this.last = null;
  }

  /**
   * A new ruling: the last one goes to the history.
   * @param {Ruled} ruled
   */
  ruled(ruled) {
    if (this.last) this.history.push(this.last);
    if (this.history.length > HISTORY_MAX) this.history.shift();
    this.last = ruled;
  }

  /** A new room or a new match: no rulings yet. */
  clearRulings() {
    this.history = [];
    this.last = null;
  }

  /**
   * Who the reader is: "You play red" (with the dot) or "You are watching".
   * @param {Room|null} room
   * @param {number|null} me
   */
  renderMe(room, me) {
    const box = $("me");
    if (!room) return box.replaceChildren();
    if (me === null) return box.replaceChildren(t("crok.you_watch"));
    const c = colourOf(room, me);
    box.replaceChildren(dot(c), t("crok.you_play", { name: room.seats[me]?.name ?? "", colour: colourName(c) }));
  }

  /**
   * Whose turn: "Your turn", "Maret to shoot", "The disc is sliding…", waiting or over.
   * @param {{room: Room, me: number|null, turns: number[], phase: string|null}} s
   */
  renderTurn({ room, me, turns, phase }) {
    const box = $("turn");
    let text;
    if (!phase) text = t("crok.waiting");
    else if (phase === "over") text = t("crok.over");
    else if (phase === "motion") text = t("crok.moving");
    else if (me !== null && turns.includes(me)) text = t("crok.your_turn");
    else text = t("crok.to_shoot", { name: turns.map((s) => whoIs(room, s, me)).join(" / ") });
    box.textContent = text;
    box.classList.toggle("mine", phase === "play" && me !== null && turns.includes(me));
  }

  /**
   * One row a seat: colour, name (rating), game points of its colour, discs left.
   * @param {{room: Room, me: number|null, turns: number[], phase: string|null, score: number[]|null, round: Round|null}} s
   */
  renderPlayers({ room, me, turns, phase, score, round }) {
    const rows = room.seats.map((s, i) => {
      const c = colourOf(room, i);
      const name = s ? `${s.name}${ratingSuffix(s)}${i === me ? ` (${t("crok.you").toLowerCase()})` : ""}` : t("hud.empty");
      const left = round?.shots_left?.[i];
      const row = el(
        "li",
        { class: `player${phase === "play" && turns.includes(i) ? " turn-now" : ""}${s?.away != null ? " away" : ""}`, data: { seat: i } },
        dot(c),
        el("span", { class: "name", text: name }),
        el("span", { class: "score", title: t("crok.game_points"), text: String(score?.[c] ?? 0) }),
        el("span", { class: "left", text: typeof left === "number" ? t("crok.discs_left", { n: left }) : "" }),
      );
      row.dataset.left = String(left ?? "");
      row.dataset.colour = String(c);
      return row;
    });
    $("players").replaceChildren(...rows);
    $("watchers").textContent = t("hud.watching", { n: room.watchers ?? 0 });
  }

  /**
   * The last ruling (who shot, short, its paragraph on demand) and the earlier ones.
   * @param {Room} room
   * @param {number|null} me
   */
  renderRulings(room, me) {
    const line = (/** @type {Ruled} */ r) =>
      el("div", { class: "line", data: { seat: r.seat } }, t("crok.ruling", { who: whoIs(room, r.seat, me), words: rulingWords(r.ruling) }), whyBox(r.ruling.rule));
    $("ruling").replaceChildren(...(this.last ? [line(this.last)] : []));
    $("ruling-box").hidden = !this.last;
    const box = $("ruling-history");
    box.hidden = this.history.length === 0;
    $("ruling-history-list").replaceChildren(...[...this.history].reverse().map(line));
    box.querySelector("summary").textContent = t("hud.earlier", { n: this.history.length });
  }

  /**
   * The result: won or lost (or who won, to a watcher), with the rematch offers.
   * @param {{winner: number|null}|null} result
   * @param {Room} room
   * @param {number|null} me
   */
  renderResult(result, room, me) {
    $("result").hidden = !result;
    if (!result) return;
    const winner = result.winner;
    const winners = room.seats.map((s, i) => (s && colourOf(room, i) === winner ? s.name : null)).filter(Boolean);
    let title;
    if (winner === null || winner === undefined) title = t("crok.over_tie");
    else if (me !== null) title = colourOf(room, me) === winner ? t("hud.you_won") : t("hud.you_lost");
    else title = t("crok.won_by", { names: winners.join(" & ") });
    $("result-title").textContent = title;
    const offered = room.rematch ?? [];
    $("rematch").hidden = me === null;
    /** @type {HTMLButtonElement} */ ($("rematch")).disabled = me !== null && offered.includes(me);
    $("rematch-status").textContent = offered.length ? t("hud.rematch_by", { names: offered.map((i) => whoIs(room, i, me)).join(", ") }) : "";
  }

  /**
   * The game's points and the round: "Game 4 to 2 · twenties 1 / 0 · round 3".
   * @param {number[]} score
   * @param {Round|null} round
   */
  renderScore(score, round) {
    $("score").textContent = round
      ? t("crok.score_round", { score: figures(score), twenties: round.twenties.join(" / "), round: round.round })
      : t("crok.score", { score: figures(score) });
  }
}
