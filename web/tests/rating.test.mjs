// The rating beside a registered player's name, as the lobby, the waiting room and the
// table's rail names show it (docs/accounts.md, "Ratings").
import assert from "node:assert/strict";
import { test } from "node:test";

import { ratedName, ratingSuffix } from "../js/rating.js";

test("a settled rating in brackets, a provisional one marked, a guest without", () => {
  assert.equal(ratedName({ name: "Ada", rating: 1534, provisional: false }), "Ada (1534)");
  assert.equal(ratedName({ name: "Ben", rating: 1500, provisional: true }), "Ben (1500?)");
  assert.equal(ratedName({ name: "Guest", rating: null, provisional: true }), "Guest");
  assert.equal(ratingSuffix({ name: "Old seat" }), "");
});
