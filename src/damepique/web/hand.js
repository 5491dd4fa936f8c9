// The hand drawn keyed by card: a redraw changes each card's button in place
// (its attributes, its contents) and adds or removes only the cards that came
// or went, so a button being pressed is never replaced by another between the
// press and the release (the click would be lost), and the focus stays where
// it is. The markup of each card is still written as a string (table.js); this
// lays it over the buttons already there.

const drawn = new WeakMap(); // element -> the markup it was last given

function element(html) {
  const box = document.createElement("template");
  box.innerHTML = html.trim();
  return box.content.firstElementChild;
}

// Make `el` say what `fresh` says, keeping `el` itself (and `keep`'s attributes:
// the tab stop) and, child by child, every node that stays the same: the node a
// press went down on (the card's face) must still be there when it comes up,
// or the browser fires no click.
function morph(el, fresh, keep = []) {
  for (const { name } of [...el.attributes]) {
    if (!fresh.hasAttribute(name) && !keep.includes(name)) el.removeAttribute(name);
  }
  for (const { name, value } of [...fresh.attributes]) {
    if (keep.includes(name) && el.hasAttribute(name)) continue;
    if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  }
  const now = [...el.childNodes];
  const wanted = [...fresh.childNodes];
  wanted.forEach((node, i) => {
    const have = now[i];
    if (have && have.nodeType === node.nodeType && have.nodeName === node.nodeName) {
      if (node.nodeType === Node.ELEMENT_NODE) {
        if (have.outerHTML !== node.outerHTML) morph(have, node);
      } else if (have.nodeValue !== node.nodeValue) have.nodeValue = node.nodeValue;
    } else if (have) el.replaceChild(node.cloneNode(true), have);
    else el.append(node.cloneNode(true));
  });
  for (const extra of now.slice(wanted.length)) extra.remove();
}

/**
 * Draw into `area` the hand `{attrs, items}` and, after it, `after` (markup:
 * the Pass and Claim buttons). `attrs`: the hand box's attributes (its id is
 * "hand"); `items`: [{key, html}] in order, each html one element whose key
 * (its data-card, or "row-break") stays the same from one drawing to the next.
 * Returns the hand box, or null when there is no hand.
 */
export function drawHand(area, hand, after = "") {
  if (!hand) {
    if (area.firstChild) area.replaceChildren();
    return null;
  }
  let box = area.querySelector(":scope > #hand");
  let tail = area.querySelector(":scope > .hand-after");
  if (!box || !tail) {
    area.replaceChildren();
    box = document.createElement("div");
    tail = document.createElement("div");
    tail.className = "hand-after";
    area.append(box, tail);
  }
  for (const [name, value] of Object.entries(hand.attrs)) {
    if (box.getAttribute(name) !== value) box.setAttribute(name, value);
  }
  const old = new Map([...box.children].map((el) => [el.dataset.key, el]));
  let at = box.firstElementChild;
  for (const { key, html } of hand.items) {
    let el = old.get(key);
    if (el) {
      old.delete(key);
      if (drawn.get(el) !== html) morph(el, element(html), ["tabindex", "data-key"]);
    } else {
      el = element(html);
      el.dataset.key = key;
    }
    drawn.set(el, html);
    // Moved only when out of place: a card that stays where it was is not touched.
    if (el !== at) box.insertBefore(el, at);
    else at = at.nextElementSibling;
  }
  for (const el of old.values()) el.remove();
  if (drawn.get(tail) !== after) {
    tail.innerHTML = after;
    drawn.set(tail, after);
  }
  return box;
}
