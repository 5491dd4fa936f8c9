// Cards as the protocol's strings ("QS"), drawn with CSS; sorting and helpers.
import { cardName } from "./i18n.js";

export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
// Suits in hand order, colours alternating: black, red, black, red.
export const HAND_SUITS = ["C", "D", "S", "H"];
const RANK_ORDER = "23456789TJQKA";

export function rankLabel(card) {
  return card[0] === "T" ? "10" : card[0];
}

export function sortHand(cards) {
  return [...cards].sort(
    (a, b) => HAND_SUITS.indexOf(a[1]) - HAND_SUITS.indexOf(b[1]) || RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]),
  );
}

export function cardOrder(a, b) {
  return "CDHS".indexOf(a[1]) - "CDHS".indexOf(b[1]) || RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]);
}

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// A card face that is not a control (trick, replay, lists); role img with its name.
export function cardFace(card, extra = "") {
  return `<span class="card face suit-${card[1]} ${extra}" role="img" aria-label="${esc(cardName(card))}"><span class="rank">${rankLabel(card)}</span><span class="pip">${SUIT_SYMBOL[card[1]]}</span></span>`;
}

// A small inline card label: "Q♠" coloured by suit.
export function cardChip(card) {
  return `<span class="chip suit-${card[1]}" title="${esc(cardName(card))}"><span aria-hidden="true">${rankLabel(card)}${SUIT_SYMBOL[card[1]]}</span><span class="sr-only">${esc(cardName(card))}</span></span>`;
}
