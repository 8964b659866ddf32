// A player's profile (/u/{name}): ratings, results by mode, the rating history as a chart,
// and the matches, newest first, a page at a time (docs/protocol.md, "HTTP").
import { playerName } from "../computer.js";
import { t } from "../i18n.js";
import { pathPart } from "../url.js";
import { getJSON, ratingText, setUpPage, when } from "./api.js";

/** @type {(id: string) => any} the page's own element of an id (its kind known to the caller) */
const $ = (id) => document.getElementById(id);
const name = pathPart(1);
const NOVUSS = ["singles", "doubles"]; // shown always; another game's once rated in it
const modeName = (mode) => t("prof.mode_name", { mode });
let page = 0;
/** @type {(string|null)[]} where each page of matches begins (the first: the newest) */
const cursors = [null];
let total = 0;

function cell(text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function row(...cells) {
  const tr = document.createElement("tr");
  tr.append(...cells);
  return tr;
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** One line per mode over the match number: the rating after each rated match. */
function chart(history) {
  const box = $("chart");
  box.replaceChildren();
  const series = Object.entries(history).filter(([, points]) => points.length);
  if (!series.length) {
    box.append(Object.assign(document.createElement("p"), { className: "muted", textContent: t("prof.no_rated") }));
    return;
  }
  const W = 600, H = 200, PAD = 30;
  const all = series.flatMap(([, pts]) => pts.map((p) => p.rating));
  const lo = Math.min(...all) - 10, hi = Math.max(...all) + 10;
  const most = Math.max(...series.map(([, pts]) => pts.length));
  const x = (i) => PAD + (most > 1 ? (i * (W - 2 * PAD)) / (most - 1) : (W - 2 * PAD) / 2);
  const y = (r) => H - PAD - ((r - lo) * (H - 2 * PAD)) / (hi - lo);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("prof.chart_label") });
  root.append(svg("text", { x: 2, y: y(hi - 10) + 4 }, String(Math.round(hi - 10))));
  root.append(svg("text", { x: 2, y: y(lo + 10) + 4 }, String(Math.round(lo + 10))));
  for (const [mode, pts] of series) {
    root.append(svg("polyline", { "data-mode": mode, points: pts.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ") }));
    pts.forEach((p, i) => {
      const dot = svg("circle", { cx: x(i), cy: y(p.rating), r: 3, "data-mode": mode });
      dot.append(svg("title", {}, `${p.rating} · ${when(p.at)}`));
      root.append(dot);
    });
    const last = pts[pts.length - 1];
    root.append(svg("text", { x: x(pts.length - 1) - 20, y: y(last.rating) - 6 }, `${modeName(mode)} ${last.rating}`));
  }
  box.append(root);
}

async function profile() {
  const { status, body } = await getJSON(`/api/players/${encodeURIComponent(name)}`);
  if (status !== 200) {
    $("username").textContent = t("prof.no_such");
    $("message").textContent = body.message || t("prof.not_found", { status });
    $("message").hidden = false;
    return false;
  }
  document.title = t("prof.title_of", { name: body.username });
  $("username").textContent = body.username;
  $("joined").textContent = t("prof.since", { date: when(body.joined) });
  const modes = Object.keys(body.ratings).filter((m) => NOVUSS.includes(m) || body.ratings[m]);
  $("ratings").textContent = modes.map((m) => t("prof.rating_of", { mode: modeName(m), rating: ratingText(body.ratings[m]) })).join(" · ");
  const rows = Object.entries(body.figures).map(([kind, f]) =>
    row(cell(modeName(kind)), cell(f.matches), cell(f.win), cell(f.loss), cell(f.draw),
      cell(f.pucks_per_stroke ?? "–"), cell(f.penalties_per_match ?? "–")));
  $("figures").tBodies[0].replaceChildren(...rows);
  chart(body.history);
  return true;
}

/** A match as a row: its date (a link to its record), mode, opponents, result, score, replay. */
function matchRow(m) {
  const opponents = m.players.filter((p) => p.team !== m.team).map(playerName).join(" & ");
  const score = Array.isArray(m.score) ? m.score.join(":") : "";
  const date = cell("");
  date.append(Object.assign(document.createElement("a"), { href: m.record, textContent: when(m.ended) }));
  const mode = m.rated ? t("prof.mode_rated", { mode: modeName(m.kind) }) : modeName(m.kind);
  const replay = cell("");
  if (m.replay) replay.append(Object.assign(document.createElement("a"), { href: m.replay, className: "replay-link", textContent: t("prof.replay") }));
  return row(date, cell(mode), cell(opponents), cell(t("prof.result_word", { result: m.result }), `result-${m.result}`), cell(score), replay);
}

/** The player's own private matches, newest first, on his own profile only (the server
 * answers 403 to anybody else: the section stays hidden). Their records and replays are
 * served to their players without the invite. */
async function privateMatches() {
  const { status, body } = await getJSON(`/api/players/${encodeURIComponent(name)}/matches?private=1`);
  $("private-section").hidden = status !== 200 || body.total === 0;
  if (status !== 200) return;
  $("private-matches").tBodies[0].replaceChildren(...body.matches.map(matchRow));
  $("private-more").hidden = body.total <= body.matches.length;
  $("private-more").textContent = t("prof.private_more", { n: body.total - body.matches.length });
}

async function matches() {
  // by key: the first page says how many, each page where the next begins (`before`)
  const cursor = cursors[page];
  const at = cursor ? `before=${encodeURIComponent(cursor)}` : "page=0";
  const { status, body } = await getJSON(`/api/players/${encodeURIComponent(name)}/matches?${at}`);
  if (status !== 200) return;
  if (page === 0) total = body.total;
  cursors[page + 1] = body.next;
  $("matches").tBodies[0].replaceChildren(...body.matches.map(matchRow));
  $("no-matches").hidden = total > 0;
  const pages = Math.max(1, Math.ceil(total / body.per_page));
  $("page-of").textContent = t("pages.page_of", { page: page + 1, pages });
  $("newer").disabled = page === 0;
  $("older").disabled = page + 1 >= pages || !body.next;
}

$("newer").addEventListener("click", () => { page = Math.max(0, page - 1); matches(); });
$("older").addEventListener("click", () => { page += 1; matches(); });

/** The profile, then (a player found) his matches. */
const load = async () => {
  if (await profile()) await Promise.all([matches(), privateMatches()]);
};
setUpPage(load); // a change of language redraws the page in it
load();
