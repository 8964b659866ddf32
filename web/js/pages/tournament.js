// One competition (/tournaments/<id>): the players' and spectators' page, with the organiser's
// panel for its organiser (docs/competitions.md). It polls the tournament every 2 s; when a
// match of the logged-in player is waiting for him, it takes him to his table
// (/?join=<room>, once per table).
import { t } from "../i18n.js";
import { createNotices } from "../notices.js";
import { joinLink, pathPart } from "../url.js";
import { getJSON, postJSON, setUpPage } from "./api.js";
import { drawCrosstable, drawStandings } from "./tournament-view.js";
import { outcomeText, points, refusal } from "./tournament-words.js";

/** @type {(id: string) => any} the page's own element of an id (its kind known to the caller) */
const $ = (id) => document.getElementById(id);
const tid = pathPart(1);
const api = `/api/tournaments/${tid}`;
const POLL_MS = 2000;
const NOTICE = "nv-tour-notice"; // set by the room page (js/messages.js, `decided`)
/**
 * The tournament as served (GET /api/tournaments/<id>, docs/competitions.md): the fields this
 * page reads.
 * @typedef {{id: string, name: string, members: string[], withdrawn?: boolean, waiting?: string[]}} Entrant
 * @typedef {{key: string, table: number, game: number|null, a: string, b: string, a_name: string,
 *   b_name: string, players: string[], outcome?: object|null, room?: string|null}} TableLine
 * @typedef {{round: number, tables: TableLine[], byes: string[]}} Round
 * @typedef {{entrant?: string|null, pending?: boolean, confirm?: string[], room?: string|null,
 *   removed?: {what: string, reason?: string|null}|null, organiser?: boolean}} You
 * @typedef {{name: string, organiser: string, status: string, round: number, total_rounds: number|null,
 *   sure_rounds: number, unpaired?: boolean, tiebreak_names: string[], you: You,
 *   settings: {kind: string, form: string, system: string, sets: number, rounds: number,
 *     approval?: boolean, auto?: boolean},
 *   requests: Entrant[], entries: Entrant[], rounds: Round[], crosstable?: unknown,
 *   players?: Array<{rank: number, name: string, team: string, points: number, games: number}>|null}} Tournament
 */
/** @type {Tournament|null} */
let doc = null;

function say(text, ok = false) {
  const m = $("message");
  m.textContent = text;
  m.dataset.ok = ok ? "1" : "";
  m.hidden = !text;
}

function el(tag, text = "", attrs = {}) {
  const node = Object.assign(document.createElement(tag), attrs);
  if (text !== "") node.textContent = text;
  return node;
}

function tableLine(x) {
  const li = el("li");
  li.dataset.key = x.key;
  const game = x.game === null ? "" : ` · ${t("tour.game_n", { n: x.game + 1 })}`;
  li.append(`${t("tour.table_n", { n: x.table })}${game}: ${x.a_name} – ${x.b_name} (${x.players.join(", ")}) `);
  if (x.outcome) li.append(el("strong", outcomeText(x.outcome), { className: "outcome" }));
  else if (x.room) li.append(el("a", t("tour.watch"), { href: `/?room=${encodeURIComponent(x.room)}`, className: "watch" }));
  else li.append(el("span", t("tour.waiting"), { className: "muted" }));
  return li;
}

function draw() {
  if (!doc) return;
  $("name").textContent = doc.name;
  const s = doc.settings;
  const facts = [t(`tour.kind_${s.kind}`), t(`tour.form_${s.form}`), t(`tour.${s.system}`), t("tour.sets_n", { n: s.sets }), t("tour.organised_by", { name: doc.organiser })];
  if (s.approval) facts.push(t("tour.approval_fact"));
  if (doc.tiebreak_names.length) facts.push(t("tour.tiebreaks_are", { names: doc.tiebreak_names.map((n) => t(`tour.tb.${n}`)).join(", ") }));
  $("facts").textContent = facts.join(" · ");
  $("status").textContent = t(`tour.status_${doc.status}`);
  $("round-of").textContent = doc.total_rounds ? t("tour.round_of", { round: doc.round, total: doc.total_rounds }) : "";
  // a Swiss that could not pair its next round without a rematch ended there (issue 36)
  $("ended-unpaired").hidden = !doc.unpaired;
  if (doc.unpaired) $("ended-unpaired").textContent = t("tour.ended_unpaired", { round: doc.round, total: doc.total_rounds });
  const you = doc.you;
  const individual = s.form === "individual" && s.kind === "singles";
  const registering = doc.status === "registration";
  $("join").hidden = !(registering && individual && !you.entrant && !you.pending);
  $("leave").hidden = !(registering && (you.entrant || you.pending));
  // a pair or team a player entered waits for its players' word (issue 36): said on its line
  const mine = you.organiser ? [] : doc.requests;
  const waitingMates = mine.some((r) => r.waiting?.length);
  $("you-pending").hidden = !(registering && you.pending && !waitingMates);
  $("your-requests").hidden = !(registering && mine.length);
  $("your-requests").replaceChildren(...mine.map((r) => entrantLine(r, (you.confirm || []).includes(r.id) ? ["confirm", "decline"] : [])));
  $("enter-own").hidden = !(registering && !individual && !you.entrant && !you.pending && !(you.confirm || []).length);
  const removed = registering && !you.entrant && !you.pending ? you.removed : null;
  $("you-removed").hidden = !removed;
  if (removed) $("you-removed").textContent = [t(`tour.${removed.what}_you`), removed.reason ? t("tour.reason_is", { reason: removed.reason }) : ""].join(" ").trim();
  $("your-table").hidden = !you.room;
  if (you.room) $("your-room").href = joinLink(you.room);
  const org = you.organiser;
  $("organiser").hidden = !org;
  if (org) {
    // before the start the organiser takes entries off and answers requests (issue 37)
    const before = ["draft", "registration"].includes(doc.status);
    $("registration").hidden = !before;
    $("requests").replaceChildren(...doc.requests.map((r) => entrantLine(r, before ? ["approve", "refuse", "remove"] : [])));
    $("open").hidden = doc.status !== "draft";
    const entrants = doc.entries.filter((e) => !e.withdrawn).length;
    const short = s.system === "swiss" && doc.status !== "finished" && entrants >= 2 && doc.sure_rounds < s.rounds;
    $("rounds-warning").hidden = !short;
    if (short) $("rounds-warning").textContent = t("tour.rounds_warning", { entrants, sure: doc.sure_rounds, rounds: s.rounds });
    $("start").hidden = doc.status !== "registration";
    $("next").hidden = !(doc.status === "running" && !s.auto);
    $("pause").hidden = doc.status !== "running";
    $("resume").hidden = doc.status !== "paused";
    $("entry").hidden = individual || !["draft", "registration"].includes(doc.status);
    const open = (doc.rounds.at(-1)?.tables || []).filter((x) => !x.outcome);
    $("result").hidden = !["running", "paused"].includes(doc.status) || open.length === 0;
    const picked = $("result").elements.table.value;
    $("result").elements.table.replaceChildren(...open.map((x) => new Option(`${t("tour.table_n", { n: x.table })}${x.game === null ? "" : ` · ${t("tour.game_n", { n: x.game + 1 })}`}: ${x.a_name} – ${x.b_name}${x.room ? ` (${t("tour.at_its_table")})` : ""}`, x.key, false, x.key === picked)));
    warnLive();
    $("withdraw").hidden = !["running", "paused"].includes(doc.status);
    $("withdraw").elements.entrant.replaceChildren(...doc.entries.filter((e) => !e.withdrawn).map((e) => new Option(e.name, e.id)));
  }
  drawStandings($("standings"), doc);
  drawCrosstable($("crosstable"), doc);
  $("cross-title").hidden = !doc.crosstable;
  $("players-title").hidden = $("players").hidden = !doc.players;
  $("players").tBodies[0].replaceChildren(...(doc.players || []).map((p) => {
    const tr = el("tr");
    tr.append(el("td", String(p.rank)), el("td", p.name), el("td", p.team), el("td", points(p.points)), el("td", String(p.games)));
    return tr;
  }));
  $("csv-standings").href = `${api}/standings.csv`;
  $("csv-cross").href = `${api}/crosstable.csv`;
  $("csv-cross-item").hidden = !doc.crosstable; // with its separator: no empty slot
  $("print").href = `/tournaments/${tid}/print`;
  $("rounds").replaceChildren(...doc.rounds.slice().reverse().map((r) => {
    const box = el("div", "", { className: "round" });
    box.dataset.round = r.round;
    box.append(el("h3", t("tour.round_n", { n: r.round })));
    const ul = el("ul");
    ul.append(...r.tables.map(tableLine));
    for (const name of r.byes) ul.append(el("li", t("tour.bye", { name })));
    box.append(ul);
    return box;
  }));
  const removable = you.organiser && ["draft", "registration"].includes(doc.status) ? ["remove"] : [];
  $("entries").replaceChildren(...doc.entries.map((e) => entrantLine(e, removable)));
}

/** An entry or a request as a line: its name (with its players), and the organiser's
 * buttons for it (their clicks are the page's, see `answer` below). */
function entrantLine(e, actions) {
  const named = e.members.length > 1 || e.members[0] !== e.name ? `${e.name} (${e.members.join(", ")})` : e.name;
  const waiting = e.waiting?.length ? ` · ${t("tour.waiting_for", { names: e.waiting.join(", ") })}` : "";
  const li = el("li", `${named}${waiting}${e.withdrawn ? ` — ${t("tour.withdrawn")}` : ""}`);
  li.dataset.entrant = e.id;
  for (const action of actions) {
    li.append(" ", el("button", t(`tour.${action}`), { type: "button", className: ["approve", "confirm"].includes(action) ? action : `${action} danger` }));
  }
  return li;
}

/** The organiser is warned when the match picked for a result by hand has its room open
 * (its players may be playing it): the result ends that match and sends them on. */
function warnLive() {
  const key = $("result").elements.table.value;
  const x = (doc?.rounds.at(-1)?.tables || []).find((y) => y.key === key);
  $("result-live").hidden = !x?.room;
}

/** A notice the room left for this page (docs/competitions.md, "Results by hand"). */
function noticeFromTable() {
  const notice = sessionStorage.getItem(NOTICE);
  if (!notice) return;
  sessionStorage.removeItem(NOTICE);
  say(notice, true);
}

async function load() {
  const { status, body } = await getJSON(api);
  if (status !== 200) {
    say(refusal(body));
    return;
  }
  doc = /** @type {Tournament} */ (body);
  draw();
  // taken to his table when his match is called (once per table: back here, he stays); a
  // tab in the background says so (its title, a notification if allowed) and goes once shown
  const room = doc.you.room;
  const going = room && sessionStorage.getItem(`nv-tour-went-${room}`) !== "1";
  notices.set("round", going ? t("notice.round") : null);
  if (going && !document.hidden) {
    sessionStorage.setItem(`nv-tour-went-${room}`, "1");
    location.assign(joinLink(room));
  }
}

async function act(action, body = {}) {
  const { status, body: answer } = await postJSON(`${api}/${action}`, body);
  if (status !== 200) {
    say(refusal(answer));
    return false;
  }
  say("");
  doc = answer;
  draw();
  return true;
}

for (const id of ["open", "start", "next", "pause", "resume", "join", "leave"]) {
  $(id).addEventListener("click", () => act(id));
}
$("entry").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  const members = String(f.get("members")).split(",").map((m) => m.trim()).filter(Boolean);
  if (await act("entry", { name: f.get("name"), members })) e.target.reset();
});
$("enter-own").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  const members = String(f.get("members")).split(",").map((m) => m.trim()).filter(Boolean);
  if (await act("enter", { name: f.get("name"), members })) e.target.reset();
});
// a player named in a pair or team confirms it, or declines (off for all its players)
$("your-requests").addEventListener("click", (e) => {
  const button = e.target.closest("button");
  if (!button) return;
  if (button.classList.contains("confirm")) act("confirm", { entrant: button.closest("li").dataset.entrant });
  else act("leave");
});
$("result").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  // the form is shown only while a round is being played (draw())
  const x = (doc?.rounds.at(-1)?.tables || []).find((y) => y.key === f.get("table"));
  if (!x) return;
  const body = { round: x.key.split(".").map(Number)[0], a: x.a, b: x.b, game: x.game, sets_a: Number(f.get("sets_a")), sets_b: Number(f.get("sets_b")) };
  if (f.get("forfeit")) body.forfeit = f.get("forfeit") === "a" ? x.a : x.b;
  if (await act("result", body)) say(t("tour.result_entered"), true);
});
$("result").elements.table.addEventListener("change", warnLive);
$("withdraw").addEventListener("submit", (e) => {
  e.preventDefault();
  act("withdraw", { entrant: new FormData(e.target).get("entrant") });
});

/** The organiser's buttons on an entry or a request: approve, refuse or remove it (a refusal
 * or removal with the reason typed, which its player is shown). */
for (const list of ["requests", "entries"]) {
  $(list).addEventListener("click", async (e) => {
    const button = e.target.closest("button");
    if (!button) return;
    const action = ["approve", "refuse", "remove"].find((a) => button.classList.contains(a));
    const entrant = button.closest("li").dataset.entrant;
    const body = action === "approve" ? { entrant } : { entrant, reason: $("reason").value };
    if (await act(action, body)) $("reason").value = "";
  });
}

const notices = createNotices();
setUpPage(draw);
noticeFromTable();
load();
setInterval(load, POLL_MS);
document.addEventListener("visibilitychange", () => document.hidden || load()); // to the table at once
