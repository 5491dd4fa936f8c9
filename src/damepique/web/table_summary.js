// A deal's summary at the one table: it opens a moment after the deal's last
// trick (the trick is seen first), counts down where it closes by itself,
// hears "Continue" (at a table the server is told: it holds the next deal
// until every person has read it), and closes when summary.js says so. Its
// state is the controller's `summary` (null while none is open), which the
// rest of the table reads: no card is played while it is open.
import { reduced } from "./motion.js";
import { summaryHtml, summaryOpen } from "./summary.js";

const SUMMARY_DELAY = 700; // ms the last trick stays in view before the deal's summary

/**
 * The summary of `ctrl` (table.js's controller) drawn in `root`'s dialog;
 * `timeout`: the mode's summaryTimeout; `ended()`: called once it closes.
 */
export function dealSummary(ctrl, root, timeout, ended) {
  const dialog = () => root.querySelector("#t-summary");
  let timer = null;
  let clock = null;

  function close() {
    clearTimeout(timer);
    clearInterval(clock);
    const d = dialog();
    if (d && d.open) d.close();
  }

  /** Open the summary of `deal` of the state `msg` (by default its last). */
  function open(msg, deal = msg.results.length - 1) {
    ctrl.summary = {
      deal,
      result: msg.results[deal],
      view: msg.view && msg.view.deal === deal ? msg.view : null,
      totals: msg.totals,
      openedAt: Date.now(),
      pressed: false,
      shownAt: null,
    };
    ctrl.hadServerSummary = !!msg.summary;
    timer = setTimeout(() => {
      if (!ctrl.summary || ctrl.closed) return;
      ctrl.summary.openedAt = Date.now();
      const d = dialog();
      if (!d) return;
      render();
      if (!d.open) d.showModal();
      d.querySelector("#continue-btn")?.focus();
      clearInterval(clock);
      clock = setInterval(refresh, 1000);
    }, reduced() ? 0 : SUMMARY_DELAY);
  }

  function deadline() {
    const server = ctrl.state?.summary;
    if (server && server.deal === ctrl.summary.deal && server.deadline) return server.deadline;
    return timeout === null ? null : ctrl.summary.openedAt + timeout;
  }

  function render() {
    const s = ctrl.summary;
    const d = dialog();
    if (!s || !d) return;
    const server = ctrl.state?.summary;
    const waiting = server && server.deal === s.deal && server.waiting ? server.waiting.map(ctrl.nameOf) : null;
    const until = deadline();
    const focused = document.activeElement === d.querySelector("#continue-btn");
    d.innerHTML = summaryHtml({
      deal: s.deal, result: s.result, view: s.view, totals: s.totals, rules: ctrl.shown.rules, me: ctrl.me(),
      nameOf: ctrl.nameOf, waiting, pressed: s.pressed,
      seconds: until === null ? null : Math.max(0, Math.ceil((until - Date.now()) / 1000)),
    });
    if (focused || !d.contains(document.activeElement)) d.querySelector("#continue-btn:not([disabled])")?.focus();
  }

  /** Draw it again (a new state, a second gone), or close it once it may close. */
  function refresh() {
    if (!ctrl.summary) return;
    const stays = summaryOpen(ctrl.summary, ctrl.state?.summary, timeout, Date.now(), ctrl.hadServerSummary);
    if (!stays) end();
    else if (dialog()?.open) render();
  }

  function press() {
    if (!ctrl.summary || ctrl.summary.pressed) return;
    ctrl.summary.pressed = true;
    // At a table the server holds the next deal until every person has read it
    // (its states' `summary`): it hears who pressed. A solo game's summary is the page's own.
    const s = ctrl.state;
    if (s && s.mode === "table" && !s.spectator && s.seat !== null) ctrl.send({ type: "continue", deal: ctrl.summary.deal });
    refresh();
  }

  function end() {
    ctrl.summariesRead.add(ctrl.summary.deal);
    ctrl.summary = null;
    close();
    ended();
  }

  /** Whether its dialog is on the screen. */
  const shown = () => !!dialog()?.open;

  return { open, refresh, press, close, shown, render: () => shown() && render() };
}
