// The lobby's two games: the create message of each game's options, a room's game line,
// and where a Crokinole room is played (docs/client.md, seed 002 4 f-g, 7 a-d).
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage } from "../js/i18n.js";
import { createMessage, gameLine, lookingFor, playersLine, roomPage, waitingFor } from "../js/lobby.js";

const FORM = {
  game: "novuss", mode: "doubles", sets: 2, clock: 30, private: false,
  players: "singles", scoring: "tournament", target: 100, direct_hit: false, line_discs_stay: false, free_order: false,
};

test("a Novuss room takes mode, sets and clock, no Crokinole option", () => {
  assert.deepEqual(createMessage({ ...FORM, direct_hit: true }), { t: "create", mode: "doubles", sets: 2, clock: 30, private: false });
});

test("the Rated box asks for a rated room of either game (each rated apart)", () => {
  const rated = createMessage({ ...FORM, rated: true });
  assert.deepEqual(rated, { t: "create", mode: "doubles", sets: 2, clock: 30, private: false, rated: true });
  assert.equal(createMessage({ ...FORM, rated: false }).rated, undefined);
  assert.equal(createMessage({ ...FORM, game: "crokinole", rated: true }).rated, true);
  assert.equal(createMessage({ ...FORM, game: "crokinole", players: "3", rated: true }).rated, true);
  assert.equal(createMessage({ ...FORM, game: "crokinole", rated: false }).rated, undefined);
});

test("a Crokinole room takes its players and rule options", () => {
  const singles = createMessage({ ...FORM, game: "crokinole", scoring: "conventional", target: 150, direct_hit: true });
  assert.deepEqual(singles, {
    t: "create", game: "crokinole", mode: "singles", sets: 1, clock: 60, private: false,
    scoring: "conventional", target: 150, direct_hit: true,
  });
  const doubles = createMessage({ ...FORM, game: "crokinole", players: "doubles", free_order: true, line_discs_stay: true });
  assert.equal(doubles.mode, "doubles");
  assert.equal(doubles.free_order, true); // 7 c
  assert.equal(doubles.line_discs_stay, true); // 7 b
  assert.equal(doubles.target, undefined); // only with 4 g
});

test("3 or 4 alone are singles with players, tournament scoring, no free order (7 d, 4 g, 7 c)", () => {
  const three = createMessage({ ...FORM, game: "crokinole", players: "3", scoring: "conventional", free_order: true });
  assert.equal(three.mode, "singles");
  assert.equal(three.players, 3);
  assert.equal(three.scoring, "tournament");
  assert.equal(three.free_order, undefined);
  assert.equal(three.target, undefined);
});

test("the list names each room's game and rules", () => {
  assert.equal(gameLine({ game: "novuss", mode: "singles", options: {} }), "Novuss · Singles");
  assert.equal(gameLine({ game: "crokinole", mode: "singles", options: { players: 3 } }), "Crokinole · 3 players · 4 rounds (4 f)");
  assert.equal(
    gameLine({ game: "crokinole", mode: "doubles", options: { scoring: "conventional", target: 100, free_order: true } }),
    "Crokinole · Doubles · to 100 (4 g) · free order (7 c)",
  );
  assert.equal(playersLine("singles", [{ name: "A" }, null, { name: "C" }]), "A v … v C");
});

test("a Crokinole room is played on /crokinole/, watched with watch=1", () => {
  assert.equal(roomPage("novuss", "r1", false), null);
  assert.equal(roomPage("crokinole", "r1", false), "/crokinole/?room=r1");
  assert.equal(roomPage("crokinole", "r1", true, "Zq0"), "/crokinole/?room=r1&watch=1&invite=Zq0");
  assert.equal(roomPage("crokinole", "r1", false, "Zq0"), "/crokinole/?room=r1");
});

test("the game line and the queue's status in the chosen language", () => {
  const room = { game: "crokinole", mode: "doubles", options: { scoring: "conventional", target: 100, line_discs_stay: true } };
  setLanguage("et");
  assert.equal(gameLine(room), "Crokinole · Paarismäng · 100 punktini (4 g) · joonel olevad nupud jäävad (7 b)");
  assert.equal(gameLine({ game: "crokinole", mode: "singles", options: { players: 4 } }), "Crokinole · 4 mängijat · 4 vooru (4 f)");
  assert.equal(lookingFor("crokinole", "singles"), "Otsin Crokinole'i üksikmängu…");
  setLanguage("lv");
  assert.equal(gameLine(room), "Crokinole · Pāru spēle · līdz 100 punktiem (4 g) · diski uz līnijas paliek (7 b)");
  assert.equal(gameLine({ game: "novuss", mode: "singles", options: {} }), "Novuss · Individuālā spēle");
  assert.equal(waitingFor("crokinole", "doubles", 10), "Gaida Crokinole pāru spēli: rindā 10 spēlētāju");
  setLanguage("en");
  assert.equal(waitingFor("novuss", "singles", 1), "Waiting for a singles match: 1 player in the queue");
});
