// Statistics for everyone (docs/multiplayer.md, "Statistics"): mine at #/stats
// (the signed-in account, else this browser's guest games), an account's at
// #/stats/NAME; computed by the server from the stored games.
import { num, seatName, t } from "./i18n.js";
import { esc } from "./dom.js";
import { contentWidth, lineChart } from "./chart.js";
import { playerId } from "./prefs.js";

const dash = "—";
const pct = (rate) => (rate === null || rate === undefined ? dash : `${num(rate * 100, 0)} %`);
const dec = (x, digits) => (x === null || x === undefined ? dash : num(x, digits));

/** The rows "kind of game" and "rules" show: each key's games and wins, most played first. */
export function breakdown(counts, label) {
  return Object.entries(counts || {})
    .sort((a, b) => b[1].games - a[1].games || (a[0] < b[0] ? -1 : 1))
    .map(([key, c]) => ({ key, label: label(key), games: c.games, wins: c.wins }));
}

/** The puzzle figures (`puzzles` of the stats): the rating, solved of tried, the best streak, by theme. */
export function puzzlesHtml(p) {
  if (!p || !p.tried) return "";
  const themes = Object.entries(p.by_theme || {})
    .sort((a, b) => b[1].tried - a[1].tried || (a[0] < b[0] ? -1 : 1))
    .map(([k, c]) => `<li><strong>${esc(t("theme_" + k))}</strong> · ${esc(t("st_puzzles_theme", { k: c.solved, n: c.tried }))}</li>`)
    .join("");
  return `<h2>${t("st_puzzles")}</h2>
    <p id="stats-puzzles">${esc(t("st_puzzles_line", { r: p.rating, k: p.solved, n: p.tried, b: p.best_streak }))} <a href="#/puzzles">${t("st_puzzles_more")}</a></p>
    <ul class="breakdown" id="stats-puzzle-themes">${themes}</ul>`;
}

function countsList(id, caption, rows) {
  if (!rows.length) return "";
  return `<h2>${caption}</h2><ul class="breakdown" id="${id}">${rows
    .map((r) => `<li><strong>${esc(r.label)}</strong> · ${t("st_games")} ${r.games} · ${t("st_wins")} ${r.wins}</li>`)
    .join("")}</ul>`;
}

export async function renderStats(root, nickname = "") {
  const url = nickname ? `/api/players/${encodeURIComponent(nickname)}/stats` : "/api/stats";
  const r = await fetch(url, { headers: { "X-Player": playerId() } });
  if (!root.isConnected) return;
  if (!r.ok) {
    root.innerHTML = `<section class="narrow"><p>${t("pf_none")}</p></section>`;
    return;
  }
  const s = await r.json();
  const heading = nickname || !s.guest ? t("st_heading_of", { name: esc(s.nickname) }) : t("st_heading");
  const modes = breakdown(s.by_mode, (k) => t("st_mode_" + k));
  const presets = breakdown(s.by_preset, (k) => t("preset_" + k));
  root.innerHTML = `<section class="stats-page narrow">
    <h1>${heading}</h1>
    ${s.leaves && s.leaves.recent ? `<p class="leaves" id="stats-leaves">${t("st_leaves", { n: s.leaves.recent })}${s.leaves.barred_until ? ` <strong>${t("st_barred")}</strong>` : ""}</p>` : ""}
    ${s.guest ? `<p class="muted">${t("st_guest_note")} <a href="#/account">${t("acc_login")}</a></p>` : ""}
    ${s.games ? `
    <dl class="stats" id="stats-figures">
      <div><dt>${t("st_games")}</dt><dd>${s.games}</dd></div>
      <div><dt>${t("st_wins")}</dt><dd>${s.wins}</dd></div>
      <div><dt>${t("st_first_rate")}</dt><dd>${pct(s.first_place_rate)}</dd></div>
      <div><dt>${t("pf_avg")}</dt><dd>${dec(s.average_points, 2)}</dd></div>
      <div><dt>${t("st_queens")}</dt><dd>${dec(s.queens_per_deal, 2)}</dd></div>
      <div><dt>${t("pf_moons")}</dt><dd>${s.moons_made}</dd></div>
      <div><dt>${t("st_conceded")}</dt><dd>${s.moons_conceded}</dd></div>
      ${s.rating === null ? "" : `<div><dt>${t("lb_rating")}</dt><dd>${s.rating}</dd></div>`}
    </dl>
    ${s.ratings && s.ratings.length ? `<div class="rating-box" id="stats-rating"></div>` : ""}
    ${countsList("stats-modes", t("st_by_mode"), modes)}
    ${countsList("stats-presets", t("st_by_preset"), presets)}
    ${s.daily && s.daily.played ? `<h2>${t("st_daily")}</h2><p id="stats-daily">${t("st_daily_line", { played: s.daily.played, average: dec(s.daily.average, 2), best: s.daily.best })}</p>` : ""}
    <h2>${t("st_last")}</h2>
    <ol class="last-games" id="stats-last">${s.last.map((g) => `<li>
      <span>${t(g.won ? "st_won" : "st_place", { n: g.place })} · ${esc(t("st_mode_" + g.mode))} · ${esc(g.players.map((p) => seatName(p)).join(", "))} · ${t("total", { n: g.totals[g.seat] })}</span>
      ${g.replay ? `<a href="${g.replay}">${t("st_replay")}</a> ` : ""}<a href="${g.analysis}">${t("analyse")}</a></li>`).join("")}</ol>` : `<p>${t("st_none")}</p>`}
    ${puzzlesHtml(s.puzzles)}
  </section>`;
  if (s.ratings && s.ratings.length) {
    const box = root.querySelector("#stats-rating");
    box.innerHTML = lineChart({
      series: [{ name: t("lb_rating"), values: [1500, ...s.ratings.map((x) => x.rating)], colour: "#2471a3" }],
      title: t("pf_chart"),
      xLabel: t("pf_game"),
      width: contentWidth(box, 480),
      legend: false,
      cls: "rating-chart",
    });
  }
}
