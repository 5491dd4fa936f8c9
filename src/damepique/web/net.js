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
 * A socket that comes back by itself when it drops (300 ms, then doubling up
 * to 5 s) until `close()`: `onOpen(socket)`, `onMessage(data)`, `onLost()`.
 */
export function openSocket(path, { onOpen = () => {}, onMessage = () => {}, onLost = () => {} }) {
  let ws = null;
  let attempts = 0;
  let closed = false;
  let timer = null;
  const open = () => {
    ws = new WebSocket(socketUrl(path));
    const mine = ws;
    ws.onopen = () => {
      attempts = 0;
      onOpen(mine);
    };
    ws.onmessage = (e) => {
      if (!closed && ws === mine) onMessage(JSON.parse(e.data));
    };
    ws.onclose = () => {
      if (closed || ws !== mine) return;
      onLost();
      attempts += 1;
      timer = setTimeout(open, Math.min(5000, 300 * 2 ** attempts));
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
    onLost: () => {
      last = null;
      onLost();
    },
  });
  return conn;
}
