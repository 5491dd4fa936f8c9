// The browser's check of sealed deals (web/fairness.js) against the scheme of
// docs/fairness.md: the published vector, and records the Python referee verifies.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const { deckOf, shuffledDeck, verifyRecord } = await import("../../src/damepique/web/fairness.js");
const here = new URL(".", import.meta.url);
const load = (name) => JSON.parse(readFileSync(new URL(name, here), "utf8"));
const VECTOR =
  "5H 7H 9S 9C KS QC 2C 2S KH 5S JD QD 8S AS AH KD JS AD AC QH QS TH 7C 6S 4C 9D 3C 7S TD TC 8C 6C 9H 4D JH 5C 2H 2D JC 6D 6H 7D 3H 3D 3S 5D 8H 8D TS 4S KC 4H";

test("the published vector", async () => {
  const secret = Array.from({ length: 32 }, (_, i) => i.toString(16).padStart(2, "0")).join("");
  assert.equal((await shuffledDeck({}, secret, 0)).join(" "), VECTOR);
});

test("the decks the rules deal", () => {
  assert.equal(deckOf({}).length, 52);
  assert.ok(!deckOf({ players: 3 }).includes("2D") && deckOf({ players: 3 }).length === 51);
  assert.deepEqual(deckOf({ players: 5 }).filter((c) => c[0] === "2"), ["2H", "2S"]);
  assert.equal(deckOf({ players: 5, leftover: "kitty" }).length, 52);
  assert.equal(deckOf({ deck: 36, players: 5 }).length, 35);
  assert.ok(!deckOf({ deck: 36, players: 5 }).includes("6D"));
});

test("honest records verify, as the Python referee says", async () => {
  for (const name of ["sealed_game.json", "sealed_game_36.json"]) {
    const record = load(name);
    assert.deepEqual(await verifyRecord(record), { verified: true, deals: record.deals.length });
  }
});

test("two cards swapped, a changed secret or commitment, no fairness: not verified", async () => {
  let record = load("sealed_game.json");
  const hands = record.deals[1].hands;
  [hands[0][0], hands[2][3]] = [hands[2][3], hands[0][0]];
  assert.deepEqual(await verifyRecord(record), { verified: false, deal: 1, reason: "hands" });
  record = load("sealed_game.json");
  record.fairness.secret = "0".repeat(64);
  assert.equal((await verifyRecord(record)).reason, "commitment");
  record = load("sealed_game.json");
  record.fairness.commitment = "f".repeat(64);
  assert.equal((await verifyRecord(record)).reason, "commitment");
  record = load("sealed_game.json");
  delete record.fairness.secret;
  assert.equal((await verifyRecord(record)).reason, "not_revealed");
  delete record.fairness;
  assert.equal((await verifyRecord(record)).reason, "no_fairness");
});
