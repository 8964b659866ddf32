// "Learn to play" (/learn): short lessons on a real table or board, each a set-up position
// with one task; Novuss's and Crokinole's, as GET /api/lessons lists them (each with its
// `game`). Strokes go to the server (POST /api/lessons/{id}, docs/protocol.md "Lessons"), which
// plays the try's strokes through the real physics and the real referee and answers the
// last one's motion and ruling: the client has no physics, so whether a puck dropped or a
// rebound was legal can only be the referee's word. The table, aiming, pressing a puck and
// the ruling's words are the match's own modules (render.js, input.js, rulings.js); a
// Crokinole lesson's board and shot are the Crokinole room's (learn-crokinole.js).
import { placeAimNote } from "./aim-note.js";
import { el } from "./dom.js";
import { initLanguage, languageMenu, onLanguage, refusalText, t, translatePage } from "./i18n.js";
import { AimController } from "./input.js";
import { rulingWords } from "./crokinole-board.js";
import { CrokinoleAim } from "./learn-crokinole.js";
import { Playback } from "./playback.js";
import { puckList } from "./puck-list.js";
import { citeHref } from "./puck-rules.js";
import { Renderer } from "./render.js";
import { humanize } from "./rulings.js";
import { Sounds } from "./sound.js";
import { ContactSounds } from "./sound-events.js";
import { COMPETITION } from "./table.js";
import { foldingMenu } from "./topbar.js";
import { hash, setHash } from "./url.js";

/** @type {(id: string) => any} the page's own element of an id (its kind known to the caller) */
const $ = (id) => document.getElementById(id);
const DONE_KEY = "novuss.lessons.done";
const CUE_ROOM_MM = 140;

/**
 * A lesson as GET /api/lessons lists it (docs/protocol.md, "Lessons"): a Novuss lesson with
 * its `side` and `striker`, a Crokinole one with its `board` and `quadrant`.
 * @typedef {{id: string, game: string, cite: string, strokes: number, seat: number,
 *   discs: Record<string, any>[], side?: string, striker?: number[] | null, board?: any,
 *   quadrant?: number}} Lesson
 * @typedef {{ruling: any, lines: any[], motion: any, discs: Record<string, any>[], done: boolean,
 *   over: boolean}} Answer the server's answer to a try's strokes
 */

const state = {
  lessons: /** @type {Lesson[]} */ ([]),
  index: 0,
  discs: /** @type {Record<string, any>[]} */ ([]),
  shots: /** @type {import("./input.js").Shot[]} */ ([]), // the strokes of the try so far: the server replays them from the position
  answer: /** @type {Answer | null} */ (null), // the server's answer to the last stroke
  busy: false,
  done: new Set(JSON.parse(localStorage.getItem(DONE_KEY) || "[]")),
};
const playback = new Playback();
const sounds = new Sounds();
const contacts = new ContactSounds(COMPETITION);
const canvas = $("table");
const renderer = new Renderer(canvas);
/** The table's screen transform: laid out by each frame's drawing, which comes before any input. */
const viewNow = () => /** @type {import("./geometry.js").View} */ (renderer.view);
const lesson = () => state.lessons[state.index];
/** A Crokinole lesson: its board comes with it (docs/protocol.md, "HTTP"), drawn on its own canvas. */
const onBoard = (l) => l?.game === "crokinole";
const crokinole = new CrokinoleAim($("crok-board"), (shot) => strike(shot));
// where "play the computer" leads after a game's last lesson: the lobby's form, that game chosen
const COMPUTER_HREF = { novuss: "/#computer-form", crokinole: "/?game=crokinole#computer-form" };

const aimer = new AimController(canvas, {
  getView: viewNow,
  lockButton: $("aim-lock"),
  onChange: () => {},
  onStrike: (shot) => strike(shot),
});

// a refusal of the server's own, not the referee's reason for refusing a stroke
const SERVER_CODES = ["bad_field", "not_your_turn", "rate_limited", "busy"];

/** The try's strokes to the referee; the answer's motion played, then its ruling shown. */
async function strike(shot) {
  const l = lesson();
  state.busy = true;
  const shots = [...state.shots, shot];
  let r;
  try {
    r = await fetch(`/api/lessons/${encodeURIComponent(l.id)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: l.game, shots }),
    });
  } catch {
    r = null;
  }
  const body = r ? await r.json().catch(() => null) : null;
  if (!r || !r.ok || !body) {
    state.busy = false;
    // The referee's refusals are a refused stroke's reasons; the rest the server's codes.
    const stroke = body?.code && !SERVER_CODES.includes(body.code);
    const text = body?.code ? refusalText(stroke ? { ...body, code: "bad_stroke", reason: body.code } : body) : t("toast.not_connected");
    say(text);
    $("learn-hint").textContent = text;
    giveStriker();
    return;
  }
  state.shots = shots;
  playback.start(body.motion, 0, performance.now());
  state.pending = body;
}

/** After the motion: the referee's answer, the lesson's verdict, the striker back if the try goes on. */
function showAnswer(body) {
  state.busy = false;
  state.answer = body;
  state.discs = body.discs;
  if (body.done && !state.done.has(lesson().id)) {
    state.done.add(lesson().id);
    localStorage.setItem(DONE_KEY, JSON.stringify([...state.done]));
  }
  renderAnswer();
  renderList();
  $("after-lessons").hidden = !(lastOfGame() && body.done);
  const verdict = $("verdict").textContent;
  say([verdict, ...answerLines(body).map((x) => x.text)].join(". "));
  if (!body.over) giveStriker();
}

// every stroke of a lesson is the learner's (seat 0): its lines are read to "you"
const humanizeLines = (lines) => humanize(lines, { seats: [{ name: t("learn.you") }, { name: t("learn.opponent") }], mode: "singles", me: 0, striker: 0 });

/**
 * The answer's lines in words with their paragraphs: a Crokinole ruling as the Crokinole
 * room words it (one line, its paragraphs in it), a Novuss one line by line.
 * @param {any} a the server's answer to a try
 * @returns {{text: string, cite?: string, penalty?: boolean}[]}
 */
function answerLines(a) {
  if (onBoard(lesson())) return [{ text: rulingWords(a.ruling), penalty: !a.ruling.valid }];
  return humanizeLines(a.lines);
}

/** Is the lesson open the last of its game's (then "play the computer" follows it)? */
function lastOfGame() {
  const next = state.lessons[state.index + 1];
  return !next || next.game !== lesson().game;
}

function renderAnswer() {
  const a = state.answer;
  $("answer").hidden = !a;
  if (!a) return;
  const id = lesson().id;
  $("verdict").textContent = a.done ? t("learn.done") : a.over ? t("learn.not_yet") : t("learn.go_on");
  $("verdict").dataset.done = a.done ? "1" : "0";
  $("answer-lines").replaceChildren(
    ...answerLines(a).map((x) => {
      const href = citeHref(x.cite);
      const cite = href ? Object.assign(el("a", { text: x.cite, class: "cite" }), { href, target: "_blank", rel: "noopener" }) : null;
      return el("li", { class: `line${x.penalty ? " penalty" : ""}` }, x.text, cite ? " " : null, cite);
    }),
  );
  $("lesson-after").textContent = a.done ? t(`lesson.${id}.after`) : "";
}

function say(text) {
  $("announce").textContent = text;
}

/** The striker to the learner: at the try's start where the lesson puts it (lesson 1: on a
 * spot it may not stay, 004 § 20 (2)), else where the last stroke left it or a legal spot. */
function giveStriker() {
  const l = lesson();
  if (onBoard(l)) {
    aimer.stop();
    crokinole.start(l.board, /** @type {number} */ (l.quadrant)); // a Crokinole lesson has its quadrant
    renderPucks();
    return;
  }
  crokinole.stop();
  aimer.start(COMPETITION, l.side, state.discs, l.seat);
  if (l.striker && state.shots.length === 0) {
    const aim = /** @type {import("./input.js").Aim} */ (aimer.aim); // start() has just set it
    [aim.x, aim.y] = l.striker;
    aimer.recheck();
  }
  renderPucks();
}

function renderPucks() {
  const pucks = aimer.enabled && !onBoard(lesson()) ? state.discs : [];
  puckList($("puck-list"), pucks, lesson()?.seat ?? 0, (p, again) => aimer.enabled && aimer.pressPuck(p, again));
}

function renderList() {
  $("lesson-list").replaceChildren(
    ...state.lessons.map((l, i) => {
      const b = el("button", { type: "button", class: "link", text: t(`lesson.${l.id}.title`), data: { lesson: l.id, game: l.game } });
      if (i === state.index) b.setAttribute("aria-current", "step");
      b.addEventListener("click", () => open(i));
      const done = state.done.has(l.id);
      return el("li", { data: { done: done ? 1 : 0 } }, b, done ? el("span", { class: "tick", text: ` ✓ ${t("learn.completed")}` }) : null);
    }),
  );
}

function renderLesson() {
  const l = lesson();
  if (!l) return;
  $("lesson-title").textContent = t("learn.lesson_n", { n: state.index + 1, title: t(`lesson.${l.id}.title`) });
  $("lesson-task").textContent = t(`lesson.${l.id}.task`);
  const cite = $("lesson-cite");
  // the rules page holds Novuss's documents: Crokinole's paragraph (002) is named, not linked
  const href = onBoard(l) ? null : citeHref(l.cite) || "/rules.html";
  cite.textContent = t(href ? "learn.read_rule" : "learn.rule_cite", { cite: l.cite });
  if (href) cite.href = href;
  else cite.removeAttribute("href");
  const last = state.index + 1 >= state.lessons.length;
  $("next").hidden = last;
  $("after-lessons").hidden = !(lastOfGame() && state.done.has(l.id));
  $("play-computer").href = COMPUTER_HREF[l.game] ?? "/#computer-form";
  // the game's own board and words on how to strike or shoot
  const crok = onBoard(l);
  $("table-wrap").hidden = crok;
  $("crok-wrap").hidden = !crok;
  $("puck-list").hidden = crok;
  $("learn-how").hidden = crok;
  $("crok-how").hidden = !crok;
  renderAnswer();
  renderList();
}

/** Lesson i from its position: a try starts again. */
function open(i) {
  state.index = Math.max(0, Math.min(state.lessons.length - 1, i));
  const l = lesson();
  state.discs = l.discs;
  state.shots = [];
  state.answer = null;
  state.pending = null;
  playback.clear();
  setHash(l.id);
  renderLesson();
  giveStriker();
  say(`${$("lesson-title").textContent}. ${$("lesson-task").textContent}`);
}

function frame(now) {
  requestAnimationFrame(frame);
  if (playback.active && playback.finished(now)) {
    playback.clear();
    const body = state.pending;
    state.pending = null;
    if (body) showAnswer(body);
  }
  if (!lesson()) return;
  const moving = playback.active;
  const discs = moving ? playback.sample(now) : state.discs;
  if (onBoard(lesson())) {
    crokinole.draw(lesson().board, discs);
    const flicked = crokinole.aim?.flick;
    $("learn-power").textContent = flicked ? `${Math.round(flicked.power * 100)}%` : "–";
    $("learn-hint").textContent = ""; // the disc always starts on the line: nothing to warn of
    $("aim-lock").hidden = true;
    $("aim-note").hidden = true;
    return;
  }
  if (moving) sounds.play(contacts.step(discs, now));
  else contacts.reset();
  const mine = aimer.enabled ? aimer.aim : null;
  renderer.draw({
    table: COMPETITION,
    side: lesson().side,
    below: CUE_ROOM_MM,
    pucks: discs.filter((d) => d.id !== 0),
    striker: mine ? { ...mine, illegal: !mine.legal } : discs.find((d) => d.id === 0) || null,
    aim: mine,
    blind: !moving && mine ? { side: lesson().side, seat: lesson().seat } : null,
    players: [{ side: lesson().side, name: t("learn.you"), active: true }],
    moving,
    highlights: [],
    now,
  });
  $("learn-power").textContent = mine ? `${Math.round(mine.power * 100)}%` : "–";
  $("aim-lock").hidden = !mine?.locked;
  $("learn-hint").textContent = mine && !mine.legal ? t(mine.reason === "touching" ? "aim.touching" : "aim.outside") : "";
  const note = $("aim-note");
  const text = mine?.note && mine.note.until > now ? mine.note.text : "";
  note.hidden = !text;
  if (text && note.dataset.text !== text) {
    note.dataset.text = text;
    note.textContent = text;
  }
  if (text && mine) placeAimNote(note, viewNow(), COMPETITION, mine); // not over a hole (aim-note.js)
}

initLanguage();
translatePage(document);
languageMenu($("lang"));
foldingMenu();
const soundButton = sounds.bind($("sound"));
onLanguage(() => {
  soundButton();
  renderLesson();
  renderPucks();
});
$("again").addEventListener("click", () => open(state.index));
$("next").addEventListener("click", () => open(state.index + 1));

fetch("/api/lessons")
  .then((r) => r.json())
  .then((body) => {
    state.lessons = body.lessons;
    const at = state.lessons.findIndex((l) => l.id === hash());
    open(at >= 0 ? at : 0);
    requestAnimationFrame(frame);
  });

// For tests and the curious: what the page believes (the aim and side read when asked).
Object.defineProperties(state, {
  aim: { enumerable: true, get: () => (aimer.enabled ? { ...aimer.aim } : null) },
  side: { enumerable: true, get: () => lesson()?.side ?? "S" },
});
window.__novuss = {
  state,
  crokinole,
  toPage(x, y) {
    const [px, py] = viewNow().toScreen(x, y);
    const r = canvas.getBoundingClientRect();
    return [r.left + px, r.top + py];
  },
};
