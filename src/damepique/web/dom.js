// Small helpers every page uses: escaping, the live region, passing alerts.

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

let liveTimer = null;
let liveQueue = [];
/** Say `text` to screen readers (the polite live region), grouped over 60 ms. */
export function announce(text) {
  if (!text) return;
  liveQueue.push(text);
  clearTimeout(liveTimer);
  liveTimer = setTimeout(() => {
    const live = document.getElementById("live");
    if (live) live.textContent = liveQueue.join(" ");
    liveQueue = [];
  }, 60);
}

let toast = null;
/**
 * A sentence shown at once in a role="alert" element that goes away by itself
 * (an illegal tap, a copied link): `near` is the element it is drawn beside.
 */
export function flashAlert(text, near = null, ms = 2600) {
  if (toast) toast.remove();
  const el = document.createElement("div");
  el.className = "toast";
  el.setAttribute("role", "alert");
  el.textContent = text;
  document.body.append(el);
  if (near) {
    const r = near.getBoundingClientRect();
    const w = el.offsetWidth;
    const left = Math.max(8, Math.min(window.innerWidth - w - 8, r.left + r.width / 2 - w / 2));
    el.style.left = `${left}px`;
    el.style.top = `${Math.max(8, r.top - el.offsetHeight - 10)}px`;
  }
  toast = el;
  setTimeout(() => {
    el.remove();
    if (toast === el) toast = null;
  }, ms);
  return el;
}

/** A refusal shown in its box next to the button, and brought into view (a phone). */
export function showRefusal(box, text) {
  if (!box) return;
  box.textContent = text;
  if (text) box.scrollIntoView({ block: "nearest", behavior: "auto" });
}

/** Copy a text field's value (a link to share); where the clipboard is refused, select it for the user. */
export async function copyField(input) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand?.("copy");
  }
}
