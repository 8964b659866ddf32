import { test } from "node:test";
import assert from "node:assert/strict";
import { Drops } from "../js/board-look.js";

const POCKETS = [[60, 60], [1020, 60], [1020, 1020], [60, 1020]];
const ctx = { save() {}, restore() {}, globalAlpha: 1 };

test("a puck gone during the motion drops into the nearest hole, then is gone", () => {
  const drops = new Drops();
  drops.update([{ id: 3, owner: 0, x: 990, y: 990 }], true, POCKETS, 0);
  drops.update([], true, POCKETS, 16);
  const drawn = [];
  assert.equal(drops.draw(ctx, (p, scale) => drawn.push({ ...p, scale }), 200), 1);
  const [p] = drawn;
  assert.ok(p.x > 990 && p.y > 990 && p.scale < 1, JSON.stringify(p)); // on its way into the NE hole
  drops.update([], false, POCKETS, 1000);
  assert.equal(drops.draw(ctx, () => {}, 1000), 0);
});

test("pucks leaving the table between strokes do not drop", () => {
  const drops = new Drops();
  drops.update([{ id: 3, owner: 0, x: 500, y: 500 }], false, POCKETS, 0);
  drops.update([], false, POCKETS, 16);
  assert.equal(drops.draw(ctx, () => {}, 20), 0);
});
