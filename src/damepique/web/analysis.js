// A finished game analysed (#/analysis/GAME, or #/analysis/u-KEY?seat=N for an
// uploaded record): the server rates every decision of the player's seat in
// its coach (docs/protocol.md, "analysis"); this page shows the progress while
// it runs (it can be left and come back), then the accuracy, the count of each
// verdict, a graph per deal of the expected points after each decision (and
// the moon risk) with the verdicts marked, and the position of the decision
// chosen (click a point, or step with the arrow keys).
import { cardName, currentLang, expectedPoints, num, refusalText, seatName, t } from "./i18n.js";
import { esc } from "./dom.js";
import { cardChip, sortHand } from "./cards.js";
import { percent, sentence } from "./advice.js";
import { contentWidth } from "./chart.js";
import { load, playerId } from "./prefs.js";
import { currentGame } from "./home.js";

export const VERDICTS = ["best", "good", "inaccuracy", "mistake", "blunder", "only"];
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const POLL_MS = 1000;

/** The seat tokens this browser holds (its solo game's, its tables'): one of them may prove the seat. */
function tokens(game) {
  const out = [];
  const cur = currentGame();
  if (cur && cur.token && cur.game === game) out.push(cur.token);
  out.push(...Object.values(load("damepique.tables", {})).filter((x) => typeof x === "string"));
  return [...new Set(out)].slice(0, 12);
}

async function ask(url, { method = "GET", headers = {}, body } = {}) {
  try {
    const r = await fetch(url, {
      method,
      cache: "no-store",
      headers: { "Content-Type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const out = await r.json().catch(() => ({}));
    return r.ok ? out : { error: true, code: out.code, reason: out.reason || r.statusText };
  } catch {
    return { error: true, code: "unavailable", reason: "" };
  }
}

/** Start (or join) a stored game's analysis: the browser's id proves a solo game's seat, a seat token a table's. */
async function startStored(game, seat) {
  const url = `/api/games/${encodeURIComponent(game)}/analysis`;
  const body = seat === null ? {} : { seat };
  let out = await ask(url, { method: "POST", headers: { "X-Player": playerId() }, body });
  for (const token of out.error && out.code === "not_your_seat" ? tokens(game) : []) {
    const again = await ask(url, { method: "POST", headers: { "X-Player": playerId(), "X-Seat-Token": token }, body });
    if (!again.error || again.code !== "not_your_seat") {
      out = again;
      out.token = token;
      break;
    }
  }
  return out;
}

/** #/analysis/GAME[?seat=N] or #/analysis/u-KEY?seat=N. */
export async function renderAnalysis(root, arg) {
  const [id, query] = String(arg || "").split("?");
  const params = new URLSearchParams(query || "");
  const seat = /^\d+$/.test(params.get("seat") || "") ? Number(params.get("seat")) : null;
  const upload = id.startsWith("u-");
  root.innerHTML = `<section class="analysis-page" aria-labelledby="an-h"><h1 id="an-h">${t("an_heading")}</h1><div id="an-body"><p>${t("an_starting")}</p></div></section>`;
  let token = null;
  const poll = async () => {
    if (upload) return ask(`/api/analysis/${encodeURIComponent(id)}?seat=${seat ?? 0}`);
    const headers = { "X-Player": playerId(), ...(token ? { "X-Seat-Token": token } : {}) };
    return ask(`/api/games/${encodeURIComponent(id)}/analysis${seat === null ? "" : `?seat=${seat}`}`, { headers });
  };
  let out = upload ? await poll() : await startStored(id, seat);
  if (out.token) token = out.token;
  const body = () => root.querySelector("#an-body");
  while (root.isConnected && !out.error && out.status === "running") {
    const el = body();
    if (!el) return;
    el.innerHTML = `<p><progress id="an-progress" max="${out.total}" value="${out.done}" aria-label="${esc(t("an_progress", { done: out.done, total: out.total }))}"></progress></p>
      <p id="an-progress-text" aria-live="polite">${esc(t("an_progress", { done: out.done, total: out.total }))}</p>
      <p class="muted">${esc(t("an_leave"))}</p>`;
    await new Promise((ok) => setTimeout(ok, POLL_MS));
    out = await poll();
  }
  if (!root.isConnected || !body()) return;
  if (out.error) {
    body().innerHTML = `<p class="error" role="alert">${esc(refusalText(out.code, out.reason))}</p>`;
    return;
  }
  if (out.status !== "done") {
    body().innerHTML = `<p class="error" role="alert">${esc(t("an_unknown"))}</p>`;
    return;
  }
  if (out.outdated) {
    // An earlier expert rated it; the server makes it again once it has room (docs/protocol.md).
    body().insertAdjacentHTML("beforebegin", `<p class="an-outdated" role="note">${esc(t("an_outdated"))}</p>`);
  }
  const start = Number(params.get("i"));
  analysisView(body(), out.analysis, Number.isInteger(start) ? start : null);
}

/** The verdict counts as a small table (the game's, or a deal's). */
function countsHtml(counts, caption) {
  return `<table class="an-counts"><caption>${esc(caption)}</caption><tbody>${VERDICTS.map(
    (v) => `<tr class="v-${v}"><th scope="row"><span class="an-dot v-${v}" aria-hidden="true"></span>${esc(t("verdict_" + v))}</th><td>${counts[v] ?? 0}</td></tr>`,
  ).join("")}</tbody></table>`;
}

/** The graph of one deal: expected points after each decision, the moon risk dashed, verdicts marked. */
export function dealGraph(entries, selected, width, deal) {
  const W = Math.round(Math.max(280, Math.min(760, width)));
  const H = Math.max(170, Math.round(W * 0.42));
  // The moon risk's labels ("100 %", "0 %") start past the right edge of the last point,
  // selected (r 7), so that on a phone "0 %" is not drawn under a last point at 0.
  const pad = { left: 36, right: 52, top: 22, bottom: 28 };
  const labelX = W - pad.right + 7 + 4;
  const high = Math.max(10, Math.ceil(Math.max(...entries.map(([, d]) => d.expected)) / 5) * 5);
  const n = entries.length;
  const x = (k) => pad.left + (n > 1 ? (k / (n - 1)) * (W - pad.left - pad.right) : (W - pad.left - pad.right) / 2);
  const y = (v) => pad.top + ((high - v) / high) * (H - pad.top - pad.bottom);
  const ym = (p) => pad.top + (1 - p) * (H - pad.top - pad.bottom);
  const parts = [];
  const step = high > 20 ? 10 : 5;
  for (let v = 0; v <= high; v += step) {
    parts.push(`<line class="grid" x1="${pad.left}" x2="${W - pad.right}" y1="${y(v)}" y2="${y(v)}"/>`,
      `<text class="axis" x="${pad.left - 6}" y="${y(v) + 4}" text-anchor="end">${num(v)}</text>`);
  }
  parts.push(`<text class="axis" x="${labelX}" y="${ym(1) + 4}">${esc(percent(1))}</text>`,
    `<text class="axis" x="${labelX}" y="${ym(0) + 4}">${esc(percent(0))}</text>`);
  const line = entries.map(([, d], k) => `${x(k).toFixed(1)},${y(d.expected).toFixed(1)}`).join(" ");
  const moon = entries.map(([, d], k) => `${x(k).toFixed(1)},${ym(d.moon ?? 0).toFixed(1)}`).join(" ");
  parts.push(`<polyline class="an-moon" fill="none" points="${moon}"/>`, `<polyline class="an-line" fill="none" points="${line}"/>`);
  entries.forEach(([i, d], k) => {
    const label = `${t("label_value", { label: where(d), value: d.chosen.map((c) => cardName(c)).join(", ") })}, ${t("verdict_" + d.verdict)}, ${expectedPoints(d.expected)}`;
    const cx = x(k).toFixed(1);
    const cy = y(d.expected).toFixed(1);
    parts.push(`<g class="an-point v-${d.verdict} ${i === selected ? "selected" : ""}" data-i="${i}">
      <title>${esc(label)}</title><circle class="hit" cx="${cx}" cy="${cy}" r="13"/>
      <circle class="dot" cx="${cx}" cy="${cy}" r="${i === selected ? 7 : 5}"/>
      ${MARKS[d.verdict] ? `<text class="mark" x="${cx}" y="${(y(d.expected) - 10).toFixed(1)}" text-anchor="middle">${MARKS[d.verdict]}</text>` : ""}</g>`);
  });
  const desc = entries.map(([, d]) => `${where(d)} ${num(d.expected, 1)} (${t("verdict_" + d.verdict)})`).join("; ");
  return `<figure class="an-graph-box"><svg class="an-graph" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(t("an_graph", { n: deal + 1 }))}">
    <desc>${esc(desc)}</desc>${parts.join("")}</svg>
    <figcaption><span class="an-key-line"></span> ${esc(t("an_expected"))} <span class="an-key-moon"></span> ${esc(t("an_moon"))}</figcaption></figure>`;
}

function where(d) {
  return d.phase === "pass" ? t("an_pass") : t("an_trick", { t: d.trick + 1 });
}

/** The position the seat chose in, what it chose, the best, the loss, the sentence and every option. */
export function positionHtml(d, names, rules) {
  const pos = d.position || {};
  const mine = d.chosen.map(cardChip).join(" ");
  const best = d.best.map(cardChip).join(" ");
  const verdict = `<span class="an-verdict v-${d.verdict}">${MARKS[d.verdict] ? `${MARKS[d.verdict]} ` : ""}${esc(t("verdict_" + d.verdict))}</span>`;
  const trick = (pos.trick || []).length
    ? (pos.trick || []).map((p) => `${esc(names[p.seat] ?? String(p.seat))} ${cardChip(p.card)}`).join(" · ")
    : esc(t("an_lead"));
  const hand = sortHand(pos.hand || []).map((c) => {
    const cls = d.chosen.includes(c) ? "an-chosen" : d.best.includes(c) ? "an-best" : "";
    return cls ? `<span class="${cls}">${cardChip(c)}</span>` : cardChip(c);
  }).join(" ");
  const options = (d.options || []).map((o) => {
    const cls = [o.cards.join() === d.chosen.join() ? "an-chosen" : "", o.cards.join() === d.best.join() ? "an-best" : ""].join(" ");
    const payoff = `${o.payoff > 0 ? "+" : ""}${num(o.payoff, 1)}`;
    return `<li class="${cls}"><span class="cards">${o.cards.map(cardChip).join(" ")}</span> <span class="n">${esc(t("an_option", { p: payoff, expected: expectedPoints(o.expected) }))}</span></li>`;
  }).join("");
  const why = d.comparison ? sentence(d.comparison, rules) : "";
  return `<h2 id="an-pos-h">${esc(where(d))} ${verdict}</h2>
    <p class="an-choice">${t(d.phase === "pass" ? "an_you_passed" : "an_you_played", { mine })}${
      d.verdict === "best" || d.verdict === "only" ? "" : ` — ${t("an_best_was", { best })} — ${esc(t("an_loss", { x: num(d.loss, 1) }))}`}</p>
    ${why ? `<p class="an-why">${esc(why)}</p>` : ""}
    <p>${t("label_value", { label: esc(t("an_expected")), value: esc(num(d.expected, 1)) })} · ${t("label_value", { label: esc(t("an_moon")), value: esc(percent(d.moon ?? 0)) })}</p>
    ${d.phase === "play" ? `<p>${t("label_value", { label: esc(t("an_table")), value: trick })}</p>` : ""}
    <p class="an-hand">${t("label_value", { label: esc(t("an_hand")), value: hand })}</p>
    ${(pos.fallen || []).length ? `<p class="an-fallen">${t("label_value", { label: esc(t("an_fallen")), value: pos.fallen.map(cardChip).join(" ") })}</p>` : ""}
    ${pos.received ? `<p>${t("label_value", { label: esc(t("an_received")), value: pos.received.map(cardChip).join(" ") })}</p>` : ""}
    <h3>${esc(t("an_options"))}</h3><ol class="an-options">${options}</ol>`;
}

/** The analysis drawn in `root`; `start`: the decision shown first (default: the costliest). */
export function analysisView(root, analysis, start = null) {
  const ds = analysis.decisions;
  const names = (analysis.players || []).map((p) => seatName(p));
  const rules = analysis.rules || {};
  const own = (analysis.players || [])[analysis.seat];
  const who = own === "You" || own === "Vous" ? t("an_for_you") : t("an_for", { name: names[analysis.seat] ?? String(analysis.seat + 1) });
  if (!ds.length) {
    root.innerHTML = `<p>${esc(t("an_empty"))}</p>`;
    return;
  }
  let i = start !== null && start >= 0 && start < ds.length ? start
    : ds.reduce((b, d, k) => (d.loss > ds[b].loss ? k : b), 0);
  const deals = analysis.deals.map((x) => x.deal);
  const draw = () => {
    const d = ds[i];
    const dealEntries = ds.map((x, k) => [k, x]).filter(([, x]) => x.deal === d.deal);
    const dealSum = analysis.deals.find((x) => x.deal === d.deal);
    root.innerHTML = `<p class="an-who">${esc(who)}</p>
      <p class="an-accuracy">${esc(t("an_accuracy"))} <strong id="an-accuracy">${esc(num(analysis.accuracy, 1))}</strong><span class="muted"> / 100</span></p>
      <div class="an-summary">${countsHtml(analysis.counts, t("an_counts_game"))}${dealSum ? countsHtml(dealSum.counts, t("an_counts_deal", { n: d.deal + 1, acc: num(dealSum.accuracy, 1) })) : ""}</div>
      <nav class="an-deals" aria-label="${esc(t("an_deals"))}">${deals.map((k) => {
        const acc = analysis.deals.find((x) => x.deal === k)?.accuracy;
        return `<button type="button" class="button small" data-deal="${k}" aria-pressed="${k === d.deal}">${esc(t("deal_n", { n: k + 1 }))} <span class="muted">${esc(num(acc ?? 0, 0))}</span></button>`;
      }).join("")}</nav>
      <div class="an-graph-wrap" tabindex="0" role="slider" aria-label="${esc(t("an_steps"))}" aria-valuemin="1" aria-valuemax="${ds.length}" aria-valuenow="${i + 1}" aria-valuetext="${esc(`${t("deal_n", { n: d.deal + 1 })}, ${t("label_value", { label: where(d), value: d.chosen.map((c) => cardName(c)).join(", ") })}, ${t("verdict_" + d.verdict)}`)}">
        ${dealGraph(dealEntries, i, contentWidth(root), d.deal)}</div>
      <p class="actions"><button type="button" class="button" data-step="-1" ${i === 0 ? "disabled" : ""}>${t("an_prev")}</button>
        <button type="button" class="button" data-step="1" ${i >= ds.length - 1 ? "disabled" : ""}>${t("an_next")}</button>
        <span class="muted an-keys">${esc(t("an_keys"))}</span></p>
      <section class="an-position" aria-labelledby="an-pos-h" aria-live="polite">${positionHtml(d, names, rules)}</section>`;
  };
  const go = (k, focus) => {
    i = Math.max(0, Math.min(ds.length - 1, k));
    draw();
    root.querySelector(focus)?.focus();
  };
  root.onclick = (e) => {
    const point = e.target.closest("[data-i]");
    if (point) return go(Number(point.dataset.i), ".an-graph-wrap");
    const deal = e.target.closest("[data-deal]");
    if (deal) return go(ds.findIndex((x) => x.deal === Number(deal.dataset.deal)), `[data-deal="${deal.dataset.deal}"]`);
    const stepBtn = e.target.closest("[data-step]");
    if (stepBtn) go(i + Number(stepBtn.dataset.step), `[data-step="${stepBtn.dataset.step}"]:not([disabled])`);
  };
  root.onkeydown = (e) => {
    if (!e.target.closest(".an-graph-wrap")) return;
    const moves = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: ds.length - 1 };
    const nextDeal = (dir) => {
      const k = deals.indexOf(ds[i].deal) + dir;
      return k < 0 || k >= deals.length ? i : ds.findIndex((x) => x.deal === deals[k]);
    };
    if (e.key === "ArrowUp" || e.key === "PageUp") moves[e.key] = nextDeal(-1);
    if (e.key === "ArrowDown" || e.key === "PageDown") moves[e.key] = nextDeal(1);
    if (!(e.key in moves)) return;
    e.preventDefault();
    go(moves[e.key], ".an-graph-wrap");
  };
  draw();
  return { show: (k) => go(k, ".an-graph-wrap"), get index() { return i; }, lang: currentLang() };
}
