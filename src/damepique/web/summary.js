// What the table says when a deal ends (the deal's summary dialog) and when
// the game ends: each player's points, the moon, the J♦ and the kitty in
// words, the totals and who leads. Pure functions of the state, and the rule
// that closes the summary, so that Node's tests can read them.
import { listNames, num, t } from "./i18n.js";
import { esc } from "./dom.js";
import { cardChip } from "./cards.js";
import { moonPoints } from "./rules_form.js";
import { totalsChart } from "./chart.js";

/** A card's points under `rules`, the J♦'s −10 left out (said on its own). */
export function cardPoints(card, rules) {
  if (card[1] === "H") return 1;
  if (card === "QS") return rules.queen_points ?? 13;
  if (rules.black_maria && card === "KS") return 10;
  if (rules.black_maria && card === "AS") return 7;
  return 0;
}

const pts = (n) => t("sum_points_n", { n, x: num(n) });

/** The seats with the lowest total. */
export function leaders(totals) {
  const low = Math.min(...totals);
  return totals.map((x, i) => (x === low ? i : -1)).filter((i) => i >= 0);
}

/** The seats that won a finished game: its winner, or, with none, every seat tied for the lowest total (a shared win). */
export function winnersOf(totals, winner) {
  return winner !== null && winner !== undefined ? [winner] : leaders(totals);
}

/**
 * The sentences of a finished deal, as HTML: the moon, who took the J♦ and
 * where the kitty went. `view` is the deal's last view (its tricks), when the
 * page has it. `me`: the reader's seat, whose sentences are said to "you"
 * (in French conjugated for "vous").
 */
export function dealWords(result, view, rules, nameOfSeat, me = -1) {
  const nameOf = (seat) => esc(nameOfSeat(seat));
  // The key for another seat, or its "_you" form for the reader's.
  const key = (base, seat) => (seat === me ? `${base}_you` : base);
  const out = [];
  if (result.moon !== null && result.moon !== undefined) {
    out.push(t(key(rules.moon === "self" ? "sum_moon_self" : "sum_moon_others", result.moon), { name: nameOf(result.moon), n: moonPoints(rules) }));
  }
  const tricks = view && view.tricks ? view.tricks : [];
  const kitty = view && view.kitty ? view.kitty : [];
  if (rules.jack_of_diamonds && tricks.length) {
    const trick = tricks.find((tr) => tr.cards.includes("JD"));
    const seat = trick ? trick.winner : kitty.includes("JD") ? tricks[0].winner : null;
    if (seat !== null) out.push(t(key("sum_jack", seat), { name: nameOf(seat) }));
  }
  if (kitty.length && tricks.length) {
    const n = kitty.reduce((a, c) => a + cardPoints(c, rules), 0);
    const cards = kitty.map(cardChip).join(" ");
    out.push(t(key(n ? "sum_kitty" : "sum_kitty_zero", tricks[0].winner), { name: nameOf(tricks[0].winner), n, cards }));
  }
  return out;
}

/** "Ann leads the game with 12 points." */
export function leadWords(totals, me, nameOf) {
  const who = leaders(totals);
  if (who.length === 1 && who[0] === me) return t("sum_you_lead", { total: pts(totals[me]) });
  return t("sum_leads", { n: who.length, names: listNames(who.map(nameOf)), total: pts(totals[who[0]]) });
}

function pointsCell(p) {
  return p > 0 ? `+${num(p)}` : num(p);
}

const moonMark = () => ` <span class="moon" title="${t("moon_mark")}">☾<span class="sr-only"> ${t("moon_mark")}</span></span>`;

/** Each player's points for the deal and total, the leaders marked, and the moon's shooter (`moon`: a seat or null). */
export function pointsTable(points, totals, nameOf, column = t("sum_points"), moon = null) {
  const lead = new Set(leaders(totals));
  return `<table class="sum-table"><thead><tr><th scope="col">${t("sum_player")}</th><th scope="col">${esc(column)}</th><th scope="col">${t("sum_total")}</th></tr></thead>
    <tbody>${points
      .map((p, i) => `<tr class="${lead.has(i) ? "leader" : ""}"><th scope="row">${esc(nameOf(i))}${moon === i ? moonMark() : ""}</th><td>${pointsCell(p)}</td><td>${num(totals[i])}</td></tr>`)
      .join("")}</tbody></table>`;
}

/** The inside of the deal's summary dialog. `waiting`: names still to press, or null. */
export function summaryHtml({ deal, result, view, totals, rules, me, nameOf, waiting, seconds, pressed }) {
  const words = dealWords(result, view, rules, nameOf, me);
  return `<h2 id="sum-h">${t("deal_over", { n: deal + 1 })}</h2>
    ${words.map((w) => `<p class="sum-word">${w}</p>`).join("")}
    ${pointsTable(result.points, totals, nameOf, t("sum_points"), result.moon)}
    <p class="sum-lead">${esc(leadWords(totals, me, nameOf))}</p>
    <p class="sum-wait" aria-live="polite">${pressed && waiting && waiting.length ? esc(t("sum_waiting", { names: listNames(waiting) })) : ""}${
      seconds !== null && seconds !== undefined ? ` <span class="sum-clock">${esc(t("sum_closes", { n: seconds }))}</span>` : ""
    }</p>
    <p class="sum-actions"><button type="button" class="button primary" id="continue-btn" ${pressed ? "disabled" : ""}>${t("continue")}</button></p>`;
}

// Whether the game's record (every hand) may be had now: once its sealed deals'
// secret is told (a sealed game's at its end; the daily deal's when the day
// ends, since others still play its cards; a tournament's never: its results
// page shows what may be seen), or at once for a game dealt before seals.
const recordShown = (state) => !state.fairness || !!state.fairness.secret;

/** The end of the game: winner, final totals, the chart; `actions` are the buttons. */
export function gameOverHtml(state, me, nameOf, actions, width) {
  // A game over with no single winner is a shared win (the rules' tie "share"): every seat tied for the lowest total.
  const winners = state.winners && state.winners.length ? state.winners : state.over ? winnersOf(state.totals, state.winner) : [];
  const total = winners.length ? pts(state.totals[winners[0]]) : "";
  let line = "";
  if (winners.length > 1) line = t("winners_are", { names: listNames(winners.map(nameOf)), total });
  else if (winners.length === 1) line = winners[0] === me ? t("you_win", { total }) : t("winner_is", { name: nameOf(winners[0]), total });
  const last = state.results[state.results.length - 1];
  const names = state.seats.map((_, i) => nameOf(i));
  // The last deal's own sentences (its moon, J♦, kitty), as its summary would have said them.
  const lastView = state.view && state.view.deal === state.results.length - 1 ? state.view : null;
  const words = last ? dealWords(last, lastView, state.rules, nameOf, me) : [];
  return `<h2 id="over-h">${t("game_over")}</h2>
    <p class="winner-line">${esc(line)}</p>
    ${words.map((w) => `<p class="sum-word">${w}</p>`).join("")}
    ${last ? pointsTable(last.points, state.totals, nameOf, t("deal_n", { n: state.results.length }), last.moon) : ""}
    ${totalsChart(state.results.map((r) => r.points), names, { target: state.rules.target, width })}
    <p class="actions">${actions}<a class="button" href="#/analysis/${esc(state.game)}">${t("analyse")}</a>${recordShown(state) ? `<a class="button" href="/api/games/${esc(state.game)}/record" download>${t("download")}</a>` : ""}</p>`;
}

/**
 * Whether a deal's summary is still open. `summary`: what the page knows
 * ({deal, openedAt, pressed}); `server`: the latest state's `summary` field
 * ({deal, waiting, deadline}) where the server sends one; `timeout`: the
 * page's own limit (ms; null: only the button closes it).
 *
 * - the server says who it waits for: closed once nobody, or once it has
 *   moved on (no summary for this deal any more), or at its deadline;
 * - otherwise the page's own button closes it, or the timeout.
 */
export function summaryOpen(summary, server, timeout, now, hadServer = false) {
  if (!summary) return false;
  if (server && server.deal === summary.deal) {
    if (!server.waiting || !server.waiting.length) return false;
    if (server.deadline && now >= server.deadline) return false;
    return true;
  }
  if (hadServer) return false; // the server said this summary is over
  if (summary.pressed) return false;
  return timeout === null || now - summary.openedAt < timeout;
}
