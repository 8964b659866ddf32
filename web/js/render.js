// Canvas rendering of the table, to scale, from the viewer's side. Knows nothing of
// the network or input: it draws a scene object it is handed each display frame.
import { guideLine, makeView, strikingField, toWorld } from "./geometry.js";
import { pocketCentres } from "./table.js";

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
  field: "rgba(40,150,70,0.13)",
  ghost: "rgba(40,90,200,0.55)",
  highlight: { restored: "#1e7be0", respotted: "#17a34a", penalty: "#e08a00" },
};

const LABELS = { restored: "put back", respotted: "re-spotted", penalty: "penalty puck" };

export class Renderer {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.cssW = 0;
    this.cssH = 0;
    this.dpr = 1;
    this.view = null;
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
    this.drawBoard(t);
    if (scene.aim) this.drawField(t, scene.side);
    for (const h of scene.highlights || []) this.drawHighlight(t, h, scene.now);
    if (scene.ghost) this.drawAim(t, scene.ghost, scene.pucks, true);
    for (const p of scene.pucks) this.drawPuck(t, p);
    if (scene.striker) this.drawStriker(t, scene.striker);
    if (scene.aim) this.drawAim(t, scene.aim, scene.pucks, false);
    ctx.restore();
    // Labels go on in screen space: text drawn in the table's frame would be mirrored.
    for (const h of scene.highlights || []) this.drawLabel(view, t, h);
    for (const p of scene.players || []) this.drawRailName(view, t, p);
  }

  /** A player's name on his own rail, along it, never upside down. */
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
    ctx.fillText(p.active ? `▶ ${p.name}` : p.name, 0, 0);
    ctx.restore();
  }

  drawLabel(view, t, h) {
    const { ctx } = this;
    const [px, py] = view.toScreen(h.x, h.y);
    const text = LABELS[h.kind] || h.kind;
    ctx.font = "600 12px system-ui, sans-serif";
    const w = ctx.measureText(text).width + 8;
    const y = py - (t.puckRadius + 12) * view.scale - 16;
    ctx.fillStyle = COLOURS.highlight[h.kind] || COLOURS.highlight.penalty;
    ctx.fillRect(px - w / 2, y, w, 16);
    ctx.fillStyle = "#fff";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(text, px, y + 8);
  }

  drawBoard(t) {
    const { ctx } = this;
    const L = t.size;
    const r = t.railWidth;
    ctx.fillStyle = COLOURS.railEdge;
    ctx.fillRect(-r - 3, -r - 3, L + 2 * r + 6, L + 2 * r + 6);
    ctx.fillStyle = COLOURS.rail;
    ctx.fillRect(-r, -r, L + 2 * r, L + 2 * r);
    // The rails' inner edge, and a little light across the powdered plywood.
    ctx.fillStyle = COLOURS.railEdge;
    ctx.fillRect(-4, -4, L + 8, L + 8);
    const light = ctx.createRadialGradient(L / 2, L / 2, L * 0.1, L / 2, L / 2, L * 0.75);
    light.addColorStop(0, COLOURS.surfaceLight);
    light.addColorStop(1, COLOURS.surface);
    ctx.fillStyle = light;
    ctx.fillRect(0, 0, L, L);
    ctx.strokeStyle = COLOURS.line;
    ctx.lineWidth = 2;
    const z = t.zoneDepth;
    const line = (x1, y1, x2, y2) => {
      ctx.beginPath();
      ctx.moveTo(x1, y1);
      ctx.lineTo(x2, y2);
      ctx.stroke();
    };
    // Edge-zone lines, 120 mm from each rail, rail to rail (004 § 33 (1) 1)).
    line(0, z, L, z);
    line(0, L - z, L, L - z);
    line(z, 0, z, L);
    line(L - z, 0, L - z, L);
    // The axis lines: the middle line of each edge zone and the centre circle's cross.
    const m = L / 2;
    const c = t.circleRadius;
    line(m, 0, m, z);
    line(m, L - z, m, L);
    line(0, m, z, m);
    line(L - z, m, L, m);
    line(m - c, m, m + c, m);
    line(m, m - c, m, m + c);
    ctx.beginPath();
    ctx.arc(m, m, c, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fillStyle = COLOURS.pocket;
    for (const [px, py] of Object.values(pocketCentres(t))) {
      ctx.beginPath();
      ctx.arc(px, py, t.pocketRadius, 0, 2 * Math.PI);
      ctx.fill();
    }
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
    const { ctx } = this;
    // A soft shadow towards the viewer's lower right gives the discs some height.
    ctx.beginPath();
    ctx.arc(x + radius * 0.08, y - radius * 0.08, radius, 0, 2 * Math.PI);
    ctx.fillStyle = "rgba(0,0,0,0.22)";
    ctx.fill();
    ctx.beginPath();
    ctx.arc(x, y, radius, 0, 2 * Math.PI);
    ctx.fillStyle = fill;
    ctx.fill();
    // A turned wooden disc: lighter towards its top face's middle.
    const sheen = ctx.createRadialGradient(x, y, holeRadius, x, y, radius);
    sheen.addColorStop(0, "rgba(255,255,255,0.22)");
    sheen.addColorStop(1, "rgba(255,255,255,0)");
    ctx.fillStyle = sheen;
    ctx.fill();
    ctx.lineWidth = Math.max(1, radius * 0.12);
    ctx.strokeStyle = edge;
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(x, y, holeRadius, 0, 2 * Math.PI);
    ctx.fillStyle = COLOURS.surface; // the board seen through the hole
    ctx.fill();
  }

  drawPuck(t, p) {
    const team = (p.owner ?? 0) % 2;
    this.drawDisc(p.x, p.y, t.puckRadius, t.puckHoleRadius, COLOURS.team[team], COLOURS.teamEdge[team]);
  }

  drawStriker(t, s) {
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

  /** The cue behind the striker (pulled back by the power), and the guide line ahead. */
  drawAim(t, aim, pucks, ghost) {
    const { ctx } = this;
    const dx = Math.cos(aim.angle);
    const dy = Math.sin(aim.angle);
    if (ghost) this.drawDisc(aim.x, aim.y, t.strikerRadius, t.strikerHoleRadius, "rgba(244,231,198,0.6)", COLOURS.ghost);
    const g = guideLine(t, aim.x, aim.y, aim.angle, pucks, pocketCentres(t));
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, 0, t.size, t.size); // the guide stays on the playing surface
    ctx.clip();
    ctx.strokeStyle = ghost ? COLOURS.ghost : COLOURS.guide;
    ctx.lineWidth = 2;
    ctx.setLineDash([10, 8]);
    ctx.beginPath();
    ctx.moveTo(aim.x + dx * t.strikerRadius, aim.y + dy * t.strikerRadius);
    ctx.lineTo(g.x, g.y);
    ctx.stroke();
    ctx.setLineDash([]);
    // The striker's outline where it first touches, and the struck puck's way.
    ctx.beginPath();
    ctx.arc(g.x, g.y, t.strikerRadius, 0, 2 * Math.PI);
    ctx.stroke();
    if (g.puckAngle !== undefined) {
      const hx = g.x + Math.cos(g.puckAngle) * (t.strikerRadius + t.puckRadius);
      const hy = g.y + Math.sin(g.puckAngle) * (t.strikerRadius + t.puckRadius);
      ctx.beginPath();
      ctx.moveTo(hx, hy);
      ctx.lineTo(hx + Math.cos(g.puckAngle) * 120, hy + Math.sin(g.puckAngle) * 120);
      ctx.stroke();
    }
    ctx.restore();
    // The cue: a tapered stick behind the striker, its tip drawn back by the pull.
    const gap = t.strikerRadius + 6 + 160 * (aim.power || 0);
    const len = 900;
    const tipX = aim.x - dx * gap;
    const tipY = aim.y - dy * gap;
    const nx = -dy;
    const ny = dx;
    ctx.beginPath();
    ctx.moveTo(tipX + nx * 4, tipY + ny * 4);
    ctx.lineTo(tipX - dx * len + nx * 11, tipY - dy * len + ny * 11);
    ctx.lineTo(tipX - dx * len - nx * 11, tipY - dy * len - ny * 11);
    ctx.lineTo(tipX - nx * 4, tipY - ny * 4);
    ctx.closePath();
    ctx.fillStyle = ghost ? "rgba(150,110,60,0.45)" : "#c79a5b";
    ctx.fill();
    ctx.strokeStyle = ghost ? COLOURS.ghost : "#5b3a17";
    ctx.lineWidth = 1.5;
    ctx.stroke();
  }

  /** A ring that marks a restored, re-spotted or penalty puck for a while after a ruling. */
  drawHighlight(t, h, now) {
    const { ctx } = this;
    const age = Math.max(0, (now - h.since) / 1000);
    const pulse = 1 + 0.25 * Math.sin(age * 6);
    ctx.beginPath();
    ctx.arc(h.x, h.y, (t.puckRadius + 9) * pulse, 0, 2 * Math.PI);
    ctx.strokeStyle = COLOURS.highlight[h.kind] || COLOURS.highlight.penalty;
    ctx.lineWidth = 4;
    ctx.stroke();
  }
}

export { COLOURS };
