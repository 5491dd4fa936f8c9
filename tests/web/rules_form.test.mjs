// The options form offers only combinations the rules allow (rules_form.js),
// drawn from what the server lists in /api/options (options.json: a copy).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { setLang, loadLang } = await import("../../src/damepique/web/i18n.js");
await loadLang("en");
await loadLang("fr");
const { choicesFor, fullRules, moonPoints, optionsGrid, removedCards } = await import("../../src/damepique/web/rules_form.js");
const opts = JSON.parse(readFileSync(new URL("options.json", import.meta.url), "utf8"));
const rules = (changes) => ({ ...fullRules(opts.presets.standard, opts), ...changes });

test("no 'always across' for three or five players; no fixed direction without passing", () => {
  setLang("en", false);
  assert.ok(choicesFor("pass_cycle", rules({ players: 4 }), opts).values.includes("across"));
  for (const players of [3, 5]) {
    const c = choicesFor("pass_cycle", rules({ players }), opts);
    assert.ok(!c.values.includes("across"));
    assert.equal(c.label("standard"), "Left, right, none");
  }
  assert.equal(choicesFor("pass_cycle", rules({ passing: false }), opts).open, false);
  assert.match(optionsGrid("opt", rules({ passing: false }), opts), /id="opt-pass_cycle" data-rule="pass_cycle" disabled/);
});

test("the leftover cards are named for the players and the deck", () => {
  setLang("en", false);
  assert.equal(choicesFor("leftover", rules({ players: 3 }), opts).label("remove"), "Removed (2♦)");
  assert.equal(choicesFor("leftover", rules({ players: 5 }), opts).label("remove"), "Removed (2♦, 2♣)");
  assert.equal(choicesFor("leftover", rules({ players: 4 }), opts).open, false);
  assert.deepEqual(removedCards({ players: 5, deck: 36 }), ["6D"]);
  setLang("fr", false);
  assert.equal(choicesFor("leftover", rules({ players: 5 }), opts).label("remove"), "Retirées (2♦, 2♣)");
  assert.equal(choicesFor("first_lead", rules({ players: 5 }), opts).label("two_of_clubs"), "Le 3♣ entame");
});

test("the moon's worth follows the rules", () => {
  assert.equal(moonPoints(rules({})), 26);
  assert.equal(moonPoints(rules({ queen_points: 12 })), 25);
  assert.equal(moonPoints(fullRules(opts.presets.deck_36, opts)), 15);
  assert.equal(moonPoints(fullRules(opts.presets.black_maria, opts)), 43);
});

test("an option the server adds with its choices appears in the form", () => {
  setLang("en", false);
  const more = { ...opts, defaults: { ...opts.defaults, tie: "play_on" }, choices: { ...opts.choices, tie: ["play_on", "share"] } };
  const html = optionsGrid("opt", fullRules(more.presets.standard, more), more);
  assert.match(html, /<label for="opt-tie">A tie for the lowest total<\/label>/);
  assert.match(html, /<option value="share" >The tied players share the win<\/option>/);
  // A key nobody has words for yet still shows, by its name.
  const unknown = { ...opts, defaults: { ...opts.defaults, new_rule: "a" }, choices: { ...opts.choices, new_rule: ["a", "b"] } };
  const grid = optionsGrid("opt", fullRules(unknown.presets.standard, unknown), unknown);
  assert.match(grid, /<label for="opt-new_rule">new rule<\/label>[\s\S]*value="b" >b</);
});
