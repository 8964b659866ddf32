// The standings and the cross-table of a tournament as tables (the tournament page and its
// printable page draw them alike).
import { t } from "../i18n.js";
import { points } from "./tournament-words.js";

function el(tag, text = "", attrs = {}) {
  const node = Object.assign(document.createElement(tag), attrs);
  if (text !== "") node.textContent = text;
  return node;
}

/** The standings: rank, name, points, sets, each tie-break the organiser chose (named), games. */
export function drawStandings(table, doc) {
  const head = el("tr");
  for (const key of ["tour.rank", "tour.entrant", "tour.points_col", "tour.sets_col"]) head.append(el("th", t(key)));
  for (const name of doc.tiebreak_names) head.append(el("th", t(`tour.tb.${name}`)));
  head.append(el("th", t("tour.played")), el("th", t("tour.wdl")));
  table.tHead.replaceChildren(head);
  const rows = doc.standings.map((s) => {
    const tr = el("tr");
    tr.dataset.entrant = s.entrant;
    tr.append(el("td", String(s.rank)), el("td", s.name), el("td", points(s.points)), el("td", `${s.sets_for}:${s.sets_against}`));
    for (const v of s.tiebreaks) tr.append(el("td", points(v)));
    tr.append(el("td", String(s.played)), el("td", `${s.wins}–${s.draws}–${s.losses}`));
    return tr;
  });
  table.tBodies[0].replaceChildren(...rows);
  // The regulations the places rest on go with the standings, on the page and in print.
  const caption = table.caption || table.createCaption();
  caption.replaceChildren(...regulationsText(doc).map((line) => el("div", line)));
}

/** The organiser's regulations, each with 004's paragraph or "regulations (§ 3)". */
export function regulationsText(doc) {
  const cite = (c) => c.replace("regulations (§ 3)", t("tour.reg.regulations"));
  return (doc.regulations || []).map((r) => {
    if (r.key === "tiebreaks") {
      if (!r.value.length) return t("tour.reg.tiebreaks_none", { cite: cite(r.cite) });
      return t("tour.reg.tiebreaks", { names: r.value.map((n) => t(`tour.tb.${n}`)).join(", "), cite: cite(r.cite) });
    }
    if (r.key === "byes_count") return t(r.value ? "tour.reg.byes_count_yes" : "tour.reg.byes_count_no", { cite: cite(r.cite) });
    return t("tour.reg.swiss_rounds", { n: r.value, cite: cite(r.cite) });
  });
}

/** The cross-table (round robin): a row per entrant, a column per opponent, the points. */
export function drawCrosstable(table, doc) {
  const cross = doc.crosstable;
  table.hidden = !cross;
  if (!cross) return;
  const head = el("tr");
  head.append(el("th", "#"), el("th", t("tour.entrant")));
  cross.entrants.forEach((_, i) => head.append(el("th", String(i + 1))));
  head.append(el("th", t("tour.points_col")));
  table.tHead.replaceChildren(head);
  const rows = cross.entrants.map((e, i) => {
    const tr = el("tr");
    tr.append(el("td", String(i + 1)), el("td", e.name));
    for (const c of cross.cells[i]) tr.append(el("td", c === "x" ? "×" : c));
    tr.append(el("td", points(cross.points[i])));
    return tr;
  });
  table.tBodies[0].replaceChildren(...rows);
}
