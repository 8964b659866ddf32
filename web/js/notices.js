// The tab's notice (docs/client.md, "Challenges and notices"): while the page is hidden and
// something waits for the player (their turn, a challenge, their tournament match), the title
// says so, "(!) Your turn — Novuss online", and, if the player turned notifications on, the
// browser shows one; the title comes back when the page is visible again. The browser is
// asked for permission only when the player presses the toggle (a user gesture), never on load.

export const MARK = "(!)";
const STORE_KEY = "nv-notify"; // "1": the player turned notifications on

/**
 * @typedef {{hidden: boolean, title: string, addEventListener: (type: string, fn: () => void) => void}} NoticeDoc
 * @typedef {{permission: string, requestPermission: () => Promise<string>}} NotificationApi
 */

/**
 * The page's notices.
 * @param {{doc?: NoticeDoc, storage?: Storage|null, api?: (NotificationApi & (new (title: string, options?: object) => object))|null}} [parts]
 *   the document, where the player's choice is kept, the Notification constructor (null: none)
 * @returns {{set: (key: string, text: string|null) => void, waiting: () => string|null,
 *   enabled: () => boolean, toggle: () => Promise<boolean>, supported: boolean}}
 */
export function createNotices(parts = {}) {
  const doc = parts.doc ?? document;
  const storage = parts.storage === undefined ? globalThis.localStorage ?? null : parts.storage;
  const api = parts.api === undefined ? globalThis.Notification ?? null : parts.api;
  /** @type {Map<string, string>} what waits, by what it is ("turn", "challenge", "round") */
  const reasons = new Map();
  let plain = doc.title; // the title without the notice
  /** @type {string|null} */
  let shown = null; // the notice the title carries now
  /** @type {string|null} */
  let notified = null; // the last text a browser notification was shown for

  /** @returns {string|null} the first of what waits, as set */
  function waiting() {
    for (const text of reasons.values()) return text;
    return null;
  }

  function enabled() {
    return !!api && api.permission === "granted" && storage?.getItem(STORE_KEY) === "1";
  }

  function render() {
    const text = doc.hidden ? waiting() : null;
    if (text === shown) return;
    if (shown === null) plain = doc.title; // the page may have retitled itself meanwhile
    doc.title = text === null ? plain : `${MARK} ${text} — ${plain}`;
    shown = text;
    if (text === null) notified = null;
    else if (text !== notified && enabled() && api) {
      notified = text; // once per thing waiting, not at every message while it waits
      try {
        new api(text, { tag: "novuss-notice", body: plain });
      } catch {
        // a browser that allows notifications only from a service worker: the title suffices
      }
    }
  }

  doc.addEventListener("visibilitychange", render);

  return {
    supported: !!api,
    waiting,
    enabled,
    /**
     * Something waits for the player (`text`), or no longer (null).
     * @param {string} key
     * @param {string|null} text
     */
    set(key, text) {
      if (text) reasons.set(key, text);
      else reasons.delete(key);
      render();
    },
    /**
     * The toggle pressed (a user gesture): turn notifications on, asking the browser for
     * permission if it has not been given, or off.
     * @returns {Promise<boolean>} whether they are on now
     */
    async toggle() {
      if (!api) return false;
      if (enabled()) {
        storage?.removeItem(STORE_KEY);
        return false;
      }
      const answer = api.permission === "granted" ? "granted" : await api.requestPermission();
      if (answer === "granted") storage?.setItem(STORE_KEY, "1");
      return enabled();
    },
  };
}
