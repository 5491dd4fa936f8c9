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
const { choicesFor, fullRules, levelOptions, moonPoints, optionsGrid, presetFields, removedCards } = await import("../../src/damepique/web/rules_form.js");
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

test("the house rules' options, in both languages, open only where they matter", () => {
  setLang("en", false);
  const html = optionsGrid("opt", rules({}), opts);
  assert.match(html, /<label for="opt-hearts_broken_by">Hearts are broken by<\/label>/);
  assert.match(html, /<option value="any" selected>any heart played<\/option><option value="discard" >a heart discarded on another suit<\/option>/);
  assert.match(html, /<label for="opt-first_trick_discard">First trick: a hand of only hearts and Q♠ plays<\/label>/);
  assert.match(html, /<option value="any" selected>any of them<\/option><option value="heart" >a heart<\/option>/);
  assert.match(html, /<label for="opt-tie">A tie for the lowest total at the end<\/label>/);
  assert.match(html, /<option value="play_on" selected>play another deal<\/option><option value="share" >the tied players share the win<\/option>/);
  // What breaks hearts only matters when hearts must be broken; the first trick's discard, with no points on it.
  assert.equal(choicesFor("hearts_broken_by", rules({ must_break_hearts: false }), opts).open, false);
  assert.equal(choicesFor("first_trick_discard", rules({ no_points_first_trick: false }), opts).open, false);
  setLang("fr", false);
  const fr = optionsGrid("opt", rules({}), opts);
  for (const words of ["Ce qui ouvre les cœurs", "tout cœur joué", "un cœur joué en défausse",
    "Au premier pli, une main de cœurs et de la dame de pique joue", "n'importe laquelle", "un cœur",
    "Égalité pour le plus petit total à la fin", "on joue une autre donne", "les ex æquo se partagent la victoire"]) {
    assert.ok(fr.includes(`>${words.replaceAll("'", "&#39;")}<`), words);
  }
});

test("the presets old_rules and hearts_any_time say what they are", () => {
  setLang("en", false);
  const html = presetFields("opt", "standard", rules({}), opts);
  assert.match(html, /<option value="old_rules" >Old rules \(any first lead, points on the first trick, hearts free\)<\/option>/);
  assert.match(html, /<option value="hearts_any_time" >Hearts led at any time<\/option>/);
  assert.deepEqual(
    [opts.presets.old_rules.first_lead, opts.presets.old_rules.no_points_first_trick, opts.presets.old_rules.must_break_hearts],
    ["any", false, false],
  );
  setLang("fr", false);
  const fr = presetFields("opt", "standard", rules({}), opts);
  assert.ok(fr.includes(">Anciennes règles (entame libre, points au premier pli, cœurs libres)<"));
  assert.ok(fr.includes(">Entame à cœur à tout moment<"));
});

test("the bold personality is offered beside the levels, by its name", () => {
  setLang("en", false);
  const html = levelOptions(opts.levels, opts.personalities, "intermediate", opts);
  assert.match(html, /<optgroup label="Levels"><option value="beginner" title="simple rules and human mistakes" >Beginner<\/option>/);
  assert.match(html, /<optgroup label="Personalities"><option value="shooter" title="an expert who goes for the moon whenever it has a fair chance" >Bold<\/option><\/optgroup>/);
  assert.match(html, /value="intermediate"[^>]* selected>Intermediate</);
  setLang("fr", false);
  assert.match(levelOptions(opts.levels, opts.personalities, "shooter", opts), /value="shooter"[^>]* selected>Audacieux</);
  // A bot the page has no words for shows its code (the server sends no words: issue 25).
  const more = { ...opts, bots: { ...opts.bots, very_careful: { kind: "personality" } } };
  assert.match(levelOptions(["beginner"], ["very_careful"], null, more), />very careful</);
});

test("an option the server adds with its choices appears in the form, by its name until it has words", () => {
  setLang("en", false);
  const unknown = { ...opts, defaults: { ...opts.defaults, new_rule: "a" }, choices: { ...opts.choices, new_rule: ["a", "b"] } };
  const grid = optionsGrid("opt", fullRules(unknown.presets.standard, unknown), unknown);
  assert.match(grid, /<label for="opt-new_rule">new rule<\/label>[\s\S]*value="b" >b</);
});
