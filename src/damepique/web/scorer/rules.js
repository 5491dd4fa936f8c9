// The rules of a sheet's variant in a few lines, and the other words the
// pages build from a sheet: pure functions of the rules and a translator
// `t(key, params)` (i18n.js's; tested under Node, tests/web/scorer_rules.test.mjs).

export const RULES_PAGE = "/#/rules";

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const QUEEN = { 52: 13, 36: 5 };

// The rules as the new-sheet form holds them, with the server's defaults.
export function fullRules(rules = {}) {
  const deck = rules.deck === 36 ? 36 : 52;
  return {
    target: rules.target ?? 100,
    moon: rules.moon ?? "others",
    jack_of_diamonds: Boolean(rules.jack_of_diamonds),
    queen_points: rules.queen_points ?? QUEEN[deck],
    black_maria: Boolean(rules.black_maria),
    deck,
    tie: rules.tie === "share" ? "share" : "play_on",
  };
}

// Every point of a deal (the moon's) and what a deal without a moon adds up
// to, as the server's SheetRules gives them (the engine's Rules): hearts 1
// each (13, or 9 from 6 to ace), the queen, K♠ 10 and A♠ 7 with Black Maria,
// the last trick 1 in the 36-card game, the J♦ −10. For the form, before the
// sheet exists; a sheet's own figures come from the server.
export function dealPoints(rules) {
  const r = fullRules(rules);
  const moon = (r.deck === 36 ? 9 + 1 : 13) + r.queen_points + (r.black_maria ? 17 : 0);
  return { moon, total: moon - (r.jack_of_diamonds ? 10 : 0) };
}

// Points typed out as a moon (every other player given the moon's points, or
// the shooter minus them): the moon's buttons say it in one tap, the sum would not add up.
export function looksLikeMoon(draft, rules) {
  if (!rules || rules.moon === "off") return false;
  const { moon } = dealPoints(rules);
  const values = draft.map((v) => (v === "" ? null : Number(v)));
  if (rules.moon === "self") return values.some((v) => v === -moon);
  return values.filter((v) => v === moon).length === values.length - 1;
}

// The cards taken out so that the deck divides: the lowest diamond, then the
// lowest club, and so on (2♦ at 3 players; 2♦, 2♣ at 5; 2♦, 2♣, 3♦, 3♣ at 6).
export function removedCards(deck, players) {
  const low = deck === 36 ? 4 : 0;
  const out = [];
  for (let i = 0; i < deck % players; i++) out.push(`${RANKS[low + Math.floor(i / 2)]}${i % 2 ? "♣" : "♦"}`);
  return out;
}

function lowestClub(deck, players) {
  const removed = removedCards(deck, players).filter((c) => c.endsWith("♣")).length;
  return `${RANKS[(deck === 36 ? 4 : 0) + removed]}♣`;
}

function listWords(items, t) {
  return t("list", { items });
}

// A few lines that say how the variant is played and scored.
export function ruleLines(rules, players, t) {
  const r = fullRules(rules);
  const { moon, total } = dealPoints(r);
  const removed = removedCards(r.deck, players);
  const lines = [];
  const size = Math.floor(r.deck / players);
  lines.push(removed.length
    ? t("sc_ruleDealRemoved", { deck: r.deck, cards: listWords(removed, t), size })
    : t("sc_ruleDeal", { deck: r.deck, size }));
  lines.push(t(players === 4 ? "sc_rulePass4" : "sc_rulePass"));
  lines.push(t("sc_rulePlay", { card: lowestClub(r.deck, players) }));
  const points = [t("sc_ruleHeart"), t("sc_ruleQueen", { n: r.queen_points })];
  if (r.black_maria) points.push(t("sc_ruleKing"), t("sc_ruleAce"));
  if (r.deck === 36) points.push(t("sc_ruleLastTrick"));
  if (r.jack_of_diamonds) points.push(t("sc_ruleJack"));
  lines.push(t("sc_rulePoints", { points: listWords(points, t), total }));
  lines.push(r.moon === "others" ? t("sc_ruleMoonOthers", { n: moon })
    : r.moon === "self" ? t("sc_ruleMoonSelf", { n: moon }) : t("sc_ruleMoonOff"));
  lines.push(t(r.tie === "share" ? "sc_ruleEndShare" : "sc_ruleEnd", { target: r.target }));
  return lines;
}

// The banner's words once the game is over: one winner, or a shared win.
export function winnerWords(sheet, t) {
  const names = (sheet.winners || []).map((seat) => sheet.players[seat]);
  return names.length > 1 ? t("sc_sharedBanner", { names: listWords(names, t) }) : t("sc_wonBanner", { name: names[0] });
}

// The label of one reading of an ambiguous entry (the server's params.readings).
export function readingLabel(reading, players, t) {
  const points = reading.points.join(", ");
  if (reading.entry.moon !== undefined) {
    return t("sc_readingMoon", { name: players[reading.entry.moon], points });
  }
  return t("sc_readingOrdinary", { points });
}
