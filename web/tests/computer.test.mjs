// The computer in the page: the `computer` and `quick` messages of the forms' values
// (docs/protocol.md) and the computer's seats named in the page's language with the level.
import assert from "node:assert/strict";
import { test } from "node:test";

import { computerMessage, isPractice, nameComputers, playerName, quickMessage } from "../js/computer.js";
import { setLanguage } from "../js/i18n.js";

const form = { mode: "singles", level: "3", sets: "1", clock: "60", partner: false, opponents: true, practice: false };

test("the computer form gives the computer message the server takes", () => {
  assert.deepEqual(computerMessage(form), { t: "computer", mode: "singles", level: 3, sets: 1, clock: 60 });
  // a partner is for doubles only; doubles without opponents keeps the partner
  assert.equal(computerMessage({ ...form, partner: true }).partner, undefined);
  const pair = computerMessage({ ...form, mode: "doubles", partner: true, opponents: false, practice: true });
  assert.deepEqual(pair, { t: "computer", mode: "doubles", level: 3, sets: 1, clock: 60, partner: true, opponents: false, practice: true });
});

test("the computer form asks for Crokinole, with practice too", () => {
  const msg = computerMessage({ ...form, game: "crokinole", practice: true });
  assert.deepEqual(msg, { t: "computer", mode: "singles", level: 3, sets: 1, clock: 60, game: "crokinole", practice: true });
  assert.equal(computerMessage({ ...form, game: "novuss" }).game, undefined);
});

test("quick match asks for the computer only with a wait, in either game", () => {
  assert.deepEqual(quickMessage("singles", "novuss", 0, "2"), { t: "quick", mode: "singles" });
  assert.deepEqual(quickMessage("doubles", "novuss", 30, "2"), { t: "quick", mode: "doubles", computer_after: 30, level: 2 });
  assert.deepEqual(quickMessage("singles", "crokinole", 30, "2"), { t: "quick", mode: "singles", game: "crokinole", computer_after: 30, level: 2 });
  assert.deepEqual(quickMessage("singles", "crokinole", 0, "2"), { t: "quick", mode: "singles", game: "crokinole" });
});

test("computer seats are named in the page's language, with their level; people are not renamed", () => {
  const seats = [{ name: "Mari", computer: null }, { name: "Computer", computer: 4 }, null];
  setLanguage("et");
  nameComputers(seats);
  assert.equal(seats[0].name, "Mari");
  assert.equal(seats[1].name, "Arvuti (tase 4)");
  setLanguage("lv");
  assert.equal(nameComputers(seats)[1].name, "Dators (4. līmenis)");
  setLanguage("en");
  assert.equal(nameComputers(seats)[1].name, "Computer (level 4)");
  assert.ok(isPractice({ options: { practice: true } }));
  assert.ok(!isPractice({ options: {} }));
});

test("a record's players are named as the page says them: the computer by its level", () => {
  setLanguage("et");
  const named = [{ name: "Computer", computer: 2 }, { name: "Maret" }, { name: "Computer" }].map(playerName);
  assert.deepEqual(named.slice(1), ["Maret", "Computer"]); // a person; a record from before 2.4
  assert.notEqual(named[0], "Computer");
  assert.match(named[0], /2/);
  setLanguage("en");
});
