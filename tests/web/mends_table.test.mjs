// The hand's rows (issue 25, player item 6): one row unless a card would keep
// less than TAP px of its own; then two.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { handRows, TAP } = await import("../../src/damepique/web/table.js");

test("seventeen cards on a 390 px phone take two rows; a wide table keeps one", () => {
  assert.equal(TAP, 32);
  assert.equal(handRows(17, 373, 60), 2);
  assert.equal(handRows(17, 900, 74), 1);
  assert.equal(handRows(8, 373, 60), 1);
  assert.equal(handRows(1, 373, 60), 1);
  assert.equal(handRows(13, 0, 60), 1, "not measured yet: one row");
  // The edge: exactly TAP px each is enough.
  assert.equal(handRows(11, 60 + 10 * TAP, 60), 1);
  assert.equal(handRows(11, 60 + 10 * TAP - 1, 60), 2);
});

test("the score keeper knows a moon typed out: every other player with the moon's points, or the shooter minus them", async () => {
  const { looksLikeMoon } = await import("../../src/damepique/web/scorer/rules.js");
  const jack = { moon: "others", jack_of_diamonds: true };
  assert.equal(looksLikeMoon(["26", "26", "0", "26"], jack), true, "with the J♦ the sum would read 78 of 16");
  assert.equal(looksLikeMoon(["26", "26", "-10", "26"], jack), true);
  assert.equal(looksLikeMoon(["5", "8", "13", "0"], jack), false);
  assert.equal(looksLikeMoon(["26", "", "", ""], jack), false);
  assert.equal(looksLikeMoon(["0", "-26", "0", "0"], { moon: "self" }), true);
  assert.equal(looksLikeMoon(["26", "26", "0", "26"], { moon: "off" }), false);
});
