// A registered player's rating as every view shows it beside the name: the lobby, the
// waiting room and the table's rail names (docs/accounts.md, "Ratings").

/** " (1534)", with "?" while provisional; "" for a guest (no rating). */
export function ratingSuffix(p) {
  return p?.rating === null || p?.rating === undefined ? "" : ` (${p.rating}${p.provisional ? "?" : ""})`;
}

/** The name with the rating beside it, as the views show a seated player. */
export function ratedName(p) {
  return `${p.name}${ratingSuffix(p)}`;
}
