// The motion is played from the server's snapshots, interpolated, behind a buffer.
import assert from "node:assert/strict";
import { test } from "node:test";

import { settledSample } from "../js/input.js";
import { Playback } from "../js/playback.js";

test("positions are interpolated between snapshots, a buffer behind", () => {
  const p = new Playback(100);
  p.push(0, [{ id: 0, x: 0, y: 0 }], 1000);
  p.push(0.1, [{ id: 0, x: 10, y: 20 }], 1100);
  // Stroke time 0 plays at 1100 ms, time 0.1 at 1200 ms.
  assert.deepEqual(p.sample(1050)[0], { id: 0, x: 0, y: 0 });
  const mid = p.sample(1150)[0];
  assert.ok(Math.abs(mid.x - 5) < 1e-9 && Math.abs(mid.y - 10) < 1e-9);
  assert.ok(!p.finished(1150));
  assert.deepEqual(p.sample(5000)[0], { id: 0, x: 10, y: 20 });
  assert.ok(!p.finished(1200), "more snapshots may come: a stall is not the end");
  p.complete = true;
  assert.ok(p.finished(1200));
});

test("a faster server clock plays faster", () => {
  const p = new Playback(0);
  p.rate = 2;
  p.push(0, [{ id: 0, x: 0, y: 0 }], 0);
  p.push(1, [{ id: 0, x: 100, y: 0 }], 500);
  p.complete = true;
  assert.equal(p.sample(250)[0].x, 50);
  assert.ok(p.finished(500));
});

test("a late snapshot moves the play clock instead of jumping backwards", () => {
  const p = new Playback(100);
  p.push(0, [{ id: 0, x: 0, y: 0 }], 0);
  // The next snapshot is late: the clock had already run past it.
  p.push(0.5, [{ id: 0, x: 50, y: 0 }], 2000);
  assert.equal(p.sample(2000)[0].x, 0 + 50 * (0.4 / 0.5));
  assert.equal(p.sample(2100)[0].x, 50);
});

test("a pocketed disc stays at its last place and duplicates are ignored", () => {
  const p = new Playback(0);
  p.push(0, [{ id: 1, x: 60, y: 60 }, { id: 2, x: 5, y: 5 }], 0);
  p.push(0, [{ id: 1, x: 99, y: 99 }], 0);
  p.push(1, [{ id: 2, x: 15, y: 5 }], 0);
  const s = p.sample(500);
  assert.deepEqual(s.find((d) => d.id === 1), { id: 1, x: 60, y: 60 });
  assert.equal(s.find((d) => d.id === 2).x, 10);
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
