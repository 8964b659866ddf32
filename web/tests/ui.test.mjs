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
