// Words that follow a number agree with it in both languages (issues 26 and 27):
// "1 point", never "1 points"; in French 0 and 1 are singular too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { expectedPoints, setLang, loadLang, t } = await import("../../src/damepique/web/i18n.js");
await loadLang("en");
await loadLang("fr");
const plain = (s) => s.replace(/[\u00a0\u202f]/g, " ");

test("a puzzle's points taken, a daily result's total, the analysis's progress", () => {
  setLang("en", false);
  assert.equal(t("pz_points", { p: 1 }), "you have taken 1 point");
  assert.equal(t("pz_points", { p: 14 }), "you have taken 14 points");
  assert.equal(t("daily_day_line", { total: 1, vs: "+3", rank: 2, n: 5 }), "1 point, +3 against the field, rank 2 of 5");
  assert.equal(t("an_progress", { done: 0, total: 90 }), "0 of 90 decisions analysed");
  setLang("fr", false);
  assert.equal(t("pz_points", { p: 0 }), "vous avez pris 0 point");
  assert.equal(t("pz_points", { p: 2 }), "vous avez pris 2 points");
  assert.equal(plain(t("daily_day_line", { total: 1, vs: "+3", rank: 2, n: 5 })), "1 point, +3 face au peloton, rang 2 sur 5");
  assert.equal(plain(t("an_progress", { done: 1, total: 90 })), "Décisions analysées : 1 sur 90");
  setLang("en", false);
});

test("expected points agree with the number as shown (in French under 2 is singular)", () => {
  setLang("en", false);
  assert.equal(expectedPoints(1), "1.0 expected points");
  assert.equal(expectedPoints(0.5), "0.5 expected points");
  assert.equal(t("an_option", { p: "+1.5", expected: expectedPoints(2.25) }), "payoff +1.5 · 2.3 expected points");
  setLang("fr", false);
  assert.equal(expectedPoints(0), "0,0 point attendu");
  assert.equal(expectedPoints(1.5), "1,5 point attendu");
  assert.equal(expectedPoints(7.7), "7,7 points attendus");
  assert.equal(t("pz_numbers", { expected: expectedPoints(0.04), p: "+1,7" }), "0,0 point attendu, gain +1,7");
  setLang("en", false);
});

test("the analysis says what its payoff counts, as docs/bots.md does: a game's end adds its placement", () => {
  // Else a payoff of -79 in a deal of 26 points cannot be read (the deal that ends the game).
  const docs = readFileSync(new URL("../../docs/bots.md", import.meta.url), "utf8").replace(/\s+/g, " ");
  const per = docs.match(/an outcome that ends the game adds (\d+) points per player ranked ahead of it/)[1];
  setLang("en", false);
  assert.match(t("an_options"), new RegExp(`less ${per} for each player who would finish ahead of you when the deal ends the game`));
  setLang("fr", false);
  assert.match(t("an_options"), new RegExp(`moins ${per} par joueur qui finirait devant vous quand la donne termine la partie`));
  setLang("en", false);
});
