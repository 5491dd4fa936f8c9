// The one socket client of the pages: which endpoint, which first message,
// patches laid over the last state, and reconnection. Nothing else in the
// front end builds a WebSocket URL or knows what the first message is.
import { patched } from "./patch.js";

// ---------------------------------------------------------------------------
// THE PROTOCOL SWITCH (docs/protocol.md). Version 1: a solo game on /ws with
// {"type": "join", token}, a table on /ws/table with {"type": "hello", table,
// token?}. Version 2 (the one pipeline of issue 15): solo games and tables on
// /ws alike, always {"v": 2, "type": "hello", token?, table?, patches: true}.
// Set PROTOCOL to 2 the day the server speaks it; nothing else changes here.
export const PROTOCOL = 1;

/** The socket path for a game: `target` is {token} (solo) or {table, token?}. */
export function gameEndpoint(target, version = PROTOCOL) {
  if (version >= 2) return "/ws";
  return target.table ? "/ws/table" : "/ws";
}

/** The first message on a game socket (and the one that joins again). */
export function firstMessage(target, version = PROTOCOL) {
  const token = target.token ? { token: target.token } : {};
  if (version >= 2) return { v: version, type: "hello", ...(target.table ? { table: target.table } : {}), ...token, patches: true };
  if (target.table) return { v: 1, type: "hello", table: target.table, ...token, patches: true };
  return { v: 1, type: "join", ...token, patches: true };
}
// ---------------------------------------------------------------------------

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
  const socket = openSocket(gameEndpoint(target), {
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
