// Canvas rendering of the table, to scale, from the viewer's side. Knows nothing of
// the network or input: it draws a scene object it is handed each display frame.
import { blindFor, firstTouch, guideLine, makeView, strikingField, teamOf, toWorld } from "./geometry.js";
import { t as say } from "./i18n.js";
import { pocketCentres } from "./table.js";
import { Drops, drawBoardLook, drawDiscLook } from "./board-look.js";

const COLOURS = {
  floor: "#1d2a24",
  rail: "#6b3f1f",
  railEdge: "#4a2a12",
  surface: "#e9d6ad",
  surfaceLight: "#f1e2bf",
  line: "#1b1b1b",
  pocket: "#0d0d0d",
  team: ["#b8322a", "#1f1f1f"], // 004 § 34 (1) 2): red and black recommended
  teamEdge: ["#7a1c16", "#000000"],
  striker: "#f4e7c6",
  strikerEdge: "#8b6a3a",
  illegal: "#e0201b",
  guide: "rgba(255,255,255,0.85)",
  legal: "#17a34a",
  foul: "#e0201b",
  blind: "#e07800",
  clock: ["#17a34a", "#e08a00", "#e0201b"],
  field: "rgba(40,150,70,0.13)",
  ghost: "rgba(40,90,200,0.55)",
  highlight: { restored: "#1e7be0", respotted: "#17a34a", penalty: "#e08a00", pocketed: "#6d4c9f" },
};

// What tells the table's marks apart besides their colour (docs/client.md, "Colours for
// colour-blind players"): to a red-green colour-blind eye the legal and the foul guide line
// are the same lightness, so they differ in pattern too, and the foul has a cross on its spot.
const CUES = {
  legal: { dash: [], cross: false },
  foul: { dash: [4, 6], cross: true },
  rebound: { dash: [10, 8], cross: false },
  blind: { dash: [5, 4], slash: true },
};

// Colours that must be told apart on the table, with the mark's cue when colour alone may
// not do it; web/tests/colour-vision.test.mjs checks each pair for each kind of colour vision.
const MUST_DIFFER = [
  { what: "own and opponent's puck", a: COLOURS.team[0], b: COLOURS.team[1] },
  { what: "red puck on the board", a: COLOURS.team[0], b: COLOURS.surface },
  { what: "black puck on the board", a: COLOURS.team[1], b: COLOURS.surface },
  { what: "blind ring on the board", a: COLOURS.blind, b: COLOURS.surface, cue: "blind" },
  { what: "blind ring round a red puck", a: COLOURS.blind, b: COLOURS.team[0], cue: "blind" },
  { what: "legal and foul guide line", a: COLOURS.legal, b: COLOURS.foul, cue: ["legal", "foul"] },
  { what: "legal guide line on the board", a: COLOURS.legal, b: COLOURS.surface },
  { what: "foul guide line on the board", a: COLOURS.foul, b: COLOURS.surface },
];

export class Renderer {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.cssW = 0;
    this.cssH = 0;
    this.dpr = 1;
    this.view = null;
    this.drops = new Drops();
    this.down = [1, -1];
  }

  /** Match the backing store to the element's size times devicePixelRatio: sharp on high-DPI. */
  resize(table, side, below) {
    const rect = this.canvas.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(rect.width));
    const h = Math.max(1, Math.round(rect.height));
    if (w !== this.cssW || h !== this.cssH || dpr !== this.dpr) {
      this.cssW = w;
      this.cssH = h;
      this.dpr = dpr;
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(h * dpr);
    }
    this.view = makeView(table, side, this.cssW, this.cssH, 20, below);
    return this.view;
  }

  draw(scene) {
    const { ctx } = this;
    const t = scene.table;
    const view = this.resize(t, scene.side, scene.below ?? 40);
    const d = this.dpr;
    ctx.setTransform(d, 0, 0, d, 0, 0);
    ctx.fillStyle = COLOURS.floor;
    ctx.fillRect(0, 0, this.cssW, this.cssH);
    // Draw in world millimetres: the affine map the view applies, read off three points,
    // takes world to device pixels for this side.
    ctx.save();
    const [ox, oy] = view.toScreen(0, 0);
    const [ax, ay] = view.toScreen(1, 0);
    const [bx, by] = view.toScreen(0, 1);
    ctx.setTransform(d * (ax - ox), d * (ay - oy), d * (bx - ox), d * (by - oy), d * ox, d * oy);
    // The world's way to the viewer's lower right, for the discs' shadows.
    this.down = toWorld(scene.side, 1, -1, 0);
    this.drawBoard(t);
    if (scene.aim) this.drawField(t, scene.side);
    for (const h of scene.highlights || []) this.drawHighlight(t, h, scene.now);
    this.preview = null;
    if (scene.ghost) this.drawAim(t, scene.ghost, scene.pucks, true, scene);
    for (const p of scene.pucks) this.drawPuck(t, p);
    this.drops.update(scene.pucks, !!scene.moving, Object.values(pocketCentres(t)), scene.now);
    this.dropping = this.drops.draw(this.ctx, (p, k) => this.drawPuck(t, p, k), scene.now);
    if (scene.blind) this.drawBlind(t, scene.blind, scene.pucks, scene.now);
    if (scene.striker) this.drawStriker(t, scene.striker);
    if (scene.clock && scene.striker) this.drawClockRing(t, scene.striker, scene.clock, scene.now);
    if (scene.aim) this.preview = this.drawAim(t, scene.aim, scene.pucks, false, scene);
    ctx.restore();
    // Labels go on in screen space: text drawn in the table's frame would be mirrored.
    const taken = (scene.players || []).map((p) => ({ ...this.drawRailName(view, t, p), what: "name" }));
    if (this.preview) {
      const box = this.drawTouchLabel(view, t, this.preview, taken);
      if (box) taken.push({ ...box, what: "touch" });
    }
    for (const h of scene.highlights || []) taken.push({ ...this.drawLabel(view, t, h, taken), what: h.kind });
    this.labels = taken.filter(Boolean); // the boxes drawn, for tests: none covers another
  }

  /**
   * Pucks the striker may not hit first on a direct stroke because they are blind for
   * the striking side (004 § 21 (1), (3)): a dashed orange ring and a slash.
   * blind: {side, seat}
   */
  drawBlind(t, blind, pucks, now) {
    const { ctx } = this;
    const team = teamOf(blind.seat);
    this.blindIds = [];
    for (const p of pucks) {
      if (teamOf(p.owner ?? 0) !== team || !blindFor(t, blind.side, p)) continue;
      this.blindIds.push(p.id);
      const r = t.puckRadius + 6;
      ctx.save();
      ctx.strokeStyle = COLOURS.blind;
      ctx.lineWidth = 3.5;
      ctx.setLineDash(CUES.blind.dash);
      ctx.lineDashOffset = -((now || 0) / 80) % 9;
      ctx.beginPath();
      ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.moveTo(p.x - r * 0.7, p.y - r * 0.7);
      ctx.lineTo(p.x + r * 0.7, p.y + r * 0.7);
      ctx.stroke();
      ctx.restore();
    }
  }

  /**
   * The stroke clock at the striker: a ring that empties as the time runs out, amber
   * under 10 s, red and pulsing in the last 5. clock: {left, total, running}
   */
  drawClockRing(t, s, clock, now) {
    const { ctx } = this;
    const frac = Math.max(0, Math.min(1, clock.left / Math.max(1, clock.total)));
    const low = clock.left <= 5;
    const colour = COLOURS.clock[low ? 2 : clock.left <= 10 ? 1 : 0];
    const pulse = low && clock.running ? 1 + 0.12 * Math.abs(Math.sin((now / 1000) * Math.PI * 2)) : 1;
    const r = (t.strikerRadius + 9) * pulse;
    ctx.save();
    ctx.lineWidth = 5;
    ctx.strokeStyle = "rgba(0,0,0,0.18)";
    ctx.beginPath();
    ctx.arc(s.x, s.y, r, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.strokeStyle = colour;
    ctx.lineCap = "round";
    ctx.beginPath();
    // Starts at the top of the viewer's screen and empties clockwise as seen.
    const top = Math.PI / 2 + (this.view?.rotation ?? 0);
    ctx.arc(s.x, s.y, r, top, top + frac * 2 * Math.PI, false);
    ctx.stroke();
    ctx.restore();
    this.clockDrawn = { frac, left: clock.left };
  }

  /** The first touch's verdict in a word beside its spot, clear of other labels. */
  drawTouchLabel(view, t, pv, taken) {
    if (!pv.reason) return null;
    const { ctx } = this;
    const mark = pv.legal === true ? "✓ " : pv.legal === false ? "✗ " : "";
    const text = `${mark}${say(`touch.${pv.reason}`)}`;
    const [px, py] = view.toScreen(pv.guide.x, pv.guide.y);
    ctx.font = "700 12px system-ui, sans-serif";
    const w = ctx.measureText(text).width + 10;
    const h = 18;
    // Beside the striker's outline at the touch, on the viewer's side of it: the pucks
    // there stay in sight.
    const r = t.strikerRadius * view.scale;
    const [sx] = view.toScreen(pv.from.x, pv.from.y);
    const x = px >= sx ? px - r - w - 4 : px + r + 4;
    let box = { x: Math.max(2, Math.min(this.cssW - w - 2, x)), y: py + r * 0.3, w, h };
    box = this.clear(box, taken);
    ctx.fillStyle = pv.legal === true ? COLOURS.legal : pv.legal === false ? COLOURS.foul : "rgba(30,30,30,0.8)";
    ctx.fillRect(box.x, box.y, box.w, box.h);
    ctx.fillStyle = "#fff";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(text, box.x + box.w / 2, box.y + box.h / 2);
    return box;
  }

  /** Move a label's box down (then up) until it overlaps none of `taken` and stays on screen. */
  clear(box, taken) {
    const hits = (b) => taken.some((o) => o && b.x < o.x + o.w && o.x < b.x + b.w && b.y < o.y + o.h && o.y < b.y + b.h);
    const inside = (b) => b.y >= 0 && b.y + b.h <= this.cssH;
    for (let k = 0; k < 12; k++) {
      for (const dy of [k * (box.h + 2), -k * (box.h + 2)]) {
        const b = { ...box, y: box.y + dy };
        if (!hits(b) && inside(b)) return b;
      }
    }
    return box;
  }

  /** A player's name (with the rating, if registered) on his own rail, along it, never upside
   * down; its box and text. */
  drawRailName(view, t, p) {
    const { ctx } = this;
    const [x, y] = toWorld(p.side, t.size / 2, -t.railWidth / 2, t.size);
    const [px, py] = view.toScreen(x, y);
    const [cx, cy] = view.toScreen(t.size / 2, t.size / 2);
    const across = Math.abs(px - cx) > Math.abs(py - cy);
    ctx.save();
    ctx.translate(px, py);
    if (across) ctx.rotate(px < cx ? -Math.PI / 2 : Math.PI / 2);
    const size = Math.max(9, Math.min(14, t.railWidth * view.scale * 0.55));
    ctx.font = `${p.active ? "700" : "500"} ${size}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = p.active ? "#fff6c8" : "rgba(255,240,210,0.8)";
    const text = p.active ? `▶ ${p.name}` : p.name;
    ctx.fillText(text, 0, 0);
    ctx.restore();
    const w = ctx.measureText(text).width + 4;
    const h = size + 4;
    const box = across ? { x: px - h / 2, y: py - w / 2, w: h, h: w } : { x: px - w / 2, y: py - h / 2, w, h };
    return { ...box, text };
  }

  /** A marked puck's label above it (or moved clear of names and other labels). */
  drawLabel(view, t, h, taken = []) {
    const { ctx } = this;
    const [px, py] = view.toScreen(h.x, h.y);
    const text = h.label || h.kind;
    ctx.font = "600 12px system-ui, sans-serif";
    const w = ctx.measureText(text).width + 8;
    let box = { x: px - w / 2, y: py - (t.puckRadius + 12) * view.scale - 16, w, h: 16 };
    box.x = Math.max(2, Math.min(this.cssW - w - 2, box.x));
    box = this.clear(box, taken);
    ctx.fillStyle = COLOURS.highlight[h.kind] || COLOURS.highlight.penalty;
    ctx.fillRect(box.x, box.y, w, 16);
    ctx.fillStyle = "#fff";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(text, box.x + w / 2, box.y + 8);
    return box;
  }

  /** The board, drawn once per size and side into a picture of its own, then copied: its
   * grain, shadows and gradients cost a frame's time when drawn every frame. */
  drawBoard(t) {
    const m = this.ctx.getTransform();
    const key = [this.canvas.width, this.canvas.height, m.a, m.b, m.c, m.d, m.e, m.f, t.size].join();
    if (this.boardKey !== key) {
      this.boardKey = key;
      this.boardPicture = new OffscreenCanvas(this.canvas.width, this.canvas.height);
      const g = /** @type {OffscreenCanvasRenderingContext2D} */ (this.boardPicture.getContext("2d"));
      g.setTransform(m);
      this.paintBoard(g, t);
    }
    this.ctx.save();
    this.ctx.setTransform(1, 0, 0, 1, 0, 0);
    this.ctx.drawImage(this.boardPicture, 0, 0);
    this.ctx.restore();
  }

  paintBoard(ctx, t) {
    const L = t.size;
    const z = t.zoneDepth;
    const m = L / 2;
    const c = t.circleRadius;
    const line = (x1, y1, x2, y2) => {
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x2, y2);
      ctx.stroke();
    };
    const lines = () => {
      // Edge-zone lines, 120 mm from each rail, rail to rail (004 § 33 (1) 1)).
      line(0, z, L, z);
      line(0, L - z, L, L - z);
      line(z, 0, z, L);
      line(L - z, 0, L - z, L);
      // The axis lines: the middle line of each edge zone and the centre circle's cross.
      line(m, 0, m, z);
      line(m, L - z, m, L);
      line(0, m, z, m);
      line(L - z, m, L, m);
      line(m - c, m, m + c, m);
      line(m, m - c, m, m + c);
      ctx.beginPath();
      ctx.arc(m, m, c, 0, 2 * Math.PI);
      ctx.stroke();
    };
    drawBoardLook(ctx, t, COLOURS, lines, Object.values(pocketCentres(t)));
  }

  /** Where the striker's centre may go this stroke (004 § 20 (1)), faintly. */
  drawField(t, side) {
    const f = strikingField(t);
    const [x0, y0] = toWorld(side, f.uMin, f.vMin, t.size);
    const [x1, y1] = toWorld(side, f.uMax, f.vMax, t.size);
    this.ctx.fillStyle = COLOURS.field;
    this.ctx.fillRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
  }

  drawDisc(x, y, radius, holeRadius, fill, edge) {
    drawDiscLook(this.ctx, x, y, radius, holeRadius, fill, edge, COLOURS.surface, this.down);
  }

  drawPuck(t, p, scale = 1) {
    const team = (p.owner ?? 0) % 2;
    this.drawDisc(p.x, p.y, t.puckRadius * scale, t.puckHoleRadius * scale, COLOURS.team[team], COLOURS.teamEdge[team]);
  }

  drawStriker(t, s) {
    if (s.ghost) return; // the ghost's own drawing shows it
    this.drawDisc(s.x, s.y, t.strikerRadius, t.strikerHoleRadius, COLOURS.striker, COLOURS.strikerEdge);
    if (s.illegal) {
      const { ctx } = this;
      ctx.beginPath();
      ctx.arc(s.x, s.y, t.strikerRadius + 5, 0, 2 * Math.PI);
      ctx.strokeStyle = COLOURS.illegal;
      ctx.lineWidth = 4;
      ctx.setLineDash([8, 6]);
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }

  /**
   * The cue behind the striker (pulled back by the power), and the guide line ahead to
   * what it touches first: green and solid for a legal first touch, red for a foul,
   * plain for a rebound. Returns the preview (geometry.js firstTouch) for the label.
   */
  drawAim(t, aim, pucks, ghost, scene) {
    const { ctx } = this;
    const dx = Math.cos(aim.angle);
    const dy = Math.sin(aim.angle);
    if (ghost) this.drawDisc(aim.x, aim.y, t.strikerRadius, t.strikerHoleRadius, "rgba(244,231,198,0.6)", COLOURS.ghost);
    const pockets = pocketCentres(t);
    const who = scene?.blind;
    const pv = who
      ? firstTouch(t, who.side, who.seat, aim.x, aim.y, aim.angle, pucks, pockets)
      : { guide: guideLine(t, aim.x, aim.y, aim.angle, pucks, pockets), legal: null, reason: null };
    const g = pv.guide;
    pv.from = { x: aim.x, y: aim.y };
    const colour = ghost ? COLOURS.ghost : pv.legal === true ? COLOURS.legal : pv.legal === false ? COLOURS.foul : COLOURS.guide;
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, 0, t.size, t.size); // the guide stays on the playing surface
    ctx.clip();
    ctx.strokeStyle = colour;
    ctx.lineWidth = pv.legal === null ? 2 : 3;
    const cue = CUES[pv.legal === false ? "foul" : pv.legal === true ? "legal" : "rebound"];
    ctx.setLineDash(cue.dash);
    ctx.beginPath();
    ctx.moveTo(aim.x + dx * t.strikerRadius, aim.y + dy * t.strikerRadius);
    ctx.lineTo(g.x, g.y);
    ctx.stroke();
    ctx.setLineDash([]);
    // The striker's outline where it first touches, and the struck puck's way.
    ctx.beginPath();
    ctx.arc(g.x, g.y, t.strikerRadius, 0, 2 * Math.PI);
    ctx.stroke();
    if (cue.cross && !ghost) {
      // A cross on the spot of the foul.
      const k = t.strikerRadius * 0.5;
      ctx.lineWidth = 4;
      ctx.beginPath();
      ctx.moveTo(g.x - k, g.y - k);
      ctx.lineTo(g.x + k, g.y + k);
      ctx.moveTo(g.x - k, g.y + k);
      ctx.lineTo(g.x + k, g.y - k);
      ctx.stroke();
    }
    if (g.puckAngle !== undefined) {
      const hx = g.x + Math.cos(g.puckAngle) * (t.strikerRadius + t.puckRadius);
      const hy = g.y + Math.sin(g.puckAngle) * (t.strikerRadius + t.puckRadius);
      const target = aim.pocket && pockets[aim.pocket];
      const len = target ? Math.hypot(target[0] - hx, target[1] - hy) : 120;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(hx, hy);
      ctx.lineTo(hx + Math.cos(g.puckAngle) * len, hy + Math.sin(g.puckAngle) * len);
      ctx.stroke();
    }
    ctx.restore();
    this.drawCue(t, aim, ghost, scene);
    return ghost ? null : pv;
  }

  /**
   * The cue: a tapered stick behind the striker, its tip drawn back by the pull, kept
   * inside the table's frame and the room in front of the viewer's rail, fading out.
   */
  drawCue(t, aim, ghost, scene) {
    const { ctx } = this;
    const dx = Math.cos(aim.angle);
    const dy = Math.sin(aim.angle);
    const gap = t.strikerRadius + 6 + 70 * (aim.power || 0); // the number beside it says the power exactly
    const len = 420;
    const tipX = aim.x - dx * gap;
    const tipY = aim.y - dy * gap;
    const nx = -dy;
    const ny = dx;
    ctx.save();
    const side = scene?.side ?? "S";
    const r = t.railWidth;
    const [x0, y0] = toWorld(side, -r, -r - (scene?.below ?? 0), t.size);
    const [x1, y1] = toWorld(side, t.size + r, t.size + r, t.size);
    ctx.beginPath();
    ctx.rect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
    ctx.clip();
    const fade = ctx.createLinearGradient(tipX, tipY, tipX - dx * len, tipY - dy * len);
    fade.addColorStop(0, ghost ? "rgba(150,110,60,0.45)" : "rgba(199,154,91,1)");
    fade.addColorStop(0.6, ghost ? "rgba(150,110,60,0.3)" : "rgba(199,154,91,0.85)");
    fade.addColorStop(1, "rgba(199,154,91,0)");
    ctx.beginPath();
    ctx.moveTo(tipX + nx * 4, tipY + ny * 4);
    ctx.lineTo(tipX - dx * len + nx * 9, tipY - dy * len + ny * 9);
    ctx.lineTo(tipX - dx * len - nx * 9, tipY - dy * len - ny * 9);
    ctx.lineTo(tipX - nx * 4, tipY - ny * 4);
    ctx.closePath();
    ctx.fillStyle = fade;
    ctx.fill();
    ctx.restore();
  }

  /** A ring that marks a restored, re-spotted or penalty puck for a while after a ruling. */
  drawHighlight(t, h, now) {
    const { ctx } = this;
    const age = Math.max(0, (now - h.since) / 1000);
    const pulse = 1 + 0.25 * Math.sin(age * 6);
    ctx.beginPath();
    const r = h.kind === "pocketed" ? t.pocketRadius + 5 : t.puckRadius + 9; // around the hole itself
    ctx.arc(h.x, h.y, r * pulse, 0, 2 * Math.PI);
    ctx.strokeStyle = COLOURS.highlight[h.kind] || COLOURS.highlight.penalty;
    ctx.lineWidth = 4;
    ctx.stroke();
  }
}

export { COLOURS, CUES, MUST_DIFFER };
