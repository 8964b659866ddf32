// The pure helpers of the lobby and the match panel.
import assert from "node:assert/strict";
import { test } from "node:test";

import { formatClock } from "../js/hud.js";
import { inviteCode, playersLine, plural } from "../js/lobby.js";

test("an invite link or a bare code gives the code", () => {
  assert.equal(inviteCode("http://host:8080/r/Zq0-9w"), "Zq0-9w");
  assert.equal(inviteCode("  https://x.ee/r/abc?x=1 "), "abc");
  assert.equal(inviteCode("abc"), "abc");
  assert.equal(inviteCode(""), "");
});

test("players are named by team, partners together", () => {
  const p = (name) => ({ name, ready: true });
  assert.equal(playersLine("singles", [p("Maret"), null]), "Maret v …");
  assert.equal(playersLine("doubles", [p("A"), p("B"), p("C"), null]), "A & C v B & …");
});

test("the clock counts whole seconds down to zero", () => {
  assert.equal(formatClock(29.2), "0:30");
  assert.equal(formatClock(120), "2:00");
  assert.equal(formatClock(-3), "0:00");
});

test("plurals", () => {
  assert.equal(plural(1, "set"), "1 set");
  assert.equal(plural(4, "set"), "4 sets");
});

import { humanize, whosePucks } from "../js/rulings.js";

test("rulings name players, not sides; pucks by whose; neutral words; one line a fact", () => {
  const seats = [
    { name: "Alice", side: "S" },
    { name: "Bob", side: "N" },
  ];
  const lines = [
    ["Direct stroke; the striker first touched his own puck (#9)", "004 § 21"],
    ["Put back where they were: #9", "004 § 21 (4), (7)-(9)"],
    ["In the holes: #13, #14, #2", "004 § 20 (8)"],
    ["Penalty puck: he hit his own blind puck with a direct stroke", "004 § 24 (1) 8), § 21 (3)"],
    ["None of his pucks went in: the turn passes", "004 § 25 (1) 1)"],
    ["The strike right passes", "004 § 25 (1) 7)"],
    ["A penalty puck is placed for North against the S rail, as near the middle line as the pucks allow", "004 § 24 (3)"],
    ["North owes 1 penalty puck(s) for now", "004 § 28 (6)"],
    ["The match is over: team 1 wins, sets 2:1", ""],
  ];
  const out = humanize(lines, { seats, mode: "singles", seat: 1, me: 0 });
  const texts = out.map((l) => l.text);
  assert.deepEqual(texts, [
    "Direct stroke; the striker first touched their own puck",
    "Put back where they were: Bob's puck",
    "In the holes: 2 of Bob's pucks, your puck",
    "Penalty puck: Bob hit their own blind puck with a direct stroke",
    "None of their pucks went in: the turn passes",
    "A penalty puck is placed for Bob against the S rail, as near the middle line as the pucks allow",
    "Bob owes 1 penalty puck for now",
    "The match is over: Bob wins, sets 2:1",
  ]);
  for (const t of texts) assert.doesNotMatch(t, /\b(he|his|him|South|North|East|West|team 1)\b|#\d/);
  const dbl = humanize([["The match is over: team 0 wins, sets 2:0", ""]], { seats: [...seats, ...seats], mode: "doubles", seat: 0, me: null });
  assert.equal(dbl[0].text, "The match is over: Team A wins, sets 2:0");
  assert.equal(whosePucks([1, 2, 3], () => "X", null), "3 of X's pucks");
});
