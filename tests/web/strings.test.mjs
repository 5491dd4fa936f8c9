// The one translation system: every key in both languages, plurals, French
// card indexes and typography, numbers with a decimal comma.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { default: en } = await import("../../src/damepique/web/strings/en.js");
const { default: fr } = await import("../../src/damepique/web/strings/fr.js");
const { cardShort, num, rankIndex, setLang, t, loadLang } = await import("../../src/damepique/web/i18n.js");
await loadLang("en");
await loadLang("fr");

test("every English key has French words and the other way round", () => {
  const missingFr = Object.keys(en).filter((k) => !(k in fr));
  const missingEn = Object.keys(fr).filter((k) => !(k in en) && !k.startsWith("refusal_"));
  assert.deepEqual(missingFr, []);
  assert.deepEqual(missingEn, []);
});

test("plurals: 1 point, 2 points; in French 0 and 1 are singular", () => {
  setLang("en", false);
  assert.equal(t("cards_left", { n: 1 }), "1 card");
  assert.equal(t("cards_left", { n: 2 }), "2 cards");
  assert.equal(t("points_deal", { n: 0 }), "0 points this deal");
  setLang("fr", false);
  assert.equal(t("cards_left", { n: 1 }), "1 carte");
  assert.equal(t("points_deal", { n: 0 }), "0 point cette donne");
  assert.equal(t("points_deal", { n: 3 }), "3 points cette donne");
  // A number shown with decimals: "1.0 points" in English, "1,0 point" in French.
  assert.equal(t("review_cost", { n: 1, digits: 1, x: num(1, 1) }), "coût estimé 1,0 point");
  setLang("en", false);
  assert.equal(t("review_cost", { n: 1, digits: 1, x: num(1, 1) }), "estimated cost 1.0 points");
});

test("French cards read V, D, R; English J, Q, K", () => {
  assert.deepEqual(["JS", "QS", "KS", "AS", "TS"].map((c) => rankIndex(c, "fr")), ["V", "D", "R", "A", "10"]);
  assert.deepEqual(["JS", "QS", "KS", "AS", "TS"].map((c) => rankIndex(c, "en")), ["J", "Q", "K", "A", "10"]);
  assert.equal(cardShort("QH", "fr"), "D♥");
});

test("French typography: a no-break space before : ; ! ? and a decimal comma", () => {
  setLang("fr", false);
  const bad = [];
  for (const key of Object.keys(fr)) {
    const value = fr[key];
    const text = typeof value === "function" ? null : typeof value === "string" ? [value] : Array.isArray(value) ? [] : Object.values(value);
    if (!text) continue;
    for (const s of text) {
      // Every ":" "?" "!" ";" after a word has a space before it (i18n.js makes it a no-break one).
      const stripped = s.replace(/<[^>]*>/g, "").replace(/https?:\/\/\S+/g, "").replace(/&[a-z]+;/g, "");
      if (/[^\s«(][:;!?]/.test(stripped)) bad.push(`${key}: ${s}`);
    }
    const out = t(key, { n: 2, k: 1, name: "Ann", names: "Ann", total: "3 points", cards: "D♥", suit: "cœur" });
    if (typeof out === "string" && / [:;!?]/.test(out.replace(/<[^>]*>/g, ""))) bad.push(`${key} (rendered): ${out}`);
  }
  assert.deepEqual(bad, []);
  assert.equal(t("error", { reason: "x" }), "Refusé\u00a0: x");
  assert.equal(t("undo_q"), "Annuler\u202f?");
  assert.equal(num(4.25, 1, "fr"), "4,3");
  assert.equal(num(4.25, 1, "en"), "4.3");
});

test("the rules and the guide in French: a space before : ; ! ? (made no-break on the page)", async () => {
  const { readFileSync } = await import("node:fs");
  const { typography } = await import("../../src/damepique/web/i18n.js");
  for (const name of ["rules", "guide"]) {
    const html = readFileSync(new URL(`../../src/damepique/web/pages/${name}.fr.html`, import.meta.url), "utf8");
    const text = html.replace(/<[^>]*>/g, "");
    assert.deepEqual(text.match(/[^\s«(][:;!?]/g), null, name);
    assert.ok(!/ [:;!?]/.test(typography(text, "fr")), name);
  }
});
