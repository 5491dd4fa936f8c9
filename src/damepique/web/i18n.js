// The one translation system of the pages (the app and the score keeper):
// the words live in strings/en.js and strings/fr.js; the language is kept in
// localStorage "damepique.lang" ("en" | "fr"), shared by every page. A page
// loads only its language's file (each has every key: tests/web/strings.test.mjs).

export const LANG_KEY = "damepique.lang";
export const LANGS = ["en", "fr"];
/** Each language's name in itself, as the header's select offers it (index.html's options too). */
export const LANG_NAMES = { en: "English", fr: "Français" };
const TABLES = {};

/** Load a language's words (once); call before setLang(l). */
export async function loadLang(l) {
  if (!TABLES[l]) TABLES[l] = (await import(`./strings/${l}.js`)).default;
  return TABLES[l];
}

let lang = "en";
let plural = new Intl.PluralRules("en");

export function currentLang() {
  return lang;
}

export function setLang(l, remember = true) {
  lang = l === "fr" ? "fr" : "en";
  if (!TABLES[lang]) throw new Error(`the words of ${lang} are not loaded (loadLang)`);
  plural = new Intl.PluralRules(lang);
  if (remember) {
    try {
      localStorage.setItem(LANG_KEY, lang);
    } catch {
      // Private browsing: the choice lasts until the page closes.
    }
  }
  document.documentElement.lang = lang;
}

export function detectLang() {
  let saved = null;
  try {
    saved = localStorage.getItem(LANG_KEY);
  } catch {
    saved = null;
  }
  if (LANGS.includes(saved)) return saved;
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const l of langs) {
    const p = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(p)) return p;
  }
  return "en";
}

// French typography: a no-break space before ":" and inside « », a narrow one
// before ";", "!" and "?" (the strings are written with ordinary spaces).
function frenchSpaces(s) {
  return s
    .replace(/ :/g, "\u00a0:")
    .replace(/ ([;!?])/g, "\u202f$1")
    .replace(/« /g, "«\u00a0")
    .replace(/ »/g, "\u00a0»");
}

/** Whether `key` has words. */
export function has(key) {
  return key in TABLES[lang];
}

/** French typography for a text written with ordinary spaces (a page's HTML). */
export function typography(s, l = lang) {
  return l === "fr" ? frenchSpaces(s) : s;
}

/**
 * The words for `key` with its {placeholders} filled from `params`. A value
 * with plural forms picks one by `params.n`; a function gets the params.
 * A key nobody wrote words for comes back as itself, so that it shows.
 *
 * A placeholder may say how its value is written: `{value|json}` as JSON,
 * `{players|list}` as a list of names ("Ann, Bob and Cy"), `{total|n_points}`
 * by the words of `n_points` (forms chosen by the value, or a list's length,
 * filled with the params and `n`: an exact form "=VALUE" first, then the
 * number's plural form, then `other`). damepique.words (Python) fills them
 * the same way, so the server says a code's sentence from these same words.
 */
export function t(key, params = {}, l = lang) {
  const table = TABLES[l] || TABLES[lang];
  let s = table[key];
  if (s === undefined) return key;
  if (typeof s === "function") s = s(params);
  else if (typeof s === "object" && !Array.isArray(s)) {
    // `digits`: the number is shown with that many decimals ("1.0 points", "1,0 point").
    const rules = params.digits ? new Intl.PluralRules(l, { minimumFractionDigits: params.digits }) : l === lang ? plural : new Intl.PluralRules(l);
    s = s[rules.select(Number(params.n ?? 0))] ?? s.other;
  }
  if (Array.isArray(s)) return s;
  s = fill(s, params, l, table);
  return l === "fr" ? frenchSpaces(s) : s;
}

function fill(s, params, l, table) {
  return s.replace(/\{(\w+)(?:\|(\w+))?\}/g, (whole, k, how) => (k in params ? written(params[k], how, params, l, table) : whole));
}

// A placeholder's value as its `|how` says (see t).
function written(value, how, params, l, table) {
  if (!how) return String(value);
  if (how === "json") return JSON.stringify(value);
  if (how === "list") {
    if (value.length <= 1) return value.length ? String(value[0]) : "";
    return fill(table.list_last, { rest: value.slice(0, -1).join(", "), last: value[value.length - 1] }, l, table);
  }
  const forms = table[how];
  if (typeof forms !== "object" || forms === null) return typeof forms === "string" ? fill(forms, params, l, table) : `{${how}}`;
  const n = Array.isArray(value) ? value.length : value;
  const form = forms["=" + n] ?? (typeof n === "number" ? forms[new Intl.PluralRules(l).select(n)] : undefined) ?? forms.other;
  return fill(form, { ...params, n }, l, table);
}

/** A number as the page's language writes it: 4.2 / 4,2. */
export function num(x, digits = 0, l = lang) {
  return new Intl.NumberFormat(l, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** "2.5 expected points", "0,5 point attendu": the words agree with the number as it is shown. */
export function expectedPoints(x, l = lang) {
  return t("an_expected_n", { n: x, digits: 1, x: num(x, 1, l) }, l);
}

/** "Queen of spades" / "Dame de pique": a card's accessible name. */
export function cardName(card, l = lang) {
  const name = t("card_name", { rank: t("rank_" + card[0], {}, l), suit: t("suit_" + card[1], {}, l) }, l);
  return name[0].toUpperCase() + name.slice(1);
}

/** What the corner of a card shows: 10, J Q K A in English, V D R A in French. */
export function rankIndex(card, l = lang) {
  const r = card[0];
  return "TJQKA".includes(r) ? t("index_" + r, {}, l) : r;
}

/** "Q♠" / "D♠": a card written short, in the page's language. */
export function cardShort(card, l = lang) {
  return rankIndex(card, l) + { C: "♣", D: "♦", H: "♥", S: "♠" }[card[1]];
}

export function suitName(suit, l = lang) {
  return t("suit_" + suit, {}, l);
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cy". */
export function listNames(names, l = lang) {
  return t("list", { items: names }, l);
}

/** A seat's name: the server's names for computer players are English words. */
export function seatName(name, l = lang) {
  const key = "seat_" + name;
  return key in (TABLES[l] || TABLES[lang]) ? t(key, {}, l) : name;
}

// A sentence whose subject is a player, and its form for "you" (conjugated for "vous").
const YOU_FORMS = {
  plays: "you_play", leads: "you_lead", takes_trick: "you_take_trick", winner_is: "you_win",
  expert_for: "expert_for_you", replay_winner: "replay_winner_you",
};

/** Whether a player's name is the reader's own "You" ("Vous"): the name a solo game gives its person. */
export function isYou(name) {
  const n = String(name ?? "").trim().toLowerCase();
  return n === "you" || n === "vous";
}

/**
 * `key`'s sentence with `params.name` as its subject: the "you" form where the
 * name is "You" or "Vous" ("Vous jouez la carte 2", never "Vous joue…").
 */
export function tSubject(key, params, l = lang) {
  return isYou(params.name) && YOU_FORMS[key] ? t(YOU_FORMS[key], params, l) : t(key, params, l);
}

/**
 * An advice reason's words, by the bots' code (docs/bots.md). `phase` "pass":
 * a pass of several cards that voids a suit reads in the plural
 * (reason_pass_CODE), as bots.reasons.reason_words says it.
 */
export function reasonText(code, l = lang, phase = "play") {
  const table = TABLES[l] || TABLES[lang];
  if (phase === "pass" && "reason_pass_" + code in table) return t("reason_pass_" + code, {}, l);
  const key = "reason_" + code;
  return key in table ? t(key, {}, l) : String(code).replaceAll("_", " ");
}

/**
 * What to show for a refusal from the server: the page's own words for its
 * code where it has them (filled with the refusal's `params`: the nickname
 * not found, the player named twice), else the server's `reason` (English,
 * written for people), else the code itself.
 */
export function refusalText(code, reason, l = lang, params = {}) {
  const key = "refusal_" + code;
  if (code && key in (TABLES[l] || TABLES[lang])) return t(key, params || {}, l);
  return reason || String(code || "").replaceAll("_", " ");
}
