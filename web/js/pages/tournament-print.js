// The printable page of a tournament's standings and cross-table (/tournaments/<id>/print).
import { t } from "../i18n.js";
import { pathPart } from "../url.js";
import { getJSON, setUpPage, when } from "./api.js";
import { drawCrosstable, drawStandings } from "./tournament-view.js";

/** @type {(id: string) => any} the page's own element of an id (its kind known to the caller) */
const $ = (id) => document.getElementById(id);
const tid = pathPart(1);

async function show() {
  const { status, body } = await getJSON(`/api/tournaments/${tid}`);
  if (status !== 200) return;
  $("name").textContent = body.name;
  $("facts").textContent = [t(`tour.${body.system}`), t(`tour.status_${body.status}`), body.organiser, when(body.created)].join(" · ");
  drawStandings($("standings"), body);
  drawCrosstable($("crosstable"), body);
  $("cross-title").hidden = !body.crosstable;
}

$("print").addEventListener("click", () => window.print());
setUpPage(show);
show();
