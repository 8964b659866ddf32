// The competitions' list and the organiser's form (/tournaments); docs/competitions.md.
import { t } from "../i18n.js";
import { getJSON, postJSON, setUpPage } from "./api.js";
import { refusal } from "./tournament-words.js";

/** @type {(id: string) => any} the page's own element of an id (its kind known to the caller) */
const $ = (id) => document.getElementById(id);

// The games of a team encounter (004 § 29 (3)) the form offers: [kind, boards]; sets as chosen.
const GAMES = {
  "2s1d": [["singles", [1]], ["singles", [2]], ["doubles", [1, 2]]],
  "3s": [["singles", [1]], ["singles", [2]], ["singles", [3]]],
  "4s2d": [["singles", [1]], ["singles", [2]], ["singles", [3]], ["singles", [4]], ["doubles", [1, 2]], ["doubles", [3, 4]]],
};

function cell(...children) {
  const td = document.createElement("td");
  td.append(...children);
  return td;
}

async function show() {
  const { body } = await getJSON("/api/tournaments");
  const rows = (body.tournaments || []).map((x) => {
    const tr = document.createElement("tr");
    const link = Object.assign(document.createElement("a"), { href: `/tournaments/${x.id}`, textContent: x.name });
    tr.append(cell(link), cell(t(`tour.${x.system}`)), cell(t(`tour.status_${x.status}`)), cell(String(x.entries)), cell(x.organiser));
    return tr;
  });
  $("list").tBodies[0].replaceChildren(...rows);
  $("none").hidden = rows.length > 0;
  const me = await getJSON("/api/account");
  $("login-first").hidden = Boolean(me.body?.username);
  $("create").hidden = !me.body?.username;
}

$("create").addEventListener("submit", async (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  const num = (k) => (f.get(k) === "" || f.get(k) === null ? null : Number(f.get(k)));
  const sets = num("sets");
  const points = ["win", "draw", "loss"].map(num);
  const body = {
    name: f.get("name"),
    kind: f.get("kind"),
    form: f.get("form"),
    system: f.get("system"),
    sets,
    tiebreaks: f.getAll("tb"),
    byes_count: f.get("byes_count") === "on",
    clock: num("clock"),
    auto: f.get("auto") === "on",
    approval: f.get("approval") === "on",
    points: points.every((p) => p !== null) ? points : null,
  };
  if (body.system === "swiss") body.rounds = num("rounds");
  if (body.form !== "individual") body.games = GAMES[f.get("games")].map(([kind, boards]) => ({ kind, boards, sets }));
  const { status, body: answer } = await postJSON("/api/tournaments", body);
  if (status !== 200) {
    const m = $("message");
    m.textContent = refusal(answer);
    m.hidden = false;
    return;
  }
  location.assign(`/tournaments/${answer.id}`);
});

/** The organiser is told at creation how many entrants a Swiss of the rounds asked is sure to
 * pair to its end: 2 r - 1 (server/competitions/table/swiss.py, sure_rounds); with fewer it
 * may end early, after the last round that can be paired without a rematch. */
function roundsNote() {
  const f = $("create");
  const rounds = Number(f.elements.rounds.value);
  const swiss = f.elements.system.value === "swiss" && Number.isInteger(rounds) && rounds >= 1;
  $("rounds-note").hidden = !swiss;
  $("rounds-note").textContent = swiss ? t("tour.rounds_note", { rounds, entrants: 2 * rounds - 1 }) : "";
}
for (const name of ["rounds", "system"]) $("create").elements[name].addEventListener("input", roundsNote);

setUpPage(() => {
  roundsNote();
  show();
});
roundsNote();
show();
