// The page's reconnection without a browser and without waiting: each simulated
// page gets its own sockets, a clock the test moves and a seeded random source
// (net.js's `env`), so a server restart met by a thousand pages is played out in
// no time: when each comes back, how far the back-off grows, when it starts
// again, and "Try now".
import { test } from "node:test";
import assert from "node:assert/strict";

const { OVERLOADED, RESTARTING, gameConnection, openSocket, reconnectDelay } = await import("../../src/damepique/web/net.js");

/** A reproducible random source in [0, 1) (mulberry32). */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One clock for many pages: timers run only when the test moves it. */
function manualClock() {
  let now = 0;
  let timers = [];
  let next = 1;
  return {
    now: () => now,
    after(ms, fn) {
      const id = next++;
      timers.push({ id, at: now + ms, fn });
      return id;
    },
    cancel(id) {
      timers = timers.filter((t) => t.id !== id);
    },
    /** Move the clock `ms` on, running each timer due on the way at its own time. */
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers = timers.filter((t) => t !== due);
        now = due.at;
        due.fn();
      }
      now = end;
    },
  };
}

/**
 * A simulated page on `clock`: its sockets (the last one is `page.ws()`), the
 * clock's time of each connection, what `onLost` said, and what it received.
 */
function page(clock, random, { game = false } = {}) {
  const p = { sockets: [], connectedAt: [], lost: [], got: [] };
  const env = {
    now: clock.now,
    after: clock.after,
    cancel: clock.cancel,
    random,
    connect: (path) => {
      const ws = { path, readyState: 0, sent: [], send: (s) => ws.sent.push(JSON.parse(s)), close: () => {} };
      p.sockets.push(ws);
      p.connectedAt.push(clock.now());
      return ws;
    },
  };
  const handlers = { onLost: (info) => p.lost.push(info), onMessage: (m) => p.got.push(m) };
  p.conn = game ? gameConnection({ token: "t" }, { ...handlers, onState: (s) => p.got.push(s) }, env) : openSocket("/ws/lobby", handlers, env);
  p.ws = () => p.sockets[p.sockets.length - 1];
  /** The server accepts the last connection (the page says hello) and answers it. */
  p.answer = () => {
    p.ws().readyState = 1;
    p.ws().onopen?.();
    p.ws().onmessage({ data: JSON.stringify({ type: "state", n: 1 }) });
  };
  /** The last connection ends with `code` (1006: the network dropped it). */
  p.drop = (code = 1006) => {
    p.ws().readyState = 3;
    p.ws().onclose({ code });
  };
  return p;
}

/** `n` pages, each connected and answered, all on `clock`. */
function answeredPages(n, clock, seed, options) {
  const random = seeded(seed);
  const pages = [];
  for (let i = 0; i < n; i++) {
    const p = page(clock, random, options);
    p.answer();
    pages.push(p);
  }
  return pages;
}

/** Counts of `times` (ms) in each of `buckets` equal slices of [0, span). */
function histogram(times, span, buckets) {
  const counts = new Array(buckets).fill(0);
  for (const t of times) counts[Math.floor((t / span) * buckets)] += 1;
  return counts;
}

for (const [why, code] of [
  ["a server restart (1012)", RESTARTING],
  ["a blip of the server's network (1006)", 1006],
]) {
  test(`after ${why}, a thousand pages come back spread over the first second, not in the same instant`, () => {
    const clock = manualClock();
    const pages = answeredPages(1000, clock, 7, { game: true });
    const cut = clock.now();
    for (const p of pages) p.drop(code);
    assert.ok(pages.every((p) => p.sockets.length === 1), "nobody tries again in the instant of the cut");
    clock.advance(1000);
    const back = pages.map((p) => p.connectedAt[1] - cut);
    assert.ok(back.every((t) => t >= 0 && t < 1000), "every page has tried again within the first second");
    // Ten slices of 100 ms each hold about a tenth of the pages (100 ± 9.5):
    // none empty, none holding the crowd.
    const counts = histogram(back, 1000, 10);
    assert.ok(counts.every((c) => c >= 60 && c <= 140), counts.join(" "));
    // At most a handful in any one millisecond (the storm was all 1,000 at once).
    const perMs = histogram(back, 1000, 1000);
    assert.ok(Math.max(...perMs) <= 8, `${Math.max(...perMs)} in one millisecond`);
    // What the page was told: when it would try, and whether the server said it was going away.
    for (const p of pages) {
      assert.equal(p.lost[0].retryAt, p.connectedAt[1]);
      assert.equal(p.lost[0].goingAway, code === RESTARTING);
    }
  });
}

test("a server that stays down: each try at a random point of a window of 1, 2, 4, 8 s, then 10 s at most", () => {
  const clock = manualClock();
  const pages = answeredPages(300, clock, 11);
  for (const p of pages) p.drop(1006);
  const windows = [1000, 2000, 4000, 8000, 10000, 10000, 10000, 10000];
  for (const [k, window] of windows.entries()) {
    const waits = pages.map((p) => p.lost[k].retryAt - clock.now());
    // Never past the window, and spread over all of it (a third of the pages in its first third).
    assert.ok(waits.every((w) => w >= 0 && w < window), `try ${k + 1}: ${Math.max(...waits)} ms`);
    assert.ok(Math.max(...waits) > 0.95 * window && Math.min(...waits) < 0.05 * window, `try ${k + 1}`);
    const early = waits.filter((w) => w < window / 3).length;
    assert.ok(early > 60 && early < 140, `try ${k + 1}: ${early} of 300 in the window's first third`);
    clock.advance(window);
    assert.ok(pages.every((p) => p.sockets.length === k + 2), "each page tried once in the window");
    for (const p of pages) p.drop(1006); // refused: the server is still down
  }
});

test("once the server said it restarts, the window grows to 30 s at most (1012, then refused connections)", () => {
  const clock = manualClock();
  const pages = answeredPages(200, clock, 13);
  for (const p of pages) p.drop(RESTARTING);
  let longest = 0;
  for (let k = 0; k < 9; k++) {
    for (const p of pages) longest = Math.max(longest, p.lost[k].retryAt - clock.now());
    clock.advance(30000);
    for (const p of pages) p.drop(1006);
  }
  assert.ok(longest > 28500 && longest < 30000, `${longest} ms`);
  assert.ok(pages.every((p) => p.lost.every((l) => l.goingAway)), "said until the server answers");
  assert.deepEqual([1, 2, 3, 4, 5, 6, 20].map((k) => reconnectDelay(k, RESTARTING, 0.5)), [500, 1000, 2000, 4000, 8000, 15000, 15000]);
  assert.deepEqual([1, 4, 5, 20].map((k) => reconnectDelay(k, null, 0.5)), [500, 4000, 5000, 5000]);
});

test("a server that says it is overloaded (1013) is not tried again before 5 s, then over the window after it", () => {
  const clock = manualClock();
  const pages = answeredPages(500, clock, 17);
  for (const p of pages) p.drop(OVERLOADED);
  clock.advance(4999);
  assert.ok(pages.every((p) => p.sockets.length === 1), "nobody before 5 s");
  clock.advance(1001);
  const back = pages.map((p) => p.connectedAt[1] - 5000);
  assert.ok(back.every((t) => t >= 0 && t < 1000));
  assert.ok(histogram(back, 1000, 5).every((c) => c >= 70 && c <= 130));
  // Still told after a refused connection: 5 s, then a window of 2 s.
  for (const p of pages) p.drop(1006);
  assert.ok(pages.every((p) => p.lost[1].retryAt - clock.now() >= 5000 && p.lost[1].retryAt - clock.now() < 7000));
  assert.ok(pages.every((p) => !p.lost[1].goingAway));
});

test("the back-off starts again once a hello is answered, not when a socket merely opens", () => {
  const clock = manualClock();
  const p = page(clock, () => 0.999, { game: true }); // always near the window's end: each wait shows its window
  p.answer();
  const wait = (k) => p.lost[k].retryAt - clock.now();
  const waits = [];
  for (let k = 0; k < 5; k++) {
    p.drop(1006);
    waits.push(Math.round(wait(k)));
    clock.advance(10000);
  }
  assert.deepEqual(waits, [999, 1998, 3996, 7992, 9990]);
  // Accepted, then closed before any answer (a server still starting): the window stays at 10 s.
  p.ws().readyState = 1;
  p.ws().onopen();
  assert.deepEqual(p.ws().sent.map((m) => m.type), ["hello"]);
  p.drop(1006);
  assert.equal(Math.round(wait(5)), 9990);
  clock.advance(10000);
  // The hello answered: the next drop is met within the first second again.
  p.answer();
  p.drop(1006);
  assert.equal(Math.round(wait(6)), 999);
});

test('"Try now" connects at once, and the try that was due does not come as well', () => {
  const clock = manualClock();
  const [p] = answeredPages(1, clock, 29);
  for (let k = 0; k < 4; k++) {
    p.drop(1006);
    clock.advance(8000);
  }
  p.drop(1006);
  const due = p.lost[4].retryAt;
  assert.ok(due > clock.now(), "waiting");
  p.conn.retry();
  assert.equal(p.sockets.length, 6, "a new connection at once");
  assert.equal(p.connectedAt[5], clock.now(), "the clock not moved");
  clock.advance(due - clock.now() + 1);
  assert.equal(p.sockets.length, 6, "the slot it replaced was given up");
  // Pressed while a connection is still being made, it does nothing.
  p.conn.retry();
  assert.equal(p.sockets.length, 6);
  // Refused again: the back-off goes on from where it was (a press is not an answer).
  p.drop(1006);
  assert.ok(p.lost[5].retryAt - clock.now() < 10000);
  p.conn.close();
  clock.advance(60000);
  assert.equal(p.sockets.length, 6, "closed: nothing more");
});

test("a game's connection says hello first on each connection, and takes the whole state", () => {
  const clock = manualClock();
  const [p] = answeredPages(1, clock, 31, { game: true });
  assert.deepEqual(p.sockets[0].sent, [{ v: 2, type: "hello", token: "t", patches: true, plays: true }]);
  assert.deepEqual(p.got, [{ type: "state", n: 1 }]);
  p.drop(RESTARTING);
  p.conn.retry();
  p.ws().readyState = 1;
  p.ws().onopen();
  assert.deepEqual(p.sockets[1].sent, [{ v: 2, type: "hello", token: "t", patches: true, plays: true }]);
});
