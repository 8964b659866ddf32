// The tab's notice (js/notices.js) and the challenges' words (js/challenges.js), without a page.
import assert from "node:assert/strict";
import { test } from "node:test";

import { challengeMessage, termsText } from "../js/challenges.js";
import { setLanguage } from "../js/i18n.js";
import { createNotices } from "../js/notices.js";

function fakeDoc() {
  const listeners = [];
  return {
    hidden: false,
    title: "Novuss online",
    addEventListener: (type, fn) => type === "visibilitychange" && listeners.push(fn),
    show(hidden) {
      this.hidden = hidden;
      for (const fn of listeners) fn();
    },
  };
}

function fakeNotification(permission, answer) {
  const shown = [];
  let asked = 0;
  class N {
    constructor(title) {
      shown.push(title);
    }
    static requestPermission() {
      asked += 1;
      N.permission = answer;
      return Promise.resolve(answer);
    }
  }
  N.permission = permission;
  return { N, shown, asked: () => asked };
}

function memory() {
  const m = new Map();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, v), removeItem: (k) => m.delete(k) };
}

test("the title carries what waits only while the page is hidden, and comes back", () => {
  const doc = fakeDoc();
  const n = createNotices({ doc, storage: memory(), api: null });
  n.set("turn", "Your turn");
  assert.equal(doc.title, "Novuss online"); // visible: nothing to say
  doc.show(true);
  assert.equal(doc.title, "(!) Your turn — Novuss online");
  n.set("turn", null);
  assert.equal(doc.title, "Novuss online");
  n.set("challenge", "Ada challenges you");
  assert.equal(doc.title, "(!) Ada challenges you — Novuss online");
  doc.show(false);
  assert.equal(doc.title, "Novuss online");
});

test("a notification only once turned on by the player, once per thing waiting", async () => {
  const doc = fakeDoc();
  const { N, shown, asked } = fakeNotification("default", "granted");
  const n = createNotices({ doc, storage: memory(), api: N });
  doc.show(true);
  n.set("turn", "Your turn");
  assert.deepEqual(shown, []); // never asked: nothing shown, and nothing asked on its own
  assert.equal(asked(), 0);
  assert.equal(await n.toggle(), true); // the player's click asks the browser
  assert.equal(asked(), 1);
  n.set("turn", null);
  n.set("turn", "Your turn");
  n.set("turn", "Your turn"); // another message while it still waits
  assert.deepEqual(shown, ["Your turn"]);
  assert.equal(await n.toggle(), false); // off again
  n.set("turn", null);
  n.set("turn", "Your turn");
  assert.deepEqual(shown, ["Your turn"]);
});

test("a refused permission leaves notifications off", async () => {
  const { N } = fakeNotification("default", "denied");
  const n = createNotices({ doc: fakeDoc(), storage: memory(), api: N });
  assert.equal(await n.toggle(), false);
  assert.equal(n.enabled(), false);
});

test("a challenge's settings in a line, in each language; Crokinole's room of one set", () => {
  const m = { id: "h1", game: "novuss", mode: "singles", sets: 2, clock: 45, rated: true, expires_in: 100 };
  setLanguage("en");
  assert.equal(termsText(m), "Novuss · Singles · 2 sets · 45 s stroke clock · rated");
  setLanguage("et");
  assert.match(termsText(m), /^Novuss · Üksikmäng · 2 geimi · löögiaeg 45 s · reitingumäng$/);
  setLanguage("en");
  const v = { to: " Ada ", game: "crokinole", mode: "doubles", sets: 4, clock: 30, rated: false };
  assert.deepEqual(challengeMessage(v), { t: "challenge", to: "Ada", game: "crokinole", mode: "doubles", sets: 1, clock: 60, rated: false });
});
