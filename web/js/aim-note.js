// Where the word about the aim stands (the match's table and the lessons' alike): above the
// striker, centred on it; moved sideways, then higher, when it would hide a hole, so that a
// player aiming into a corner sees the hole he aims at.
import { pocketCentres } from "./table.js";

/**
 * @typedef {{toScreen: (x: number, y: number) => number[], scale: number, width: number}} View
 * @typedef {{strikerRadius: number, pocketRadius: number}} TableLook
 */

/**
 * The note's place, in the table's box: the first of above, left of, right of the striker,
 * then the same one line higher, that leaves every hole in sight.
 * @param {View} view the renderer's view
 * @param {TableLook & Parameters<typeof pocketCentres>[0]} table
 * @param {{x: number, y: number}} striker world mm
 * @param {{w: number, h: number}} size the note's size in pixels
 * @returns {{left: number, top: number}}
 */
export function aimNoteSpot(view, table, striker, size) {
  const [sx, sy] = view.toScreen(striker.x, striker.y);
  const { w, h } = size;
  const top = sy - table.strikerRadius * view.scale - 44 - h;
  const holes = Object.values(pocketCentres(table)).map(([x, y]) => view.toScreen(x, y));
  const reach = table.pocketRadius * view.scale + 6;
  /** @param {number} left @param {number} y */
  const hides = (left, y) => holes.some(([hx, hy]) => hx > left - reach && hx < left + w + reach && hy > y - reach && hy < y + h + reach);
  /** @param {number} left */
  const fit = (left) => Math.max(4, Math.min(view.width - w - 4, left));
  const spots = [];
  for (const y of [top, top - h - 24]) {
    for (const left of [sx - w / 2, sx - w - 24, sx + 24]) spots.push({ left: fit(left), top: Math.max(4, y) });
  }
  return spots.find((s) => !hides(s.left, s.top)) ?? spots[0];
}

/**
 * Put the note there.
 * @param {HTMLElement} note
 * @param {View} view
 * @param {TableLook & Parameters<typeof pocketCentres>[0]} table
 * @param {{x: number, y: number}} striker
 */
export function placeAimNote(note, view, table, striker) {
  const spot = aimNoteSpot(view, table, striker, { w: note.offsetWidth || 200, h: note.offsetHeight || 40 });
  note.style.left = `${Math.round(spot.left)}px`;
  note.style.top = `${Math.round(spot.top)}px`;
}
