// The client's languages: Estonian, Latvian and English. Messages live in catalogs
// (js/i18n/en.js, et.js, lv.js) keyed by code; t(key, args) renders one in the chosen
// language. Messages use a small subset of ICU MessageFormat: {name}, {n, plural, one {...}
// other {...}} (with # and =0 cases; the categories come from Intl.PluralRules, so Latvian
// has zero / one / other), {w, select, a {...} other {...}}. Numbers are formatted with
// Intl.NumberFormat. Sentences are whole messages: never glued together from pieces.
// A catalog is loaded when its language is chosen (a chunk of its own in the build, web/build.mjs):
// a page loads the one it shows, not all three (docs/client.md, "Types, lint and build").
const LOADERS = {
  en: () => import("./i18n/en.js"),
  et: () => import("./i18n/et.js"),
  lv: () => import("./i18n/lv.js"),
};
/** The catalogs loaded so far, by language. @type {Record<string, Record<string, string>>} */
export const CATALOGS = {};
export const LANGUAGE_NAMES = { et: "Eesti", lv: "Latviešu", en: "English" };
export const STORE_KEY = "novuss.lang";
const FALLBACK = "en";

let current = FALLBACK;
const listeners = new Set();

/** The first of the browser's languages (e.g. navigator.languages) that we have, else English. */
export function pickLanguage(preferred) {
  for (const tag of preferred || []) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    if (base in LOADERS) return base;
  }
  return FALLBACK;
}

/** Load the catalog of `lang` (once).
 * @param {string} lang
 * @returns {Promise<void>} */
export async function loadLanguage(lang) {
  if (!(lang in CATALOGS)) CATALOGS[lang] = (await LOADERS[lang]()).default;
}

/** The language in use. */
export const language = () => current;

/** The locale dates are written in: the browser's own variant of the page's language (en-GB's
 * day first, not en's US month first), else the language itself. */
export function locale(lang = current, preferred = globalThis.navigator?.languages ?? []) {
  return preferred.find((tag) => String(tag).toLowerCase().split(/[-_]/)[0] === lang) ?? lang;
}

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage blocked: the choice lasts for this page only
  }
}

/** The language to start in: the one remembered, else the browser's.
 * @returns {string} */
function startLanguage() {
  const kept = storage()?.getItem(STORE_KEY);
  const nav = globalThis.navigator;
  return kept != null && kept in LOADERS ? kept : pickLanguage(nav?.languages?.length ? nav.languages : [nav?.language]);
}

// Before any module that shows text runs: the start language's catalog (every catalog outside
// a browser: the unit tests and scripts read them all). The catalogs have the same keys (the
// unit tests check it), so English, the fallback of a missing key, is not loaded beside another.
await Promise.all((globalThis.document ? [startLanguage()] : Object.keys(LOADERS)).map(loadLanguage));

/** Choose the language at start: the one remembered, else the browser's. */
export function initLanguage() {
  const start = startLanguage();
  current = start in CATALOGS ? start : Object.keys(CATALOGS)[0];
  if (globalThis.document) document.documentElement.lang = current;
  return current;
}

/** Switch the language (its catalog loaded first, if it is not yet), remember it, and tell
 * every listener (they redraw their text). At once when the catalog is there.
 * @param {string} lang
 * @returns {void | Promise<void>} */
export function setLanguage(lang) {
  if (!(lang in LOADERS)) throw new Error(`no catalog for ${lang}`);
  if (!(lang in CATALOGS)) return loadLanguage(lang).then(() => setLanguage(lang));
  current = lang;
  storage()?.setItem(STORE_KEY, lang);
  if (globalThis.document) {
    document.documentElement.lang = lang;
    translatePage(document);
  }
  for (const fn of listeners) fn(lang);
}

/** Call fn(lang) after every change of language. */
export function onLanguage(fn) {
  listeners.add(fn);
}

/** Does the catalog have key? */
export const has = (key, lang = current) => key in (CATALOGS[lang] ?? {}) || key in (CATALOGS[FALLBACK] ?? {});

/** The message `key` rendered with `args` in `lang` (English if the key is missing there). */
export function t(key, args = {}, lang = current) {
  const msg = CATALOGS[lang]?.[key] ?? CATALOGS[FALLBACK]?.[key];
  if (msg === undefined) return key;
  return format(msg, args, CATALOGS[lang]?.[key] === undefined ? FALLBACK : lang);
}

/** A list in the language's words ("a, b and c"). */
export function list(items, lang = current) {
  return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(items);
}

/** A server refusal (`error`) in the page's language, from its code (a refused stroke's
 * from its reason), with the paragraph when the rules refused it. */
export function refusalText(m) {
  const key = m.code === "bad_stroke" && m.reason ? `reason.${m.reason}` : `error.${m.code}`;
  const message = has(key) ? t(key) : String(m.message ?? m.code);
  return m.rule ? t("error.with_rule", { message, rule: m.rule }) : message;
}

/** The language menu: its options, the language in use chosen, a change switches. */
export function languageMenu(select) {
  select.replaceChildren(...Object.entries(LANGUAGE_NAMES).map(([code, name]) => new Option(name, code, false, code === current)));
  select.addEventListener("change", () => setLanguage(select.value));
  onLanguage((lang) => {
    select.value = lang;
  });
}

/** Every element with data-i18n gets its text; data-i18n-attr="attr:key;attr:key" its attributes. */
export function translatePage(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of node.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      node.setAttribute(attr.trim(), t(key.trim()));
    }
  }
}

// -- the message format ------------------------------------------------------------

const parsed = new Map();

/** A template as a tree: strings, "#" (the plural's number), {name}, {name, kind, cases}. */
export function parse(template) {
  let tree = parsed.get(template);
  if (!tree) {
    const ctx = { src: template, i: 0 };
    tree = nodes(ctx);
    if (ctx.i !== template.length) throw new Error(`unbalanced braces in ${template}`);
    parsed.set(template, tree);
  }
  return tree;
}

function nodes(ctx, inPlural = false) {
  const out = [];
  let text = "";
  const { src } = ctx;
  while (ctx.i < src.length) {
    const c = src[ctx.i];
    if (c === "}") break;
    if (c === "#" && inPlural) {
      out.push(text, { hash: true });
      text = "";
      ctx.i += 1;
    } else if (c === "{") {
      out.push(text, argument(ctx));
      text = "";
    } else {
      text += c;
      ctx.i += 1;
    }
  }
  out.push(text);
  return out.filter((n) => n !== "");
}

function argument(ctx) {
  const { src } = ctx;
  const start = ctx.i + 1;
  const close = src.indexOf("}", start);
  const comma = src.indexOf(",", start);
  if (close === -1) throw new Error(`unbalanced braces in ${src}`);
  if (comma === -1 || comma > close) {
    ctx.i = close + 1;
    return { name: src.slice(start, close).trim() };
  }
  const name = src.slice(start, comma).trim();
  const kindEnd = src.indexOf(",", comma + 1);
  const kind = src.slice(comma + 1, kindEnd).trim();
  if (kind !== "plural" && kind !== "select") throw new Error(`unknown argument kind ${kind}`);
  ctx.i = kindEnd + 1;
  const cases = {};
  for (;;) {
    while (src[ctx.i] === " ") ctx.i += 1;
    if (ctx.i >= src.length) throw new Error(`unbalanced braces in ${src}`);
    if (src[ctx.i] === "}") break;
    const brace = src.indexOf("{", ctx.i);
    const key = src.slice(ctx.i, brace).trim();
    ctx.i = brace + 1;
    cases[key] = nodes(ctx, kind === "plural");
    if (src[ctx.i] !== "}") throw new Error(`unbalanced braces in ${src}`);
    ctx.i += 1;
  }
  ctx.i += 1;
  if (!("other" in cases)) throw new Error(`{${name}, ${kind}} needs an "other" case`);
  return { name, kind, cases };
}

function formatValue(value, lang) {
  return typeof value === "number" ? new Intl.NumberFormat(lang).format(value) : String(value);
}

/** Render `template` with `args` in `lang`. */
export function format(template, args, lang = current) {
  return render(parse(template), args, lang, null);
}

function render(tree, args, lang, number) {
  let out = "";
  for (const n of tree) {
    if (typeof n === "string") out += n;
    else if (n.hash) out += formatValue(number, lang);
    else {
      if (!(n.name in args)) throw new Error(`missing argument ${n.name}`);
      const value = args[n.name];
      if (!n.kind) out += formatValue(value, lang);
      else if (n.kind === "plural") {
        let key = `=${value}` in n.cases ? `=${value}` : new Intl.PluralRules(lang).select(value);
        if (!(key in n.cases)) key = "other";
        out += render(n.cases[key], args, lang, value);
      } else {
        const key = String(value) in n.cases ? String(value) : "other";
        out += render(n.cases[key], args, lang, number);
      }
    }
  }
  return out;
}

/**
 * What a message uses (for the tests): {args: Set of names, selects: {name: [case keys]},
 * plurals: {name: [case keys]}}.
 */
export function inspect(template) {
  const found = { args: new Set(), selects: {}, plurals: {} };
  const walk = (tree) => {
    for (const n of tree) {
      if (typeof n === "string" || n.hash) continue;
      found.args.add(n.name);
      if (!n.kind) continue;
      const keys = Object.keys(n.cases);
      const seen = (n.kind === "plural" ? found.plurals : found.selects)[n.name] || [];
      (n.kind === "plural" ? found.plurals : found.selects)[n.name] = [...new Set([...seen, ...keys])];
      Object.values(n.cases).forEach(walk);
    }
  };
  walk(parse(template));
  return found;
}
