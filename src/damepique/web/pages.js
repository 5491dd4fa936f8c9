// The other pages: history, replays (a stored game or an uploaded record),
// the rules and the strategy guide.
import { currentLang, refusalText, seatName, t, typography } from "./i18n.js";
import { esc, showRefusal } from "./dom.js";
import { cardChip, cardFace, sortHand } from "./cards.js";
import { sealVerdict } from "./fairness.js";
import { contentWidth, totalsChart } from "./chart.js";
import { getOptions } from "./rules_form.js";

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
    list.innerHTML = `<table class="history-table"><thead><tr><th scope="col">${t("date")}</th><th scope="col">${t("score_sheet")}</th><th scope="col">${t("winner")}</th><th scope="col"></th></tr></thead><tbody>
      ${data.games
        .map(
          (g) => `<tr><td>${fmt.format(new Date(g.finished * 1000))}</td>
          <td>${g.players.map((p, i) => `${esc(seatName(p))} ${g.totals[i]}`).join(" · ")}</td>
          <td>${g.winner !== null ? esc(seatName(g.players[g.winner])) : ""}</td>
          <td><a href="#/replay/${g.game}">${t("replay")}</a> · <a href="/api/games/${g.game}/record" download>${t("download")}</a>
            <span data-seal="${esc(g.game)}"></span></td></tr>`,
        )
        .join("")}</tbody></table>`;
    fillSeals(list);
  }
  document.getElementById("upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const text = await file.text();
    const res = await fetch("/api/replay", { method: "POST", headers: { "Content-Type": "application/json" }, body: text });
    const out = await res.json();
    const err = document.getElementById("upload-error");
    if (!res.ok) {
      showRefusal(err, t("upload_bad", { reason: out.reason || res.statusText }));
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
}

export async function renderReplay(root, id) {
  root.innerHTML = `<section class="replay-page"><div id="replay-root">…</div></section>`;
  const data = await fetchJSON(`/api/games/${encodeURIComponent(id)}/replay`);
  if (!data || data.error) {
    root.innerHTML = `<p class="error">${esc(data ? refusalText(data.code, data.reason) : "…")}</p>`;
    return;
  }
  replayViewer(document.getElementById("replay-root"), data);
}

// `record`: the uploaded record itself, to check its seal (a stored game's is fetched).
function replayViewer(root, data, record = null) {
  let seal = "";
  const sealed = record ? sealVerdict(record) : data.game ? fetchJSON(`/api/games/${encodeURIComponent(data.game)}/record`).then(sealVerdict) : null;
  if (sealed) {
    sealed.then((html) => {
      seal = html;
      const el = root.querySelector("#replay-seal");
      if (el) el.innerHTML = html;
    });
  }
  let d = 0;
  let k = 0;
  const n = data.players.length;
  const names = data.players.map((p) => seatName(p));
  const offset = { left: 1, right: n - 1, across: 2, none: 0 };
  const draw = () => {
    const deal = data.deals[d];
    const hands = deal.hands.map((h) => [...h]);
    if (deal.passes.length && deal.passes.every((p) => p)) {
      const off = offset[deal.direction];
      deal.passes.forEach((p, s) => {
        hands[s] = hands[s].filter((c) => !p.includes(c));
      });
      deal.passes.forEach((p, s) => hands[(s + off) % n].push(...p));
    }
    for (let i = 0; i < k; i++) for (const pl of deal.tricks[i].plays) hands[pl.seat] = hands[pl.seat].filter((c) => c !== pl.card);
    const trick = deal.tricks[k];
    root.innerHTML = `<h1>${t("replay")} — ${t("deal_n", { n: d + 1 })}</h1>
      <p id="replay-seal">${seal}</p>
      <p class="actions">
        <button type="button" class="button" data-go="pd" ${d === 0 ? "disabled" : ""}>${t("prev_deal")}</button>
        <button type="button" class="button" data-go="nd" ${d >= data.deals.length - 1 ? "disabled" : ""}>${t("next_deal")}</button>
        <button type="button" class="button" data-go="pt" ${k === 0 ? "disabled" : ""}>${t("prev")}</button>
        <button type="button" class="button" data-go="nt" ${k >= deal.tricks.length - 1 ? "disabled" : ""}>${t("next")}</button>
      </p>
      <p aria-live="polite" class="trick-count">${deal.tricks.length ? t("trick_n", { n: k + 1, m: deal.tricks.length }) : ""}</p>
      <div class="replay-trick">${
        trick
          ? trick.plays.map((pl) => `<div class="${pl.seat === trick.winner ? "won" : ""}"><div>${esc(names[pl.seat])}</div>${cardFace(pl.card)}</div>`).join("") +
            (trick.winner !== null ? `<p class="replay-winner">${esc(t("takes_trick", { name: names[trick.winner] }))} (${esc(t("trick_points", { n: trick.points }))})</p>` : "")
          : ""
      }</div>
      <table class="replay-hands"><tbody>${hands
        .map((h, s) => `<tr><th scope="row">${esc(names[s])}</th><td>${sortHand(h).map(cardChip).join(" ")}</td></tr>`)
        .join("")}</tbody></table>
      ${deal.passes.length ? `<p>${t("label_value", { label: `${t("passes")} (${t("dir_" + deal.direction)})`, value: deal.passes.map((p, s) => t("label_value", { label: esc(names[s]), value: (p || []).map(cardChip).join(" ") })).join(" · ") })}</p>` : ""}
      <p>${deal.complete ? deal.points.map((p, s) => `${esc(names[s])} ${p}${deal.moon === s ? " ☾" : ""}`).join(" · ") : ""}</p>
      ${totalsChart(data.deals.filter((x) => x.complete).map((x) => x.points), names, { target: data.rules?.target ?? null, width: contentWidth(root) })}
      ${data.game ? `<p><a class="button" href="/api/games/${data.game}/record" download>${t("download")}</a></p>` : ""}`;
  };
  root.onclick = (e) => {
    const go = e.target.closest("[data-go]")?.dataset.go;
    if (!go) return;
    if (go === "pd") (d -= 1), (k = 0);
    if (go === "nd") (d += 1), (k = 0);
    if (go === "pt") k -= 1;
    if (go === "nt") k += 1;
    draw();
    root.querySelector(`[data-go="${go}"]:not([disabled])`)?.focus();
  };
  draw();
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
