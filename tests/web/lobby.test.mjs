// The lobby's list (src/damepique/web/lobby.js): the whole list, then changes laid over it.
import { test } from "node:test";
import assert from "node:assert/strict";

const { lobbyList } = await import("../../src/damepique/web/lobby.js");

const entry = (code, status, taken) => ({ code, status, taken, players: 4, free: 4 - taken, names: [] });

test("the whole list, then entries changed or new and codes gone, in the server's order", () => {
  const list = lobbyList();
  assert.equal(list.take({ type: "lobby", tables: [entry("BBBB", "waiting", 1), entry("CCCC", "playing", 4)] }), true);
  assert.deepEqual(list.tables().map((x) => x.code), ["BBBB", "CCCC"]);
  // A new waiting table with more people comes first; one that started goes after the waiting ones.
  list.take({ type: "lobby_changes", tables: [entry("AAAA", "waiting", 2), entry("BBBB", "playing", 4)], gone: [] });
  assert.deepEqual(list.tables().map((x) => [x.code, x.status]), [["AAAA", "waiting"], ["BBBB", "playing"], ["CCCC", "playing"]]);
  list.take({ type: "lobby_changes", tables: [], gone: ["CCCC", "ZZZZ"] });
  assert.deepEqual(list.tables().map((x) => x.code), ["AAAA", "BBBB"]);
  // Equal waiting tables: the fullest first, then by code.
  list.take({ type: "lobby_changes", tables: [entry("AAAB", "waiting", 3), entry("AAAC", "waiting", 3)], gone: [] });
  assert.deepEqual(list.tables().map((x) => x.code), ["AAAB", "AAAC", "AAAA", "BBBB"]);
});

test("a reconnection's whole list replaces what was kept; other messages change nothing", () => {
  const list = lobbyList();
  list.take({ type: "lobby", tables: [entry("AAAA", "waiting", 1)] });
  assert.equal(list.take({ type: "pong" }), false);
  list.take({ type: "lobby", tables: [entry("DDDD", "waiting", 1)] });
  assert.deepEqual(list.tables().map((x) => x.code), ["DDDD"]);
});
