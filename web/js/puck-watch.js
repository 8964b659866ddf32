// Pressing a puck when one is not the player to strike (the other player, a partner waiting,
// a watcher): the table says whether the player to strike may strike it directly now and
// why, as pressing it says to the striker himself (docs/client.md, "Pressing a puck"), in
// the third person and with the paragraph as a link. The verdict is explainPuck's
// (puck-rules.js), for the striker's seat and side: the same the blind rings show.
import { el } from "./dom.js";
import { t } from "./i18n.js";
import { explainPuck, citeHref } from "./puck-rules.js";

const SHOW_MS = 7000;

/**
 * Whose the puck is for the striker (mine/partner/opponent), as explainPuck says; the
 * words from `seen.<reason>` with the striker's name.
 * ctx: {table, seat, side, name, doubles}
 */
export function explainForWatcher(ctx, puck) {
  const why = explainPuck(ctx.table, ctx.side, ctx.seat, puck, { doubles: ctx.doubles });
  return { id: puck.id, ...why, text: t(`seen.${why.reason}`, { whose: why.whose, name: ctx.name }) };
}

export class PuckWatch {
  /**
   * canvas: the table; note: the element that shows the words (role="status": read out);
   * getView(): the screen transform; context(): {table, seat, side, name, doubles, pucks}
   * while someone else is to strike and the table is still, else null.
   */
  constructor(canvas, note, { getView, context }) {
    this.canvas = canvas;
    this.note = note;
    this.getView = getView;
    this.context = context;
    this.explained = null; // the last puck pressed: {id, reason, playable, cite, whose, text}
    /** @type {number | undefined} */
    this.timer = undefined;
    canvas.addEventListener("click", (e) => this.click(e));
  }

  /** A click or tap on a puck (a finger-wide target), while someone else is to strike. */
  click(e) {
    const ctx = this.context();
    const view = this.getView();
    if (!ctx || !view) return;
    const r = this.canvas.getBoundingClientRect();
    const px = e.clientX - r.left;
    const py = e.clientY - r.top;
    const reach = ctx.table.puckRadius * view.scale + (e.pointerType === "touch" ? 22 : 10);
    let best = null;
    let bestD = reach;
    for (const p of ctx.pucks) {
      const [qx, qy] = view.toScreen(p.x, p.y);
      const d = Math.hypot(qx - px, qy - py);
      if (d <= bestD) [best, bestD] = [p, d];
    }
    if (best) this.press(best);
  }

  /** Say, near the puck, whether the player to strike may strike it directly, and why. */
  press(puck) {
    const ctx = this.context();
    if (!ctx) return;
    this.explained = explainForWatcher(ctx, puck);
    const { text, cite } = this.explained;
    const href = citeHref(cite);
    const link = href ? Object.assign(el("a", { text: `(${cite})` }), { href, target: "_blank", rel: "noopener" }) : null;
    this.note.replaceChildren(text, ...(link ? [" ", link] : []));
    this.note.hidden = false;
    const view = this.getView();
    const [x, y] = view.toScreen(puck.x, puck.y);
    const w = this.note.offsetWidth || 220;
    this.note.style.left = `${Math.round(Math.max(4, Math.min(view.width - w - 4, x - w / 2)))}px`;
    const above = y - ctx.table.puckRadius * view.scale - 12 - this.note.offsetHeight;
    this.note.style.top = `${Math.round(above > 4 ? above : y + ctx.table.puckRadius * view.scale + 12)}px`;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.hide(), SHOW_MS);
  }

  hide() {
    this.note.hidden = true;
    this.explained = null;
  }
}
