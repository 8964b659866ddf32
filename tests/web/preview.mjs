// The client's first-touch preview (web/js/geometry.js firstTouch) on cases read as
// JSON from stdin: {table, cases: [{side, seat, x, y, angle, pucks: [{id, owner, x, y}]}]}.
// Writes [{kind, id, legal, reason, blind}] to stdout (blind: the ids marked blind). Driven by test_preview_referee.py.
import { readFileSync } from "node:fs";
import { blindFor, firstTouch, teamOf } from "../../web/js/geometry.js";
import { pocketCentres, tableFrom } from "../../web/js/table.js";

const input = JSON.parse(readFileSync(0, "utf8"));
const t = tableFrom(input.table);
const pockets = pocketCentres(t);
const out = input.cases.map((c) => {
  const r = firstTouch(t, c.side, c.seat, c.x, c.y, c.angle, c.pucks, pockets);
  const blind = c.pucks.filter((p) => teamOf(p.owner) === teamOf(c.seat) && blindFor(t, c.side, p)).map((p) => p.id);
  return { kind: r.kind, id: r.id, legal: r.legal, reason: r.reason, blind };
});
process.stdout.write(JSON.stringify(out));
