// Accounts, the leaderboard and players' profiles (docs/multiplayer.md).
import { num, refusalText, t } from "./i18n.js";
import { esc, showRefusal } from "./dom.js";
import { contentWidth, lineChart } from "./chart.js";
import { playerId } from "./prefs.js";

export async function renderAccount(root) {
  const me = await (await fetch("/api/me")).json();
  root.innerHTML = `<section class="account narrow">
    <h1>${t("acc_heading")}</h1>
    ${me.nickname ? `<div class="panel"><p>${t("acc_signed_in", { name: esc(me.nickname), rating: me.rating })}</p>
      <p class="actions"><a class="button" href="#/player/${encodeURIComponent(me.nickname)}">${t("acc_profile")}</a>
      <a class="button" href="#/stats">${t("st_link")}</a>
      <button type="button" class="button secondary" id="logout-btn">${t("acc_logout")}</button></p>
      ${me.bot ? "" : `<p><label><input type="checkbox" id="puzzle-consent" ${me.puzzle_consent ? "checked" : ""}> ${t("acc_puzzle_consent")}</label></p>
      <p class="hint">${t("acc_puzzle_consent_why")}</p>`}</div>` : `
    <form id="acc-form" class="panel stack">
      <div class="field"><label for="acc-nick">${t("acc_nickname")}</label><input id="acc-nick" autocomplete="username" maxlength="24" required></div>
      <div class="field"><label for="acc-pass">${t("acc_password")}</label><input id="acc-pass" type="password" autocomplete="current-password" maxlength="200" required></div>
      <p class="hint">${t("acc_rules")}</p>
      <p class="actions"><button type="submit" class="button primary" id="login-btn">${t("acc_login")}</button>
      <button type="button" class="button" id="register-btn">${t("acc_register")}</button></p>
      <p class="error" id="acc-error" role="alert"></p>
    </form>`}
    <p class="muted">${t("acc_why")}${me.nickname ? "" : ` <a href="#/stats">${t("st_link")}</a>`}</p>
  </section>`;
  const send = async (url) => {
    const body = { nickname: root.querySelector("#acc-nick").value, password: root.querySelector("#acc-pass").value };
    const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) showRefusal(root.querySelector("#acc-error"), t("error", { reason: refusalText(data.code, data.reason) }));
    else {
      // This browser's guest games count for the account from now on (docs/multiplayer.md, "Statistics").
      await fetch("/api/stats/link", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ player: playerId() }) });
      renderAccount(root);
    }
  };
  root.querySelector("#acc-form")?.addEventListener("submit", (e) => {
    e.preventDefault();
    send("/api/login");
  });
  root.querySelector("#register-btn")?.addEventListener("click", () => send("/api/accounts"));
  // Off until the person turns it on: puzzles mined from their finished games (docs/bots.md, "Puzzles").
  root.querySelector("#puzzle-consent")?.addEventListener("change", async (e) => {
    const box = e.target;
    const r = await fetch("/api/me/puzzle-consent", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ allowed: box.checked }) });
    if (!r.ok) box.checked = !box.checked;
  });
  root.querySelector("#logout-btn")?.addEventListener("click", async () => {
    await fetch("/api/logout", { method: "POST" });
    renderAccount(root);
  });
}

export async function renderLeaderboard(root) {
  const [data, ladder] = await Promise.all([
    fetch("/api/leaderboard").then((r) => r.json()),
    fetch("/api/ladder").then((r) => r.json()),
  ]);
  root.innerHTML = `<section class="leaderboard narrow"><h1>${t("lb_heading")}</h1>
    ${data.players.length ? `<table class="data-table"><thead><tr><th scope="col">${t("lb_rank")}</th><th scope="col">${t("acc_nickname")}</th><th scope="col" class="num">${t("lb_rating")}</th><th scope="col" class="num">${t("lb_games")}</th><th scope="col" class="num">${t("lb_wins")}</th></tr></thead><tbody>
    ${data.players.map((p) => `<tr><td>${p.rank}</td><td class="name"><a href="#/player/${encodeURIComponent(p.nickname)}">${esc(p.nickname)}</a></td><td class="num">${p.rating}</td><td class="num">${p.games}</td><td class="num">${p.wins}</td></tr>`).join("")}
    </tbody></table>` : `<p>${t("lb_empty")}</p>`}</section>
    <section class="ladder narrow" aria-labelledby="ladder-heading"><h2 id="ladder-heading">${t("lb_ladder")}</h2><p>${t("lb_ladder_note")}</p>
    ${ladderTable(ladder.bots)}</section>`;
}

// The bots' ladder (GET /api/ladder): ranked challenges between bots only, apart from people's ratings.
export function ladderTable(bots) {
  if (!bots.length) return `<p>${t("lb_ladder_empty")}</p>`;
  return `<div class="table-scroll"><table class="data-table" id="ladder"><thead><tr><th scope="col">${t("lb_rank")}</th><th scope="col">${t("lb_bot")}</th><th scope="col">${t("lb_owner")}</th><th scope="col" class="num">${t("lb_rating")}</th><th scope="col" class="num">${t("lb_ladder_games")}</th><th scope="col" class="num">${t("lb_wins")}</th></tr></thead><tbody>
    ${bots.map((b) => `<tr><td>${b.rank}</td><td class="name"><a href="#/player/${encodeURIComponent(b.nickname)}">${esc(b.nickname)}</a></td><td class="name">${esc(b.owner || "")}</td><td class="num">${b.rating}</td><td class="num">${b.games}</td><td class="num">${b.wins}</td></tr>`).join("")}
    </tbody></table></div>`;
}

export async function renderProfile(root, nickname) {
  const r = await fetch(`/api/players/${encodeURIComponent(nickname)}`);
  if (!r.ok) {
    root.innerHTML = `<section class="narrow"><p>${t("pf_none")}</p></section>`;
    return;
  }
  const p = await r.json();
  const s = p.stats;
  root.innerHTML = `<section class="profile narrow"><h1>${esc(p.nickname)}</h1>
    <p class="rating-line">${t("label_value", { label: t("lb_rating"), value: `<strong>${p.rating}</strong>` })}</p>
    <div class="rating-box" id="rating-box"></div>
    <dl class="stats">
      <div><dt>${t("pf_games")}</dt><dd>${s.games}</dd></div>
      <div><dt>${t("pf_ranked")}</dt><dd>${s.ranked}</dd></div>
      <div><dt>${t("lb_wins")}</dt><dd>${s.wins}</dd></div>
      <div><dt>${t("pf_avg")}</dt><dd>${s.average_points === null || s.average_points === undefined ? "—" : num(s.average_points, 1)}</dd></div>
      <div><dt>${t("pf_moons")}</dt><dd>${s.moons}</dd></div>
      <div><dt>${t("pf_queens")}</dt><dd>${s.queens}</dd></div>
    </dl><p><a href="#/stats/${encodeURIComponent(p.nickname)}">${t("st_all")}</a></p></section>`;
  const box = root.querySelector("#rating-box");
  if (!p.history.length) box.remove(); // no rated game yet: no empty box
  else {
    // Drawn at the width of its box, so the labels stay readable on a phone.
    box.innerHTML = lineChart({
      series: [{ name: t("lb_rating"), values: [1500, ...p.history.map((x) => x.rating)], colour: "#2471a3" }],
      title: t("pf_chart"),
      xLabel: t("pf_game"),
      width: contentWidth(box, 480),
      legend: false,
      cls: "rating-chart",
    });
  }
}
