// The hand's rows (issue 25, player item 6): one row unless a card would keep
// less than TAP px of its own; then two.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { handRows, TAP } = await import("../../src/damepique/web/table.js");
const { setLang, loadLang } = await import("../../src/damepique/web/i18n.js");
await loadLang("en");
await loadLang("fr");
const S = await import("../../src/damepique/web/table_state.js");

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

test("table_state: places, the giver of a pass, cards played, the hint's count", () => {
  assert.deepEqual([0, 1, 2, 3].map((s) => S.placeOf(s, 2, 4)), ["top", "right", "bottom", "left"]);
  assert.equal(S.placeOf(0, -1, 3), "bottom", "a spectator sees from seat 0");
  const v = { pass_direction: "left", tricks: [{}, {}], trick: ["2C"], deal: 3 };
  assert.equal(S.giverOf(v, 0, 4), 3, "passing left, the seat on the right gave");
  assert.equal(S.giverOf({ ...v, pass_direction: "across" }, 1, 4), 3);
  assert.equal(S.playedCount(v, 4), 9);
  assert.equal(S.hintKey(v), "3:2");
  assert.equal(S.hintKey(null), null);
});

test("table_state: what a new state tells, and a trick taken stays about a second at every speed", () => {
  const take = { type: "play", seat: 2, card: "AC", trick_winner: 2, trick_points: 0 };
  const lead = { type: "play", seat: 2, card: "3D" };
  assert.deepEqual(S.eventsSince(null, { events: [take] }), [], "the first state drawn tells nothing");
  assert.deepEqual(S.eventsSince({}, { events: [], event: lead }), [lead]);
  assert.equal(S.trickTaken([take, lead]), take);
  assert.equal(S.trickTaken([lead]), null);
  assert.ok(S.flashFor("fast") >= 1000 && S.flashFor("normal") >= 1000);
  assert.equal(S.flashFor("unknown"), S.FLASH.normal);
});

test("table_state: whose turn, and the status line in both languages", () => {
  const state = {
    seat: 0, over: false, rules: { pass_count: 3 },
    view: { phase: "pass", to_act: 0, pass_direction: "left", pass_to: 1, tricks: [], trick: [] },
  };
  assert.equal(S.isMyTurn(state), true);
  assert.equal(S.isMyTurn({ ...state, over: true }), false);
  const nameOf = (i) => ["Ann", "Bob"][i];
  setLang("en", false);
  assert.equal(S.statusText(state, 0, { selected: ["2C"], nameOf }), "Choose 3 cards to pass to the left, to Bob. 1 of 3 chosen");
  assert.equal(S.statusText({ ...state, view: { ...state.view, phase: "play" } }, 0), "Your turn.");
  assert.equal(S.statusText(state, 0, { status: "reconnecting" }), "Connection lost, reconnecting…");
  setLang("fr", false);
  assert.equal(S.statusText({ ...state, view: { ...state.view, phase: "play" } }, 0), "À vous de jouer.");
});
