// Cards that move (FLIP: First, Last, Invert, Play). The page draws each new
// state at once; this only makes the cards already in their new place look
// as if they travelled there from where they were (or from the seat of the
// player who played them), with the Web Animations API on `transform`. A
// click never waits for an animation. With prefers-reduced-motion nothing
// travels.

export const TRAVEL = 280; // ms a card takes to travel
const EASE = "cubic-bezier(.2,.7,.3,1)";

export function reduced() {
  return globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** Where every card (`data-flip` key: its rect and markup) and every seat (`data-seat`) is now. */
export function snapshot(root) {
  const cards = new Map();
  const seats = new Map();
  if (!root) return { cards, seats };
  for (const el of root.querySelectorAll("[data-flip]")) cards.set(el.dataset.flip, { rect: el.getBoundingClientRect(), html: el.outerHTML });
  for (const el of root.querySelectorAll("[data-seat]")) seats.set(Number(el.dataset.seat), el.getBoundingClientRect());
  return { cards, seats };
}

function travel(el, from, delay = 0) {
  const to = el.getBoundingClientRect();
  if (!to.width) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const s = Math.max(0.2, Math.min(3, from.width / to.width));
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(s - 1) < 0.02) return;
  el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${s})` }, { transform: "none" }], {
    duration: TRAVEL,
    delay,
    easing: EASE,
    fill: "backwards",
  });
}

/**
 * Make each card of `root` travel from where `before` saw it; a card that was
 * nowhere comes from `origin(el)` ({rect, delay}) when that knows a place.
 */
export function flip(root, before, origin = () => null) {
  if (reduced() || !root) return;
  for (const el of root.querySelectorAll("[data-flip]")) {
    const was = before.cards.get(el.dataset.flip);
    if (was) travel(el, was.rect);
    else {
      const o = origin(el);
      if (o) travel(el, o.rect, o.delay || 0);
    }
  }
}

/**
 * A copy of a card (`html`) as it was at `from`, sent to `to` and faded: a card
 * that left. It lives in `parent` (the table's own box, so that it goes with
 * the table view), removed when it has arrived.
 */
export function ghost(html, from, to, delay = 0, parent = document.body) {
  if (reduced() || !from || !to) return;
  const box = document.createElement("div");
  box.className = "ghost";
  box.setAttribute("aria-hidden", "true");
  box.inert = true;
  box.innerHTML = html;
  Object.assign(box.style, { left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px` });
  parent.append(box);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const run = box.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0.15 }],
    { duration: TRAVEL, delay, easing: EASE, fill: "both" },
  );
  run.onfinish = () => box.remove();
  run.oncancel = () => box.remove();
}
