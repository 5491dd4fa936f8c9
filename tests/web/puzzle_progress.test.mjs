// The puzzle page and the statistics without a browser: the server's puzzle
// figures over the device's own (once it has some), a pass puzzle's card
// count and answer, and the puzzles on the statistics page, in both languages.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { setLang, loadLang } = await import("../../src/damepique/web/i18n.js");
await loadLang("en");
await loadLang("fr");
const { answerHtml, passCount, puzzleState, withServer } = await import("../../src/damepique/web/puzzles.js");
const { puzzlesHtml } = await import("../../src/damepique/web/stats.js");

const text = (html) =>
  html.replace(/<[^>]+>/g, " ").replace(/&#39;/g, "'").replace(/\s+/g, " ").replace(/[\u00a0\u202f]/g, " ").trim();

test("the server's figures win once it keeps some; the device's theme and seen stay", () => {
  const local = { ...puzzleState(), theme: "duck", seen: ["a"], solved: 4, tried: 5 };
  assert.deepEqual(withServer(local, { tried: 0 }), local);
  assert.deepEqual(withServer(local, null), local);
  const me = { rating: 1612, rd: 80, tried: 9, solved: 6, streak: 2, best_streak: 3 };
  const s = withServer(local, me);
  assert.equal(s.rating.rating, 1612);
  assert.equal(s.rating.vol, 0.06); // kept from the device: the server's figures round it away
  assert.deepEqual([s.solved, s.tried, s.streak, s.best, s.theme, s.seen], [6, 9, 2, 3, "duck", ["a"]]);
});

test("a pass puzzle: its count, and an answer with a pass the expert did not weigh", () => {
  assert.equal(passCount({ rules: {} }), 3);
  assert.equal(passCount({ rules: { pass_count: 2 } }), 2);
  const a = { theme: "pass", correct: false, cards: ["2C", "3C", "4S"], card: null, chosen: null, margin: 2,
    best: { cards: ["AS", "KH", "QS"], expected: 5, payoff: 1 } };
  setLang("en", false);
  assert.match(text(answerHtml(a)), /^Not the best pass\. You passed .* a pass the expert did not weigh \(no numbers\)\./);
  setLang("fr", false);
  assert.match(text(answerHtml({ ...a, correct: true })), /^Bravo : c'est le meilleur échange\. Vous avez passé .*Le meilleur échange l'emporte de 2,0 points/);
  setLang("en", false);
});

test("the statistics show the puzzles by theme, in both languages", () => {
  assert.equal(puzzlesHtml({ tried: 0 }), "");
  const p = { rating: 1580, rd: 90, tried: 3, solved: 2, streak: 1, best_streak: 1,
    by_theme: { duck: { tried: 1, solved: 0 }, pass: { tried: 2, solved: 2 } } };
  setLang("en", false);
  assert.equal(text(puzzlesHtml(p)),
    "Puzzles Puzzle rating 1580 · 2 solved of 3 · best streak 1. Solve more Pass · 2 solved of 2 Duck · 0 solved of 1");
  setLang("fr", false);
  assert.match(text(puzzlesHtml(p)), /^Problèmes Classement aux problèmes 1580 · 2 résolus sur 3 · meilleure série 1\. .*L'échange · 2 résolus sur 2/);
  // In French 0 and 1 are singular: "1 résolu", "0 résolu", never "1 résolus".
  const one = { ...p, tried: 1, solved: 1, by_theme: { duck: { tried: 1, solved: 0 } } };
  assert.match(text(puzzlesHtml(one)), /· 1 résolu sur 1 ·.*Passer sous · 0 résolu sur 1$/);
  setLang("en", false);
  assert.match(text(puzzlesHtml(one)), /· 1 solved of 1 ·.*Duck · 0 solved of 1$/);
});
