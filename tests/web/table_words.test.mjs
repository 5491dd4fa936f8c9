// How a table with others is said (src/damepique/web/table_words.js): the
// rules line names each fact once, and the waiting room never waits for
// people where computer players take the empty seats.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { setLang, loadLang } = await import("../../src/damepique/web/i18n.js");
await loadLang("en");
await loadLang("fr");
const { fullRules } = await import("../../src/damepique/web/rules_form.js");
const { botsToFill, rulesLine, waitingFor } = await import("../../src/damepique/web/table_words.js");
const opts = JSON.parse(readFileSync(new URL("options.json", import.meta.url), "utf8"));
const preset = (name, changes = {}) => ({ ...fullRules(opts.presets[name], opts), ...changes });

test("the rules line says the players and the target once, where the preset's name does not", () => {
  setLang("en", false);
  assert.equal(rulesLine(preset("standard"), opts), "Standard (100 points)");
  assert.equal(rulesLine(preset("short"), opts), "Short game (50 points)");
  assert.equal(rulesLine(preset("three_players"), opts), "Three players · 100 points");
  assert.equal(rulesLine(preset("omnibus"), opts), "Omnibus (J♦ −10) · 100 points");
  // "auto" players: still the standard rules, and the count said as the form says it.
  assert.equal(rulesLine(preset("standard", { players: "auto" }), opts), "Standard (100 points) · Players: 3 to 5, as many as sit down");
  // Custom rules name everything.
  assert.equal(rulesLine(preset("standard", { queen_points: 12, jack_of_diamonds: true }), opts), "Custom · Players: 4 · 100 points");
  setLang("fr", false);
  assert.equal(rulesLine(preset("standard"), opts), "Classique (100 points)");
  assert.equal(rulesLine(preset("five_players"), opts), "Cinq joueurs · 100 points");
  for (const lang of ["en", "fr"]) {
    setLang(lang, false);
    for (const name of Object.keys(opts.presets)) {
      const line = rulesLine(preset(name), opts);
      // The target appears once at most; so does the word for the players.
      assert.ok((line.match(/\b(50|100)\b/g) || []).length <= 1, line);
      assert.ok((line.match(/players|joueurs/gi) || []).length <= 1, line);
    }
  }
});

const seat = (kind, extra = {}) => ({ kind, name: kind === "empty" ? "" : "X", program: false, connected: true, ...extra });
const table = (seats, options = {}, more = {}) => ({
  seats, host: 0, can_start: false, options: { fill: true, ...options }, rules: { players: seats.length }, ...more,
});

test("a program seated does not make the room wait for people that computer players replace", () => {
  setLang("en", false);
  const tb = table([seat("human"), seat("human", { program: true }), seat("empty"), seat("empty")]);
  const words = waitingFor(tb, 0);
  assert.doesNotMatch(words, /more people/);
  assert.equal(words, "Waiting for a second person to sit down; then the host can start.");
  assert.equal(botsToFill(tb), 2);
  // Without computer players every seat waits for someone: people or programs.
  const full = table([seat("human"), seat("human", { program: true }), seat("empty"), seat("empty")], { fill: false });
  assert.equal(waitingFor(full, 0), "Waiting for 2 more people: the game starts when every seat is taken.");
  assert.equal(botsToFill(full), 0);
  // Once the server says the host may start, the room says so.
  assert.equal(waitingFor({ ...tb, can_start: true }, 0), "Everyone can start: press “Start the game” when you are ready.");
  assert.equal(waitingFor({ ...tb, can_start: true }, 1), "Waiting for the host to start the game.");
});
