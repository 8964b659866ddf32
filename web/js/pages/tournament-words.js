// Words shared by the competitions' pages: a refusal in the page's language (by its code;
// the server's English sentence for a code the catalogs do not have), an outcome, a number.
import { has, language, t } from "../i18n.js";

/** A refused request's answer {error, message} as the page shows it. */
export function refusal(answer) {
  const key = `tour.err.${answer?.error}`;
  return has(key) ? t(key) : String(answer?.message ?? answer?.error ?? "");
}

/** Points as written in the page's language (3, 1.5). */
export function points(value) {
  return new Intl.NumberFormat(language(), { maximumFractionDigits: 2 }).format(value);
}

/** A table's outcome as a cell: "1:0", "+ : −" for a forfeit, marked when entered by hand. */
export function outcomeText(o) {
  if (!o) return "";
  if (o.withdrawn) return t("tour.withdrawn");
  if (o.forfeit === "both") return t("tour.both_absent");
  const text = o.forfeit ? (o.forfeit === "a" ? "− : +" : "+ : −") : `${o.sets[0]}:${o.sets[1]}`;
  return o.by_hand ? `${text} (${t("tour.by_hand")})` : text;
}
