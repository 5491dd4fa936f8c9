// The bots' ladder under the leaderboard (web/accounts.js ladderTable): each bot's
// rank, name (a link to its profile), owner, rating, games and wins; words for none yet.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { loadLang, setLang } = await import("../../src/damepique/web/i18n.js");
const { ladderTable } = await import("../../src/damepique/web/accounts.js");
await loadLang("en");
await loadLang("fr");

test("the ladder lists each bot with its owner, in both languages", () => {
  setLang("en", false);
  const html = ladderTable([
    { rank: 1, nickname: "robo<1>", owner: "ann", rating: 1516, games: 2, wins: 2 },
    { rank: 2, nickname: "tin", owner: null, rating: 1484, games: 2, wins: 0 },
  ]);
  assert.match(html, /<th scope="col">Bot<\/th><th scope="col">Owner<\/th>/);
  assert.match(html, /href="#\/player\/robo%3C1%3E">robo&lt;1&gt;<\/a><\/td><td class="name">ann<\/td><td class="num">1516<\/td><td class="num">2<\/td><td class="num">2<\/td>/);
  assert.match(html, /<td class="name"><a href="#\/player\/tin">tin<\/a><\/td><td class="name"><\/td><td class="num">1484/);
  setLang("fr", false);
  assert.match(ladderTable([]), /Aucun robot n'a encore joué de partie classée contre des robots\./);
  assert.match(ladderTable([{ rank: 1, nickname: "x", owner: "y", rating: 1500, games: 1, wins: 1 }]), /Propriétaire/);
});
