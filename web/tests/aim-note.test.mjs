// Unit tests of where the word about the aim stands (js/aim-note.js): above the striker, and
// never over a hole.
import assert from "node:assert/strict";
import { test } from "node:test";

import { aimNoteSpot } from "../js/aim-note.js";
import { COMPETITION, pocketCentres } from "../js/table.js";

// A view of the table 1 px per mm, the north rail at the top of the screen.
const view = { scale: 1, width: COMPETITION.size, toScreen: (x, y) => [x, COMPETITION.size - y] };
const size = { w: 260, h: 40 };

/** Does the note at `spot` come within a hole's rim? */
function overHole(spot) {
  return Object.values(pocketCentres(COMPETITION)).some(([x, y]) => {
    const [hx, hy] = view.toScreen(x, y);
    const nx = Math.max(spot.left, Math.min(hx, spot.left + size.w));
    const ny = Math.max(spot.top, Math.min(hy, spot.top + size.h));
    return Math.hypot(hx - nx, hy - ny) < COMPETITION.pocketRadius * view.scale;
  });
}

test("in the open, the note stands centred above the striker", () => {
  const striker = { x: COMPETITION.size / 2, y: COMPETITION.size / 2 };
  const spot = aimNoteSpot(view, COMPETITION, striker, size);
  assert.equal(spot.left, COMPETITION.size / 2 - size.w / 2);
  assert.ok(spot.top + size.h < view.toScreen(striker.x, striker.y)[1]);
});

test("beside a far corner, the note moves off the hole", () => {
  const [hx, hy] = pocketCentres(COMPETITION).NW; // top left on this screen
  // the striker just below the hole: centred above it, the note would cover the hole
  const striker = { x: hx + 60, y: hy - 140 };
  const centred = { left: Math.max(4, view.toScreen(striker.x, striker.y)[0] - size.w / 2), top: view.toScreen(striker.x, striker.y)[1] - COMPETITION.strikerRadius - 44 - size.h };
  assert.ok(overHole(centred), "the case tested: the plain place hides the hole");
  const spot = aimNoteSpot(view, COMPETITION, striker, size);
  assert.ok(!overHole(spot), JSON.stringify(spot));
});
