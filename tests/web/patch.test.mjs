// The page's patch logic (src/damepique/web/patch.js), run with Node's test runner.
import { test } from "node:test";
import assert from "node:assert/strict";

const { patched, layPlays } = await import("../../src/damepique/web/patch.js");

const whole = {
  v: 1, type: "state", n: 7, seat: 0, ack: 3, over: false, totals: [0, 0, 0, 0],
  event: { type: "play", seat: 3, card: "2C" },
  view: { deal: 0, phase: "play", to_act: 0, hand: ["3C", "QS"], legal: ["3C"], trick: ["2C"], hand_sizes: [2, 1, 1, 1] },
};

test("a patch lays its keys over the state, and its view over the view", () => {
  const patch = {
    v: 1, type: "state", n: 8, base: 7, seat: 0, ack: 4,
    event: { type: "play", seat: 0, card: "3C" },
    view: { to_act: 1, hand: ["QS"], legal: [], trick: ["2C", "3C"], hand_sizes: [1, 1, 1, 1] },
    totals: [0, 0, 0, 1],
  };
  const out = patched(whole, patch);
  assert.deepEqual(out, {
    v: 1, type: "state", n: 8, seat: 0, ack: 4, over: false, totals: [0, 0, 0, 1],
    event: { type: "play", seat: 0, card: "3C" },
    view: { deal: 0, phase: "play", to_act: 1, hand: ["QS"], legal: [], trick: ["2C", "3C"], hand_sizes: [1, 1, 1, 1] },
  });
  assert.equal(whole.view.to_act, 0, "the previous state is left as it was");
});

test("an ack the patch does not carry is not carried over; no view keeps the view", () => {
  const out = patched(whole, { v: 1, type: "state", n: 8, base: 7, seat: 0, event: null });
  assert.equal("ack" in out, false);
  assert.equal("base" in out, false);
  assert.deepEqual(out.view, whole.view);
  assert.equal(out.n, 8);
});

test("a patch out of step gives nothing (the page reconnects)", () => {
  assert.equal(patched(whole, { n: 9, base: 8, seat: 0 }), null);
  assert.equal(patched(null, { n: 1, base: 0, seat: 0 }), null);
  assert.equal(patched({ ...whole, n: undefined }, { n: 8, base: 7, seat: 0 }), null);
});

test("a play patch lays its cards over the view first: hand, trick, tricks, hand sizes", () => {
  const before = {
    ...whole,
    view: { ...whole.view, seat: 0, trick: ["2C", "KC", "AC"], trick_leader: 1, tricks: [], hand_sizes: [2, 1, 1, 1], hand: ["3C", "QS"] },
  };
  const patch = {
    v: 2, type: "state", n: 8, base: 7, plays: true, seat: 0,
    events: [{ type: "play", seat: 0, card: "3C", trick_winner: 3, trick_points: 0 }],
    view: { to_act: 3, legal: [] },
  };
  const out = patched(before, patch);
  assert.equal("plays" in out, false);
  assert.deepEqual(out.view.hand, ["QS"]);
  assert.deepEqual(out.view.trick, []);
  assert.equal(out.view.trick_leader, 3);
  assert.deepEqual(out.view.tricks, [{ leader: 1, cards: ["2C", "KC", "AC", "3C"], winner: 3, points: 0 }]);
  assert.deepEqual(out.view.hand_sizes, [1, 1, 1, 1]);
  assert.equal(out.view.to_act, 3);
  assert.deepEqual(before.view.trick, ["2C", "KC", "AC"], "the previous view is left as it was");
  assert.deepEqual(before.view.hand_sizes, [2, 1, 1, 1]);
});

test("another seat's card leaves this seat's hand alone; a first card names the trick's leader", () => {
  const view = { seat: 0, hand: ["3C"], trick: [], trick_leader: 2, tricks: [], hand_sizes: [1, 1, 1, 1] };
  const out = layPlays(view, [{ type: "play", seat: 2, card: "4C" }, { type: "deal", number: 1 }]);
  assert.deepEqual(out.hand, ["3C"]);
  assert.deepEqual(out.trick, ["4C"]);
  assert.equal(out.trick_leader, 2);
  assert.deepEqual(out.hand_sizes, [1, 1, 0, 1]);
});
