// The pure helpers of the lobby and the match panel.
import assert from "node:assert/strict";
import { test } from "node:test";

import { formatClock } from "../js/hud.js";
import { inviteCode, playersLine } from "../js/lobby.js";

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

import { setLanguage } from "../js/i18n.js";
import { humanize, whosePucks } from "../js/rulings.js";

const L = (code, args, cite) => ({ code, args, cite, text: "(the server's English)" });

test("rulings name players, not seats; pucks by whose; one line a fact; in the chosen language", () => {
  const seats = [
    { name: "Alice", side: "S" },
    { name: "Bob", side: "N" },
  ];
  const lines = [
    L("stroke.direct", { whose: "own", n: 1 }, "004 § 21"),
    L("pucks.restored", { pucks: [9] }, "004 § 21 (4), (7)-(9)"),
    L("pucks.pocketed", { pucks: [13, 14, 2] }, "004 § 20 (8)"),
    L("penalty.direct_own_blind", {}, "004 § 24 (1) 8), § 21 (3)"),
    L("turn.none_in", {}, "004 § 25 (1) 1)"),
    L("turn.passes", {}, "004 § 25 (1) 7)"),
    L("debt.placed", { seat: 1, n: 1 }, "004 § 24 (3)"),
    L("debt.owed", { seat: 1, n: 2 }, "004 § 28 (6)"),
    L("match.won", { team: 1, a: 2, b: 1 }, "004 § 32 (1)"),
  ];
  setLanguage("en");
  const out = humanize(lines, { seats, mode: "singles", me: 0 });
  assert.deepEqual(
    out.map((l) => l.text),
    [
      "Direct stroke; first touch: their own puck",
      "Put back where they were: Bob's puck",
      "In the holes: 2 of Bob's pucks and your puck",
      "Penalty puck: a direct stroke at their own blind puck",
      "None of their pucks went in: the turn passes",
      "A penalty puck placed for Bob in the edge zone opposite them",
      "Bob owes 2 penalty pucks for now",
      "The match is over: Bob wins, sets 2:1",
    ],
  );
  assert.deepEqual(out.map((l) => l.penalty), [false, false, false, true, false, false, false, false]);
  const dbl = humanize([L("match.won", { team: 0, a: 2, b: 0 }, "")], { seats: [...seats, ...seats], mode: "doubles", me: null });
  assert.equal(dbl[0].text, "The match is over: Team A wins, sets 2:0");
  assert.equal(whosePucks([1, 2, 3], () => "X", null), "3 of X's pucks");

  setLanguage("et");
  const et = humanize(lines, { seats, mode: "singles", me: 0 }).map((l) => l.text);
  assert.equal(et[0], "Otselöök; esimesena puudutatud: oma seib");
  assert.equal(et[2], "Aukudes: mängija Bob 2 seibi ja sinu seib");
  assert.equal(et[6], "Mängija Bob võlg praegu: 2 trahviseibi");
  setLanguage("lv");
  const lv = humanize(lines, { seats, mode: "singles", me: 0 }).map((l) => l.text);
  assert.equal(lv[3], "Soda kauliņš: tiešs sitiens pa savu tumšo kauliņu");
  assert.equal(lv[2], "Maisiņos: 2 spēlētāja Bob kauliņi un tavs kauliņš");
  setLanguage("en");
});

test("a record kept before rulings had codes still reads", () => {
  const out = humanize([["In the holes: #2", "004 § 20 (8)"]], { seats: [], mode: "singles", me: null });
  assert.deepEqual(out, [{ text: "In the holes: #2", cite: "004 § 20 (8)", code: null, penalty: false }]);
});

test("a ruling reads in the reader's person: 'you' for the reader's own stroke, names for others' (issue 36)", () => {
  const seats = [
    { name: "Alice", side: "S" },
    { name: "Bob", side: "N" },
  ];
  const lines = [
    L("stroke.direct", { whose: "own", n: 1 }, "004 § 21"),
    L("pucks.pocketed", { pucks: [2] }, "004 § 20 (8)"),
    L("turn.again", {}, "004 § 20 (8)"),
  ];
  setLanguage("en");
  // Alice reads her own stroke: second person throughout
  assert.deepEqual(
    humanize(lines, { seats, mode: "singles", me: 0, striker: 0 }).map((l) => l.text),
    ["Direct stroke; first touch: your own puck", "In the holes: your puck", "Your puck went in: you strike again"],
  );
  // Bob reads Alice's stroke: third person, her pucks by name
  assert.deepEqual(
    humanize(lines, { seats, mode: "singles", me: 1, striker: 0 }).map((l) => l.text),
    ["Direct stroke; first touch: their own puck", "In the holes: Alice's puck", "Their puck went in: they strike again"],
  );
  // a penalty puck placed for the reader, in a lesson ("for You" before)
  const debt = [L("debt.placed", { seat: 0, n: 1 }, "004 § 24 (3)"), L("debt.owed", { seat: 1, n: 2 }, "004 § 28 (6)")];
  const mine = { seats: [{ name: "You" }, { name: "Opponent" }], mode: "singles", me: 0, striker: 0 };
  assert.deepEqual(
    humanize(debt, mine).map((l) => l.text),
    ["A penalty puck placed for you in the edge zone opposite you", "Opponent owes 2 penalty pucks for now"],
  );
  setLanguage("et");
  const et = humanize([...lines, ...debt], { ...mine, seats: [{ name: "Sina" }, { name: "Vastane" }] }).map((l) => l.text);
  assert.equal(et[2], "Oma seib läks auku: lööd uuesti");
  assert.equal(et[3], "Sinu trahviseib pandi sulle vastaspoolsesse poorditsooni"); // not "Mängija Sina trahviseib pandi talle"
  setLanguage("lv");
  const lv = humanize(debt, { ...mine, seats: [{ name: "Tu" }, { name: "Pretinieks" }] }).map((l) => l.text);
  assert.equal(lv[0], "Tev izlikts soda kauliņš pretī esošajā apmales zonā");
  setLanguage("en");
});
