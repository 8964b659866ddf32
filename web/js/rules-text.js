// The rule book's paragraphs the referee cites (web/rules/rules.json, written by
// scripts/extract_rules.py), for a ruling's "why": the paragraph's words in the player's
// language where we have them (004 in Estonian and English; no Latvian text exists, so
// Latvian readers get the English), and the rules page (rules.html) shows them all.
import { citeAnchor } from "./puck-rules.js";

export const RULES_URL = "/rules/rules.json";
const EXCERPT_CHARS = 320;

/** Every anchored block of the rules' data: id -> {et?, en, title?}. */
export function indexRules(data) {
  const out = new Map();
  for (const sec of data["004"] || []) {
    out.set(sec.id, { title: sec.title, n: sec.n });
    for (const p of sec.paragraphs) {
      out.set(p.id, p);
      for (const q of p.points) out.set(q.id, q);
    }
  }
  for (const sec of data["000"] || []) out.set(sec.id, sec);
  return out;
}

/** The language a text is shown in: Estonian or English as asked, English for Latvian. */
export const textLanguage = (lang) => (lang === "et" ? "et" : "en");

/** The first sentences of a text, up to about `max` characters, cut at a sentence's end. */
export function shorten(text, max = EXCERPT_CHARS) {
  const first = text.split("\n")[0];
  if (first.length <= max) return first;
  const cut = first.slice(0, max);
  const end = Math.max(cut.lastIndexOf(". "), cut.lastIndexOf("; "));
  return `${end > 40 ? cut.slice(0, end + 1) : cut.trimEnd()} …`;
}

/**
 * A ruling's "why": the words of the first paragraph `cite` names, short, in `lang`'s text
 * ({text, english: shown in English though asked otherwise, anchor}), or null.
 */
export function whyOf(index, cite, lang) {
  const anchor = citeAnchor(cite);
  const block = anchor ? index.get(anchor) : null;
  if (!block) return null;
  const own = block[textLanguage(lang)] ?? block.title?.[textLanguage(lang)];
  const text = own ?? block.en ?? block.title?.en;
  if (!text) return null;
  return { text: shorten(text), english: lang !== "en" && (lang === "lv" || own === undefined), anchor };
}

/** @type {Promise<ReturnType<typeof indexRules>> | null} */
let loading = null;

/** The rules' index, fetched once. */
export function loadRules() {
  loading ??= fetch(RULES_URL)
    .then((r) => {
      if (!r.ok) throw new Error(`rules: ${r.status}`);
      return r.json();
    })
    .then(indexRules)
    .catch((e) => {
      loading = null; // try again at the next "why"
      throw e;
    });
  return loading;
}
