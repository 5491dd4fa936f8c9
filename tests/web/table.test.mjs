// The table's words and rules that need no browser: why a card cannot be
// played, a deal's summary, when the summary closes, the protocol's first message.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { setLang, loadLang } = await import("../../src/damepique/web/i18n.js");
await loadLang("en");
await loadLang("fr");
const { whyNotPlay } = await import("../../src/damepique/web/table.js");
const { dealWords, gameOverHtml, leadWords, summaryOpen, winnersOf } = await import("../../src/damepique/web/summary.js");
const { GAME_ENDPOINT, PROTOCOL, firstMessage } = await import("../../src/damepique/web/net.js");

const RULES = { players: 4, no_points_first_trick: true, must_break_hearts: true, first_lead: "two_of_clubs", moon: "others", queen_points: 13 };
const state = (view) => ({ over: false, rules: RULES, view: { phase: "play", to_act: 0, tricks: [], trick: [], ...view } });
const strip = (s) => s.replace(/[\u00a0\u202f]/g, " ");

test("why a card cannot be played, in English and in French", () => {
  const follow = state({ hand: ["3C", "QH", "5D"], legal: ["3C"], trick: ["2C"] });
  const firstPoints = state({ hand: ["QH", "5D", "QS"], legal: ["5D"], trick: ["2C"] });
  const hearts = state({ hand: ["QH", "5D"], legal: ["5D"], tricks: [{ leader: 0, cards: ["2C", "3C", "4C", "5C"], winner: 0, points: 0 }] });
  setLang("en", false);
  assert.equal(whyNotPlay(follow, "QH", 0), "You must follow clubs");
  assert.equal(whyNotPlay(follow, "3C", 0), null);
  assert.equal(whyNotPlay(firstPoints, "QS", 0), "No points on the first trick");
  assert.equal(whyNotPlay(hearts, "QH", 0), "Hearts are not broken yet");
  assert.equal(whyNotPlay(follow, "QH", 1), "Not your turn");
  assert.equal(whyNotPlay(state({ hand: ["2C", "5D"], legal: ["2C"] }), "5D", 0), "The first trick starts with the two of clubs");
  setLang("fr", false);
  assert.equal(whyNotPlay(follow, "QH", 0), "Vous devez fournir à trèfle");
  assert.equal(whyNotPlay(firstPoints, "QS", 0), "Pas de points au premier pli");
  assert.equal(whyNotPlay(hearts, "QH", 0), "Les cœurs ne sont pas encore ouverts");
  assert.equal(whyNotPlay(state({ hand: ["QH", "5S"], legal: ["5S"], trick: ["3D"] }), "QH", 0), "Pas de points au premier pli");
});

test("first_trick_discard heart: a hand of only hearts and the queen must discard a heart on the first trick", () => {
  const onlyPoints = (rules) => ({ ...state({ hand: ["QH", "2H", "QS"], legal: ["QH", "2H"], trick: ["2C"] }), rules: { ...RULES, ...rules } });
  setLang("en", false);
  assert.equal(whyNotPlay(onlyPoints({ first_trick_discard: "heart" }), "QS", 0), "A heart must be discarded on the first trick");
  assert.equal(whyNotPlay(onlyPoints({ first_trick_discard: "heart" }), "2H", 0), null);
  setLang("fr", false);
  assert.equal(whyNotPlay(onlyPoints({ first_trick_discard: "heart" }), "QS", 0), "Il faut se défausser d'un cœur au premier pli");
});

test("the end of a game with a shared win says who share it", () => {
  const names = ["Ann", "Bob", "Cy", "Dee"];
  const over = {
    game: "g", over: true, winner: null, totals: [40, 40, 60, 102], seats: names.map((name) => ({ name })), rules: { ...RULES, tie: "share", target: 100 },
    results: [{ points: [10, 10, 0, 6], moon: null }],
  };
  assert.deepEqual(winnersOf(over.totals, null), [0, 1]);
  assert.deepEqual(winnersOf(over.totals, 2), [2]);
  setLang("en", false);
  assert.match(gameOverHtml(over, 0, (i) => names[i], "", 400), /<p class="winner-line">Ann and Bob share the win with 40 points!<\/p>/);
  setLang("fr", false);
  assert.match(strip(gameOverHtml(over, 0, (i) => names[i], "", 400)), /<p class="winner-line">Ann et Bob se partagent la victoire avec 40 points !<\/p>/);
  assert.match(strip(gameOverHtml({ ...over, winner: 2, totals: [60, 70, 40, 102] }, 0, (i) => names[i], "", 400)), /Cy gagne avec 40 points !/);
});

test("a deal's summary says the moon, the jack of diamonds and the kitty in words", () => {
  const names = ["Ann", "Bob", "Cy", "Dee"];
  const nameOf = (i) => names[i];
  const tricks = [
    { leader: 0, cards: ["2C", "3C", "4C", "5C"], winner: 2, points: 1 },
    { leader: 2, cards: ["JD", "3D", "4D", "5D"], winner: 1, points: 0 },
  ];
  const rules = { ...RULES, jack_of_diamonds: true, leftover: "kitty" };
  setLang("en", false);
  const words = dealWords({ points: [26, 0, 26, 26], moon: 1 }, { tricks, kitty: ["QH"] }, rules, nameOf);
  assert.deepEqual(words.map((w) => w.replace(/<[^>]+>/g, "")), [
    "Bob shot the moon: every other player takes 26.",
    "Bob took the jack of diamonds: −10.",
    "The kitty (Q♥Queen of hearts) went to Cy: 1 point.",
  ]);
  assert.equal(leadWords([3, 0, 14, 0], 0, nameOf), "Bob and Dee lead the game with 0 points.");
  assert.equal(leadWords([1, 5, 14, 9], 0, nameOf), "You lead the game with 1 point.");
  setLang("fr", false);
  const mots = dealWords({ points: [0, 26, 26, 26], moon: 0 }, { tricks, kitty: [] }, { ...RULES, moon: "others" }, nameOf);
  assert.deepEqual(mots.map(strip), ["Ann a fait le grand chelem : chacun des autres prend 26."]);
  assert.equal(strip(leadWords([3, 9, 14, 8], 2, nameOf)), "Ann mène la partie avec 3 points.");
  // A name is written as text, never as markup.
  assert.ok(!dealWords({ points: [26, 0, 0, 0], moon: 0 }, null, RULES, () => "<b>x</b>")[0].includes("<b>"));
});

test("a deal's summary closes by its button, by the page's timeout, or as the server says", () => {
  const opened = { deal: 2, openedAt: 1000, pressed: false };
  assert.equal(summaryOpen(opened, undefined, null, 999_999), true, "solo: only the button closes it");
  assert.equal(summaryOpen({ ...opened, pressed: true }, undefined, null, 1001), false);
  assert.equal(summaryOpen(opened, undefined, 15000, 15999), true);
  assert.equal(summaryOpen(opened, undefined, 15000, 16000), false, "a table: 15 s");
  // The server says who it waits for: pressing is not enough, everyone must.
  const server = { deal: 2, waiting: [1, 3], deadline: 20_000 };
  assert.equal(summaryOpen({ ...opened, pressed: true }, server, 15000, 5000, true), true);
  assert.equal(summaryOpen({ ...opened, pressed: true }, { ...server, waiting: [] }, 15000, 5000, true), false);
  assert.equal(summaryOpen(opened, server, 15000, 20_000, true), false, "the server's deadline");
  assert.equal(summaryOpen(opened, undefined, 15000, 5000, true), false, "the server moved on");
  assert.equal(summaryOpen(null, server, 15000, 0), false);
});

test("protocol 2: one socket for every game, and a hello first", () => {
  assert.equal(PROTOCOL, 2);
  assert.equal(GAME_ENDPOINT, "/ws");
  assert.deepEqual(firstMessage({ token: "a" }), { v: 2, type: "hello", token: "a", patches: true, plays: true });
  assert.deepEqual(firstMessage({ table: "K7QM4XPA", token: null }), { v: 2, type: "hello", table: "K7QM4XPA", patches: true, plays: true });
  assert.deepEqual(firstMessage({ table: "K7QM4XPA", token: "b" }), { v: 2, type: "hello", table: "K7QM4XPA", token: "b", patches: true, plays: true });
});
