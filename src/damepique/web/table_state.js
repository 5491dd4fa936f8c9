// The table's state, pure: what the page knows and decides from the server's
// states, with no DOM (Node tests it: tests/web/mends_table.test.mjs). Where each
// seat sits, why a card cannot be played, what the status line says, what a
// new state tells (cards played, a trick taken, a claim), how long a trick
// taken stays in view, how many rows the hand takes. table.js draws (the view)
// and listens (the input) from these.
import { cardName, suitName, t } from "./i18n.js";

/** Where each seat sits on the felt, the reader at the bottom, by the number of players. */
export const POSITIONS = {
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "top-left", "top-right", "right"],
  6: ["bottom", "left", "top-left", "top", "top-right", "right"],
};

/** The place on the felt of `seat` for the reader `me` (-1: a spectator, seen from seat 0). */
export function placeOf(seat, me, n) {
  return POSITIONS[n][(seat - Math.max(0, me) + n) % n];
}

/** How many seats on the pass goes (left 1, right n-1, across 2, none 0). */
export function passOffset(view, n) {
  return { left: 1, right: n - 1, across: 2, none: 0 }[view.pass_direction] ?? 0;
}

/** The seat that passed to `me` this deal. */
export function giverOf(view, me, n) {
  return (me - passOffset(view, n) + n) % n;
}

/** Cards played so far in the deal. */
export function playedCount(view, n) {
  return view.tricks.length * n + view.trick.length;
}

/** The server's count of hints: one a seat, deal and trick (the pass shares the first trick's). */
export function hintKey(view) {
  return view ? `${view.deal}:${view.tricks.length}` : null;
}

/** Whether it is `state`'s seat's turn to pass or play. */
export function isMyTurn(state) {
  return !!state && !state.over && !!state.view && state.view.to_act === state.seat && state.view.phase !== "done";
}

/** What happened since the state drawn before (`prev`, null at first: nothing said): `msg`'s events. */
export function eventsSince(prev, msg) {
  if (!prev) return [];
  if (msg.events && msg.events.length) return msg.events;
  return msg.event ? [msg.event] : [];
}

/** The last event of `events` that took a trick, or null. */
export function trickTaken(events) {
  let closed = null;
  for (const ev of events) if (ev.type === "play" && ev.trick_winner !== undefined) closed = ev;
  return closed;
}

// ms a trick just taken stays in view, by speed: about a second at least, whatever the speed.
export const FLASH = { fast: 1100, normal: 1600 };

/** How long a trick just taken stays in view at `speed` (ms). */
export function flashFor(speed) {
  return FLASH[speed] ?? FLASH.normal;
}

export const TAP = 32; // CSS px of its own that each card of the hand offers, at least

/**
 * How many rows a hand of `n` cards takes in `width` CSS px with cards
 * `card` px wide: one, unless its cards would overlap to less than TAP px
 * each (17 cards on a 390 px phone); then two.
 */
export function handRows(n, width, card) {
  if (n < 2 || !width || !card) return 1;
  return (width - card) / (n - 1) >= TAP ? 1 : 2;
}

/**
 * The status line under the felt: the connection's trouble (`status`, a word
 * key), else what the reader is to do ("Choose 3 cards to pass…", "Your turn.").
 * `selected`: the cards chosen to pass; `nameOf(seat)`.
 */
export function statusText(state, me, { status = null, selected = [], nameOf = String } = {}) {
  const v = state.view;
  if (status) return t(status);
  if (!v || state.over) return "";
  if (v.phase === "pass") {
    if (v.to_act === me) {
      const count = state.rules.pass_count ?? 3;
      return `${t("pass_to", { n: count, dir: t("dir_to_" + v.pass_direction), name: nameOf(v.pass_to) })} ${t("pass_chosen", { k: selected.length, n: count })}`;
    }
    return t("waiting_pass");
  }
  if (v.phase === "play" && v.to_act === me) return t("your_turn");
  if (v.phase === "play" && v.tricks.length === 0 && v.trick.length === 0 && v.pass_direction === "none" && !v.passed) return t("no_pass");
  return "";
}

/**
 * Why `card` cannot be played now by seat `me` (null when it can), in the
 * page's words: "You must follow clubs", "Hearts are not broken yet"...
 * The server's `legal` list says whether; this says why, from the view.
 */
export function whyNotPlay(state, card, me) {
  const v = state.view;
  if (!v || state.over || v.phase === "done") return t("why_done");
  if (v.phase === "pass") return v.to_act === me ? null : t("why_wait_pass");
  if (v.to_act !== me) return t("why_not_your_turn");
  if (v.legal.includes(card)) return null;
  const first = v.tricks.length === 0;
  if (v.trick.length) {
    const led = v.trick[0][1];
    if (v.hand.some((c) => c[1] === led)) return t("why_follow", { suit: suitName(led) });
    if (first && state.rules.first_trick_discard === "heart" && v.legal.every((c) => c[1] === "H")) return t("why_first_heart");
    return t("why_first_points");
  }
  if (first && v.legal.length === 1 && v.legal[0][1] === "C" && state.rules.first_lead !== "any") {
    return t("why_first_lead", { card: cardName(v.legal[0]).toLowerCase() });
  }
  if (first && state.rules.no_points_first_trick && (card[1] === "H" || card === "QS")) return t("why_first_points");
  return t("why_hearts");
}
