// The expert's advice in the page's words (src/damepique/web/advice.js): the
// sentence built from a comparison, as the bots' own `sentence` says it
// (bots/advice.py's doctest), the labelled numbers, mistakes only where the
// server says so, the hint and the review.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.document = { documentElement: {} };
const { loadLang, setLang } = await import("../../src/damepique/web/i18n.js");
const { adviceListHtml, hintHtml, percent, reviewHtml, sentence, whyFor } = await import("../../src/damepique/web/advice.js");
await loadLang("en");
await loadLang("fr");

const NNBSP = "\u202f";
const text = (html) =>
  html.replace(/<span class="sr-only">[^<]*<\/span>/g, "").replace(/<[^>]*>/g, "").replace(/&#39;/g, "'").replace(/&amp;/g, "&").replace(/[ \t\n]+/g, " ").trim();
const items = (html) => html.split("<li").slice(1).map((x) => "<li" + x);
const outcomes = (queen, hearts, self = 0, other = 0.01) => ({ queen, hearts, moon_by_self: self, moon_by_other: other });
const OPTIONS = [
  { cards: ["4S"], expected_points: 1.2, score: 1.2, cost: 0, reason: "ducks", best: true, mistake: false, outcomes: outcomes(0.04, 0.9) },
  {
    cards: ["TS"], expected_points: 4.0, score: 4.0, cost: 2.8, reason: "follows_high", best: false, mistake: true, outcomes: outcomes(0.23, 1.1),
    comparison: { cards: ["TS"], other: ["4S"], key: "queen", value: 0.23, other_value: 0.04 },
  },
  {
    cards: ["2S"], expected_points: 1.3, score: 1.3, cost: 0.1, reason: "follows_low", best: false, mistake: false, outcomes: outcomes(0.05, 0.9),
    comparison: { cards: ["2S"], other: ["4S"], key: "expected_points", value: 1.3, other_value: 1.2 },
  },
];

test("the sentence is the bots' sentence, in both languages", () => {
  const c = { cards: ["TS"], other: ["4S"], key: "queen", value: 0.23, other_value: 0.04 };
  setLang("en", false);
  assert.equal(sentence(c, {}), "With 10♠ you take the queen of spades in 23% of the deals played out; with 4♠, in 4%.");
  assert.equal(
    sentence(c, { black_maria: true }),
    "With 10♠ you take a heavy spade (queen, king or ace) in 23% of the deals played out; with 4♠, in 4%.",
  );
  assert.equal(sentence({ ...c, key: "hearts", value: 2.25, other_value: 1 }, {}), "With 10♠ you take 2.3 hearts on average; with 4♠, 1.0.");
  assert.equal(sentence(null, {}), "");
  setLang("fr", false);
  // French typography: the percent sign and ";" after a narrow no-break space, a decimal comma.
  assert.equal(
    sentence({ ...c, cards: ["QS"] }, {}),
    `Avec D♠, vous prenez la dame de pique dans 23${NNBSP}% des donnes jouées${NNBSP}; avec 4♠, dans 4${NNBSP}%.`,
  );
  assert.equal(sentence({ ...c, key: "expected_points", value: 4.2, other_value: 1 }, {}).includes("4,2 points"), true);
  assert.equal(percent(0.5, "fr"), `50${NNBSP}%`);
});

test("each option's numbers are labelled, and only the server's mistakes are called so", () => {
  setLang("en", false);
  const html = adviceListHtml(OPTIONS, {});
  const rows = items(html);
  assert.equal(rows.length, 3);
  assert.match(text(rows[0]), /^4♠ ducks under the winning card best expected points 1\.2 takes Q♠ 4% hearts taken 0\.9 your moon 0% another's moon 1%$/);
  assert.equal(rows.filter((r) => r.includes('class="tag bad"')).length, 1, "one mistake: the one the server marked");
  assert.ok(rows[1].includes("mistake"));
  assert.ok(!rows[2].includes("mistake"), "a card that costs 0.1 is no mistake");
  // The sentence under the list: the best against the runner-up; each option's its own.
  assert.match(text(html), /expected points for the deal \(lower is better\)/);
  assert.ok(html.includes("With 10♠ you take the queen of spades in 23% of the deals played out; with 4♠, in 4%."));
  assert.equal(whyFor(OPTIONS, "2S", {}), "With 2♠ you can expect 1.3 points in this deal; with 4♠, 1.2.");
  assert.equal(whyFor(OPTIONS, "4S", {}), whyFor(OPTIONS, "TS", {}));
  assert.equal(whyFor(OPTIONS, "AH", {}), null);
  setLang("fr", false);
  const fr = text(items(adviceListHtml(OPTIONS, {}))[0]);
  assert.ok(fr.includes(`points attendus 1,2 prend la D♠ 4${NNBSP}% cœurs pris 0,9`), fr);
});

test("the hint: the best card, its reason and the sentence", () => {
  setLang("en", false);
  const hint = { advice: OPTIONS[0], comparison: { cards: ["TS"], other: ["4S"], key: "queen", value: 0.23, other_value: 0.04 } };
  assert.equal(
    text(hintHtml(hint, "play", {})),
    "Hint: play 4♠ (ducks under the winning card). With 10♠ you take the queen of spades in 23% of the deals played out; with 4♠, in 4%.",
  );
  setLang("fr", false);
  assert.ok(text(hintHtml({ advice: { ...OPTIONS[0], cards: ["QS", "KS", "AS"], reason: "passes_high_spades" }, comparison: null }, "pass", {}))
    .startsWith("Indice\u00a0: passez D♠ R♠ A♠ (passe des gros piques)."));
});

test("a pass that voids a suit gives all of it: its reason reads in the plural, a card's in the singular", () => {
  const voids = { ...OPTIONS[0], cards: ["2C", "5C", "9C"], reason: "voids_clubs" };
  setLang("fr", false);
  assert.ok(text(hintHtml({ advice: voids, comparison: null }, "pass", {})).includes("(se débarrasse de ses trèfles)"));
  setLang("en", false);
  assert.ok(text(hintHtml({ advice: voids, comparison: null }, "pass", {})).includes("(empties its clubs)"));
  assert.ok(text(adviceListHtml([{ ...voids, best: true }], {})).includes("empties its clubs"));
  const last = { ...OPTIONS[0], cards: ["9C"], reason: "voids_clubs" };
  assert.ok(text(hintHtml({ advice: last, comparison: null }, "play", {})).includes("(gets rid of its last club)"));
  assert.ok(text(adviceListHtml([{ ...last, best: true }], {})).includes("gets rid of its last club"));
});

test("the review: where, what was played, the better card, the cost, the sentence, the replay link", () => {
  setLang("en", false);
  const review = {
    deal: 1,
    items: [
      {
        play: 9, trick: 2, hand: ["4S", "TS", "AH"], trick_cards: ["3S", "JS"], chosen: OPTIONS[1], best: OPTIONS[0], cost: 2.8, mistake: true,
        comparison: OPTIONS[1].comparison,
      },
      { play: null, trick: 0, hand: ["4S", "TS", "AH"], trick_cards: [], chosen: { ...OPTIONS[2], cards: ["AH", "KH", "QH"] }, best: { ...OPTIONS[0], cards: ["QS", "KS", "AS"] }, cost: 1, mistake: false, comparison: null },
    ],
  };
  const html = reviewHtml(review, {}, (it) => `#/replay/g1?deal=1&play=${it.play}`);
  const rows = items(html).map(text);
  assert.equal(rows[0], "Trick 3 · your hand: 4♠ 10♠ A♥ · on the table: 3♠ J♠ you played 10♠, the expert would play 4♠ — estimated cost 2.8 points mistake With 10♠ you take the queen of spades in 23% of the deals played out; with 4♠, in 4%. Replay from this card");
  assert.ok(html.includes('href="#/replay/g1?deal=1&amp;play=9"'));
  assert.match(rows[1], /^The pass · your hand: 4♠ 10♠ A♥ you passed A♥ K♥ Q♥, the expert would pass Q♠ K♠ A♠ — estimated cost 1\.0 points/);
  assert.equal(text(reviewHtml({ items: [] }, {})), "None of your choices this deal cost you anything against the expert's.");
  setLang("fr", false);
  assert.ok(text(reviewHtml(review, {})).startsWith("Pli 3 · votre main\u00a0: 4♠ 10♠ A♥ · sur la table\u00a0: 3♠ V♠ vous avez joué 10♠, l'expert aurait joué 4♠ — coût estimé 2,8 points"));
});
