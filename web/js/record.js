// The match record as a page a player reads: who played, the result, and every stroke
// with its ruling in words (GET /api/matches/<id>, docs/protocol.md).
import { playerName } from "./computer.js";
import { $, el } from "./dom.js";
import { locale, t } from "./i18n.js";
import { humanize } from "./rulings.js";

const when = (s) => (typeof s === "number" ? new Date(s * 1000).toLocaleString(locale()) : "");

/**
 * A finished match's record, as a page to read.
 * @param {string} id the match
 * @param {string|null} [invite] a private match's invite
 */
export async function showRecord(id, invite = null) {
  const query = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  const url = `/api/matches/${encodeURIComponent(id)}${query}`;
  $("record-raw").href = url;
  // The notation (docs/notation.md), under the same invite as the record.
  $("record-notation").href = `/api/matches/${encodeURIComponent(id)}.txt${query}`;
  // The replay viewer (docs/notation.md, "The replay viewer"), under the same invite.
  $("record-replay").href = `/m/${encodeURIComponent(id)}${query}`;
  let rec;
  try {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${res.status}`);
    rec = await res.json();
  } catch (e) {
    $("record-summary").textContent = t("record.unreadable", { why: /** @type {Error} */ (e).message });
    return;
  }
  renderRecord(rec);
}

export function renderRecord(rec) {
  // Crokinole matches have no notation and no replay (their strokes carry no state hash).
  $("record-notation-item").hidden = (rec.game ?? "novuss") !== "novuss";
  const players = (rec.players || []).map((p) => ({ ...p, name: playerName(p) }));
  const seats = [];
  for (const p of players) seats[p.seat] = { name: p.name };
  const start = (rec.log || []).find((e) => e.kind === "start");
  // Sides move on between sets (server/games/novuss/rules/sets.py): tracked along the log.
  let rotation = start?.state?.rotation ?? 0;
  let played = start?.state?.sets_played ?? 0;
  const placeSides = () =>
    seats.forEach((s, i) => {
      if (s) s.side = rec.mode === "doubles" ? "SWNE"[(i + rotation) % 4] : "SN"[(i + rotation) % 2];
    });
  placeSides();
  const names = (team) =>
    players
      .filter((p) => p.team === team)
      .map((p) => p.name)
      .join(" & ");
  const title = t(rec.mode === "doubles" ? "record.versus_doubles" : "record.versus", { a: names(0), b: names(1) });
  $("record-title").textContent = title;
  const score = Array.isArray(rec.score) && rec.score[0] + rec.score[1] > 0 ? t("record.sets", { a: rec.score[0], b: rec.score[1] }) : "";
  const winner = rec.result?.winner;
  const result = winner === null || winner === undefined ? t(rec.ended ? "record.no_winner" : "record.not_finished") : t("record.won", { names: names(winner) });
  $("record-summary").textContent = [result, score, t("record.strokes", { n: rec.strokes ?? 0 }), when(rec.started)].filter(Boolean).join(" · ");
  const ctx = { seats, mode: rec.mode, me: null };
  const items = (rec.log || [])
    .filter((e) => e.kind !== "start")
    .map((e) => {
      const who = seats[e.seat]?.name;
      const kind = ["clock", "pass", "absent", "resign"].includes(e.kind) ? t(`record.kind.${e.kind}`) : e.kind;
      const head =
        e.kind === "stroke"
          ? who
            ? t("record.stroke_who", { stroke: e.stroke, name: who })
            : t("record.stroke", { stroke: e.stroke })
          : e.kind === "end"
            ? t("record.end")
            : who
              ? t("record.kind_who", { kind, name: who })
              : kind;
      const lines = e.ruling ? humanize(e.ruling.lines, { ...ctx, seats: seats.map((x) => x && { ...x }) }) : [];
      const set = e.ruling?.set_result;
      if (set) {
        if (set.outcome === "replayed") rotation += 1;
        else if (set.outcome !== "annulled") rotation = played += 1;
        placeSides();
      }
      return el(
        "li",
        {},
        el("div", { class: "head", text: head }),
        lines.length ? el("ul", { class: "facts" }, ...lines.map((l) => el("li", { text: l.text, title: l.cite }))) : null,
      );
    });
  $("record-log").replaceChildren(...items);
}
