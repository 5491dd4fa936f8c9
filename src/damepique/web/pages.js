// The other pages: history, replays (a stored game or an uploaded record),
// the rules and the strategy guide.
import { currentLang, listNames, refusalText, seatName, t, tSubject, typography } from "./i18n.js";
import { esc, showRefusal } from "./dom.js";
import { cardChip, cardFace, sortHand } from "./cards.js";
import { sealVerdict } from "./fairness.js";
import { adviceListHtml } from "./advice.js";
import { contentWidth, totalsChart } from "./chart.js";
import { winnersOf } from "./summary.js";
import { getOptions } from "./rules_form.js";
import { currentGame } from "./home.js";

// Fill each `[data-seal]` element with the verdict on its game's record.
async function fillSeals(root) {
  for (const el of root.querySelectorAll("[data-seal]")) {
    const record = await fetchJSON(`/api/games/${encodeURIComponent(el.dataset.seal)}/record`);
    if (!record || record.error) continue;
    el.innerHTML = await sealVerdict(record);
  }
}

// ---------------------------------------------------------------- history

// A GET that gives up after a few seconds and tries again: a request made while
// the game's WebSocket is closing has been seen to stall in Chromium.
async function fetchJSON(url, options = {}, tries = 4) {
  for (let attempt = 0; attempt < tries; attempt++) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), 2500);
    try {
      const r = await fetch(url, { ...options, signal: abort.signal });
      const body = await r.json();
      return r.ok ? body : { error: true, ...body };
    } catch {
      await new Promise((ok) => setTimeout(ok, 300));
    } finally {
      clearTimeout(timer);
    }
  }
  return null;
}

export async function renderHistory(root, { playerId }) {
  root.innerHTML = `<section class="history"><h1>${t("history_heading")}</h1><div id="history-list">…</div>
    <h2><label for="upload">${t("upload")}</label></h2>
    <input type="file" id="upload" accept=".json,application/json">
    <p class="error" id="upload-error" role="alert"></p>
    <div id="replay-root"></div></section>`;
  // Listen before the list is fetched: a file chosen while it loads is replayed all the same.
  document.getElementById("upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const text = await file.text();
    const res = await fetch("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
    const out = await res.json().catch(() => ({})); // a proxy's refusal may not be JSON
    const err = document.getElementById("upload-error");
    if (!res.ok) {
      showRefusal(err, t("upload_bad", { reason: out.code ? refusalText(out.code, out.reason) : res.statusText }));
      return;
    }
    err.textContent = "";
    let record = null;
    try {
      record = JSON.parse(text);
    } catch {
      record = null;
    }
    replayViewer(document.getElementById("replay-root"), out, record);
  });
  const data = await fetchJSON("/api/history", { headers: { "X-Player": playerId() }, cache: "no-store" });
  const list = document.getElementById("history-list");
  if (!list) return;
  if (!data || data.error) {
    list.innerHTML = `<p class="error">${t("error", { reason: "history" })}</p>`;
    return;
  }
  if (!data.games.length) list.innerHTML = `<p>${t("history_empty")}</p>`;
  else {
    const fmt = new Intl.DateTimeFormat(currentLang(), { dateStyle: "medium", timeStyle: "short" });
    list.innerHTML = `<table class="history-table"><thead><tr><th scope="col">${t("date")}</th><th scope="col">${t("score_sheet")}</th><th scope="col">${t("winner")}</th><th scope="col">${t("hints_col")}</th><th scope="col"></th></tr></thead><tbody>
      ${data.games
        .map(
          (g) => `<tr><td>${fmt.format(new Date(g.finished * 1000))}</td>
          <td>${g.players.map((p, i) => `${esc(seatName(p))} ${g.totals[i]}`).join(" · ")}</td>
          <td>${esc(listNames(winnersOf(g.totals, g.winner).map((s) => seatName(g.players[s]))))}</td>
          <td>${g.hints ? g.hints[0] : 0}</td>
          <td><a href="#/replay/${g.game}">${t("replay")}</a> · <a href="#/analysis/${g.game}">${t("analyse")}</a> · <a href="/api/games/${g.game}/record" download>${t("download")}</a>
            <span data-seal="${esc(g.game)}"></span></td></tr>`,
        )
        .join("")}</tbody></table>`;
    fillSeals(list);
  }
}

/**
 * #/replay/ID, or #/replay/ID?deal=K&play=I: from card I of deal K (a review's
 * link), the expert's view open. While the solo game this page plays is not
 * over, deal K alone, finished, is shown to its player (proved by the seat's token).
 */
export async function renderReplay(root, arg) {
  const [id, query] = String(arg || "").split("?");
  const params = new URLSearchParams(query || "");
  const at = (key) => (params.has(key) && /^\d+$/.test(params.get(key)) ? Number(params.get(key)) : null);
  root.innerHTML = `<section class="replay-page"><div id="replay-root">…</div></section>`;
  const cur = currentGame();
  const live = cur && cur.game === id && !cur.over && at("deal") !== null ? { headers: { "X-Seat-Token": cur.token } } : null;
  const game = encodeURIComponent(id);
  const data = await fetchJSON(live ? `/api/games/${game}/deals/${at("deal")}/replay` : `/api/games/${game}/replay`, { ...live, cache: "no-store" });
  if (!data || data.error) {
    root.innerHTML = `<p class="error">${esc(data ? refusalText(data.code, data.reason, undefined, data.params) : "…")}</p>`;
    return;
  }
  replayViewer(document.getElementById("replay-root"), data, null, { deal: live ? 0 : at("deal"), play: at("play"), live });
}

// `record`: the uploaded record itself, to check its seal (a stored game's is fetched).
// `start`: {deal, play} to begin at (null: the first trick, whole); `live`: the
// request's options proving the player of a game still going on, whose one
// finished deal `data` holds (no seal, record or analysis yet).
function replayViewer(root, data, record = null, start = {}) {
  const live = start.live || null;
  let seal = "";
  const sealed = record ? sealVerdict(record) : data.game && !live ? fetchJSON(`/api/games/${encodeURIComponent(data.game)}/record`).then(sealVerdict) : null;
  if (sealed) {
    sealed.then((html) => {
      seal = html;
      const el = root.querySelector("#replay-seal");
      if (el) el.innerHTML = html;
    });
  }
  const n = data.players.length;
  const names = data.players.map((p) => seatName(p));
  const offset = { left: 1, right: n - 1, across: 2, none: 0 };
  const plays = (deal) => deal.tricks.flatMap((tr) => tr.plays);
  // The position is deal `d` with `p` of its cards played; the trick shown is the one of the last card played.
  const endOf = (deal, k) => deal.tricks.slice(0, k + 1).reduce((a, tr) => a + tr.plays.length, 0);
  let d = start.deal !== null && start.deal !== undefined && start.deal < data.deals.length ? start.deal : 0;
  let p = start.play !== null && start.play !== undefined ? Math.min(start.play, plays(data.deals[d]).length) : endOf(data.deals[d], 0);
  // The expert's view (a stored game only): shown from a review's link, or when asked; it follows the cards.
  let expert = !!data.game && start.play !== null && start.play !== undefined;
  const advice = new Map(); // "d:p" -> options, or a promise while asked
  const trickAt = (deal, pos) => {
    let k = 0;
    while (k < deal.tricks.length - 1 && endOf(deal, k) < pos) k++;
    return k;
  };
  const expertHtml = (deal, all) => {
    if (!data.game) return "";
    if (!expert) return `<p><button type="button" class="button" data-go="ex">${t("expert_show")}</button></p>`;
    if (p >= all.length || !deal.complete) return `<section class="expert" aria-labelledby="expert-h"><h2 id="expert-h">${t("expert_view")}</h2><p>${t("expert_none")}</p></section>`;
    const key = `${d}:${p}`;
    const got = advice.get(key);
    if (got === undefined) {
      const url = live
        ? `/api/games/${encodeURIComponent(data.game)}/deals/${deal.number}/advice?play=${p}`
        : `/api/games/${encodeURIComponent(data.game)}/advice?deal=${d}&play=${p}`;
      advice.set(key, fetchJSON(url, live || {}).then((answer) => {
        advice.set(key, answer && !answer.error ? answer.options : { error: answer ? refusalText(answer.code, answer.reason) : "…" });
        if (`${d}:${p}` === key && root.isConnected) draw();
      }));
    }
    const seat = all[p].seat;
    const body = got === undefined || got instanceof Promise ? `<p>${t("advice_wait")}</p>`
      : got.error ? `<p class="error">${esc(got.error)}</p>` : adviceListHtml(got, data.rules, { played: all[p].card });
    return `<section class="expert" aria-labelledby="expert-h"><h2 id="expert-h">${t("expert_view")}</h2>
      <p>${esc(tSubject("expert_for", { name: names[seat], n: p + 1 }))}</p>${body}</section>`;
  };
  const draw = () => {
    const deal = data.deals[d];
    const all = plays(deal);
    const hands = deal.hands.map((h) => [...h]);
    if (deal.passes.length && deal.passes.every((x) => x)) {
      const off = offset[deal.direction];
      deal.passes.forEach((x, s) => {
        hands[s] = hands[s].filter((c) => !x.includes(c));
      });
      deal.passes.forEach((x, s) => hands[(s + off) % n].push(...x));
    }
    for (const pl of all.slice(0, p)) hands[pl.seat] = hands[pl.seat].filter((c) => c !== pl.card);
    const k = trickAt(deal, p);
    const trick = deal.tricks[k];
    const shown = trick ? trick.plays.slice(0, Math.max(0, p - (endOf(deal, k) - trick.plays.length))) : [];
    const whole = trick && shown.length === trick.plays.length;
    const over = data.over && d === data.deals.length - 1 && p === all.length;
    const winners = over ? winnersOf(data.totals, data.winner) : [];
    root.innerHTML = `<h1>${t("replay")} — ${t("deal_n", { n: deal.number + 1 })}</h1>
      ${live ? `<p class="replay-live">${t("replay_live")} <a class="button" href="#/play">${t("resume")}</a></p>` : `<p id="replay-seal">${seal}</p>`}
      <p class="actions">
        ${live ? "" : `<button type="button" class="button" data-go="pd" ${d === 0 ? "disabled" : ""}>${t("prev_deal")}</button>
        <button type="button" class="button" data-go="nd" ${d >= data.deals.length - 1 ? "disabled" : ""}>${t("next_deal")}</button>`}
        <button type="button" class="button" data-go="pt" ${k === 0 ? "disabled" : ""}>${t("prev")}</button>
        <button type="button" class="button" data-go="nt" ${k >= deal.tricks.length - 1 && whole ? "disabled" : ""}>${t("next")}</button>
        <button type="button" class="button" data-go="pc" ${p === 0 ? "disabled" : ""}>${t("prev_card")}</button>
        <button type="button" class="button" data-go="nc" ${p >= all.length ? "disabled" : ""}>${t("next_card")}</button>
      </p>
      <p aria-live="polite" class="trick-count">${deal.tricks.length ? t("trick_n", { n: k + 1, m: deal.tricks.length }) : ""}</p>
      <div class="replay-trick">${
        shown.map((pl) => `<div class="${whole && pl.seat === trick.winner ? "won" : ""}"><div>${esc(names[pl.seat])}</div>${cardFace(pl.card)}</div>`).join("") +
        (whole && trick.winner !== null ? `<p class="replay-winner">${esc(tSubject("takes_trick", { name: names[trick.winner] }))} (${esc(t("trick_points", { n: trick.points }))})</p>` : "")
      }</div>
      <table class="replay-hands"><tbody>${hands
        .map((h, s) => `<tr><th scope="row">${esc(names[s])}</th><td>${sortHand(h).map(cardChip).join(" ")}</td></tr>`)
        .join("")}</tbody></table>
      ${expertHtml(deal, all)}
      ${deal.passes.length ? `<p>${t("label_value", { label: `${t("passes")} (${t("dir_" + deal.direction)})`, value: deal.passes.map((x, s) => t("label_value", { label: esc(names[s]), value: (x || []).map(cardChip).join(" ") })).join(" · ") })}</p>` : ""}
      <p>${deal.complete ? deal.points.map((x, s) => `${esc(names[s])} ${x}${deal.moon === s ? " ☾" : ""}`).join(" · ") : ""}</p>
      ${winners.length ? `<p class="replay-result">${esc(winners.length > 1 ? t("replay_shared", { names: listNames(winners.map((s) => names[s])) }) : tSubject("replay_winner", { name: names[winners[0]] }))}</p>` : ""}
      ${live ? "" : totalsChart(data.deals.filter((x) => x.complete).map((x) => x.points), names, { target: data.rules?.target ?? null, width: contentWidth(root) })}
      ${data.game && !live ? `<p><a class="button" href="#/analysis/${data.game}">${t("analyse")}</a> <a class="button" href="/api/games/${data.game}/record" download>${t("download")}</a></p>` : ""}
      ${record ? `<p class="an-upload"><label>${t("an_seat")} <select id="an-seat">${names.map((nm, s) => `<option value="${s}">${esc(nm)}</option>`).join("")}</select></label>
        <button type="button" class="button" data-go="an">${t("analyse")}</button></p><p class="error" id="an-error" role="alert"></p>` : ""}`;
  };
  // The sentence under the expert's options follows the one pointed at.
  root.onmouseover = (e) => {
    const option = e.target.closest(".advice [data-cards]");
    const why = root.querySelector("#advice-why");
    if (option && why && option.dataset.why) why.textContent = option.dataset.why;
  };
  root.onclick = (e) => {
    const go = e.target.closest("[data-go]")?.dataset.go;
    if (!go) return;
    if (go === "an") return analyseUpload(record, Number(root.querySelector("#an-seat").value), root.querySelector("#an-error"));
    const deal = data.deals[d];
    const k = trickAt(deal, p);
    const whole = p === endOf(deal, k);
    if (go === "pd") (d -= 1), (p = endOf(data.deals[d], 0));
    if (go === "nd") (d += 1), (p = endOf(data.deals[d], 0));
    if (go === "pt") p = endOf(deal, k - 1);
    if (go === "nt") p = endOf(deal, whole ? k + 1 : k);
    if (go === "pc") p -= 1;
    if (go === "nc") p += 1;
    if (go === "ex") expert = true;
    draw();
    root.querySelector(`[data-go="${go}"]:not([disabled])`)?.focus();
    if (go === "ex") root.querySelector("#expert-h")?.scrollIntoView({ block: "nearest" });
  };
  draw();
}

// An uploaded record's analysis, for the seat chosen: started here, shown at #/analysis/u-KEY?seat=N.
async function analyseUpload(record, seat, err) {
  const res = await fetch("/api/analysis", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ record, seat }) });
  const out = await res.json().catch(() => ({}));
  if (!res.ok) {
    showRefusal(err, refusalText(out.code, out.reason || res.statusText));
    return;
  }
  location.hash = `#/analysis/${out.game}?seat=${seat}`;
}

// ---------------------------------------------------------------- rules and guide

// The rules and the guide are documents of their own (web/pages/NAME.LANG.html).
async function page(name) {
  const r = await fetch(`/static/pages/${name}.${currentLang()}.html`);
  return typography(await r.text());
}

export async function renderRules(root) {
  const [opts, text] = await Promise.all([getOptions(), page("rules")]);
  const items = Object.keys(opts.presets)
    .map((p) => `<li><strong>${t("preset_" + p)}</strong> — ${esc(t("preset_text_" + p))}</li>`)
    .join("");
  const keys = ["passing", "pass_cycle", "no_points_first_trick", "must_break_hearts", "hearts_broken_by", "first_trick_discard", "moon",
    "jack_of_diamonds", "leftover", "queen_points", "first_lead", "deck", "black_maria", "last_trick_points", "tie"]
    .filter((k) => k in opts.defaults || k in opts.choices || ["deck", "black_maria", "last_trick_points"].includes(k));
  root.innerHTML = `<article class="prose">${text}<ul>${items}</ul>
    <p>${t("rules_detail")}${keys.map((k) => t("opt_" + k)).join(" · ")}.</p>
    <p>${t("rules_no_undo")}</p></article>`;
}

export async function renderGuide(root) {
  root.innerHTML = `<article class="prose">${await page("guide")}</article>`;
}
