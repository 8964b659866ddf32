// Challenges (docs/protocol.md, "challenge"; docs/client.md, "Challenges and notices"): the
// lobby's form that challenges a registered player by name with the room's settings, the
// challenges waiting for this player (shown on every screen, each with its settings, Accept
// and Decline, and the time left), and what the challenger is told. A waiting challenge is
// also the tab's notice (js/notices.js).
import { $, el, toast } from "./dom.js";
import { formatClock } from "./hud.js";
import { onLanguage, refusalText, t } from "./i18n.js";

const REF = "chal-"; // the refs of this module's messages: their refusals are shown here

/**
 * @typedef {import("./protocol").Challenged | import("./protocol").ChallengeSent} ChallengeMsg
 * @typedef {{set: (key: string, text: string|null) => void}} Notices
 */

/**
 * A challenge's settings as one line: "Novuss · Singles · 2 sets · 45 s stroke clock · rated".
 * @param {ChallengeMsg} m
 * @returns {string}
 */
export function termsText(m) {
  const line = t("chal.terms", { game: t(`game.${m.game}`), mode: t(`mode.${m.mode}`), sets: m.sets, clock: m.clock });
  return m.rated ? `${line} · ${t("chal.rated")}` : line;
}

/**
 * The `challenge` message of the form's values (docs/protocol.md): a Crokinole room is of one
 * set with a 60 s clock, as the lobby's create makes it.
 * @param {{to: string, game: string, mode: "singles" | "doubles", sets: number, clock: number, rated: boolean}} v
 * @returns {import("./protocol").Challenge}
 */
export function challengeMessage(v) {
  const crokinole = v.game === "crokinole";
  return { t: "challenge", to: v.to.trim(), game: v.game, mode: v.mode, sets: crokinole ? 1 : v.sets, clock: crokinole ? 60 : v.clock, rated: v.rated };
}

/**
 * The challenges of the page.
 * @param {{send: (msg: import("./protocol").ClientMessage) => boolean, notices: Notices}} parts
 * @returns {{onMessage: (m: any) => boolean}}
 */
export function createChallenges({ send, notices }) {
  const form = /** @type {HTMLFormElement} */ ($("challenge-form"));
  const list = $("challenges-list");
  /** @type {Map<string, {m: import("./protocol").Challenged, until: number, node: HTMLElement}>} waiting for me */
  const incoming = new Map();
  /** @type {{m: import("./protocol").ChallengeSent, until: number}|null} my own, waiting for its answer */
  let mine = null;
  let refs = 0;
  /** @type {Map<string, {t: string, id?: string}>} this module's messages by ref, till answered */
  const asked = new Map();
  /** @type {ReturnType<typeof setInterval>|null} */
  let ticking = null;

  /** @param {string} text */
  function formError(text) {
    $("challenge-error").textContent = text;
    $("challenge-error").hidden = !text;
  }

  /**
   * @param {import("./protocol").Challenge | import("./protocol").ChallengeAnswer | import("./protocol").ChallengeCancel} msg
   * @returns {boolean} sent
   */
  function sendRef(msg) {
    const ref = `${REF}${++refs}`;
    asked.set(ref, msg);
    // answered ones are not told; over 20, the oldest goes (there is one)
    if (asked.size > 20) asked.delete(/** @type {string} */ (asked.keys().next().value));
    return send({ ...msg, ref });
  }

  /**
   * A refusal of this module's message, shown where the eye is: under the form for a
   * challenge, else as a toast (an answer to one no longer waiting takes its card away).
   * @param {{code: string, ref: string}} m
   */
  function refused(m) {
    const msg = asked.get(m.ref);
    asked.delete(m.ref);
    if (msg?.t === "challenge") return formError(refusalText(m));
    toast(refusalText(m));
    const gone = m.code === "challenge_gone" && msg?.id ? incoming.get(msg.id) : null;
    if (gone) ended({ id: gone.m.id, why: "" });
  }

  function draw() {
    const now = performance.now();
    $("challenges").hidden = incoming.size === 0;
    for (const { until, node } of incoming.values()) {
      /** @type {HTMLElement} */ (node.querySelector(".chal-left")).textContent = t("chal.left", { left: formatClock((until - now) / 1000) });
    }
    $("challenge-status").textContent = mine ? t("chal.sent", { name: mine.m.to, left: formatClock((mine.until - now) / 1000) }) : "";
    $("challenge-cancel").hidden = !mine;
    const first = incoming.values().next().value;
    notices.set("challenge", first ? t("notice.challenge", { name: first.m.from }) : null);
    const live = incoming.size > 0 || mine !== null;
    if (live && ticking === null) ticking = setInterval(draw, 1000);
    if (!live && ticking !== null) {
      clearInterval(ticking);
      ticking = null;
    }
  }

  /** @param {import("./protocol").Challenged} m */
  function card(m) {
    const answer = (accept) => () => sendRef({ t: "challenge_answer", id: m.id, accept });
    return el(
      "li",
      { class: "challenge", data: { id: m.id } },
      el("strong", { text: t("chal.from", { name: m.from }) }),
      el("span", { class: "muted", text: ` ${termsText(m)} · ` }),
      el("span", { class: "chal-left muted" }),
      el(
        "span",
        { class: "row" },
        el("button", { type: "button", class: "primary chal-accept", text: t("chal.accept"), onclick: answer(true) }),
        el("button", { type: "button", class: "chal-decline", text: t("chal.decline"), onclick: answer(false) }),
      ),
    );
  }

  /** @param {{id: string, why: string}} m */
  function ended(m) {
    const theirs = incoming.get(m.id);
    const own = mine?.m.id === m.id ? mine : null;
    if (theirs) {
      const focused = theirs.node.contains(document.activeElement);
      theirs.node.remove();
      incoming.delete(m.id);
      if (focused) $("challenges").querySelector("button")?.focus(); // the next, if any
      if (m.why === "cancelled" || m.why === "gone") toast(t(`chal.end.${m.why}`, { name: theirs.m.from }));
      else if (m.why === "busy" || m.why === "expired") toast(t(`chal.end.${m.why}`));
    }
    if (own) {
      mine = null;
      if (m.why === "cancelled") toast(t("chal.end.cancelled_mine"));
      else if (m.why === "gone") toast(t("chal.end.busy"));
      else toast(t(`chal.end.${m.why}`, { name: own.m.to }), 6000);
    }
    draw();
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    formError("");
    const f = new FormData(form);
    const v = /** @type {const} */ ({ to: String(f.get("chal_to") || ""), game: String(f.get("chal_game")), mode: f.get("chal_mode") === "doubles" ? "doubles" : "singles", sets: Number(f.get("chal_sets")), clock: Number(f.get("chal_clock")), rated: f.get("chal_rated") === "on" });
    sendRef(challengeMessage(v));
  });
  const game = /** @type {HTMLSelectElement} */ (form.elements.namedItem("chal_game"));
  game.addEventListener("change", () => {
    // a Crokinole room is of one set, with a 60 s clock (challengeMessage)
    for (const name of ["chal_sets", "chal_clock"]) /** @type {HTMLSelectElement} */ (form.elements.namedItem(name)).disabled = game.value === "crokinole";
  });
  $("challenge-cancel").addEventListener("click", () => mine && sendRef({ t: "challenge_cancel", id: mine.m.id }));
  onLanguage(() => {
    // the cards reworded in the language chosen
    for (const c of incoming.values()) {
      const node = card(c.m);
      c.node.replaceWith(node);
      c.node = node;
    }
    draw();
  });

  return {
    /**
     * A server message: true if it was this module's alone (a refusal of its own message).
     * @param {any} m any server message (js/protocol.d.ts), told apart by its `t`
     * @returns {boolean}
     */
    onMessage(m) {
      if (m.t === "welcome") {
        // a new connection: the server says again what waits for this player (challenges
        // sent from the old one ended with it)
        for (const c of incoming.values()) c.node.remove();
        incoming.clear();
        mine = null;
        form.hidden = !m.account;
        $("challenge-guest").hidden = !!m.account;
        draw();
      } else if (m.t === "challenged") {
        if (!incoming.has(m.id)) {
          const node = card(m);
          list.append(node);
          incoming.set(m.id, { m, until: performance.now() + m.expires_in * 1000, node });
        }
        draw();
      } else if (m.t === "challenge_sent") {
        mine = { m, until: performance.now() + m.expires_in * 1000 };
        form.reset();
        game.dispatchEvent(new Event("change")); // the sets and clock back with Novuss
        draw();
      } else if (m.t === "challenge_end") {
        ended(m);
      } else if (m.t === "error" && typeof m.ref === "string" && m.ref.startsWith(REF)) {
        refused(/** @type {{code: string, ref: string}} */ (m));
        return true;
      }
      return false;
    },
  };
}
