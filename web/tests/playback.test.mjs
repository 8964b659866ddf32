// The motion is played from its exact paths at the display's rate, on the stroke's clock.
import assert from "node:assert/strict";
import { test } from "node:test";

import { settledSample } from "../js/input.js";
import { Playback } from "../js/playback.js";

// a striker from (100, 100) at 1000 mm/s along +x, decel 500 mm/s^2: rests at t = 2 s at 1100
const striker = [0, 0, 1, 0, 0, 1100, 100, 0, 100, 100, 1000, 0];
// a puck hit at t = 1 s, then 400 mm/s along +y; pocketed at t = 1.5 s at (540, 1020)
const puck = [3, 1, 0, 1, 1.5, 540, 1020, 0, 540, 300, 0, 0, 1, 540, 300, 0, 400];
const motion = { stroke: 1, decel: 500, duration: 2, paths: [striker, puck] };

test("every drawn frame samples the paths at the stroke's time now", () => {
  const p = new Playback();
  p.start(motion, 0, 1000);
  assert.deepEqual(p.sample(1000).map((d) => [d.id, d.x, d.y]), [[0, 100, 100], [3, 540, 300]]);
  // s = 1000 - 500 t, distance (1000 + s) / 2 * t: at t = 1, 750 mm
  assert.equal(p.sample(2000)[0].x, 850);
  assert.equal(p.sample(2250).find((d) => d.id === 3).y, 384.375);
  assert.deepEqual(p.sample(2600).map((d) => d.id), [0], "the pocketed puck is gone");
  assert.ok(!p.finished(2999) && p.finished(3000));
});

test("a faster server clock plays faster", () => {
  const p = new Playback();
  p.rate = 2;
  p.start(motion, 0, 0);
  assert.equal(p.sample(500)[0].x, 850);
  assert.ok(p.finished(1000));
});

test("a motion joined part-way plays on from the time it has played", () => {
  const p = new Playback();
  p.start(motion, 1, 5000);
  assert.equal(p.sample(5000)[0].x, 850, "where the server had it when it said 1 s");
  assert.ok(!p.finished(5999) && p.finished(6000));
  p.seek(2, 5100); // a resume says it is over
  assert.ok(p.finished(5100));
  p.clear();
  assert.ok(!p.active && p.finished(0) && p.sample(0).length === 0);
});

test("a touch's shot is the aim from before the finger rolled off", () => {
  const samples = [
    { time: 0, angle: 1, power: 0.1 },
    { time: 100, angle: 1.2, power: 0.5 },
    { time: 190, angle: 1.5, power: 0.6 },
  ];
  assert.equal(settledSample(samples, 200).power, 0.5);
  assert.equal(settledSample(samples, 400).power, 0.6);
  assert.equal(settledSample(samples, 50).power, 0.1);
  assert.equal(settledSample([], 50), null);
});
