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
