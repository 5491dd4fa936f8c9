// The end of a game says its last deal as the deal's summary would (issue 25,
// player item 3), and the reader's own sentences are said to "you" ("vous").
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { setLang, loadLang } = await import("../../src/damepique/web/i18n.js");
await loadLang("en");
await loadLang("fr");
const { dealWords, gameOverHtml } = await import("../../src/damepique/web/summary.js");

const RULES = { players: 4, moon: "others", queen_points: 13, target: 100, jack_of_diamonds: true, leftover: "kitty" };
const names = ["You", "Bob", "Cy", "Dee"];
const nameOf = (i) => names[i];
const strip = (s) => s.replace(/<[^>]+>/g, "").replace(/[\u00a0\u202f]/g, " ");
const tricks = [{ leader: 0, cards: ["JD", "3D", "4D", "5D"], winner: 0, points: 0 }];

test("the reader's moon, jack and kitty are said to you, in English and in French", () => {
  setLang("en", false);
  assert.deepEqual(dealWords({ points: [0, 26, 26, 26], moon: 0 }, { tricks, kitty: ["QH"] }, RULES, nameOf, 0).map(strip), [
    "You shot the moon: every other player takes 26.",
    "You took the jack of diamonds: −10.",
    "The kitty (Q♥Queen of hearts) went to you: 1 point.",
  ]);
  setLang("fr", false);
  assert.deepEqual(dealWords({ points: [0, 26, 26, 26], moon: 0 }, { tricks, kitty: ["2C"] }, { ...RULES, moon: "self" }, nameOf, 0).map(strip), [
    "Vous avez fait le grand chelem et marquez −26.",
    "Vous avez pris le valet de carreau : −10.",
    "Le talon (2♣Deux de trèfle) vous revient : aucun point.",
  ]);
  // Another seat's sentences keep its name.
  assert.deepEqual(dealWords({ points: [26, 0, 26, 26], moon: 1 }, null, RULES, nameOf, 0).map(strip), ["Bob a fait le grand chelem : chacun des autres prend 26."]);
});

test("game over says the last deal's moon and marks its shooter", () => {
  const result = { points: [0, 26, 26, 26], moon: 0 };
  const over = {
    game: "g", over: true, winner: 0, winners: [0], totals: [9, 56, 86, 104], seats: names.map((name) => ({ name })),
    rules: { ...RULES, jack_of_diamonds: false, leftover: "remove" }, results: [{ points: [9, 30, 60, 78], moon: null }, result],
    view: { deal: 1, phase: "done", tricks, kitty: [] },
  };
  setLang("en", false);
  const html = gameOverHtml(over, 0, nameOf, "", 400);
  assert.match(html, /<p class="sum-word">You shot the moon: every other player takes 26\.<\/p>/);
  assert.match(html, /<th scope="row">You <span class="moon"/);
  assert.doesNotMatch(html, /<th scope="row">Bob <span class="moon"/);
});
