// The catalogs against the server's codes (js/i18n/codes.json, written by
// `python -m server.messages`; tests/server/test_messages.py keeps it current): every code
// has a rendering in English, Estonian and Latvian that uses exactly the code's arguments.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { CATALOGS, format, inspect, locale, pickLanguage, refusalText, setLanguage } from "../js/i18n.js";
import { accountRefusal } from "../js/pages/api.js";

const codes = JSON.parse(readFileSync(new URL("../js/i18n/codes.json", import.meta.url)));
const LANGS = ["en", "et", "lv"];

test("every ruling line code has a rendering in each language, with exactly its arguments", () => {
  for (const lang of LANGS) {
    for (const [code, args] of Object.entries(codes.lines)) {
      const msg = CATALOGS[lang][`line.${code}`];
      assert.ok(msg, `${lang}: no rendering of ${code}`);
      const used = inspect(msg);
      assert.deepEqual([...used.args].sort(), [...args].sort(), `${lang} ${code}: arguments`);
      for (const [name, keys] of Object.entries(used.selects)) {
        for (const word of codes.words[name] || []) {
          assert.ok(keys.includes(word) || keys.includes("other"), `${lang} ${code}: ${name}=${word}`);
        }
      }
    }
  }
});

test("every error code and refusal reason has a rendering in each language", () => {
  for (const lang of LANGS) {
    for (const code of codes.errors) assert.ok(CATALOGS[lang][`error.${code}`], `${lang}: error ${code}`);
    for (const code of codes.reasons) assert.ok(CATALOGS[lang][`reason.${code}`], `${lang}: reason ${code}`);
  }
});

test("every refusal of the account API and its reasons have a rendering in each language", () => {
  for (const lang of LANGS) {
    for (const [code, reasons] of Object.entries(codes.accounts)) {
      assert.ok(CATALOGS[lang][`acct.err.${code}`], `${lang}: account error ${code}`);
      for (const r of reasons) assert.ok(CATALOGS[lang][`acct.err.${code}.${r}`], `${lang}: account error ${code}.${r}`);
    }
  }
});

test("an account refusal is worded in the page's language with its parameters and the wait", () => {
  setLanguage("et");
  const short = { error: "weak_password", reason: "too_short", params: { min: 10 }, message: "A password has at least 10 characters." };
  assert.equal(accountRefusal(400, short), "Paroolis on vähemalt 10 märki.");
  // issue 36: the eleventh registration from one address was told no wait
  const throttled = { error: "throttled", message: "Too many attempts; try again later.", params: { retry_after: 841 } };
  assert.equal(accountRefusal(429, throttled), "Siit on tehtud liiga palju katseid. Proovi uuesti 15 minuti pärast.");
  setLanguage("lv");
  assert.equal(accountRefusal(429, { ...throttled, params: { retry_after: 20 } }), "No šejienes ir bijis pārāk daudz mēģinājumu. Mēģini vēlreiz pēc 1 minūtes.");
  assert.equal(accountRefusal(401, { error: "bad_login" }, true), "Nepareiza parole.");
  setLanguage("en");
  assert.equal(accountRefusal(400, { error: "bad_username", reason: "length", params: { min: 3, max: 20 } }), "A username has 3 to 20 characters.");
  assert.equal(accountRefusal(429, { ...throttled, params: { retry_after: 600 } }), "Too many attempts from here. Try again in 10 minutes.");
  // a code newer than this page: the server's English; no body at all: the status
  assert.equal(accountRefusal(418, { error: "new_code", message: "Something new." }), "Something new.");
  assert.equal(accountRefusal(502, null), "Refused (502).");
});

test("no catalog has a line the server does not emit, nor misses a key another has", () => {
  const keys = (lang) => Object.keys(CATALOGS[lang]).sort();
  for (const lang of LANGS) {
    assert.deepEqual(keys(lang), keys("en"), `${lang} has the same keys as en`);
    for (const key of keys(lang)) {
      // a line's second-person form (`line.<code>.you`, js/rulings.js) stands beside its line
      const line = key.replace(/\.you$/, "");
      if (key.startsWith("line.")) assert.ok(line.slice(5) in codes.lines, `${lang}: ${key} is no server code`);
      if (key.startsWith("line.") && key !== line) {
        assert.ok(line in CATALOGS[lang], `${lang}: ${key} without ${line}`);
        const args = codes.lines[line.slice(5)];
        for (const a of inspect(CATALOGS[lang][key]).args) assert.ok(args.includes(a), `${lang} ${key}: {${a}} is no argument of the code`);
      }
      // The same arguments in every language.
      assert.deepEqual([...inspect(CATALOGS[lang][key]).args].sort(), [...inspect(CATALOGS.en[key]).args].sort(), `${lang} ${key}`);
    }
  }
});

test("every plural covers the language's plural categories (Latvian: zero, one, other)", () => {
  for (const lang of LANGS) {
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const [key, msg] of Object.entries(CATALOGS[lang])) {
      for (const [name, cases] of Object.entries(inspect(msg).plurals)) {
        for (const c of categories) assert.ok(cases.includes(c), `${lang} ${key}: {${name}} lacks "${c}"`);
      }
    }
  }
  assert.deepEqual(new Intl.PluralRules("lv").resolvedOptions().pluralCategories.sort(), ["one", "other", "zero"]);
});

test("every message renders with sample arguments", () => {
  const sample = { whose: "own", rail: "side", mode: "doubles" };
  for (const lang of LANGS) {
    for (const [key, msg] of Object.entries(CATALOGS[lang])) {
      const args = {};
      for (const name of inspect(msg).args) args[name] = sample[name] ?? 2;
      assert.equal(typeof format(msg, args, lang), "string", `${lang} ${key}`);
    }
  }
});

test("plural forms follow the language: Latvian zero for 10, one for 21", () => {
  const msg = CATALOGS.lv["record.strokes"];
  assert.equal(format(msg, { n: 10 }, "lv"), "10 sitienu");
  assert.equal(format(msg, { n: 21 }, "lv"), "21 sitiens");
  assert.equal(format(msg, { n: 3 }, "lv"), "3 sitieni");
  assert.equal(format(CATALOGS.et["record.strokes"], { n: 1 }, "et"), "1 löök");
  assert.equal(format(CATALOGS.et["record.strokes"], { n: 1200 }, "et"), "1200 lööki");
  assert.equal(format(CATALOGS.en["record.strokes"], { n: 1200 }, "en"), "1,200 strokes");
});

test("dates follow the browser's variant of the page's language (issue 36: US forms under en-GB)", () => {
  assert.equal(locale("en", ["en-GB", "et"]), "en-GB");
  assert.equal(locale("et", ["en-GB", "et-EE"]), "et-EE");
  assert.equal(locale("lv", ["en-GB"]), "lv"); // the menu's choice, not the browser's
  assert.equal(locale("en", []), "en");
});

test("the language comes from the browser's list, English when none is ours", () => {
  assert.equal(pickLanguage(["et-EE", "en"]), "et");
  assert.equal(pickLanguage(["de-DE", "lv"]), "lv");
  assert.equal(pickLanguage(["fr"]), "en");
  assert.equal(pickLanguage([]), "en");
});

test("a refusal is worded from its code, a refused stroke from its reason", () => {
  setLanguage("et");
  const stroke = { t: "error", code: "bad_stroke", reason: "placement_touch", rule: "004 § 20 (2), § 24 (1) 10)", message: "The striker may not touch a puck." };
  assert.equal(refusalText(stroke), "Löögiketas ei tohi asetamisel puudutada ühtki seibi. (004 § 20 (2), § 24 (1) 10))");
  assert.equal(refusalText({ code: "not_your_turn", message: "It is seat 1's turn to strike." }), "Praegu pole sinu löögikord.");
  setLanguage("lv");
  assert.equal(refusalText({ code: "room_full", message: "Full." }), "Istaba ir pilna.");
  // A code newer than this page: the server's English rather than nothing.
  assert.equal(refusalText({ code: "some_new_code", message: "Something new." }), "Something new.");
  setLanguage("en");
});

test("every key the pages name (data-i18n, data-i18n-attr) is in each catalog", () => {
  const named = {
    "../index.html": "lobby.scoring_conventional",
    "../crokinole/index.html": "crok.create",
    "../account.html": "acct.log_out_all",
    "../profile.html": "prof.pucks_per_stroke",
    "../leaderboard.html": "board.intro",
    "../rules.html": "rules.lv_note",
    "../learn.html": "learn.intro",
  };
  for (const [page, sample] of Object.entries(named)) {
    const html = readFileSync(new URL(page, import.meta.url), "utf8");
    const keys = [...html.matchAll(/data-i18n="([^"]+)"/g)].map((m) => m[1]);
    for (const [, attrs] of html.matchAll(/data-i18n-attr="([^"]+)"/g)) {
      keys.push(...attrs.split(";").map((pair) => pair.split(":")[1].trim()));
    }
    assert.ok(keys.includes(sample), `${page}: ${sample} is named`);
    for (const lang of LANGS) for (const key of keys) assert.ok(CATALOGS[lang][key], `${page} ${lang}: no ${key}`);
  }
});
