// The table's input: what a click, a key, the focus, a pointer or a resize on
// the table means, said as the table's own actions; nothing here draws or
// sends (table.js does, from the actions it gives). The hand's arrows and its
// one tab stop are the keyboard's own and stay here.

/**
 * Listen on `root` (and the window's size) until the returned function is
 * called. `actions`: card(button), pass(), continueDeal(), hint(), claim(),
 * retry(), lastTrick(), sound(on), hover(element: a card of the hand or an
 * option of the advice), resize() (the width changed by 40 px or more), and
 * click(event), change(event), input(event) for what the table does not know
 * (a solo game's or a table's own controls).
 */
export function listen(root, actions) {
  const onClick = (e) => {
    const card = e.target.closest("#hand [data-card]");
    if (card) return actions.card(card);
    if (e.target.closest("#pass-btn")) return actions.pass();
    if (e.target.closest("#continue-btn")) return actions.continueDeal();
    if (e.target.closest("#hint-btn")) return actions.hint();
    if (e.target.closest("#claim-btn")) return actions.claim();
    if (e.target.closest("#retry-btn")) return actions.retry();
    if (e.target.closest("#last-trick-btn")) return actions.lastTrick();
    return actions.click(e);
  };
  const onChange = (e) => {
    if (e.target.id === "sound") return actions.sound(e.target.checked);
    return actions.change(e);
  };
  const onInput = (e) => actions.input(e);
  // A card of the hand or an option of the advice, pointed at or focused.
  const onHover = (e) => {
    const el = e.target.closest?.("#hand [data-card], .advice [data-cards]");
    if (el) actions.hover(el);
  };
  const onKey = (e) => {
    const btn = e.target.closest?.("#hand [data-card]");
    if (btn) {
      const all = [...root.querySelectorAll("#hand [data-card]")];
      const i = all.indexOf(btn);
      let j = null;
      if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(all.length - 1, i + 1);
      if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(0, i - 1);
      if (e.key === "Home") j = 0;
      if (e.key === "End") j = all.length - 1;
      if (j !== null) {
        e.preventDefault();
        all.forEach((b, k) => b.setAttribute("tabindex", k === j ? "0" : "-1"));
        all[j].focus();
      }
    }
    // Escape must not close a summary that waits for its button.
    if (e.key === "Escape" && e.target.closest?.("#t-summary")) e.preventDefault();
  };
  // The card with the focus is the hand's one stop in the tab order.
  const onFocus = (e) => {
    const btn = e.target.closest?.("#hand [data-card]");
    if (btn) root.querySelectorAll("#hand [data-card]").forEach((b) => b.setAttribute("tabindex", b === btn ? "0" : "-1"));
    onHover(e);
  };
  const onCancel = (e) => {
    if (e.target.id === "t-summary") e.preventDefault();
  };
  let width = window.innerWidth;
  const onResize = () => {
    if (Math.abs(window.innerWidth - width) < 40) return;
    width = window.innerWidth;
    actions.resize();
  };
  const on = [
    [root, "click", onClick],
    [root, "change", onChange],
    [root, "input", onInput],
    [root, "keydown", onKey],
    [root, "cancel", onCancel, true],
    [root, "focusin", onFocus],
    [root, "mouseover", onHover],
    [window, "resize", onResize],
  ];
  for (const [target, kind, fn, capture] of on) target.addEventListener(kind, fn, !!capture);
  return () => {
    for (const [target, kind, fn, capture] of on) target.removeEventListener(kind, fn, !!capture);
  };
}
