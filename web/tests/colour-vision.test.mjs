// The table's colours for colour-blind players (docs/client.md, "Colours for colour-blind
// players"): each pair that must be told apart, seen with normal vision and simulated for
// protanopia, deuteranopia and tritanopia (Machado et al. 2009), is at least ΔE 20 apart
// and at least 15 apart in lightness (L*), which thin lines and small discs keep when hue
// is lost; a pair that is not has a cue besides colour (a pattern, a cross, a slash).
import { test } from "node:test";
import assert from "node:assert/strict";
import { KINDS, difference, parseHex, simulate } from "../js/colour-vision.js";
import { COLOURS, CUES, MUST_DIFFER } from "../js/render.js";

const MIN_DELTA_E = 20;
const MIN_DELTA_L = 15;

test("the simulation keeps grey grey and confuses red and green for red-green blindness", () => {
  for (const kind of KINDS) {
    const [r, g, b] = simulate(parseHex("#808080"), kind);
    assert.ok(Math.abs(r - g) < 0.01 && Math.abs(g - b) < 0.01, kind);
  }
  assert.ok(difference("#ff0000", "#00ff00", "normal").deltaE > 150);
  assert.ok(difference("#c00000", "#6f6f00", "deuteranopia").deltaE < difference("#c00000", "#6f6f00", "normal").deltaE / 2);
});

test("every pair on the table is told apart by colour, or by a cue besides it", () => {
  const failing = [];
  for (const pair of MUST_DIFFER) {
    for (const kind of KINDS) {
      const d = difference(pair.a, pair.b, kind);
      if (d.deltaE >= MIN_DELTA_E && d.deltaL >= MIN_DELTA_L) continue;
      failing.push(`${pair.what} (${kind}: ΔE ${d.deltaE.toFixed(0)}, ΔL ${d.deltaL.toFixed(0)})`);
      assert.ok(pair.cue, `${pair.what} looks alike to ${kind} (ΔE ${d.deltaE.toFixed(1)}, ΔL ${d.deltaL.toFixed(1)}) and has no other cue`);
    }
  }
  // Known: the legal and the foul guide line are alike in lightness to red-green and
  // blue-yellow colour blindness; their cues must then differ.
  assert.ok(failing.some((f) => f.startsWith("legal and foul guide line (deuteranopia")), failing.join("; "));
});

test("the cues that stand in for colour really differ", () => {
  assert.notDeepEqual(CUES.legal.dash, CUES.foul.dash);
  assert.equal(CUES.legal.dash.length, 0); // solid
  assert.ok(CUES.foul.dash.length > 0 && CUES.foul.cross); // dotted, with a cross on the spot
  assert.ok(CUES.blind.dash.length > 0 && CUES.blind.slash); // dashed ring and a slash
});

test("the two teams' pucks stay apart for every kind of colour vision", () => {
  for (const kind of KINDS) {
    const d = difference(COLOURS.team[0], COLOURS.team[1], kind);
    assert.ok(d.deltaE >= MIN_DELTA_E && d.deltaL >= MIN_DELTA_L, `${kind}: ${JSON.stringify(d)}`);
  }
});
