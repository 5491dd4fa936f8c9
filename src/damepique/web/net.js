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
  return { v: PROTOCOL, type: "hello", ...(target.table ? { table: target.table } : {}), ...token, patches: true };
}

export function socketUrl(path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}${path}`;
}

/**
 * How long to wait before connecting again after the `attempts`-th failure in
 * a row (docs/protocol.md, "Limits and refusals"). After a server said it was
 * going away (close code 1012: a restart, a table moved), the first attempt is
 * at once, then after 1, 2, 4… up to 30 s, each stretched by up to half again
 * at random, so that the pages of a restarted server do not all come back in
 * the same instant; after any other drop (a network blip), 300 ms doubling up
 * to 5 s. `random` is in [0, 1).
 */
export function reconnectDelay(goingAway, attempts, random = Math.random()) {
  if (goingAway) {
    if (attempts <= 1) return 0;
    return Math.min(30000, 1000 * 2 ** (attempts - 2)) * (1 + random / 2);
  }
  return Math.min(5000, 300 * 2 ** attempts);
}

/**
 * A socket that comes back by itself when it drops (`reconnectDelay`) until
 * `close()`: `onOpen(socket)`, `onMessage(data)`, `onLost({retryAt, goingAway})` (when,
 * in ms since 1970, the next attempt is due; whether the server said it was going away). `retry()` tries again at once.
 */
export function openSocket(path, { onOpen = () => {}, onMessage = () => {}, onLost = () => {} }) {
  let ws = null;
  let attempts = 0; // failures since the server last answered
  let goingAway = false; // the server closed with 1012, and has not answered since
  let closed = false;
  let timer = null;
  const open = () => {
    ws = new WebSocket(socketUrl(path));
    const mine = ws;
    ws.onopen = () => onOpen(mine);
    ws.onmessage = (e) => {
      if (closed || ws !== mine) return;
      // Counted as back only once the server answers: one that accepts and
      // closes again at once (still starting) keeps the back-off growing.
      attempts = 0;
      goingAway = false;
      onMessage(JSON.parse(e.data));
    };
    ws.onclose = (e) => {
      if (closed || ws !== mine) return;
      if (e.code === 1012) goingAway = true;
      attempts += 1;
      const delay = reconnectDelay(goingAway, attempts);
      timer = setTimeout(open, delay);
      onLost({ retryAt: Date.now() + delay, goingAway });
    };
  };
  open();
  return {
    send(obj) {
      if (!ws || ws.readyState !== WebSocket.OPEN) return false;
      ws.send(JSON.stringify(obj));
      return true;
    },
    /** Drop this connection and open another at once (a patch out of step). */
    restart() {
      if (ws) ws.close();
    },
    /** While waiting to connect again ("Try now"): try at once. */
    retry() {
      if (closed || (ws && ws.readyState !== WebSocket.CLOSED)) return;
      clearTimeout(timer);
      open();
    },
    close() {
      closed = true;
      clearTimeout(timer);
      if (ws) ws.close();
    },
  };
}

/**
 * A game's connection: says the first message on every (re)connection, lays
 * patches over the last state (docs/protocol.md, "state as a patch") and hands
 * whole states to `onState`, everything else to `onMessage`. `target` may be
 * changed (a token given up) before `hello()` says it again.
 */
export function gameConnection(target, { onState, onMessage, onOpen = () => {}, onLost = () => {} }) {
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
  });
  return conn;
}
