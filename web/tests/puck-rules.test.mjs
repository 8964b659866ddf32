// What pressing a puck says (js/puck-rules.js explainPuck), each case with its paragraph,
// held to the guide line's verdict (geometry.js firstTouch); and a ruling's "why": the cite's
// anchor on the rules page and the paragraph's words in the player's language.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { defaultPlacement, firstTouch, toWorld } from "../js/geometry.js";
import { CATALOGS } from "../js/i18n.js";
import { citeAnchor, citeHref, explainPuck, PUCK_CASES } from "../js/puck-rules.js";
import { indexRules, shorten, whyOf } from "../js/rules-text.js";
import { COMPETITION as T, pocketCentres } from "../js/table.js";

const RULES = indexRules(JSON.parse(readFileSync(new URL("../rules/rules.json", import.meta.url))));
const L = T.size;
const C = L / 2;
// A puck of seat 0 (striking from S) at a point of S's own frame.
const mine = (u, v, owner = 0) => {
  const [x, y] = toWorld("S", u, v, L);
  return { id: 1, owner, x, y };
};
const explain = (p, opts) => explainPuck(T, "S", 0, p, opts);

test("an own puck away from the lines is free: direct, 004 § 21 (1)", () => {
  const r = explain(mine(300, 700));
  assert.deepEqual(r, { reason: "own_free", whose: "mine", playable: true, cite: "004 § 21 (1)" });
});

test("an own puck whose hole lies in the centre circle is blind: by a rebound, 004 § 21 (1), (3)", () => {
  for (const d of [0, 60, T.circleRadius - T.puckHoleRadius]) {
    const r = explain(mine(C + d, C));
    assert.equal(r.reason, "blind_circle", `${d} mm from the centre`);
    assert.equal(r.playable, false);
    assert.equal(r.cite, "004 § 21 (1), (3)");
  }
});

test("an own puck whose hole lies in the own edge zone is blind: 004 § 21 (1), (3)", () => {
  for (const v of [T.puckRadius, 60, T.zoneDepth - T.puckHoleRadius]) {
    const r = explain(mine(400, v));
    assert.equal(r.reason, "blind_zone", `v = ${v}`);
    assert.equal(r.playable, false);
    assert.equal(r.cite, "004 § 21 (1), (3)");
  }
});

test("the line seen through the hole: not blind, direct (004 § 21 (1), 000 § 3)", () => {
  // The circle's line crosses the hole: the hole's centre within a hole's radius of it.
  const onCircle = explain(mine(C + T.circleRadius, C));
  assert.equal(onCircle.reason, "line_circle");
  assert.equal(onCircle.playable, true);
  assert.equal(explain(mine(C + T.circleRadius + 2, C)).reason, "line_circle");
  // The zone's line through the hole.
  const onZone = explain(mine(400, T.zoneDepth));
  assert.equal(onZone.reason, "line_zone");
  assert.equal(onZone.cite, "004 § 21 (1)");
  // The hole just clear of the line: a plain free puck, though the puck covers the line.
  assert.equal(explain(mine(400, T.zoneDepth + T.puckHoleRadius + 0.5)).reason, "own_free");
});

test("an opponent's puck is never played first directly: 004 § 24 (1) 2)", () => {
  for (const [u, v] of [[300, 700], [C, C], [400, 60]]) {
    const r = explain(mine(u, v, 1));
    assert.deepEqual(r, { reason: "opponent", whose: "opponent", playable: false, cite: "004 § 24 (1) 2)" });
  }
});

test("doubles: the partner's puck is one's own, the partner's zone is not blind (004 § 28 (3))", () => {
  // seat 0 at S, partner seat 2 at N; seat 1 an opponent.
  const far = mine(500, L - 40, 2);
  const r = explainPuck(T, "S", 0, far, { doubles: true });
  assert.deepEqual(r, { reason: "partner_zone", whose: "partner", playable: true, cite: "004 § 28 (3)" });
  assert.equal(explainPuck(T, "S", 0, mine(400, 60, 2), { doubles: true }).reason, "blind_zone");
  assert.equal(explainPuck(T, "S", 0, mine(400, 400, 1), { doubles: true }).whose, "opponent");
  // In singles the far zone is the opponent's: an own puck there is simply free.
  assert.equal(explain(mine(500, L - 40)).reason, "own_free");
});

test("what pressing a puck says agrees with the guide line's verdict on a stroke straight at it", () => {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pockets = pocketCentres(T);
  let compared = 0;
  for (let i = 0; i < 400; i += 1) {
    const u = 20 + rand() * (L - 40);
    const v = T.zoneDepth + 30 + rand() * (L - T.zoneDepth - 60);
    const pucks = [mine(u, v, rand() < 0.3 ? 1 : 0)];
    // half of them near the circle's line or the zone's line, where it is close
    if (i % 2) {
      const a = rand() * 2 * Math.PI;
      const d = T.circleRadius + (rand() - 0.5) * 12;
      [pucks[0].x, pucks[0].y] = [C + d * Math.cos(a), C + d * Math.sin(a)];
    }
    if (i % 5 === 0) pucks[0].y = T.zoneDepth + (rand() - 0.5) * 12 + (i % 10 === 0 ? 0 : -40);
    const p = pucks[0];
    const [sx, sy] = defaultPlacement(T, "S", pucks);
    if (Math.hypot(p.x - sx, p.y - sy) < T.puckRadius + T.strikerRadius + 1) continue;
    const ft = firstTouch(T, "S", 0, sx, sy, Math.atan2(p.y - sy, p.x - sx), pucks, pockets);
    if (ft.kind !== "puck") continue;
    compared += 1;
    assert.equal(explain(p).playable, ft.legal, `puck at ${p.x.toFixed(1)}, ${p.y.toFixed(1)}: ${ft.reason}`);
  }
  assert.ok(compared > 200, `${compared} compared`);
});

test("every case is worded in each language and cites a paragraph the rules page has", () => {
  for (const [reason, { cite }] of Object.entries(PUCK_CASES)) {
    for (const lang of ["en", "et", "lv"]) assert.ok(CATALOGS[lang][`puck.${reason}`], `${lang}: puck.${reason}`);
    assert.ok(RULES.has(citeAnchor(cite)), `${reason}: ${cite}`);
  }
});

test("a cite links to its first paragraph on the rules page", () => {
  assert.equal(citeAnchor("004 § 24 (1) 8), § 21 (3)"), "p-24-1-8");
  assert.equal(citeAnchor("004 § 21 (4), (7)-(9)"), "p-21-4");
  assert.equal(citeAnchor("004 § 24 (3)-(7)"), "p-24-3");
  assert.equal(citeAnchor("004 § 21"), "p-21");
  assert.equal(citeAnchor("000 § 8"), "s000-8");
  assert.equal(citeHref("004 § 20 (8)"), "/rules.html#p-20-8");
  assert.equal(citeHref(""), null);
});

test("a ruling's why: the paragraph's words in Estonian or English; Latvian reads the English", () => {
  const cite = "004 § 24 (1) 8), § 21 (3)";
  const et = whyOf(RULES, cite, "et");
  assert.match(et.text, /dubleeseibi/);
  assert.equal(et.english, false);
  const en = whyOf(RULES, cite, "en");
  assert.match(en.text, /blind puck/);
  assert.equal(en.english, false);
  const lv = whyOf(RULES, cite, "lv");
  assert.equal(lv.text, en.text);
  assert.equal(lv.english, true);
  // seed 000 exists in English only
  assert.equal(whyOf(RULES, "000 § 5", "et").english, true);
  assert.equal(whyOf(RULES, "", "en"), null);
});

test("a long paragraph is shortened at a sentence's end", () => {
  const long = `${"A short sentence. ".repeat(30)}`;
  const s = shorten(long, 100);
  assert.ok(s.length <= 103, s);
  assert.match(s, /\. …$/);
  assert.equal(shorten("Short.\nSecond line."), "Short.");
});
