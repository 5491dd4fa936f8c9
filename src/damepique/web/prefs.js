// What the browser remembers (localStorage): the player's choices, the game in
// progress, the seat tokens of tables, the browser's id. Keys are documented
// in docs/protocol.md.
const PREFS_KEY = "damepique.prefs";
const PLAYER_KEY = "damepique.player";

export function load(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

export function save(key, value) {
  try {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Private browsing with storage off: the choice lasts until the page closes.
  }
}

/** The player's choices: name, level, speed, preset, rules, fourColour, training, sound. */
export function prefs() {
  return load(PREFS_KEY, {});
}

export function setPrefs(changes) {
  save(PREFS_KEY, { ...prefs(), ...changes });
}

/** This browser's id, sent with solo games so that it finds its history. */
export function playerId() {
  let id = localStorage.getItem(PLAYER_KEY);
  if (!id) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(PLAYER_KEY, id);
  }
  return id;
}
