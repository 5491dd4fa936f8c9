// The score keeper's rules in a few lines and its other words (src/damepique/web/scorer/rules.js).
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.document = { documentElement: {} };
const { loadLang, t } = await import("../../src/damepique/web/i18n.js");
const { dealPoints, readingLabel, removedCards, ruleLines, winnerWords, RULES_PAGE } = await import(
  "../../src/damepique/web/scorer/rules.js"
);
await loadLang("en");
await loadLang("fr");
const en = (key, params) => t(key, params, "en");
const fr = (key, params) => t(key, params, "fr");
// French typography: a no-break space before ":", a narrow one before ";" and "!".
const typo = (s) => s.replace(/ :/g, "\u00a0:").replace(/ ([;!?])/g, "\u202f$1");

test("the points of each variant are the server's (26, 25, 43, 16, 15)", () => {
  assert.deepEqual(dealPoints({}), { moon: 26, total: 26 });
  assert.deepEqual(dealPoints({ queen_points: 12 }), { moon: 25, total: 25 });
  assert.deepEqual(dealPoints({ black_maria: true }), { moon: 43, total: 43 });
  assert.deepEqual(dealPoints({ jack_of_diamonds: true }), { moon: 26, total: 16 });
  // 36 cards: nine hearts, the queen 5, the last trick 1.
  assert.deepEqual(dealPoints({ deck: 36 }), { moon: 15, total: 15 });
  assert.deepEqual(dealPoints({ deck: 36, jack_of_diamonds: true }), { moon: 15, total: 5 });
});

test("the cards taken out: lowest diamond, then lowest club, in turn", () => {
  assert.deepEqual(removedCards(52, 4), []);
  assert.deepEqual(removedCards(52, 3), ["2♦"]);
  assert.deepEqual(removedCards(52, 5), ["2♦", "2♣"]);
  assert.deepEqual(removedCards(52, 6), ["2♦", "2♣", "3♦", "3♣"]);
  assert.deepEqual(removedCards(36, 5), ["6♦"]);
  assert.deepEqual(removedCards(36, 6), []);
});

test("the standard game at four players in a few lines", () => {
  const rules = { target: 100, moon: "others", jack_of_diamonds: false, queen_points: 13, black_maria: false, deck: 52, tie: "play_on" };
  assert.deepEqual(ruleLines(rules, 4, en), [
    "52 cards, 13 to each player.",
    "Before each deal, pass 3 cards: left, right, across, then no pass, and again.",
    "The 2♣ leads the first trick. Follow suit if you can; the highest card of the suit led takes the trick. No point card on the first trick and no heart lead before a heart has been played, unless you hold nothing else.",
    "Points: each heart 1 and Q♠ 13; a deal gives 26.",
    "Taking every point card (shooting the moon) gives +26 to each of the others instead.",
    "The game ends after the deal in which someone reaches 100; the lowest total wins (if it is tied, play another deal).",
  ]);
});

test("the 36-card game at five players, with the J♦ and a shared win", () => {
  const lines = ruleLines({ deck: 36, jack_of_diamonds: true, tie: "share", target: 50, moon: "self" }, 5, en);
  assert.equal(lines[0], "36 cards less 6♦: 7 to each player.");
  assert.equal(lines[1], "Before each deal, pass 3 cards: left, right, then no pass, and again.");
  assert.ok(lines[2].startsWith("The 6♣ leads the first trick."));
  assert.equal(lines[3], "Points: each heart 1, Q♠ 5, the last trick 1 and J♦ −10; a deal gives 5.");
  assert.equal(lines[4], "Taking every point card (shooting the moon) gives −15 to the shooter instead.");
  assert.equal(lines[5], "The game ends after the deal in which someone reaches 50; the lowest total wins, and players tied for it share the win.");
});

test("Black Maria at six players, in French", () => {
  const lines = ruleLines({ black_maria: true, moon: "off" }, 6, fr);
  assert.equal(lines[0], typo("52 cartes sans 2♦, 2♣, 3♦ et 3♣ : 8 par joueur."));
  assert.ok(lines[2].startsWith("Le 4♣ entame le premier pli."));
  assert.equal(lines[3], typo("Points : chaque cœur 1, la dame de pique 13, le roi de pique 10 et l'as de pique 7 ; une donne en distribue 43."));
  // The moon is « grand chelem » everywhere in French.
  assert.equal(lines[4], typo("Pas de grand chelem : les points comptent comme ils sont pris."));
  assert.equal(RULES_PAGE, "/#/rules");
});

test("the winner's banner, alone or sharing the win", () => {
  const sheet = { players: ["Ann", "Bob", "Cy", "Dee"], winners: [3] };
  assert.equal(winnerWords(sheet, en), "Dee wins!");
  assert.equal(winnerWords({ ...sheet, winners: [2, 3] }, en), "Cy and Dee share the win!");
  assert.equal(winnerWords({ ...sheet, winners: [0, 2, 3] }, fr), typo("Ann, Cy et Dee se partagent la victoire !"));
});

test("the two readings of a moon with the J♦, or not", () => {
  const players = ["Ann", "Bob", "Cy", "Dee"];
  const moon = { entry: { moon: 0, jack: 0 }, points: [-10, 26, 26, 26] };
  const ordinary = { entry: { points: [16, 0, 0, 0], ordinary: true }, points: [16, 0, 0, 0] };
  assert.equal(readingLabel(moon, players, en), "A moon by Ann: -10, 26, 26, 26");
  assert.equal(readingLabel(ordinary, players, en), "An ordinary deal: 16, 0, 0, 0");
  assert.equal(readingLabel(moon, players, fr), typo("Un grand chelem de Ann : -10, 26, 26, 26"));
});
