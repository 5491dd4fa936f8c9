// Pure front-end logic, run with Node's built-in test runner (no npm).
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.document = { documentElement: {} };
const { cardName, setLang, t, loadLang } = await import("../../src/damepique/web/i18n.js");
await loadLang("en");
await loadLang("fr");
const { sortHand } = await import("../../src/damepique/web/cards.js");

test("card names in English and French", () => {
  setLang("en", false);
  assert.equal(cardName("QS"), "Queen of spades");
  assert.equal(cardName("TH"), "Ten of hearts");
  assert.equal(cardName("2C"), "Two of clubs");
  assert.equal(t("pass_label"), "Pass");
  setLang("fr", false);
  assert.equal(cardName("QS"), "Dame de pique");
  assert.equal(cardName("TH"), "Dix de cœur");
  assert.equal(cardName("AD"), "As de carreau");
  assert.equal(cardName("JC"), "Valet de trèfle");
  assert.equal(t("pass_label"), "Passer");
  const names = new Set();
  for (const s of "CDHS") for (const r of "23456789TJQKA") names.add(cardName(r + s, "fr") + "|" + cardName(r + s, "en"));
  assert.equal(names.size, 52);
});

test("a hand is sorted by suit with colours alternating, then by rank", () => {
  assert.deepEqual(sortHand(["QH", "2C", "AS", "TD", "3C", "KS"]), ["2C", "3C", "TD", "KS", "AS", "QH"]);
});
