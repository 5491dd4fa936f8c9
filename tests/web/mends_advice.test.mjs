// A comparison whose two numbers read the same says the two options are about
// equal (issue 25, player item 7), in the page's words as in the bots'.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { setLang, loadLang } = await import("../../src/damepique/web/i18n.js");
await loadLang("en");
await loadLang("fr");
const { sentence } = await import("../../src/damepique/web/advice.js");
const strip = (s) => s.replace(/[\u00a0\u202f]/g, " ");

test("equal numbers at the shown precision: about equal; different ones: compared", () => {
  const same = { cards: ["2S"], other: ["KC", "6D", "QH"], key: "expected_points", value: 2.68, other_value: 2.71 };
  setLang("en", false);
  assert.equal(sentence(same), "With 2♠ or K♣ 6♦ Q♥ you can expect about 2.7 points in this deal: the two are about equal.");
  assert.equal(sentence({ ...same, value: 2.6 }), "With 2♠ you can expect 2.6 points in this deal; with K♣ 6♦ Q♥, 2.7.");
  assert.match(sentence({ ...same, key: "moon_by_other", value: 0.0148, other_value: 0.0051 }), /in about 1% of the deals played out: the two are about equal\.$/);
  setLang("fr", false);
  assert.equal(strip(sentence(same)), "Avec 2♠ ou R♣ 6♦ D♥, vous pouvez attendre environ 2,7 points dans cette donne : les deux se valent à peu près.");
});

test("a sentence whose subject is the reader's 'You'/'Vous' is conjugated for it", async () => {
  const { tSubject, isYou } = await import("../../src/damepique/web/i18n.js");
  assert.ok(isYou("Vous") && isYou(" you ") && !isYou("Yves"));
  setLang("fr", false);
  assert.equal(tSubject("expert_for", { name: "Vous", n: 5 }), "Vous jouez la carte 5 de la donne");
  assert.equal(tSubject("expert_for", { name: "Léa", n: 5 }), "Léa joue la carte 5 de la donne");
  assert.equal(tSubject("replay_winner", { name: "Vous" }), "Vous gagnez.");
  assert.equal(tSubject("takes_trick", { name: "Vous" }), "Vous remportez le pli");
  setLang("en", false);
  assert.equal(tSubject("expert_for", { name: "You", n: 5 }), "You to play card 5 of the deal");
  assert.equal(tSubject("replay_winner", { name: "You" }), "You win.");
});
