// The computer opponent in the page (docs/protocol.md: `computer`, `hint`, `takeback`,
// quick match's `computer_after`): the "Play the computer" form, computer players named
// in the page's language with their level, and practice: the hint drawn on the table and
// the take-back. Renders protocol data and reports intents upwards, as lobby.js does.
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { pocketCentres } from "./table.js";
import { param } from "./url.js";

export const LEVELS = [1, 2, 3, 4, 5];

/** The `computer` message of the form's values: the computer as opponents and/or partner,
 * in Novuss or Crokinole, either with practice's hints and take-backs. */
export function computerMessage(v) {
  const doubles = v.mode === "doubles";
  const crokinole = v.game === "crokinole";
  const msg = { t: "computer", mode: v.mode, level: Number(v.level), sets: Number(v.sets), clock: Number(v.clock) };
  if (crokinole) msg.game = "crokinole";
  if (doubles && v.partner) msg.partner = true;
  if (doubles && !v.opponents) msg.opponents = false;
  if (v.practice) msg.practice = true;
  return msg;
}

/** The `quick` message, with the wait after which the computer plays (0: never).
 * @param {import("./protocol").Quick["mode"]} mode
 * @param {string} game
 * @param {number} after
 * @param {number | string} level
 * @returns {import("./protocol").Quick} */
export function quickMessage(mode, game, after, level) {
  /** @type {import("./protocol").Quick} */
  const msg = { t: "quick", mode, ...(game === "crokinole" ? { game } : {}) };
  return after > 0 ? { ...msg, computer_after: after, level: Number(level) } : msg;
}

/** A computer seat's name in the page's language: "Computer (level 3)". */
export const computerName = (level) => t("computer.name", { level });

/** A match record's player as the page names it: the computer's seat in the page's language
 * (its level in the record since protocol 2.4), a person by the name played under.
 * @param {{name: string, computer?: number | null}} p */
export const playerName = (p) => (p.computer ? computerName(p.computer) : p.name);

/** Name the computer's seats of a room (`seats`) or lobby summary (`players`) in the page's
 * language; people's names are left as they are. */
export function nameComputers(seats) {
  for (const s of seats || []) if (s && s.computer) s.name = computerName(s.computer);
  return seats;
}

/** A practice room: hints and take-backs (never rated). */
export const isPractice = (room) => !!room?.options?.practice;

export class ComputerView {
  /** intents: {play(msg), hint(), takeback()} */
  constructor(intents) {
    const form = $("computer-form");
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const f = e.target.elements;
      intents.play(
        computerMessage({
          mode: f.mode.value,
          game: f.game.value,
          level: f.level.value,
          sets: f.sets.value,
          clock: f.clock.value,
          partner: f.partner.checked,
          opponents: f.opponents.checked,
          practice: f.practice.checked,
        }),
      );
    });
    form.addEventListener("change", () => this.showDoublesOptions());
    // ?game=: the game chosen where the visitor came from (the last of its lessons in /learn)
    const asked = param("game");
    if ([...form.elements.game.options].some((o) => o.value === asked)) form.elements.game.value = asked;
    this.showDoublesOptions();
    $("hint-btn").addEventListener("click", () => intents.hint());
    $("takeback-btn").addEventListener("click", () => intents.takeback());
  }

  /** The partner choice is for doubles; in doubles the computer fills at least one side.
   * Sets and the stroke clock are Novuss's: a Crokinole game is one, without a clock. */
  showDoublesOptions() {
    const f = $("computer-form").elements;
    const novuss = f.game.value !== "crokinole";
    for (const name of ["sets", "clock"]) {
      const label = /** @type {HTMLElement} */ (f.namedItem(name)).closest("label");
      if (label) label.hidden = !novuss;
    }
    const doubles = f.mode.value === "doubles";
    f.partner.disabled = !doubles;
    f.opponents.disabled = !doubles;
    if (!doubles) f.opponents.checked = true;
    $("computer-play").disabled = doubles && !f.partner.checked && !f.opponents.checked;
  }

  /** The wait chosen for quick match's computer (0: never) and its level. */
  quickChoice() {
    return { after: Number($("quick-computer").value), level: $("computer-form").elements.level.value };
  }

  /** The practice buttons: for a seated player of a practice room, usable at rest. */
  renderControls(room, me, turn, phase) {
    const practice = isPractice(room) && me !== null;
    $("practice-controls").hidden = !practice;
    if (!practice) return;
    $("hint-btn").disabled = !(phase === "play" && turn === me);
    $("takeback-btn").disabled = phase !== "play";
  }
}

/** Draw a hint over the table: the suggested striker placement, the aim from it, the target
 * puck and the hole it is meant for. `view` maps table mm to the canvas's CSS pixels. */
export function drawHint(ctx, view, dpr, hint, discs, table) {
  if (!hint || !view) return;
  ctx.save();
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const [sx, sy] = view.toScreen(hint.x, hint.y);
  const r = table.strikerRadius * view.scale;
  ctx.strokeStyle = "#1e7be0";
  ctx.fillStyle = "rgba(30,123,224,0.18)";
  ctx.lineWidth = 2;
  ctx.setLineDash([6, 4]);
  ctx.beginPath();
  ctx.arc(sx, sy, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.stroke();
  const target = discs.find((d) => d.id === hint.target);
  const reach = target ? Math.hypot(target.x - hint.x, target.y - hint.y) : 300;
  const [ex, ey] = view.toScreen(hint.x + Math.cos(hint.angle) * reach, hint.y + Math.sin(hint.angle) * reach);
  ctx.beginPath();
  ctx.moveTo(sx, sy);
  ctx.lineTo(ex, ey);
  ctx.stroke();
  ctx.setLineDash([]);
  if (target) {
    const [tx, ty] = view.toScreen(target.x, target.y);
    ctx.beginPath();
    ctx.arc(tx, ty, table.puckRadius * view.scale + 4, 0, Math.PI * 2);
    ctx.stroke();
  }
  const pocket = hint.pocket && pocketCentres(table)[hint.pocket];
  if (pocket) {
    const [px, py] = view.toScreen(pocket[0], pocket[1]);
    ctx.beginPath();
    ctx.arc(px, py, table.pocketRadius * view.scale + 5, 0, Math.PI * 2);
    ctx.stroke();
  }
  ctx.restore();
}
