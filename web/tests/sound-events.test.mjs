import { test } from "node:test";
import assert from "node:assert/strict";
import { ContactSounds } from "../js/sound-events.js";
import { COMPETITION } from "../js/table.js";

/** Feed frames 1/60 s apart; every sound heard. */
function play(frames) {
  const s = new ContactSounds(COMPETITION);
  const heard = [];
  frames.forEach((discs, i) => heard.push(...s.step(discs, i * (1000 / 60)).map((e) => e.kind)));
  return heard;
}

test("the striker on a puck, that puck on another, a hole, a rail", () => {
  const frames = [];
  // the striker runs up to puck 1 (frames 0-9), which sets puck 2 going (frame 20: the sound
  // of puck on puck), puck 2 runs to the east rail and back (30), puck 1 still rolling drops
  // into a hole (gone at 30)
  for (let i = 0; i < 40; i++) {
    const striker = { id: 0, x: 540, y: 100 + Math.min(i, 10) * 20 };
    const p1 = { id: 1, x: 540, y: i < 10 ? 400 : 400 + (i - 10) * 15 };
    const p2x = i < 20 ? 816 : i <= 30 ? 816 + (i - 20) * 25 : 1066 - (i - 30) * 25;
    const discs = [striker, { id: 2, x: p2x, y: 700 }];
    if (i < 30) discs.splice(1, 0, p1);
    frames.push(discs);
  }
  assert.deepEqual(play(frames), ["strike", "puck", "pocket", "rail"]); // the turn is seen a frame after
});

test("discs at rest make no sound; a new stroke starts over", () => {
  const still = [{ id: 0, x: 540, y: 60 }, { id: 1, x: 300, y: 300 }];
  assert.deepEqual(play([still, still, still]), []);
  const s = new ContactSounds(COMPETITION);
  s.step([{ id: 1, x: 0 + 300, y: 300 }], 0);
  s.step([{ id: 1, x: 310, y: 300 }], 16);
  s.reset();
  assert.deepEqual(s.step([{ id: 1, x: 320, y: 300 }], 32), []);
});
