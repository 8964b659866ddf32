// The replay viewer (/m/<id>, #stroke=N to open after stroke N; docs/notation.md "The replay
// viewer"): a finished or live match step by step, recomputed by the server with its core and
// referee (GET /api/matches/<id>/replay): the table after each entry, its ruling in words,
// the score, and whether the recomputation agrees with the record. A stroke's motion is the
// core's exact paths (GET .../replay/<n>), sampled at real speed (js/replay-motion.js).
// Either game: the served table says which (a Crokinole board is drawn by
// js/crokinole-draw.js, its rulings and score worded by js/crokinole-board.js).
// At any step where a player is to strike, "what would the computer strike here?" asks the
// server for its top level's stroke (GET .../replay/step/<i>/suggestion), drawn on the table
// as a practice hint is, with the referee's ruling on it; the match's turning points
// (server/replay/turning.py) are ticks under the timeline and a list to jump to.
import { drawHint, playerName } from "../computer.js";
import { figures, rulingWords } from "../crokinole-board.js";
import { drawBoard, drawShotHint } from "../crokinole-draw.js";
import { holeSeenFrom } from "../geometry.js";
import { t } from "../i18n.js";
import { Renderer } from "../render.js";
import { discsAt, restingPlaces, stepOfStroke } from "../replay-motion.js";
import { humanize } from "../rulings.js";
import { pocketCentres, tableFrom } from "../table.js";
import { hash, param, pathPart, setHash } from "../url.js";
import { getJSON, setUpPage, when } from "./api.js";

/** @type {(id: string) => any} the page's own element of an id (its kind known to the caller) */
const $ = (id) => document.getElementById(id);
const mid = pathPart(1);
const invite = param("invite");
const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
const PAUSE_MS = 700; // between strokes while playing through

/**
 * The served replay (GET /api/matches/<id>/replay, docs/notation.md "The replay viewer"): the
 * fields this page reads.
 * @typedef {{id: number, x: number, y: number, owner?: number, striker?: boolean}} Disc
 * @typedef {{code: string, rule: string, lines: object[]}} Ruling
 * @typedef {{discs: Disc[], sides?: Array<string|number>, turn?: number|null, score?: number[],
 *   result?: {winner?: number|null}|null, set?: number, twenties?: number[]}} Table
 * @typedef {Table & {kind: string, stroke: number|null, seat: number, stopped?: string|null,
 *   ruling?: Ruling|null, hash_ok?: boolean|null, ruling_ok?: boolean|null}} Step
 * @typedef {{index: number, stroke: number|null, why: string, side: number|null}} TurningPoint
 * @typedef {{start: Table, steps: Step[], players?: Array<{seat: number, name: string, team: number, computer?: number | null}>,
 *   turning?: TurningPoint[], mode: string, mismatches: number, stopped?: string|null,
 *   started?: number|null, table: {game?: string, disc_radius: number, size: number}}} Replay
 * @typedef {{seat: number, target: number|null, pocket?: string|null, legal: boolean, ruling: Ruling,
 *   shot: {x: number, y: number, angle: number}}} Suggestion the computer's stroke, as served
 * @typedef {{duration: number}} StrokeMotion a stroke's served paths (js/replay-motion.js reads them)
 */

/**
 * @type {{rep: Replay|null, table: ReturnType<typeof tableFrom>|null, board: Replay["table"]|null,
 *   index: number, motion: {stroke: number, data: StrokeMotion, started: number}|null, playing: boolean,
 *   wait: number|undefined, motions: Map<number, StrokeMotion>, shown: Disc[],
 *   suggestion: {index: number, data: Suggestion}|null, asking: number|null}}
 */
const view = {
  rep: null, // the served replay
  table: null,
  board: null, // a Crokinole board (the served table), else null
  index: 0, // 0: the start; i: after steps[i - 1]
  motion: null, // {stroke, data, started (ms)} while a stroke moves
  playing: false, // playing through, stroke after stroke
  wait: undefined, // the timer of the pause between strokes
  motions: new Map(), // stroke -> its served motion
  shown: [], // the discs drawn last (for tests: window.__replay)
  suggestion: null, // {index, data}: the computer's stroke at step `index`, as served
  asking: null, // the step whose suggestion is being asked for
};
const renderer = new Renderer($("replay-canvas"));
/** @type {CanvasRenderingContext2D|null} */
let crokinoleCanvas = null; // the canvas's 2d context, once a Crokinole board is shown

/** The replay, once served: every step, control and redraw below runs only after load() set it.
 * @returns {Replay} */
const served = () => /** @type {Replay} */ (view.rep);

/** The table at step i (0: the start).
 * @param {number} i
 * @returns {Table} */
const tableAt = (i) => (i === 0 ? served().start : served().steps[i - 1]);

function seatsAt(i) {
  const sides = tableAt(i).sides || [];
  const seats = [];
  for (const p of served().players || []) seats[p.seat] = { name: playerName(p), side: sides[p.seat] };
  return seats;
}

function teamNames(team) {
  return (served().players || []).filter((p) => p.team === team).map(playerName).join(" & ");
}

/** The players of a Crokinole colour at step i (partners share one, 002 1). */
function colourNames(colour, i) {
  const sides = tableAt(i).sides || [];
  return (served().players || []).filter((p) => sides[p.seat] === colour).map(playerName).join(" & ");
}

function draw(now) {
  if (!view.rep) return;
  let discs;
  let seatsFrom = view.index;
  if (view.motion) {
    const elapsed = (now - view.motion.started) / 1000; // real speed: 1 s of play is 1 s shown
    discs = discsAt(view.motion.data, elapsed);
    seatsFrom = view.index - 1; // the sides as they were when the stroke was made
    if (elapsed >= view.motion.data.duration) finishMotion();
  } else {
    discs = tableAt(view.index).discs;
  }
  view.shown = discs;
  const hint = view.suggestion && view.suggestion.index === view.index && !view.motion ? view.suggestion.data : null;
  if (view.board) {
    drawBoard(crokinoleCanvas, view.board, discs);
    // the board's context was taken with the board (load())
    if (hint) drawShotHint(/** @type {CanvasRenderingContext2D} */ (crokinoleCanvas), view.board, hint, discs);
    return;
  }
  const turn = view.motion ? null : tableAt(view.index).turn;
  renderer.draw({
    table: view.table,
    side: "S",
    below: 30,
    pucks: discs.filter((d) => d.id !== 0),
    striker: discs.find((d) => d.id === 0) || null,
    players: seatsAt(Math.max(0, seatsFrom))
      .map((s, seat) => s && { side: s.side, name: s.name, active: seat === turn })
      .filter((s) => s?.side),
    highlights: [],
    now,
  });
  if (hint) {
    const { x, y, angle } = hint.shot;
    drawHint(renderer.ctx, renderer.view, renderer.dpr, { x, y, angle, target: hint.target, pocket: hint.pocket }, discs, view.table);
  }
}

function frame(now) {
  requestAnimationFrame(frame);
  draw(now);
}

function finishMotion() {
  view.motion = null;
  render();
  if (view.playing) view.wait = setTimeout(playNext, PAUSE_MS);
}

/** A stroke's served motion, asked for once.
 * @param {number} stroke
 * @returns {Promise<StrokeMotion>} */
async function motionOf(stroke) {
  if (!view.motions.has(stroke)) {
    const { status, body } = await getJSON(`/api/matches/${encodeURIComponent(mid)}/replay/${stroke}${query}`);
    if (status !== 200) throw new Error(body.message || String(status));
    view.motions.set(stroke, body);
  }
  return /** @type {StrokeMotion} */ (view.motions.get(stroke)); // set just above if it was not
}

/** Move to step i; with `animate`, a stroke step plays its motion first. */
async function go(i, animate = false) {
  const steps = served().steps;
  i = Math.max(0, Math.min(steps.length, i));
  clearTimeout(view.wait);
  view.motion = null;
  const step = steps[i - 1];
  if (animate && step && step.kind === "stroke" && step.stroke !== null && !step.stopped) {
    const data = await motionOf(step.stroke);
    view.index = i;
    view.motion = { stroke: step.stroke, data, started: performance.now() };
  } else {
    view.index = i;
    // playing through: an entry without motion (a pass, the clock, the end) is shown a moment
    if (view.playing) view.wait = setTimeout(playNext, PAUSE_MS);
  }
  render();
}

function playNext() {
  if (view.index >= served().steps.length) {
    setPlaying(false);
    return;
  }
  go(view.index + 1, true);
}

function setPlaying(on) {
  view.playing = on;
  clearTimeout(view.wait);
  const b = $("replay-play");
  b.textContent = on ? "❚❚" : "▶";
  b.setAttribute("aria-label", t(on ? "replay.pause" : "replay.play"));
  b.title = t(on ? "replay.pause" : "replay.play");
  if (on && !view.motion) playNext();
}

/** The last stroke at or before step i, for the address (#stroke=N). */
function strokeAt(i) {
  for (let k = i; k >= 1; k--) if (served().steps[k - 1].kind === "stroke") return served().steps[k - 1].stroke;
  return null;
}

function render() {
  const rep = view.rep;
  if (!rep) return;
  const i = view.index;
  const steps = rep.steps;
  const at = tableAt(i);
  $("replay-scrub").max = String(steps.length);
  $("replay-scrub").value = String(i);
  const step = steps[i - 1];
  const seats = seatsAt(Math.max(0, i - 1));
  const who = step ? seats[step.seat]?.name : null;
  let head;
  if (!step) head = t("replay.start", { n: steps.length });
  else if (view.motion) head = t("replay.moving", { stroke: step.stroke });
  else if (step.kind === "stroke") head = who ? t("record.stroke_who", { stroke: step.stroke, name: who }) : t("record.stroke", { stroke: step.stroke });
  else if (step.kind === "end") head = t("record.end");
  else {
    const kind = t(`record.kind.${step.kind}`);
    head = who ? t("record.kind_who", { kind, name: who }) : kind;
  }
  const turn = (rep.turning || []).find((tp) => tp.index === i);
  if (turn) head = `${head} · ${t("replay.turn_here")}: ${turnWords(turn)}`;
  $("replay-position").textContent = `${t("replay.position", { step: i, steps: steps.length })} · ${head}`;
  const [x, y] = at.score || [0, 0];
  const result = view.motion ? null : at.result;
  let score;
  let end;
  let lines;
  if (view.board) {
    // 002: the game's points per colour, the round, the twenties set aside this round
    score = t("crok.score_round", { score: figures(at.score), twenties: (at.twenties || []).join(" / "), round: at.set });
    end = "";
    if (result) end = result.winner === null || result.winner === undefined ? t("record.no_winner") : t("record.won", { names: colourNames(result.winner, i) });
    lines = step?.ruling && !view.motion ? [{ text: rulingWords(step.ruling), cite: step.ruling.rule }] : [];
  } else {
    score = t("replay.sets", { a: teamNames(0), b: teamNames(1), x, y });
    end = t("replay.set_no", { set: at.set });
    if (result) end = result.winner === null || result.winner === undefined ? t("record.no_winner") : t("record.won", { names: teamNames(result.winner) });
    lines = step?.ruling && !view.motion ? humanize(step.ruling.lines, { seats, mode: rep.mode, me: null }) : [];
  }
  $("replay-score").textContent = end ? `${score} · ${end}` : score;
  $("replay-ruling").replaceChildren(
    ...lines.map((l) => Object.assign(document.createElement("li"), { textContent: l.text, title: l.cite || "" })),
  );
  const wrong = [];
  if (step?.hash_ok === false) wrong.push(t("replay.mismatch_hash"));
  if (step?.ruling_ok === false && !step.stopped) wrong.push(t("replay.mismatch_ruling"));
  if (step?.stopped) wrong.push(t("replay.stopped", { why: step.stopped }));
  $("replay-mismatch").hidden = wrong.length === 0;
  $("replay-mismatch").textContent = wrong.join(" ");
  $("replay-again").disabled = !(step && step.kind === "stroke" && !step.stopped);
  $("replay-suggest").disabled = !canSuggest(i) || view.asking === i;
  showSuggestion();
  for (const b of $("replay-turns").querySelectorAll("button")) {
    if (Number(b.dataset.step) === i) b.setAttribute("aria-current", "step");
    else b.removeAttribute("aria-current");
  }
  const n = strokeAt(i);
  setHash(n === null ? null : `stroke=${n}`);
  window.__replay = {
    index: i,
    steps: steps.length,
    moving: Boolean(view.motion),
    stroke: view.motion?.stroke ?? null,
    // for tests and the curious: what is drawn, and the loaded motions sampled as drawn
    discs: () => view.shown,
    sample: (stroke, at) => discsAt(view.motions.get(stroke), at),
    resting: (stroke) => restingPlaces(view.motions.get(stroke)),
    suggestion: view.suggestion && view.suggestion.index === i ? view.suggestion.data : null,
    turning: rep.turning || [],
  };
}

/**
 * May the computer be asked for a stroke at step i: someone is to strike there, the match
 * is not over and the replay did not stop there.
 * @param {number} i the step (0: the start)
 * @returns {boolean}
 */
function canSuggest(i) {
  const at = tableAt(i);
  const step = served().steps[i - 1];
  return !view.motion && at.turn !== null && at.turn !== undefined && !at.result && !step?.stopped;
}

/**
 * Ask the server what its computer would strike at the step shown, and draw it.
 * @returns {Promise<void>}
 */
async function suggest() {
  const i = view.index;
  if (!canSuggest(i)) return;
  view.asking = i;
  const out = $("replay-suggestion");
  out.hidden = false;
  out.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("replay.suggesting") }));
  render();
  const { status, body } = await getJSON(`/api/matches/${encodeURIComponent(mid)}/replay/step/${i}/suggestion${query}`);
  view.asking = null;
  if (status === 200) view.suggestion = { index: i, data: body };
  else if (view.index === i) {
    const why = status === 503 ? t("replay.suggest_busy") : body?.message || String(status);
    out.replaceChildren(Object.assign(document.createElement("p"), { textContent: t("replay.suggest_failed", { why }) }));
    render();
    return;
  }
  render();
}

/**
 * The suggestion of the step shown in words (none shown for another step).
 * @returns {void}
 */
function showSuggestion() {
  const out = $("replay-suggestion");
  const s = view.suggestion;
  if (view.asking === view.index) return;
  if (!s || s.index !== view.index || view.motion) {
    out.hidden = true;
    out.replaceChildren();
    return;
  }
  const d = s.data;
  const name = seatsAt(s.index)[d.seat]?.name ?? t("seat", { seat: d.seat + 1 });
  const p = (text) => Object.assign(document.createElement("p"), { textContent: text });
  let aim;
  if (view.board) aim = null;
  else if (d.target === null) aim = t("replay.aim_none");
  else if (d.pocket && view.table) {
    const side = String(seatsAt(s.index)[d.seat]?.side ?? "S");
    const hole = holeSeenFrom(side, pocketCentres(view.table)[d.pocket], view.table.size);
    aim = t("replay.aim_pot", { pocket: t(`hole.${hole}`) });
  } else aim = t("replay.aim_puck");
  const ruled = view.board
    ? [{ text: rulingWords(d.ruling), cite: d.ruling.rule }]
    : humanize(d.ruling.lines, { seats: seatsAt(s.index), mode: served().mode, me: null });
  const list = document.createElement("ul");
  list.className = "facts";
  list.replaceChildren(...ruled.map((l) => Object.assign(document.createElement("li"), { textContent: l.text, title: l.cite || "" })));
  out.replaceChildren(
    p(t("replay.suggestion", { name })),
    ...(aim ? [p(aim)] : []),
    p(t(d.legal ? "replay.expect_legal" : "replay.expect_foul")),
    list,
  );
  out.hidden = false;
}

/**
 * A turning point in words: where (the stroke, else the step) and what turned.
 * @param {{index: number, stroke: number|null, why: string, side: number|null}} tp
 * @returns {string}
 */
function turnWords(tp) {
  const where = tp.stroke === null ? t("replay.position", { step: tp.index, steps: served().steps.length }) : t("record.stroke", { stroke: tp.stroke });
  const sideName = tp.side === null ? "" : view.board ? colourNames(tp.side, tp.index) : teamNames(tp.side);
  if (tp.why === "lead") return t("replay.turn_lead", { where, name: sideName });
  if (tp.why === "set") return sideName ? t("replay.turn_set", { where, name: sideName }) : t("replay.turn_points", { where });
  return t("replay.turn_match", { where });
}

/**
 * The turning points as ticks under the timeline and a list of buttons to go to each (made
 * with the page and again in another language; render() marks the one shown).
 * @returns {void}
 */
function showTurns() {
  const turns = served().turning || [];
  const steps = Math.max(1, served().steps.length);
  $("replay-marks").replaceChildren(
    ...turns.map((tp) => {
      const mark = document.createElement("span");
      mark.style.left = `${(100 * tp.index) / steps}%`;
      return mark;
    }),
  );
  const items = turns.map((tp) => {
    const b = Object.assign(document.createElement("button"), { type: "button", textContent: turnWords(tp) });
    b.dataset.step = String(tp.index);
    b.addEventListener("click", () => {
      setPlaying(false);
      go(tp.index);
    });
    const li = document.createElement("li");
    li.append(b);
    return li;
  });
  if (!items.length) items.push(Object.assign(document.createElement("li"), { textContent: t("replay.no_turns") }));
  $("replay-turns").replaceChildren(...items);
}

function summary() {
  const rep = served();
  const names = [teamNames(0), teamNames(1)];
  const title = t(rep.mode === "doubles" ? "record.versus_doubles" : "record.versus", { a: names[0], b: names[1] });
  $("replay-title").textContent = title;
  document.title = t("replay.title_of", { title });
  const strokes = rep.steps.filter((s) => s.kind === "stroke").length;
  $("replay-summary").textContent = [t("record.strokes", { n: strokes }), when(rep.started)].filter(Boolean).join(" · ");
  const ok = rep.mismatches === 0 && !rep.stopped;
  const check = $("replay-check");
  check.className = ok ? "replay-ok" : "replay-bad";
  check.textContent = ok ? `✓ ${t("replay.verified", { n: strokes })}` : `✗ ${t("replay.not_verified", { n: rep.mismatches + (rep.stopped ? 1 : 0) })}`;
  showTurns();
}

function refuse(status, body) {
  $("replay-summary").hidden = false;
  if (status === 404) $("replay-summary").textContent = t("replay.no_match");
  else $("replay-summary").textContent = t("replay.unreadable", { why: body?.message || status });
  $("replay-title").textContent = t("replay.page_title");
  window.__replay = { error: status };
}

function keys(e) {
  if (!view.rep || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  const moves = { ArrowRight: () => go(view.index + 1), ArrowLeft: () => go(view.index - 1), Home: () => go(0), End: () => go(served().steps.length) };
  if (moves[e.key]) {
    setPlaying(false);
    moves[e.key]();
  } else if (e.key === " ") {
    setPlaying(!view.playing);
  } else if (e.key === "Enter") {
    setPlaying(false);
    go(view.index, true);
  } else return;
  e.preventDefault();
}

/** Copy the address of the step shown (its `#stroke=N`, a private match's invite with it);
 * where the page may not write the clipboard (plain http), the link is shown selected. */
async function share() {
  const link = $("replay-link");
  try {
    await navigator.clipboard.writeText(location.href);
    link.hidden = true;
    $("replay-shared").textContent = t("replay.shared");
  } catch {
    link.value = location.href;
    link.hidden = false;
    link.select();
    $("replay-shared").textContent = t("replay.share_by_hand");
  }
}

function controls() {
  const stop = (fn) => () => {
    setPlaying(false);
    fn();
  };
  $("replay-first").addEventListener("click", stop(() => go(0)));
  $("replay-prev").addEventListener("click", stop(() => go(view.index - 1)));
  $("replay-next").addEventListener("click", stop(() => go(view.index + 1)));
  $("replay-last").addEventListener("click", stop(() => go(served().steps.length)));
  $("replay-again").addEventListener("click", stop(() => go(view.index, true)));
  $("replay-share").addEventListener("click", share);
  $("replay-suggest").addEventListener("click", () => {
    setPlaying(false);
    suggest();
  });
  $("replay-play").addEventListener("click", () => setPlaying(!view.playing));
  $("replay-scrub").addEventListener("input", (e) => {
    setPlaying(false);
    go(Number(e.target.value));
  });
  document.addEventListener("keydown", keys);
  // a link to another stroke of the same match (#stroke=N) moves there without a reload
  window.addEventListener("hashchange", () => {
    const open = stepOfStroke(served().steps, `#${hash()}`);
    if (open !== null) {
      setPlaying(false);
      go(open);
    }
  });
}

async function load() {
  $("replay-record").href = `/?match=${encodeURIComponent(mid)}${invite ? `&invite=${encodeURIComponent(invite)}` : ""}`;
  $("replay-notation").href = `/api/matches/${encodeURIComponent(mid)}.txt${query}`;
  const { status, body } = await getJSON(`/api/matches/${encodeURIComponent(mid)}/replay${query}`);
  if (status !== 200) {
    refuse(status, body);
    return;
  }
  view.rep = body;
  if (body.table.game === "crokinole") {
    view.board = body.table;
    const canvas = $("replay-canvas");
    canvas.width = canvas.height = 720;
    canvas.style.aspectRatio = "1 / 1";
    crokinoleCanvas = canvas.getContext("2d");
  } else {
    view.table = tableFrom(body.table);
  }
  $("replay-body").hidden = false;
  summary();
  controls();
  const open = stepOfStroke(body.steps, `#${hash()}`);
  await go(open ?? 0);
  requestAnimationFrame(frame);
}

setUpPage(() => {
  if (!view.rep) return;
  summary();
  render();
  setPlaying(view.playing);
});
load();
