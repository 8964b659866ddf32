// Unit tests of the Crokinole client's geometry and words (002 5, 3, 4 f).
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage } from "../js/i18n.js";
import { flick, quadrantCentre, quadrantOf, roundWords, rulingWords, startSpot } from "../js/crokinole-board.js";

const BOARD = { centre: [330.2, 330.2], shooting_radius: 304.8, disc_radius: 15.875, max_speed: 4000 };

test("singles sit opposite, doubles each in a quadrant (002 1)", () => {
  assert.deepEqual([0, 1].map((s) => quadrantOf(s, 2)), [0, 2]);
  assert.deepEqual([0, 1, 2, 3].map((s) => quadrantOf(s, 4)), [0, 1, 2, 3]);
  assert.ok(Math.abs(quadrantCentre(0) + Math.PI / 2) < 1e-12); // south
});

test("the start snaps onto the shooting line inside the quadrant (002 5)", () => {
  const [cx, cy] = BOARD.centre;
  const s = startSpot(BOARD, 0, cx, cy - 100);
  assert.ok(Math.abs(Math.hypot(s.x - cx, s.y - cy) - BOARD.shooting_radius) < 1e-9);
  assert.ok(Math.abs(s.x - cx) < 1e-9 && s.y < cy);
  const east = startSpot(BOARD, 0, cx + 300, cy); // a pointer in the east quadrant
  const off = Math.atan2(east.y - cy, east.x - cx) - quadrantCentre(0);
  assert.ok(off < Math.PI / 4 && off > 0);
});

test("a pull flicks the other way, harder the further", () => {
  const start = { x: 330, y: 25 };
  const soft = flick(BOARD, start, 330, 0);
  const hard = flick(BOARD, start, 330, -200);
  assert.ok(Math.abs(soft.angle - Math.PI / 2) < 1e-12);
  assert.ok(hard.speed > soft.speed && hard.power === 1);
});

test("rulings and rounds read out with their paragraph", () => {
  const text = rulingWords({ code: "no_opponent_struck", rule: "3 a", twenties: [], out_of_play: [], restored: [] });
  assert.match(text, /no opposing disc struck.*\(3 a\)/);
  assert.match(rulingWords({ code: "valid", rule: "3 b", twenties: [0] }), /twenty set aside \(2 b\)/);
  assert.equal(roundWords({ round: 1, totals: [35, 20], points: [2, 0], rule: "4 f", score: [2, 0] }),
    "Round 1: 35 to 20 on the board with the twenties; points 2 to 0 (4 f); game 2 to 0");
});

test("3 and 4 players alone: a quadrant each, a figure per colour (002 7 d)", () => {
  assert.deepEqual([0, 1, 2].map((s) => quadrantOf(s, 3)), [0, 1, 2]);
  assert.equal(roundWords({ round: 2, totals: [40, 25, 25], points: [8, 5, 5], rule: "7 d", score: [14, 9, 7] }),
    "Round 2: 40 to 25 to 25 on the board with the twenties; points 8 to 5 to 5 (7 d); game 14 to 9 to 7");
});

test("rulings and rounds in the chosen language, a code newer than the page as it came", () => {
  const round = { round: 1, totals: [35, 20], points: [2, 0], rule: "4 f", score: [2, 0] };
  setLanguage("et");
  assert.equal(rulingWords({ code: "valid", rule: "3 b", twenties: [0, 1] }), "Õige löök (3 b); 20 augus 2 nuppu, pandud kõrvale (2 b)");
  assert.equal(roundWords(round), "1. voor: laual koos 20 augu nuppudega 35 : 20; punktid 2 : 0 (4 f); mäng 2 : 0");
  setLanguage("lv");
  assert.match(rulingWords({ code: "not_in_15", rule: "3 b", out_of_play: [3] }), /^Par vāju: .*15 punktu apli \(3 b\); ārpus spēles .*: 1 disks \(4 e, 6\)$/); // short (issue 34)
  assert.equal(rulingWords({ code: "something_new", rule: "9 z" }), "something_new (9 z)");
  setLanguage("en");
  assert.equal(rulingWords({ code: "valid", rule: "3 a", restored: [1, 2] }), "Valid shot (3 a); 2 discs put back (7 a)");
});

test("an invalid shot says what went to the ditch from the data, and nothing it did not do (issue 38)", () => {
  // 002 7 a: only the shooter ditched and no opposing disc moved: nothing is "put back".
  assert.equal(rulingWords({ code: "not_direct", rule: "7 a", to_ditch: [3], restored: [] }),
    "Invalid shot: your own disc struck first (7 a); 1 disc to the ditch (7 a)");
  assert.equal(rulingWords({ code: "not_direct", rule: "7 a", to_ditch: [3, 4], restored: [12] }),
    "Invalid shot: your own disc struck first (7 a); 2 discs to the ditch (7 a); 1 disc put back (7 a)");
  assert.equal(rulingWords({ code: "valid", rule: "3 a", fell: [3] }), "Valid shot (3 a); 1 disc off the board into the ditch (4 e)");
});
