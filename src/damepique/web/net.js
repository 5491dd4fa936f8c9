// The one socket client of the pages: which endpoint, which first message,
// patches laid over the last state, and reconnection. Nothing else in the
// front end builds a WebSocket URL or knows what the first message is.
import { patched } from "./patch.js";

// The protocol (docs/protocol.md, version 2): every game, solo or at a table,
// on the one socket /ws, whose first message is a hello naming the seat token
// (a solo game), the table's code (a visitor), or both (a seat at a table).
export const PROTOCOL = 2;
export const GAME_ENDPOINT = "/ws";

/** The first message on a game socket (and the one that joins again): `target` is {token} or {table, token?}. */
export function firstMessage(target) {
  const token = target.token ? { token: target.token } : {};
  const table = target.table ? { table: target.table } : {};
  return { v: PROTOCOL, type: "hello", ...table, ...token, patches: true, plays: true };
}

export function socketUrl(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}`;
}

// Close codes by which a server says to come back later (RFC 6455's registry).
export const RESTARTING = 1012; // the server restarts, or the table moved to another server process
export const OVERLOADED = 1013; // "try again later": the server is too busy now

const FIRST_WINDOW = 1000; // ms: the first try, at a random point of the first second
const DROP_CAP = 10000; // after a drop, the window doubles up to 10 s
const TOLD_CAP = 30000; // once the server said it restarts or is overloaded, up to 30 s
const OVERLOADED_WAIT = 5000; // and after "try again later", never before 5 s

/**
 * How long to wait before connecting again after the `attempts`-th failure in
 * a row since the server last answered (docs/protocol.md, "Limits and
 * refusals"): a random point of a window of 1 s, then 2, 4, 8… s ("full
 * jitter"), so that the pages that lost their connection in the same instant (a
 * server restarting, a blip of its network) come back spread over the window
 * instead of all at once. The window stops at 10 s after a drop, at 30 s once the
 * server said it restarts (`told` 1012) or is overloaded (`told` 1013, which
 * also puts every try 5 s later). `told`: the last of those codes the server
 * closed with since it last answered (null: none); `random` is in [0, 1).
 */
export function reconnectDelay(attempts, told, random) {
  const cap = told === RESTARTING || told === OVERLOADED ? TOLD_CAP : DROP_CAP;
  const window = Math.min(cap, FIRST_WINDOW * 2 ** Math.max(0, attempts - 1));
  return (told === OVERLOADED ? OVERLOADED_WAIT : 0) + random * window;
}

/** The page's clock, random source and sockets; a test gives its own (tests/web/reconnect.test.mjs). */
const BROWSER = {
  now: () => Date.now(),
  after: (ms, fn) => setTimeout(fn, ms),
  cancel: (timer) => clearTimeout(timer),
  random: () => Math.random(),
  connect: (path) => new WebSocket(socketUrl(path)),
};
const OPEN = 1; // WebSocket.OPEN and WebSocket.CLOSED, named here so a test's sockets need no WebSocket
const CLOSED = 3;

/**
 * A socket that comes back by itself when it drops (`reconnectDelay`) until
 * `close()`: `onOpen(socket)`, `onMessage(data)`, `onLost({retryAt, goingAway})` (when,
 * in ms since 1970 on `env.now`, the next attempt is due; whether the server said it
 * was going away). `retry()` tries again at once. `env` is the page's clock, random
 * source and sockets (`BROWSER`).
 */
export function openSocket(path, { onOpen = () => {}, onMessage = () => {}, onLost = () => {} }, env = BROWSER) {
  let ws = null;
  let attempts = 0; // failures since the server last answered
  let told = null; // RESTARTING or OVERLOADED: the last the server closed with since it last answered
  let closed = false;
  let timer = null;
  const open = () => {
    timer = null;
    ws = env.connect(path);
    const mine = ws;
    ws.onopen = () => onOpen(mine);
    ws.onmessage = (e) => {
      if (closed || ws !== mine) return;
      // Counted as back only once the server answers (the hello): one that accepts
      // and closes again at once (still starting) keeps the back-off growing.
      attempts = 0;
      told = null;
      onMessage(JSON.parse(e.data));
    };
    ws.onclose = (e) => {
      if (closed || ws !== mine) return;
      if (e.code === RESTARTING || e.code === OVERLOADED) told = e.code;
      attempts += 1;
      const delay = reconnectDelay(attempts, told, env.random());
      timer = env.after(delay, open);
      onLost({ retryAt: env.now() + delay, goingAway: told === RESTARTING });
    };
  };
  open();
  return {
    send(obj) {
      if (!ws || ws.readyState !== OPEN) return false;
      ws.send(JSON.stringify(obj));
      return true;
    },
    /** Drop this connection and open another (a patch out of step). */
    restart() {
      if (ws) ws.close();
    },
    /** While waiting to connect again ("Try now"): try at once. */
    retry() {
      if (closed || (ws && ws.readyState !== CLOSED)) return;
      env.cancel(timer);
      open();
    },
    close() {
      closed = true;
      env.cancel(timer);
      if (ws) ws.close();
    },
  };
}

/**
 * A game's connection: says the first message on every (re)connection, lays
 * patches over the last state (docs/protocol.md, "state as a patch") and hands
 * whole states to `onState`, everything else to `onMessage`. `target` may be
 * changed (a token given up) before `hello()` says it again. `env`: as `openSocket`'s.
 */
export function gameConnection(target, { onState, onMessage, onOpen = () => {}, onLost = () => {} }, env = BROWSER) {
  let last = null;
  let nextId = 1;
  const conn = {
    target,
    send(msg) {
      const id = nextId++;
      return socket.send({ v: PROTOCOL, ...msg, id }) ? id : null;
    },
    hello() {
      socket.send(firstMessage(conn.target));
    },
    close() {
      socket.close();
    },
    retry() {
      socket.retry();
    },
  };
  const socket = openSocket(GAME_ENDPOINT, {
    onOpen: () => {
      last = null;
      conn.hello();
      onOpen(conn);
    },
    onMessage: (msg) => {
      if (msg.type === "state" && msg.base !== undefined) {
        msg = patched(last, msg);
        if (!msg) {
          socket.restart(); // out of step (never expected): joining again brings the whole state
          return;
        }
      }
      if (msg.type === "state") {
        last = msg;
        onState(msg);
      } else onMessage(msg);
    },
    onLost: (info) => {
      last = null;
      onLost(info);
    },
  }, env);
  return conn;
}
