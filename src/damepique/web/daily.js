// The daily deal (docs/daily.md): the same sealed cards for everyone today,
// one try, and the results against the field's: #/daily (today),
// #/daily/YYYY-MM-DD (a day before), #/daily/play (today's game, at the one
// table view, with no advice or hint).
import { num, refusalText, t } from "./i18n.js";
import { esc, showRefusal } from "./dom.js";
import { contentWidth, lineChart } from "./chart.js";
import { load, playerId, prefs, save } from "./prefs.js";
import { openTable } from "./table.js";
import { TableMode } from "./table_mode.js";

export const DAILY_KEY = "damepique.daily";
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const api = (url, init = {}) => fetch(url, { ...init, headers: { "X-Player": playerId(), ...(init.headers || {}) } });

// +3.5 / −2 / 0: points fewer than the reference (positive is better).
function signed(x) {
  if (x === null || x === undefined) return "—";
  const text = num(Math.abs(x), Number.isInteger(x) ? 0 : 1);
  return x > 0 ? `+${text}` : x < 0 ? `−${text}` : text;
}

function spread(pairs) {
  return pairs.map(([p, n]) => t("daily_spread_item", { points: p, n })).join(" · ");
}

function dealsTable(res) {
  if (!res.field) return "";
  const you = res.you && res.you.points;
  return `<h2>${t("daily_by_deal")}</h2>
  <div class="table-scroll"><table class="data-table" id="daily-deals">
    <thead><tr><th scope="col">${t("daily_deal")}</th>${you ? `<th scope="col" class="num">${t("daily_you")}</th>` : ""}
      <th scope="col" class="num">${t("daily_average")}</th><th scope="col" class="num">${t("daily_par")}</th><th scope="col">${t("daily_spread")}</th></tr></thead>
    <tbody>${res.field.map((d) => `<tr><th scope="row">${d.deal + 1}</th>${you ? `<td class="num">${you[d.deal]}</td>` : ""}
      <td class="num">${num(d.average, 1)}</td><td class="num">${d.par ?? "—"}</td><td>${spread(d.distribution)}</td></tr>`).join("")}</tbody>
  </table></div>`;
}

function yourResult(res) {
  const y = res.you;
  if (!y || !y.finished) return "";
  return `<div class="panel daily-you" id="daily-you"><h2>${t("daily_your_result")}</h2>
    <dl class="stats">
      <div><dt>${t("daily_total")}</dt><dd>${y.total}</dd></div>
      <div><dt>${t("daily_vs_field")}</dt><dd>${signed(y.vs_field)}</dd></div>
      <div><dt>${t("daily_vs_par")}</dt><dd>${signed(y.vs_par)}</dd></div>
      <div><dt>${t("daily_rank")}</dt><dd>${t("daily_rank_of", { rank: y.rank, n: res.played })}</dd></div>
    </dl>
    <p class="actions"><a class="button secondary" id="daily-analyse" href="#/analysis/${encodeURIComponent(y.game)}">${t("daily_analyse")}</a>
      ${res.over ? `<a class="button secondary" id="daily-replay" href="#/replay/${encodeURIComponent(y.game)}">${t("daily_replay")}</a>` : ""}</p>
    ${res.over ? "" : `<p class="muted">${t("daily_replay_later")}</p>`}
    ${y.ranked ? "" : `<p class="muted">${t("daily_sign_in")} <a href="#/account">${t("nav_account")}</a></p>`}
  </div>`;
}

function leaderboard(res) {
  const rows = res.leaderboard;
  return `<h2>${t("daily_board")}</h2><p>${t("daily_played", { n: res.played })}</p>
  ${rows.length ? `<div class="table-scroll"><table class="data-table" id="daily-board">
    <thead><tr><th scope="col">${t("lb_rank")}</th><th scope="col">${t("acc_nickname")}</th><th scope="col" class="num">${t("daily_total")}</th><th scope="col" class="num">${t("daily_vs_field")}</th></tr></thead>
    <tbody>${rows.map((r) => `<tr><td>${r.rank}</td><td class="name">${esc(r.nickname)}</td><td class="num">${r.total}</td><td class="num">${signed(r.vs_field)}</td></tr>`).join("")}</tbody>
  </table></div>` : `<p class="muted">${t("daily_board_empty")}</p>`}`;
}

function sealed(info) {
  const f = info.fairness;
  return `<h2>${t("daily_sealed")}</h2>
  <p>${t("daily_commitment")} <code class="hash">${esc(f.commitment)}</code></p>
  ${f.secret ? `<p>${t("daily_secret")} <code class="hash">${esc(f.secret)}</code></p>
    <p><a href="/api/daily/${info.date}/record" download="damepique-daily-${info.date}.json">${t("daily_par_record")}</a></p>`
    : `<p class="muted">${t("daily_secret_later")}</p>`}`;
}

function actions(me, date) {
  if (date !== me.today) return "";
  if (me.status === "finished") return `<p class="daily-done" id="daily-status">${t("daily_done")}</p>`;
  const label = me.status === "playing" ? t("daily_resume") : t("daily_play");
  return `<p class="submit-row"><button type="button" class="button primary" id="daily-play">${label}</button></p>
    <p class="error" id="daily-error" role="alert"></p>`;
}

function history(root, me) {
  const box = root.querySelector("#daily-history");
  if (!box || me.days.length < 2) return;
  const days = [...me.days].reverse();
  box.innerHTML = lineChart({
    series: [{ name: t("daily_vs_field"), values: days.map((d) => d.vs_field), colour: "#1e8449" }],
    title: t("daily_history_chart"),
    xLabel: t("daily_days"),
    width: contentWidth(box, 480),
    legend: false,
    cls: "daily-chart",
  });
}

export async function renderDaily(root, arg) {
  const me = await (await api("/api/daily/me")).json();
  const date = arg && DATE.test(arg) ? arg : me.today;
  const [infoR, resR] = await Promise.all([api(`/api/daily/${date}`), api(`/api/daily/${date}/results`)]);
  const info = await infoR.json();
  if (!infoR.ok) {
    root.innerHTML = `<section class="daily narrow"><h1>${t("daily_heading")}</h1><p role="alert">${esc(refusalText(info.code, info.reason))}</p></section>`;
    return;
  }
  const res = await resR.json();
  root.innerHTML = `<section class="daily narrow">
    <h1>${t("daily_heading")}</h1>
    <p class="daily-date">${t("daily_date", { date })}</p>
    <p class="intro">${t("daily_intro", { n: info.deals })}</p>
    ${actions(me, date)}
    <p class="streak" id="daily-streak">${t("daily_streak", { n: me.streak })}</p>
    ${yourResult(res)}
    ${dealsTable(res)}
    ${leaderboard(res)}
    ${me.days.length ? `<h2>${t("daily_history")}</h2><div id="daily-history"></div>
      <ul class="daily-days">${me.days.map((d) => `<li><a href="#/daily/${d.date}">${d.date}</a>: ${t("daily_day_line", { total: d.total, vs: signed(d.vs_field), rank: d.rank, n: d.played })}</li>`).join("")}</ul>` : ""}
    ${sealed(info)}
  </section>`;
  history(root, me);
  root.querySelector("#daily-play")?.addEventListener("click", async (e) => {
    e.currentTarget.disabled = true;
    const body = { player: playerId(), name: prefs().name || t("you"), speed: prefs().speed || "normal" };
    const r = await api("/api/daily", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) {
      showRefusal(root.querySelector("#daily-error"), t("error", { reason: refusalText(data.code, data.reason) }));
      e.target.disabled = false;
      return;
    }
    save(DAILY_KEY, data);
    location.hash = "#/daily/play";
  });
}

/** The table view's key for today's game: a new game is a new view. */
export function dailyKey() {
  return `daily:${load(DAILY_KEY, null)?.token}`;
}

// Today's game: like a solo game, the player's "Continue" closes each deal's
// summary; no advice and no hint; the end leads to the day's results.
class DailyMode extends TableMode {
  get focusHand() {
    return true;
  }

  parts() {
    return { pageClass: "daily-game", end: `<a class="button primary" href="#/daily" id="daily-results">${t("daily_see_results")}</a>` };
  }

  message(msg) {
    if (msg.type !== "error" || msg.code !== "bad_token") return false;
    save(DAILY_KEY, null);
    location.hash = "#/daily";
    return true;
  }
}

/** Today's game at the one table view (no advice, no hint); null when none was begun here. */
export function dailyTable(root) {
  const cur = load(DAILY_KEY, null);
  if (!cur) {
    location.replace("#/daily");
    return null;
  }
  return openTable(root, new DailyMode({ token: cur.token }));
}
