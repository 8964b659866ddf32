// The accounts' and players' HTTP API (docs/protocol.md, "HTTP") for the pages outside the
// table's client: account.html, profile.html, leaderboard.html; and their words, from the
// client's catalogs (js/i18n/) with the same language menu and remembered choice.
import { has, initLanguage, languageMenu, locale, onLanguage, t, translatePage } from "../i18n.js";
import { foldingMenu } from "../topbar.js";

/** The page in the chosen language, its menu working; redraw() rewords what the script wrote. */
export function setUpPage(redraw) {
  initLanguage();
  translatePage(document);
  languageMenu(document.getElementById("lang"));
  foldingMenu();
  onLanguage(redraw);
}

/** GET a JSON document; resolves to {status, body}. */
export async function getJSON(path) {
  const r = await fetch(path, { credentials: "same-origin" });
  let body;
  try {
    body = await r.json();
  } catch {
    body = { error: "bad_answer", message: `The server answered ${r.status}.` };
  }
  return { status: r.status, body };
}

/** POST a JSON body (the server refuses anything else); resolves to {status, body}. */
export async function postJSON(path, data = {}) {
  const r = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data),
  });
  let body;
  try {
    body = await r.json();
  } catch {
    body = { error: "bad_answer", message: `The server answered ${r.status}.` };
  }
  return { status: r.status, body };
}

/**
 * A refusal of the account API in the page's language (docs/accounts.md, "Errors"), worded
 * from its code and reason with its parameters (a wait in whole minutes, rounded up); a code
 * newer than this page keeps the server's English. `passwordOnly`: the form asked a password
 * alone, so a `bad_login` is the password's.
 */
export function accountRefusal(status, body, passwordOnly = false) {
  const { error: code, reason, params = {} } = body || {};
  if (code === "throttled") return t("acct.err.throttled", { n: Math.max(1, Math.ceil((Number(params.retry_after) || 0) / 60)) });
  if (code === "bad_login" && passwordOnly) return t("acct.err.bad_password");
  for (const key of [`acct.err.${code}.${reason}`, `acct.err.${code}`]) if (code && has(key)) return t(key, params);
  return body?.message || t("acct.refused", { status });
}

/** A time in seconds since the epoch, in the page's language (and the browser's variant of it). */
export function when(seconds) {
  const format = new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" });
  return seconds ? format.format(new Date(seconds * 1000)) : "";
}

/** A rating as shown beside a name: 1534, or 1500? while provisional. */
export function ratingText(r) {
  if (!r) return t("prof.unrated");
  return `${r.rating}${r.provisional ? "?" : ""}`;
}
