// Cards as the protocol's strings ("QS"), drawn as SVG by the page itself:
// corner indexes, pips or a simple court, a real back. One sprite of suit
// shapes is put in the document once, and every card <use>s it, so a hand
// of thirteen faces is a few kilobytes of markup and crisp at any size; the
// back is one SVG in style.css.
import { cardName, cardShort, rankIndex } from "./i18n.js";
import { esc } from "./dom.js";

export const SUIT_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
// Suits in hand order, colours alternating: black, red, black, red.
export const HAND_SUITS = ["C", "D", "S", "H"];
const RANK_ORDER = "23456789TJQKA";

export function sortHand(cards) {
  return [...cards].sort(
    (a, b) => HAND_SUITS.indexOf(a[1]) - HAND_SUITS.indexOf(b[1]) || RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]),
  );
}

export function cardOrder(a, b) {
  return "CDHS".indexOf(a[1]) - "CDHS".indexOf(b[1]) || RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]);
}

// The suit shapes, in a 100×100 box.
const SHAPES = {
  H: "M50 92C22 70 3 52 3 30 3 14 15 4 29 4c10 0 17 6 21 14 4-8 11-14 21-14 14 0 26 10 26 26 0 22-19 40-47 62z",
  D: "M50 2 90 50 50 98 10 50z",
  S: "M50 3C64 24 97 40 97 63c0 14-11 24-24 24-9 0-15-4-19-10 1 10 5 16 12 21H34c7-5 11-11 12-21-4 6-10 10-19 10C14 87 3 77 3 63 3 40 36 24 50 3z",
  C: "M50 5a21 21 0 0 1 18 32 21 21 0 1 1-9 32c1 11 5 19 13 27H28c8-8 12-16 13-27a21 21 0 1 1-9-32A21 21 0 0 1 50 5z",
};

/** Put the suit shapes in the document, once. */
export function installSprite(doc = globalThis.document) {
  if (!doc || !doc.body || doc.getElementById("card-sprite")) return;
  const defs = Object.entries(SHAPES)
    .map(([s, d]) => `<symbol id="pip-${s}" viewBox="0 0 100 100"><path d="${d}"/></symbol>`)
    .join("");
  doc.body.insertAdjacentHTML(
    "afterbegin",
    `<svg id="card-sprite" width="0" height="0" style="position:absolute" aria-hidden="true" focusable="false"><defs>${defs}</defs></svg>`,
  );
}

const pip = (s, x, y, size, flip = false) =>
  `<use href="#pip-${s}" x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}"${
    flip ? ` transform="rotate(180 ${x} ${y})"` : ""
  }/>`;

// Pip positions (x, y) on a 60×84 face, for the number cards; the lower half upside down.
const L = 21, C = 30, R = 39;
const LAYOUT = {
  2: [[C, 20], [C, 64]],
  3: [[C, 20], [C, 42], [C, 64]],
  4: [[L, 20], [R, 20], [L, 64], [R, 64]],
  5: [[L, 20], [R, 20], [C, 42], [L, 64], [R, 64]],
  6: [[L, 20], [R, 20], [L, 42], [R, 42], [L, 64], [R, 64]],
  7: [[L, 20], [R, 20], [C, 31], [L, 42], [R, 42], [L, 64], [R, 64]],
  8: [[L, 20], [R, 20], [C, 31], [L, 42], [R, 42], [C, 53], [L, 64], [R, 64]],
  9: [[L, 20], [R, 20], [L, 35], [R, 35], [C, 42], [L, 49], [R, 49], [L, 64], [R, 64]],
  T: [[L, 20], [R, 20], [C, 28], [L, 35], [R, 35], [L, 49], [R, 49], [C, 56], [L, 64], [R, 64]],
};

// A simple court: a framed panel, a crown (king, queen) or a cap (jack), the letter.
const HEADWEAR = {
  K: "M19 30 22 20 26 26 30 18 34 26 38 20 41 30z",
  Q: "M20 30 23 22 27 27 30 21 33 27 37 22 40 30z",
  J: "M20 30c1-7 6-10 10-10s9 3 10 10z",
};

function middle(card) {
  const r = card[0];
  const s = card[1];
  if (LAYOUT[r]) return LAYOUT[r].map(([x, y]) => pip(s, x, y, 11, y > 42)).join("");
  if (r === "A") return pip(s, 30, 42, s === "S" ? 30 : 24);
  return `<rect class="court" x="14" y="13" width="32" height="58" rx="3"/>
    <path class="crown" d="${HEADWEAR[r]}"/>
    <text class="court-letter" x="30" y="55" text-anchor="middle">${esc(rankIndex(card))}</text>
    ${pip(s, 20, 64, 7)}${pip(s, 40, 64, 7)}`;
}

/** The face of a card as SVG (no name: the element that holds it carries that). */
export function faceSvg(card) {
  const index = esc(rankIndex(card));
  const corner = `<text class="idx" x="7" y="15" text-anchor="middle">${index}</text>${pip(card[1], 7, 22, 8)}`;
  return `<svg class="face-svg" viewBox="0 0 60 84" aria-hidden="true" focusable="false">
    <rect class="paper" x="0.5" y="0.5" width="59" height="83" rx="5"/>${corner}
    <g transform="rotate(180 30 42)">${corner}</g>${middle(card)}</svg>`;
}

/** A card seen from behind (its picture is style.css's .back, one small SVG). */
export function cardBack(extra = "") {
  return `<span class="card back ${extra}" aria-hidden="true"></span>`;
}

/** A card face that is not a control (trick, replay, summary): role img with its name. */
export function cardFace(card, extra = "", attrs = "") {
  return `<span class="card face suit-${card[1]} ${extra}" role="img" aria-label="${esc(cardName(card))}" ${attrs}>${faceSvg(card)}</span>`;
}

/** A small inline card label: "Q♠" (in French "D♠"), coloured by suit. */
export function cardChip(card) {
  return `<span class="chip suit-${card[1]}" title="${esc(cardName(card))}"><span aria-hidden="true">${esc(cardShort(card))}</span><span class="sr-only">${esc(cardName(card))}</span></span>`;
}

installSprite();
