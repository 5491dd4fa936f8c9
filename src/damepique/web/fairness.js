// Sealed deals checked in the browser (docs/fairness.md): the secret's
// SHA-256 is the commitment announced before the first deal, and each deal's
// hands are the ones HMAC-SHA256 of the secret gives. Needs crypto.subtle
// (a secure context: https or localhost).
import { t } from "./i18n.js";
import { esc } from "./dom.js";

export const SCHEME = "damepique-hmac-sha256/1";
const RANKS = "23456789TJQKA";
const SUITS = "CDHS";
const LEFTOVER_ORDER = "DC";
const enc = new TextEncoder();

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (text) => Uint8Array.from(text.match(/../g), (h) => parseInt(h, 16));

export function available() {
  return Boolean(globalThis.crypto && globalThis.crypto.subtle);
}

// The cards the rules deal (hands and kitty), in card order: 2C 3C ... AC 2D ... AS.
export function deckOf(rules) {
  const players = rules.players ?? 4;
  const size = rules.deck ?? 52;
  const low = size === 52 ? 0 : RANKS.indexOf("6");
  const removed = new Set();
  if ((rules.leftover ?? "remove") === "remove") {
    for (let i = 0; i < size % players; i++) removed.add(RANKS[low + (i >> 1)] + LEFTOVER_ORDER[i % 2]);
  }
  const deck = [];
  for (const s of SUITS) for (let r = low; r < 13; r++) if (!removed.has(RANKS[r] + s)) deck.push(RANKS[r] + s);
  return deck;
}

// Deal `number`'s shuffled deck from the secret (hex).
export async function shuffledDeck(rules, secretHex, number) {
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey("raw", unhex(secretHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  let bytes = new Uint8Array(0);
  let block = 0;
  let at = 0;
  const word = async () => {
    while (bytes.length < at + 4) {
      const next = new Uint8Array(await subtle.sign("HMAC", key, enc.encode(`damepique-deal:${number}:${block++}`)));
      const joined = new Uint8Array(bytes.length + next.length);
      joined.set(bytes);
      joined.set(next, bytes.length);
      bytes = joined;
    }
    const w = ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
    at += 4;
    return w;
  };
  const deck = deckOf(rules);
  for (let i = deck.length - 1; i > 0; i--) {
    const bound = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % bound);
    let w = await word();
    while (w >= limit) w = await word();
    const j = w % bound;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

const canon = (c) => {
  const t = String(c).toUpperCase().replace(/^10/, "T").replace("♣", "C").replace("♦", "D").replace("♥", "H").replace("♠", "S");
  return t;
};
const sameCards = (a, b) => Array.isArray(a) && a.length === b.length && [...a].map(canon).sort().join() === [...b].sort().join();

// {verified: true, deals} or {verified: false, deal?, reason}: what the record's
// fairness object proves of its deals (legality is the server's referee's job).
export async function verifyRecord(record) {
  const f = record && record.fairness;
  if (!f || f.scheme !== SCHEME) return { verified: false, reason: "no_fairness" };
  if (!/^[0-9a-f]{64}$/.test(f.secret || "") || !/^[0-9a-f]{64}$/.test(f.commitment || "")) {
    return { verified: false, reason: "not_revealed" };
  }
  const digest = hex(new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", unhex(f.secret))));
  if (digest !== f.commitment) return { verified: false, reason: "commitment" };
  const rules = record.rules || {};
  const players = rules.players ?? 4;
  const deals = record.deals || [];
  for (let k = 0; k < deals.length; k++) {
    const deck = await shuffledDeck(rules, f.secret, k);
    const size = Math.floor(deck.length / players);
    const hands = deals[k].hands || [];
    if (hands.length !== players) return { verified: false, deal: k, reason: "hands" };
    for (let s = 0; s < players; s++) {
      if (!sameCards(hands[s], deck.slice(s * size, (s + 1) * size))) return { verified: false, deal: k, reason: "hands" };
    }
    if (!sameCards(deals[k].kitty || [], deck.slice(players * size))) return { verified: false, deal: k, reason: "hands" };
  }
  return { verified: true, deals: deals.length };
}

/**
 * "Deals verified" (or why not) for a finished game's record, checked here in
 * the browser, as HTML; "" for a game that was never sealed.
 */
export async function sealVerdict(record) {
  if (!record || !record.fairness) return "";
  if (!available()) return `<span class="seal">${esc(t("seal_unavailable"))}</span>`;
  let out;
  try {
    out = await verifyRecord(record);
  } catch {
    out = { verified: false, reason: "error" };
  }
  if (out.verified) return `<span class="seal verified" title="${esc(t("seal_help"))}">✓ ${esc(t("seal_verified"))}</span>`;
  const where = out.deal !== undefined ? ` (${t("deal_n", { n: out.deal + 1 })})` : "";
  return `<span class="seal unverified">✗ ${esc(t("seal_failed"))}${esc(where)}</span>`;
}
