// The pucks on the table as buttons, for the keyboard and screen readers (the canvas has
// none): focusing one presses the puck as a click does (aims at it and says whether it may
// be struck first directly, 004 § 21 (1), (3): input.js pressPuck); Enter or Space presses
// it again (its holes in turn). Present while the player holds the striker.
import { el } from "./dom.js";
import { t } from "./i18n.js";

const ORDER = { mine: 0, partner: 1, opponent: 2 };

/**
 * Fill `box` with a button per puck ({id, owner, x, y}), the player's (seat `me`) first,
 * then the partner's, then the opponents'. press(puck, again) is called on focus (again:
 * false) and on a press (true); label(whose, k) names a button (for someone not striking, `me`
 * is the striker's seat and the names are his). Rebuilt only when the pucks, the language or
 * the names change.
 */
export function puckList(box, pucks, me, press, label = (whose, k) => t("puck.item", { whose, k })) {
  const whose = (p) => (p.owner === me ? "mine" : p.owner % 2 === me % 2 ? "partner" : "opponent");
  const sorted = [...pucks].sort((a, b) => ORDER[whose(a)] - ORDER[whose(b)] || a.owner - b.owner || a.id - b.id);
  const key = `${sorted.map((p) => `${p.id}:${p.x},${p.y}`).join(";")}|${document.documentElement.lang}|${me}|${label("mine", 1)}`;
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const count = new Map();
  box.replaceChildren(
    ...sorted.map((p) => {
      const k = (count.get(p.owner) || 0) + 1;
      count.set(p.owner, k);
      const b = el("button", { type: "button", text: label(whose(p), k), data: { puck: p.id } });
      // A mouse click focuses first: that press is the focus's, the click adds none.
      let fresh = false;
      b.addEventListener("focus", () => {
        fresh = true;
        press(p, false);
      });
      b.addEventListener("click", (e) => {
        if (!(fresh && e.detail > 0)) press(p, true);
        fresh = false;
      });
      return b;
    }),
  );
}
