// The accounts' and players' HTTP API (docs/protocol.md, "HTTP") for the pages outside the
// table's client: account.html, profile.html, leaderboard.html.

/** GET a JSON document; resolves to {status, body}. */
export async function getJSON(path) {
  const r = await fetch(path, { credentials: "same-origin" });
  let body = null;
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
  let body = null;
  try {
    body = await r.json();
  } catch {
    body = { error: "bad_answer", message: `The server answered ${r.status}.` };
  }
  return { status: r.status, body };
}

const DATE = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A time in seconds since the epoch, in the reader's own words. */
export function when(seconds) {
  return seconds ? DATE.format(new Date(seconds * 1000)) : "";
}

/** A rating as shown beside a name: 1534, or 1500? while provisional. */
export function ratingText(r) {
  if (!r) return "unrated";
  return `${r.rating}${r.provisional ? "?" : ""}`;
}
