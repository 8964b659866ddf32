import { test } from "node:test";
import assert from "node:assert/strict";
import { route, screenUrl } from "../js/url.js";

const at = (path) => route(new URL(path, "https://novuss.test"));

test("each screen of the main page is named by its address", () => {
  assert.equal(at("/").screen, "lobby");
  assert.equal(at("/?screen=name").screen, "name");
  assert.deepEqual(at("/?room=r1%20x"), { screen: "room", room: "r1 x", join: null, invite: null, match: null, key: null });
  assert.equal(at("/?join=r2").join, "r2");
  assert.equal(at("/?join=r2").screen, "room");
  assert.deepEqual([at("/r/ab%2Fc").screen, at("/r/ab%2Fc").invite], ["room", "ab/c"]);
  assert.deepEqual([at("/?match=m1&invite=k").screen, at("/?match=m1&invite=k").key], ["record", "k"]);
});

test("an address written is read back as the same screen", () => {
  for (const [screen, id] of [["lobby"], ["name"], ["room", "r 9&x"]]) {
    const r = at(screenUrl(screen, id));
    assert.equal(r.screen, screen);
    if (id) assert.equal(r.room, id);
  }
});

test("an unknown address is the lobby, not an error", () => {
  assert.equal(at("/?screen=nonsense&x=1").screen, "lobby");
  assert.equal(at("/somewhere/else").screen, "lobby");
});
