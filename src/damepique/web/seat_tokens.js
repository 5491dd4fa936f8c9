// The seat tokens this browser holds, one a table code: a token given back
// at the table's next hello takes the seat again (docs/multiplayer.md). The
// friends page, quick match and tournaments seat a person; the table reads it.
import { load, save } from "./prefs.js";

const TOKENS_KEY = "damepique.tables";

export function tokenFor(code) {
  return load(TOKENS_KEY, {})[code] || null;
}

export function saveToken(code, token) {
  const all = load(TOKENS_KEY, {});
  if (token) all[code] = token;
  else delete all[code];
  save(TOKENS_KEY, all);
}
