// The magnifier of a touch screen (docs/client.md, "Phone"): what the finger hides, enlarged.

const LOUPE_ZOOM = 2.6;

/**
 * On a touch screen the finger hides the discs and they are small: while a finger
 * aims (and a moment after a tap) a magnifier in a top corner shows, enlarged, what
 * matters: the striker while it moves, else where the striker first touches.
 */
export function drawLoupe(loupe, canvas, renderer, aimer, a, now) {
  const drag = aimer.drag;
  const on = !!a && ((drag && drag.kind === "touch") || aimer.loupeUntil > now);
  if (loupe.hidden !== !on) loupe.hidden = !on;
  if (!on) return;
  const view = renderer.view;
  const g = renderer.preview?.guide;
  const [fx, fy] = aimer.gesture === "place" || !g ? view.toScreen(a.x, a.y) : view.toScreen(g.x, g.y);
  const size = loupe.offsetWidth || 150;
  const dpr = renderer.dpr;
  if (loupe.width !== Math.round(size * dpr)) {
    loupe.width = Math.round(size * dpr);
    loupe.height = Math.round(size * dpr);
  }
  // In the corner away from the focus (and the finger over it).
  const right = fx < view.width / 2;
  const low = fy < view.height / 2;
  loupe.style.left = right ? "" : "0.4rem";
  loupe.style.right = right ? "0.4rem" : "";
  loupe.style.top = low ? "" : "0.4rem";
  loupe.style.bottom = low ? "0.4rem" : "";
  const span = size / LOUPE_ZOOM;
  const ctx = loupe.getContext("2d");
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, loupe.width, loupe.height);
  ctx.drawImage(canvas, (fx - span / 2) * dpr, (fy - span / 2) * dpr, span * dpr, span * dpr, 0, 0, loupe.width, loupe.height);
  loupe.dataset.zoom = String(LOUPE_ZOOM);
  loupe.dataset.scale = String(view.scale * LOUPE_ZOOM); // px a mm inside the loupe
}
