// The leaderboard per game and mode (/leaderboard, /leaderboard#doubles,
// /leaderboard#crokinole-7d), a page at a time.
import { t } from "../i18n.js";
import { hash, setHash } from "../url.js";
import { getJSON, ratingText, setUpPage } from "./api.js";

/** @type {(id: string) => any} the page's own element of an id (its kind known to the caller) */
const $ = (id) => document.getElementById(id);
const MODES = [.../** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-mode]"))].map((b) => b.dataset.mode);
let mode = MODES.includes(hash()) ? hash() : "singles";
let page = 0;

function cell(...children) {
  const td = document.createElement("td");
  td.append(...children);
  return td;
}

async function show() {
  for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-mode]"))) b.classList.toggle("primary", b.dataset.mode === mode);
  const { status, body } = await getJSON(`/api/leaderboard/${mode}?page=${page}`);
  if (status !== 200) return;
  const rows = body.players.map((p) => {
    const tr = document.createElement("tr");
    const link = Object.assign(document.createElement("a"), { href: `/u/${encodeURIComponent(p.username)}`, textContent: p.username });
    tr.append(cell(String(p.rank)), cell(link), cell(ratingText(p)), cell(String(p.matches)));
    return tr;
  });
  $("board").tBodies[0].replaceChildren(...rows);
  $("empty").hidden = body.total > 0;
  const pages = Math.max(1, Math.ceil(body.total / body.per_page));
  $("page-of").textContent = t("pages.page_of", { page: page + 1, pages });
  $("prev").disabled = page === 0;
  $("next").disabled = page + 1 >= pages;
}

for (const b of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-mode]"))) {
  b.addEventListener("click", () => {
    mode = /** @type {string} */ (b.dataset.mode); // a [data-mode] button
    page = 0;
    setHash(mode);
    show();
  });
}
$("prev").addEventListener("click", () => { page = Math.max(0, page - 1); show(); });
$("next").addEventListener("click", () => { page += 1; show(); });
setUpPage(show);
show();
