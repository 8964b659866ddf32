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

test("a Crokinole path rests exactly at its end, in its own places, moved by the origin", () => {
  // from (0, -300) at 600 mm/s along +y, decel 300: the formula leaves it at (0, 300) at t = 2,
  // the path's end says (0, 299.9999) (the physics' exact place): from t_end that is where it is
  const disc = [5, 1, 0, 0, 2, 0, 299.9999, 0, 0, -300, 0, 600];
  // a disc into the ditch at t = 1
  const gone = [12, 1, 1, 2, 1, 400, 0, 0, 300, 0, 200, 0];
  const still = [13, 1, 1, 0, 0, -100, -100, 0, -100, -100, 0, 0];
  const m = { decel: 300, duration: 2, origin: [1000, 1000], wheres: ["board", "hole", "ditch"], paths: [disc, gone, still] };
  const p = pathOf(disc, m.wheres);
  assert.deepEqual(position(p, 1, 300), [0, 150, "board"]);
  assert.deepEqual(position(p, 2, 300), [0, 299.9999, "board"]);
  assert.deepEqual(discsAt(m, 1.5).map((d) => [d.id, d.x, d.y]), [
    [5, 1000, 1000 + 262.5],
    [13, 900, 900],
  ]);
  assert.deepEqual(restingPlaces(m), [
    { id: 5, where: "board", x: 0, y: 299.9999 },
    { id: 12, where: "ditch", x: 400, y: 0 },
    { id: 13, where: "board", x: -100, y: -100 },
  ]);
});
