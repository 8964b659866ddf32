// The replay's sampler (js/replay-motion.js) against numbers worked out by hand from the
// server's formula (server/sim/result.py DiscPath.position): a disc decelerating to rest,
// a second segment after a contact, a pocketed disc gone after its time, #stroke=N.
import assert from "node:assert/strict";
import test from "node:test";
import { discsAt, position, pathOf, restingPlaces, stepOfStroke } from "../js/replay-motion.js";

// a striker from (100, 100) at 1000 mm/s along +x, decel 500 mm/s^2: rests at t = 2 s, 1000 mm on
const striker = [0, 0, 1, 0, 0, 1100, 100, 0, 100, 100, 1000, 0];
// a puck hit at t = 1 s, then 400 mm/s along +y; pocketed at t = 1.5 s at (540, 1020)
const puck = [3, 1, 0, 1, 1.5, 540, 1020, 0, 540, 300, 0, 0, 1, 540, 300, 0, 400];
const motion = { decel: 500, duration: 2, paths: [striker, puck] };

test("a sliding disc follows the server's formula and rests where it stops", () => {
  const p = pathOf(striker);
  assert.deepEqual(position(p, 0, 500), [100, 100, "table"]);
  // s = 1000 - 500 t, distance (1000 + s) / 2 * t: at t = 1, 750 mm
  assert.deepEqual(position(p, 1, 500), [850, 100, "table"]);
  assert.deepEqual(position(p, 5, 500), [1100, 100, "table"]);
});

test("a later segment takes over at its start; a pocketed disc leaves the table", () => {
  const p = pathOf(puck);
  assert.deepEqual(position(p, 0.5, 500), [540, 300, "table"]); // at rest until struck
  const [x, y] = position(p, 1.25, 500); // 0.25 s at 400 mm/s decelerating: 84.375 mm
  assert.equal(x, 540);
  assert.equal(y, 384.375);
  assert.deepEqual(position(p, 1.5, 500), [540, 1020, "pocket"]);
  assert.deepEqual(discsAt(motion, 1.75).map((d) => d.id), [0]);
  assert.deepEqual(restingPlaces(motion), [
    { id: 0, where: "table", x: 1100, y: 100 },
    { id: 3, where: "pocket", x: 540, y: 1020 },
  ]);
  assert.equal(discsAt(motion, 99)[0].x, 1100); // clamped to the stroke's end
});

test("#stroke=N opens after that stroke", () => {
  const steps = [{ kind: "stroke", stroke: 1 }, { kind: "pass" }, { kind: "stroke", stroke: 2 }];
  assert.equal(stepOfStroke(steps, "#stroke=2"), 3);
  assert.equal(stepOfStroke(steps, "#stroke=1"), 1);
  assert.equal(stepOfStroke(steps, "#stroke=9"), null);
  assert.equal(stepOfStroke(steps, ""), null);
});
