// The rules page (/rules.html): the paragraphs of the rule book the referee cites (seed 004,
// Estonian original and English translation; two sections of seed 000 in English), each
// under its anchor (p-24-1, p-24-1-8, s000-5) for a ruling's "why" to link to. Shown in the
// page's language where the text exists: Latvian readers get the English, with a note
// (docs/client.md, "The rules page"). The text is web/rules/rules.json, written by
// scripts/extract_rules.py.
import { initLanguage, language, languageMenu, onLanguage, t, translatePage } from "../i18n.js";
import { RULES_URL, textLanguage } from "../rules-text.js";
import { foldingMenu } from "../topbar.js";
import { hash } from "../url.js";

/** @type {(id: string) => any} the page's own element of an id (its kind known to the caller) */
const $ = (id) => document.getElementById(id);
/**
 * web/rules/rules.json (scripts/extract_rules.py): the sections of 004 (paragraphs and their
 * points in each language) and of 000 (English).
 * @typedef {{id: string, n: number, [lang: string]: string | number}} Point
 * @typedef {{id: string, n: number, points: Point[], [lang: string]: string | number | Point[]}} Paragraph
 * @typedef {{"004": Array<{id: string, n: number, title: Record<string, string>, paragraphs: Paragraph[]}>,
 *   "000": Array<{id: string, n: number, title: Record<string, string>, en: string}>}} Rules
 */
/** @type {Rules|null} */
let data = null;

/**
 * @param {string} tag
 * @param {Record<string, string>} [attrs]
 * @param {string|null} [text]
 */
function node(tag, attrs = {}, text = null) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== null) n.textContent = text;
  return n;
}

function render() {
  const rules = /** @type {Rules} */ (data); // drawn once loaded
  const lang = textLanguage(language());
  $("rules-004").lang = lang; // the text's language (Latvian pages show English), for screen readers
  $("rules-source").textContent = t(lang === "et" ? "rules.source_et" : "rules.source_en");
  $("rules-lv-note").hidden = language() !== "lv";
  $("rules-004").replaceChildren(
    ...rules["004"].map((sec) => {
      const box = node("section", { id: sec.id, class: "rule-section" });
      box.append(node("h2", {}, t("rules.section", { n: sec.n, title: sec.title[lang] })));
      for (const p of sec.paragraphs) {
        const para = node("div", { id: p.id, class: "rule-paragraph" });
        para.append(node("p", {}, `(${p.n}) ${p[lang]}`));
        if (p.points.length) {
          const list = node("ul", { class: "rule-points" });
          for (const q of p.points) list.append(node("li", { id: q.id }, `${q.n}) ${q[lang]}`));
          para.append(list);
        }
        box.append(para);
      }
      return box;
    }),
  );
  $("rules-000").replaceChildren(
    ...rules["000"].map((sec) => {
      const box = node("section", { id: sec.id, class: "rule-section", lang: "en" });
      box.append(node("h3", {}, t("rules.s000_section", { n: sec.n, title: sec.title.en })));
      box.append(node("p", {}, sec.en));
      return box;
    }),
  );
  land();
}

/** The page is drawn after it loads: go to the paragraph the address names, and mark it. */
function land() {
  const id = hash();
  for (const old of document.querySelectorAll(".landed")) old.classList.remove("landed");
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  target.classList.add("landed");
  target.scrollIntoView({ block: "start" });
}

initLanguage();
translatePage(document);
languageMenu($("lang"));
foldingMenu();
onLanguage(() => data && render());
window.addEventListener("hashchange", land);
fetch(RULES_URL)
  .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
  .then((d) => {
    data = d;
    render();
    document.body.dataset.ready = "1";
  })
  .catch(() => {
    $("message").textContent = t("rules.missing");
    $("message").hidden = false;
  });
