// Unit tests of the client's geometry: view rotation, legal striker placement
// (004 § 20 (1), (2)), cue-angle limits (004 § 20 (5)) and the guide line.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  aimsAtPuck,
  angleToLocal,
  angleToWorld,
  clampCueAngle,
  clampToField,
  cueAngleAllowed,
  cueLimitsLocal,
  defaultPlacement,
  blindFor,
  firstTouch,
  guideLine,
  holeSeenFrom,
  inCircle,
  inZone,
  makeView,
  placementCheck,
  strikingField,
  toLocal,
  toWorld,
} from "../js/geometry.js";
import { decideGesture } from "../js/input.js";
import { COMPETITION as T, pocketCentres, SIDES, tableFrom } from "../js/table.js";

const L = T.size;
const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

test("each side's frame puts its own rail at v = 0, and round-trips", () => {
  // A point on each rail's middle is at u = L/2, v = 0 for the player at that rail.
  const railMiddle = { S: [540, 0], N: [540, L], W: [0, 540], E: [L, 540] };
  for (const side of SIDES) {
    const [u, v] = toLocal(side, ...railMiddle[side], L);
    close(u, 540);
    close(v, 0);
    for (const [x, y] of [
      [0, 0],
      [100, 900],
      [1080, 17],
    ]) {
      const [x2, y2] = toWorld(side, ...toLocal(side, x, y, L), L);
      close(x2, x);
      close(y2, y);
    }
  }
});

test("the frames are rotations, not mirrors: the player's left is his left", () => {
  // Standing at W facing east, the north-west pocket is on his left.
  const [uNW] = toLocal("W", 60, 1020, L);
  const [uSW] = toLocal("W", 60, 60, L);
  assert.ok(uNW < uSW);
  // Standing at E facing west, the south-east pocket is on his left.
  assert.ok(toLocal("E", 1020, 60, L)[0] < toLocal("E", 1020, 1020, L)[0]);
  // Standing at N facing south, the north-east pocket is on his left.
  assert.ok(toLocal("N", 1020, 1020, L)[0] < toLocal("N", 60, 1020, L)[0]);
});

test("angles convert with the frames: straight ahead is local pi/2", () => {
  const ahead = { S: Math.PI / 2, N: -Math.PI / 2, W: 0, E: Math.PI };
  for (const side of SIDES) {
    close(angleToLocal(side, ahead[side]), Math.PI / 2);
    close(angleToWorld(side, Math.PI / 2), ahead[side]);
  }
});

test("the view draws each player's own rail at the bottom of the screen", () => {
  for (const side of SIDES) {
    const view = makeView(T, side, 800, 900);
    const own = { S: [540, 0], N: [540, L], W: [0, 540], E: [L, 540] }[side];
    const far = { S: [540, L], N: [540, 0], W: [L, 540], E: [0, 540] }[side];
    const [, yOwn] = view.toScreen(...own);
    const [, yFar] = view.toScreen(...far);
    assert.ok(yOwn > yFar, `${side}: own rail below the far one`);
    const [x, y] = view.toWorld(...view.toScreen(123, 456));
    close(x, 123, 1e-6);
    close(y, 456, 1e-6);
    // The table (with rails) fits the canvas.
    for (const [cx, cy] of [
      [-40, -40],
      [L + 40, L + 40],
    ]) {
      const [px, py] = view.toScreen(cx, cy);
      assert.ok(px >= 0 && px <= 800 && py >= 0 && py <= 900);
    }
  }
});

test("the view's screen angle points where the world angle points", () => {
  const view = makeView(T, "W", 1000, 1000);
  const a = 0.3;
  const [x0, y0] = view.toScreen(500, 500);
  const [x1, y1] = view.toScreen(500 + 100 * Math.cos(a), 500 + 100 * Math.sin(a));
  const s = view.screenAngle(a);
  close(Math.atan2(y1 - y0, x1 - x0), Math.atan2(Math.sin(s), Math.cos(s)), 1e-9);
});

test("placement: the striker's hole must be inside the own zone between the side zones", () => {
  const f = strikingField(T);
  assert.equal(f.vMin, 24); // the striker does not overlap the own rail
  close(f.vMax, 120 - 4.5); // the zone line is not seen through the hole
  close(f.uMin, 120 + 4.5);
  close(f.uMax, 960 - 4.5);
  assert.ok(placementCheck(T, "S", 540, 60, []).ok);
  assert.equal(placementCheck(T, "S", 540, 118, []).reason, "outside");
  assert.equal(placementCheck(T, "S", 540, 20, []).reason, "outside");
  assert.equal(placementCheck(T, "S", 122, 60, []).reason, "outside");
  assert.equal(placementCheck(T, "S", 540, 1020, []).reason, "outside"); // the far zone
  // The same spot seen from each side is legal for that side only.
  for (const side of SIDES) {
    const [x, y] = toWorld(side, 300, 60, L);
    assert.ok(placementCheck(T, side, x, y, []).ok, side);
    for (const other of SIDES.filter((s) => s !== side)) {
      assert.ok(!placementCheck(T, other, x, y, []).ok, `${side} spot for ${other}`);
    }
  }
});

test("placement: the striker must not touch a puck (004 § 20 (2))", () => {
  const pucks = [{ id: 3, x: 540, y: 40 }];
  const r = placementCheck(T, "S", 540 + 20, 50, pucks);
  assert.equal(r.reason, "touching");
  assert.deepEqual(r.touching, [3]);
  assert.ok(placementCheck(T, "S", 540 + 39, 40, pucks).ok);
  assert.ok(!placementCheck(T, "S", 540 + 38, 40, pucks).ok, "exactly touching is touching");
});

test("dragging clamps the striker into the field", () => {
  const [u, v] = clampToField(T, -50, 500);
  close(u, 124.5);
  close(v, 115.5);
});

test("the default spot avoids the pucks of the starting row", () => {
  // Eight pucks touching each other and the S rail, four each side of the middle line.
  const row = Array.from({ length: 8 }, (_, i) => ({ id: i + 1, x: 540 - 98 + 28 * i, y: 14 }));
  const [x, y] = defaultPlacement(T, "S", row);
  assert.ok(placementCheck(T, "S", x, y, row).ok);
  const [x2, y2] = defaultPlacement(T, "N", []);
  close(x2, 540);
  close(y2, 1020);
});

test("cue limits: the cue crosses the own rail between its corners (004 § 20 (5))", () => {
  const [lo, hi] = cueLimitsLocal(T, "S", 540, 60);
  close(lo, Math.atan2(60, 540));
  close(hi, Math.PI - Math.atan2(60, 540));
  assert.ok(cueAngleAllowed(T, "S", 540, 60, Math.PI / 2));
  assert.ok(!cueAngleAllowed(T, "S", 540, 60, -Math.PI / 2));
  assert.ok(!cueAngleAllowed(T, "S", 540, 60, 0.05)); // the cue would pass the W corner
  // Near the left end of the field the range is lopsided: steep to the right is allowed,
  // shallow to the left is not.
  const [lo2, hi2] = cueLimitsLocal(T, "S", 130, 30);
  assert.ok(lo2 > 0.2 && hi2 > Math.PI - 0.05);
});

test("cue limits rotate with the side", () => {
  for (const side of SIDES) {
    const [x, y] = toWorld(side, 200, 50, L);
    const [lo, hi] = cueLimitsLocal(T, side, x, y);
    close(lo, Math.atan2(50, 200));
    close(hi, Math.atan2(50, 200 - L));
    const ahead = angleToWorld(side, Math.PI / 2);
    assert.ok(cueAngleAllowed(T, side, x, y, ahead), side);
    assert.ok(!cueAngleAllowed(T, side, x, y, angleToWorld(side, -Math.PI / 2)), side);
  }
});

test("a cue angle out of range snaps to the nearer limit", () => {
  const [lo, hi] = cueLimitsLocal(T, "E", 1020, 540);
  close(angleToLocal("E", clampCueAngle(T, "E", 1020, 540, angleToWorld("E", -0.2))), lo);
  close(angleToLocal("E", clampCueAngle(T, "E", 1020, 540, angleToWorld("E", Math.PI + 0.2))), hi);
  const inside = angleToWorld("E", 1.0);
  close(clampCueAngle(T, "E", 1020, 540, inside), inside);
});

test("guide line: the first puck in the striker's path and its departure direction", () => {
  const pockets = pocketCentres(T);
  const pucks = [
    { id: 1, x: 540, y: 700 },
    { id: 2, x: 540, y: 400 },
    { id: 3, x: 600, y: 300 },
  ];
  const g = guideLine(T, 540, 60, Math.PI / 2, pucks, pockets);
  assert.equal(g.hit.kind, "puck");
  assert.equal(g.hit.id, 2);
  close(g.y, 400 - 38);
  close(g.puckAngle, Math.PI / 2);
  // A glancing line: the contact normal is off the path.
  const g2 = guideLine(T, 580, 60, Math.PI / 2, [{ id: 9, x: 600, y: 500 }], pockets);
  assert.equal(g2.hit.id, 9);
  close(Math.hypot(g2.x - 600, g2.y - 500), 38, 1e-9);
  assert.ok(g2.puckAngle > 0 && g2.puckAngle < Math.PI / 2);
});

test("guide line: rails and pockets when no puck is in the way", () => {
  const pockets = pocketCentres(T);
  const g = guideLine(T, 540, 60, Math.PI / 2, [], pockets);
  assert.deepEqual(g.hit, { kind: "rail", side: "N" });
  close(g.y, L - 24);
  const toCorner = Math.atan2(1020 - 60, 1020 - 60);
  const g2 = guideLine(T, 60, 60, toCorner, [], pockets);
  // Starting over the SW pocket's hole is not a hit moving away; the NE one is.
  assert.equal(g2.hit.kind, "pocket");
  assert.equal(g2.hit.pocket, "NE");
});

test("a server table overrides the preset's numbers only", () => {
  const t = tableFrom({ size: 1000, pocketRadius: "x", extra: 5, max_speed: 6000 });
  assert.equal(t.size, 1000);
  assert.equal(t.maxSpeed, 6000);
  const p = tableFrom({ zone: 110, pockets: { SW: [55, 55] } });
  assert.equal(p.zoneDepth, 110);
  assert.equal(p.pocketInset, 55);
  assert.equal(t.pocketRadius, 40);
  assert.equal(t.extra, undefined);
});

// ---- blind pucks, the first touch, aiming at a puck (issue 23) ----
const COMPETITION = T;
const holes = pocketCentres;

test("blind pucks are judged by the hole: the circle and the striker's own zone, not the partner's", () => {
  const t = COMPETITION;
  const c = t.size / 2;
  // The hole just inside the circle's line is in; just outside is out (004 § 21 (1)).
  assert.ok(inCircle(t, c + t.circleRadius - t.puckHoleRadius, c));
  assert.ok(!inCircle(t, c + t.circleRadius - t.puckHoleRadius + 0.01, c));
  assert.ok(inZone(t, "S", 300, t.zoneDepth - t.puckHoleRadius));
  assert.ok(!inZone(t, "S", 300, t.zoneDepth - t.puckHoleRadius + 0.01));
  // Doubles: S strikes; a puck in the N zone (the partner's) is not blind for S.
  assert.ok(!blindFor(t, "S", { x: 300, y: t.size - 50 }));
  assert.ok(blindFor(t, "N", { x: 300, y: t.size - 50 }));
});

test("the first touch: own free puck legal, own blind puck and an opponent's a foul, a rail a rebound", () => {
  const t = COMPETITION;
  const pk = holes(t);
  const up = Math.PI / 2;
  const at = (pucks) => firstTouch(t, "S", 0, 540, 60, up, pucks, pk);
  assert.deepEqual(pick(at([{ id: 1, owner: 0, x: 540, y: 700 }])), ["puck", 1, true, "own"]);
  assert.deepEqual(pick(at([{ id: 1, owner: 0, x: 540, y: 540 }])), ["puck", 1, false, "blind"]);
  assert.deepEqual(pick(at([{ id: 9, owner: 1, x: 540, y: 700 }])), ["puck", 9, false, "opponent"]);
  assert.deepEqual(pick(at([{ id: 3, owner: 2, x: 540, y: 700 }])), ["puck", 3, true, "own"]); // the partner's
  assert.deepEqual(pick(at([])), ["rail", null, null, "rebound"]);
  const toHole = firstTouch(t, "S", 0, 300, 60, Math.atan2(t.size - 60 - 60, 60 - 300), [], pk);
  assert.deepEqual(pick(toHole), ["pocket", null, false, "hole"]);
});

test("aiming at a puck: its centre first, then the ghost points of the holes it can go in", () => {
  const t = COMPETITION;
  const puck = { id: 1, owner: 0, x: 700, y: 640 };
  const aims = aimsAtPuck(t, "S", 540, 60, puck, holes(t));
  assert.equal(aims[0].pocket, null);
  assert.ok(Math.abs(aims[0].angle - Math.atan2(640 - 60, 700 - 540)) < 1e-12);
  const pots = aims.slice(1).map((a) => a.pocket);
  assert.ok(pots.includes("NE"), pots);
  // The striker along a pot's aim meets the puck at the ghost point, and sends it at the hole.
  const ne = aims.find((a) => a.pocket === "NE");
  const g = firstTouch(t, "S", 0, 540, 60, ne.angle, [puck], holes(t)).guide;
  const [hx, hy] = holes(t).NE;
  assert.ok(Math.abs(g.puckAngle - Math.atan2(hy - puck.y, hx - puck.x)) < 1e-9);
});

test("a press near the striker that first moves sideways moves it; one that moves away pulls", () => {
  const grab = 25;
  assert.equal(decideGesture(grab, 10, { radial: 30, tangential: 0 }), "place"); // on it
  assert.equal(decideGesture(grab, 35, { radial: 2, tangential: 20 }), "place"); // near, sideways
  assert.equal(decideGesture(grab, 35, { radial: 20, tangential: 5 }), "pull"); // near, away
  assert.equal(decideGesture(grab, 120, { radial: 1, tangential: 30 }), "pull"); // far: the cue
});

function pick(r) {
  return [r.kind, r.id, r.legal, r.reason];
}

test("a hole is named as the player sees it, his own rail nearest", () => {
  const holes = pocketCentres(T);
  const seen = (side) => Object.fromEntries(Object.entries(holes).map(([k, c]) => [k, holeSeenFrom(side, c, T.size)]));
  assert.deepEqual(seen("S"), { SW: "near_left", SE: "near_right", NE: "far_right", NW: "far_left" });
  assert.deepEqual(seen("N"), { SW: "far_right", SE: "far_left", NE: "near_left", NW: "near_right" });
  for (const side of SIDES) {
    assert.equal(new Set(Object.values(seen(side))).size, 4, `${side}: four different holes`);
  }
});
