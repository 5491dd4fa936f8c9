// The lobby's list of tables on the page, kept from what the server sends.

/**
 * The lobby as the server sends it (docs/multiplayer.md, "The lobby"): the
 * whole list once on each connection (`lobby`), then only what changed
 * (`lobby_changes`: entries new or changed, codes gone), laid over it here.
 * `take(msg)` says whether the list changed; `tables()` is in the server's
 * order: waiting tables first, the fullest first, then by code.
 */
export function lobbyList() {
  let byCode = new Map();
  return {
    take(msg) {
      if (msg.type === "lobby") byCode = new Map(msg.tables.map((x) => [x.code, x]));
      else if (msg.type === "lobby_changes") {
        for (const code of msg.gone || []) byCode.delete(code);
        for (const x of msg.tables || []) byCode.set(x.code, x);
      } else return false;
      return true;
    },
    tables() {
      return [...byCode.values()].sort(
        (a, b) => (a.status !== "waiting") - (b.status !== "waiting") || b.taken - a.taken || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
      );
    },
  };
}
