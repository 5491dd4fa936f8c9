// Tables with friends and strangers: create/join by code, the live lobby, the
// waiting room and table extras (timer, quick messages, mute, rematch, leave),
// accounts, the leaderboard and profiles. The table itself is drawn by app.js.
import { addStrings, refusalText, seatName, t } from "./i18n.js";
import { esc } from "./cards.js";
import { MP_STRINGS } from "./mp_strings.js";

addStrings(MP_STRINGS);

const TOKENS_KEY = "damepique.tables";
const MUTES_KEY = "damepique.mutes";

function load(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}
export function tokenFor(code) {
  return load(TOKENS_KEY, {})[code] || null;
}
export function saveToken(code, token) {
  const all = load(TOKENS_KEY, {});
  if (token) all[code] = token;
  else delete all[code];
  localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
}
export function savedMutes(code) {
  return load(MUTES_KEY, {})[code] || [];
}
function saveMutes(code, seats) {
  const all = load(MUTES_KEY, {});
  all[code] = seats;
  localStorage.setItem(MUTES_KEY, JSON.stringify(all));
}
export function normalizeCode(text) {
  const c = String(text || "").replace(/[\s-]/g, "").toUpperCase();
  return /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/.test(c) ? c : null;
}
function display(code) {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}
function rulesLine(rules) {
  return `${rules.players} · ${t("points_" + rules.target) || rules.target}`;
}
function timerLabel(s) {
  return s ? t("mp_timer_n", { n: s }) : t("mp_timer_none");
}

// ---------------------------------------------------------------- friends page: create, join, lobby

let lobbySocket = null;
export function closeLobby() {
  if (lobbySocket) {
    lobbySocket.onclose = null;
    lobbySocket.close();
  }
  lobbySocket = null;
}

export async function renderFriends(root, { playerName, readRules, optionsForm }) {
  const mp = await (await fetch("/api/multiplayer")).json();
  const me = await (await fetch("/api/me")).json();
  root.innerHTML = `
  <section class="friends">
    <h1>${t("mp_heading")}</h1>
    <form id="join-form" class="row join-form">
      <div class="field"><label for="join-code">${t("mp_code")}</label>
        <input id="join-code" autocomplete="off" autocapitalize="characters" placeholder="K7QM-4XPA" maxlength="12"></div>
      <button type="submit" class="button primary">${t("mp_join")}</button>
      <p class="error" id="join-error" role="alert"></p>
    </form>
    <h2>${t("mp_create")}</h2>
    <form id="create-form" class="home-form">
      <div class="row">
        <div class="field"><label for="mp-name">${t("your_name")}</label><input id="mp-name" maxlength="24" value="${esc(playerName())}" autocomplete="nickname"></div>
        <div class="field"><label for="mp-timer">${t("mp_timer")}</label>
          <select id="mp-timer">${mp.timers.map((s) => `<option value="${s}">${esc(timerLabel(s))}</option>`).join("")}</select></div>
        <div class="field"><label for="mp-level">${t("mp_bot_level")}</label>
          <select id="mp-level">${mp.levels.map((l) => `<option value="${l}" ${l === "intermediate" ? "selected" : ""}>${t(l)}</option>`).join("")}</select></div>
        <div class="field"><label for="mp-speed">${t("speed")}</label>
          <select id="mp-speed">${mp.speeds.map((s) => `<option value="${s}">${t(s)}</option>`).join("")}</select></div>
      </div>
      <div class="row">
        <div class="field check"><input type="checkbox" id="mp-fill" checked><label for="mp-fill">${t("mp_fill")}</label></div>
        <div class="field check"><input type="checkbox" id="mp-public"><label for="mp-public">${t("mp_public")}</label></div>
        <div class="field check"><input type="checkbox" id="mp-spectators" checked><label for="mp-spectators">${t("mp_spectators")}</label></div>
        <div class="field check"><input type="checkbox" id="mp-ranked" ${me.nickname ? "" : "disabled"}><label for="mp-ranked">${t("mp_ranked")}${me.nickname ? "" : ` (${t("mp_ranked_needs")})`}</label></div>
      </div>
      ${optionsForm}
      <button type="submit" class="button primary" id="create-table">${t("mp_create_button")}</button>
      <p class="error" id="create-error" role="alert"></p>
    </form>
    <h2 id="lobby-h">${t("mp_lobby")}</h2>
    <div id="lobby" aria-labelledby="lobby-h" aria-live="polite"><p>${t("connecting")}</p></div>
  </section>`;
  document.getElementById("join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const code = normalizeCode(document.getElementById("join-code").value);
    if (!code) {
      document.getElementById("join-error").textContent = t("mp_bad_code");
      return;
    }
    location.hash = `#/t/${code}`;
  });
  document.getElementById("create-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = {
      rules: readRules(),
      timer: parseInt(document.getElementById("mp-timer").value, 10),
      level: document.getElementById("mp-level").value,
      speed: document.getElementById("mp-speed").value,
      fill: document.getElementById("mp-fill").checked,
      public: document.getElementById("mp-public").checked,
      spectators: document.getElementById("mp-spectators").checked,
      ranked: document.getElementById("mp-ranked").checked,
      name: document.getElementById("mp-name").value.trim() || t("mp_player"),
    };
    const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) {
      document.getElementById("create-error").textContent = t("error", { reason: refusalText(data.code, data.reason) });
      return;
    }
    saveToken(data.code, data.token);
    location.hash = `#/t/${data.code}`;
  });
  openLobby();
}

function openLobby() {
  closeLobby();
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/lobby`);
  lobbySocket = ws;
  ws.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "lobby") drawLobby(msg.tables);
  };
  ws.onclose = () => {
    if (lobbySocket === ws) setTimeout(() => lobbySocket === ws && document.getElementById("lobby") && openLobby(), 2000);
  };
}

function drawLobby(tables) {
  const el = document.getElementById("lobby");
  if (!el) return;
  if (!tables.length) {
    el.innerHTML = `<p>${t("mp_lobby_empty")}</p>`;
    return;
  }
  el.innerHTML = `<table class="lobby"><thead><tr><th>${t("mp_code")}</th><th>${t("mp_players")}</th><th>${t("rules_heading")}</th><th>${t("mp_timer")}</th><th></th></tr></thead><tbody>
    ${tables
      .map(
        (x) => `<tr><td>${esc(x.display)}</td><td>${x.taken}/${x.players} ${esc(x.names.join(", "))}</td>
        <td>${esc(rulesLine(x.rules))}${x.options.ranked ? ` · ${t("mp_ranked_short")}` : ` · ${t("mp_friendly")}`}</td>
        <td>${esc(timerLabel(x.options.timer))}</td>
        <td><a class="button" href="#/t/${x.code}">${x.status === "waiting" && x.free ? t("mp_join") : t("mp_watch")}</a></td></tr>`,
      )
      .join("")}</tbody></table>`;
}

// ---------------------------------------------------------------- at the table

export function seatLabel(game, i) {
  const s = game.table.seats[i];
  if (s.kind === "empty") return t("mp_empty_seat");
  return seatName(s.name);
}

/** The waiting room, drawn before the first deal (and between games when people left). */
export function waitingRoom(game) {
  const tb = game.table;
  if (!tb) return `<section class="table-page"><p class="status">${esc(game.status || t("connecting"))}</p></section>`;
  const you = game.you;
  const link = `${location.origin}/#/t/${tb.code}`;
  const free = tb.seats.some((s) => s.kind === "empty");
  return `<section class="waiting-room" aria-labelledby="wait-h">
    <h1 id="wait-h">${t("mp_table")} <span class="code">${esc(tb.display)}</span></h1>
    <p>${t("mp_share")} <input id="share-link" readonly value="${esc(link)}" aria-label="${t("mp_link")}"></p>
    <p>${esc(rulesLine(tb.rules))} · ${esc(timerLabel(tb.options.timer))} · ${tb.options.ranked ? t("mp_ranked_short") : t("mp_friendly")}${tb.options.fill ? ` · ${t("mp_fill")}` : ""}</p>
    <ol class="seats">${tb.seats
      .map((s, i) => `<li>${esc(seatLabel(game, i))}${i === tb.host ? ` (${t("mp_host")})` : ""}${i === you ? ` — ${t("seat_you")}` : ""}${s.kind === "human" && !s.connected ? ` · ${t("mp_offline")}` : ""}</li>`)
      .join("")}</ol>
    ${you === null && tb.status === "waiting" && free ? `<div class="row"><div class="field"><label for="sit-name">${t("your_name")}</label><input id="sit-name" maxlength="24" value="${esc(game.playerName())}"></div>
      <button type="button" class="button primary" id="sit-btn">${t("mp_sit")}</button></div>` : ""}
    ${you !== null && you === tb.host && tb.status === "waiting" ? `<button type="button" class="button primary" id="start-btn" ${tb.can_start ? "" : "disabled"}>${t("mp_start")}</button>
      ${tb.can_start ? "" : `<p>${tb.options.fill ? t("mp_wait_second") : t("mp_wait_full")}</p>`}` : ""}
    ${you !== null && you !== tb.host && tb.status === "waiting" ? `<p>${t("mp_wait_host")}</p>` : ""}
    ${you !== null ? `<button type="button" class="button secondary" id="leave-btn">${t("mp_leave")}</button>` : ""}
    <p class="status" id="status" role="status">${esc(game.status || "")}</p>
  </section>`;
}

/** Extras beside the table during a game: timer, quick messages, mute, leave. */
export function tablePanel(game) {
  const tb = game.table;
  if (!tb) return "";
  const you = game.you;
  const timer = game.state?.timer;
  const waiting = timer && timer.deadline ? timer.seats.map((s) => game.nameOf(s)).join(", ") : "";
  const chats = game.chats
    .slice(-6)
    .map((c) => `<li><strong>${esc(game.nameOf(c.seat))}</strong>: ${esc(t("qm_" + c.message))}</li>`)
    .join("");
  const others = tb.seats.map((s, i) => ({ s, i })).filter(({ s, i }) => s.kind === "human" && i !== you);
  return `<section class="table-extras" aria-label="${t("mp_table")}">
    <p><strong>${t("mp_table")} ${esc(tb.display)}</strong>${game.state?.spectator ? ` · ${t("mp_spectating")}` : ""}</p>
    ${timer ? `<p class="turn-timer">${t("mp_timer")}: <span id="turn-timer" data-deadline="${timer.deadline || ""}">${timer.deadline ? Math.max(0, Math.round((timer.deadline - Date.now()) / 1000)) + " s" : "—"}</span>${waiting ? ` (${esc(waiting)})` : ""}</p>` : ""}
    <ul class="presence">${tb.seats
      .map((s, i) => (s.kind === "human" ? `<li>${esc(game.nameOf(i))}: ${s.left ? t("mp_left") : s.away ? t("mp_away") : s.connected ? t("mp_online") : t("mp_offline")}</li>` : ""))
      .join("")}</ul>
    ${you !== null ? `<div class="quick" role="group" aria-label="${t("mp_quick")}">${game.quick.map((q) => `<button type="button" class="button small" data-quick="${q}">${esc(t("qm_" + q))}</button>`).join("")}</div>` : ""}
    ${game.notices && game.notices.length ? `<ul class="notices">${game.notices.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>` : ""}
    <ul class="chat" aria-live="polite">${chats}</ul>
    ${others.length ? `<div class="mutes">${others.map(({ i }) => `<label><input type="checkbox" data-mute="${i}" ${game.mutes.includes(i) ? "checked" : ""}> ${t("mp_mute", { name: esc(game.nameOf(i)) })}</label>`).join(" ")}</div>` : ""}
    ${you !== null && !game.state?.over ? `<button type="button" class="button secondary" id="leave-btn">${t("mp_leave")}</button>` : ""}
  </section>`;
}

export function rematchButton(game) {
  if (game.you === null || !game.table) return "";
  return `<button type="button" class="button primary" id="rematch-btn">${t("mp_rematch")}</button>`;
}

export function noticeText(game, msg) {
  const name = msg.seat === null || msg.seat === undefined ? "" : game.nameOf(msg.seat);
  return t("mp_notice_" + msg.kind, { name });
}

export function updateTimer() {
  const el = document.getElementById("turn-timer");
  if (!el || !el.dataset.deadline) return;
  el.textContent = Math.max(0, Math.round((Number(el.dataset.deadline) - Date.now()) / 1000)) + " s";
}

export function toggleMute(game, seat, on) {
  const set = new Set(game.mutes);
  if (on) set.add(seat);
  else set.delete(seat);
  game.mutes = [...set];
  saveMutes(game.code, game.mutes);
}

// ---------------------------------------------------------------- accounts, leaderboard, profile

export async function renderAccount(root) {
  const me = await (await fetch("/api/me")).json();
  root.innerHTML = `<section class="account">
    <h1>${t("acc_heading")}</h1>
    ${me.nickname ? `<p>${t("acc_signed_in", { name: esc(me.nickname), rating: me.rating })}</p>
      <p><a class="button" href="#/player/${encodeURIComponent(me.nickname)}">${t("acc_profile")}</a>
      <button type="button" class="button secondary" id="logout-btn">${t("acc_logout")}</button></p>` : `
    <form id="acc-form" class="home-form">
      <div class="field"><label for="acc-nick">${t("acc_nickname")}</label><input id="acc-nick" autocomplete="username" maxlength="24" required></div>
      <div class="field"><label for="acc-pass">${t("acc_password")}</label><input id="acc-pass" type="password" autocomplete="current-password" maxlength="200" required></div>
      <button type="submit" class="button primary" id="login-btn">${t("acc_login")}</button>
      <button type="button" class="button" id="register-btn">${t("acc_register")}</button>
      <p class="error" id="acc-error" role="alert"></p>
    </form>`}
    <p>${t("acc_why")}</p>
  </section>`;
  const send = async (url) => {
    const body = { nickname: document.getElementById("acc-nick").value, password: document.getElementById("acc-pass").value };
    const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) document.getElementById("acc-error").textContent = t("error", { reason: refusalText(data.code, data.reason) });
    else renderAccount(root);
  };
  document.getElementById("acc-form")?.addEventListener("submit", (e) => {
    e.preventDefault();
    send("/api/login");
  });
  document.getElementById("register-btn")?.addEventListener("click", () => send("/api/accounts"));
  document.getElementById("logout-btn")?.addEventListener("click", async () => {
    await fetch("/api/logout", { method: "POST" });
    renderAccount(root);
  });
}

export async function renderLeaderboard(root) {
  const data = await (await fetch("/api/leaderboard")).json();
  root.innerHTML = `<section class="leaderboard"><h1>${t("lb_heading")}</h1>
    ${data.players.length ? `<table><thead><tr><th>#</th><th>${t("acc_nickname")}</th><th>${t("lb_rating")}</th><th>${t("lb_games")}</th><th>${t("lb_wins")}</th></tr></thead><tbody>
    ${data.players.map((p) => `<tr><td>${p.rank}</td><td><a href="#/player/${encodeURIComponent(p.nickname)}">${esc(p.nickname)}</a></td><td>${p.rating}</td><td>${p.games}</td><td>${p.wins}</td></tr>`).join("")}
    </tbody></table>` : `<p>${t("lb_empty")}</p>`}</section>`;
}

export function ratingChart(history) {
  if (!history.length) return "";
  const w = 480, h = 180, pad = 32;
  const values = [1500, ...history.map((x) => x.rating)];
  const lo = Math.min(...values) - 10, hi = Math.max(...values) + 10;
  const x = (i) => pad + (i * (w - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / (hi - lo);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  return `<svg class="rating-chart" viewBox="0 0 ${w} ${h}" role="img" aria-label="${t("pf_chart")}">
    <line x1="${pad}" y1="${h - pad}" x2="${w - pad}" y2="${h - pad}" stroke="currentColor" stroke-opacity="0.3"/>
    <text x="4" y="${y(hi - 10) + 4}" font-size="11">${Math.round(hi - 10)}</text>
    <text x="4" y="${y(lo + 10) + 4}" font-size="11">${Math.round(lo + 10)}</text>
    <polyline fill="none" stroke="currentColor" stroke-width="2" points="${points}"/>
    ${values.map((v, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3"><title>${Math.round(v)}</title></circle>`).join("")}
  </svg>`;
}

export async function renderProfile(root, nickname) {
  const r = await fetch(`/api/players/${encodeURIComponent(nickname)}`);
  if (!r.ok) {
    root.innerHTML = `<section><p>${t("pf_none")}</p></section>`;
    return;
  }
  const p = await r.json();
  const s = p.stats;
  root.innerHTML = `<section class="profile"><h1>${esc(p.nickname)}</h1>
    <p>${t("lb_rating")}: <strong>${p.rating}</strong></p>
    ${ratingChart(p.history)}
    <dl class="stats">
      <dt>${t("pf_games")}</dt><dd>${s.games}</dd>
      <dt>${t("pf_ranked")}</dt><dd>${s.ranked}</dd>
      <dt>${t("lb_wins")}</dt><dd>${s.wins}</dd>
      <dt>${t("pf_avg")}</dt><dd>${s.average_points ?? "—"}</dd>
      <dt>${t("pf_moons")}</dt><dd>${s.moons}</dd>
      <dt>${t("pf_queens")}</dt><dd>${s.queens}</dd>
    </dl></section>`;
}
