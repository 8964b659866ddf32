// When a table's canvas is drawn again. Drawn every display frame, a still table cost a
// third of a core in Chromium (more on a phone's battery) for a picture that had not changed.
// Now a frame draws when something moves (a stroke's motion, a puck dropping, a highlight
// fading, the clock's last seconds), when a message or the player's input may have changed
// the picture, and ten times a second for what changes slowly (the clock's ring, the blind
// pucks' marching edge, a countdown), which a tenth of a second moves by under a pixel.

/** How often a still picture is drawn again for what changes slowly. */
const SLOW_MS = 100;

let version = 0;

/** Something the picture shows may have changed: the next display frame draws it. */
export function changed() {
  version += 1;
}

// Any input may change the picture: an aim, a setting, a resized window.
for (const type of ["pointerdown", "pointermove", "pointerup", "pointercancel", "keydown", "keyup", "wheel", "input", "change", "resize", "focus", "blur"]) {
  addEventListener(type, changed, { capture: true, passive: true });
}
document.addEventListener("visibilitychange", changed);

/** Whether a display frame should draw: one gate per canvas. */
export class DrawGate {
  constructor() {
    this.drawnAt = -Infinity;
    this.drawnVersion = -1;
    this.draws = 0; // frames drawn, for the tests
    this.moving = false; // whether something moved at the last frame
  }

  /**
   * Whether the frame at `now` draws, and if so it counts as drawn.
   * @param {number} now the frame's time (requestAnimationFrame's)
   * @param {boolean} moving something moves: every frame draws
   * @returns {boolean}
   */
  due(now, moving) {
    this.moving = moving;
    if (!moving && this.drawnVersion === version && now - this.drawnAt < SLOW_MS) return false;
    this.drawnAt = now;
    this.drawnVersion = version;
    this.draws += 1;
    return true;
  }
}
