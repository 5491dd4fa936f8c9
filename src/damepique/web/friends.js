// Play with others: join a table by its code, the live lobby of public
// tables, and a new table created with its rules and options; then the
// table itself opens at #/t/CODE (tables.js, docs/multiplayer.md).
import { listNames, refusalText, t } from "./i18n.js";
import { esc, showRefusal } from "./dom.js";
import { playerId, prefs } from "./prefs.js";
import { lobbyList } from "./lobby.js";
import { openSocket } from "./net.js";
import { AUTO, bindRulesForm, fullRules, getOptions, levelOptions, optionsGrid, presetFields, readRules } from "./rules_form.js";
import { normalizeCode } from "./codes.js";
import { saveToken } from "./seat_tokens.js";
import { rulesLine, timerLabel } from "./table_words.js";

let lobby = null;
export function closeLobby() {
  if (lobby) lobby.close();
  lobby = null;
}

export async function renderFriends(root) {
  const [mp, me, opts] = await Promise.all([
    fetch("/api/multiplayer").then((r) => r.json()),
    fetch("/api/me").then((r) => r.json()),
    getOptions(),
  ]);
  if (!root.isConnected) return; // a later visit has the page: open no lobby socket for this one
  // A table may leave the number of players to who sits down ("auto", first).
  const formOpts = { ...opts, choices: { ...opts.choices, players: mp.players ?? opts.choices.players } };
  const rules = fullRules(opts.presets.standard, opts);
  root.innerHTML = `
  <section class="friends">
    <h1>${t("mp_heading")}</h1>
    <p class="quick-row"><a class="button primary quick-button" href="#/quick">${t("quick_button")}</a></p>
    <form id="join-form" class="row join-form">
      <div class="field"><label for="join-code">${t("mp_code")}</label>
        <input id="join-code" autocomplete="off" autocapitalize="characters" placeholder="K7QM-4XPA" maxlength="12"></div>
      <button type="submit" class="button primary">${t("mp_join")}</button>
      <p class="error" id="join-error" role="alert"></p>
    </form>
    <h2 id="lobby-h">${t("mp_lobby")}</h2>
    <div id="lobby" aria-labelledby="lobby-h" aria-live="polite"><p>${t("connecting")}</p></div>
    <h2>${t("mp_create")}</h2>
    <form id="create-form" class="home-form">
      <div class="row">
        <div class="field"><label for="mp-name">${t("your_name")}</label><input id="mp-name" maxlength="24" value="${esc(prefs().name || "")}" autocomplete="nickname"></div>
        <div class="field"><label for="mp-timer">${t("mp_timer")}</label>
          <select id="mp-timer">${mp.timers.map((s) => `<option value="${s}">${esc(timerLabel(s))}</option>`).join("")}</select></div>
        <div class="field"><label for="mp-level">${t("mp_bot_level")}</label>
          <select id="mp-level">${levelOptions(mp.levels, mp.personalities, "intermediate", opts)}</select></div>
        <div class="field"><label for="mp-speed">${t("speed")}</label>
          <select id="mp-speed">${mp.speeds.map((s) => `<option value="${s}">${t("speed_" + s)}</option>`).join("")}</select></div>
      </div>
      <div class="row">
        <div class="field check"><input type="checkbox" id="mp-fill" checked><label for="mp-fill">${t("mp_fill")}</label></div>
        <div class="field check"><input type="checkbox" id="mp-public"><label for="mp-public">${t("mp_public")}</label></div>
        <div class="field check"><input type="checkbox" id="mp-spectators" checked><label for="mp-spectators">${t("mp_spectators")}</label></div>
        <div class="field check"><input type="checkbox" id="mp-ranked" ${me.nickname ? "" : "disabled"}><label for="mp-ranked">${t("mp_ranked")}${me.nickname ? "" : ` (${t("mp_ranked_needs")})`}</label></div>
      </div>
      <div class="row">${presetFields("mpo", "standard", rules, formOpts, { custom: false, players: true })}</div>
      ${optionsGrid("mpo", rules, formOpts, { players: true })}
      <p class="submit-row"><button type="submit" class="button primary" id="create-table">${t("mp_create_button")}</button></p>
      <p class="error" id="create-error" role="alert"></p>
    </form>
  </section>`;
  const form = root.querySelector("#create-form");
  bindRulesForm(form, "mpo", formOpts);
  root.querySelector("#join-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const code = normalizeCode(root.querySelector("#join-code").value);
    if (!code) return showRefusal(root.querySelector("#join-error"), t("mp_bad_code"));
    location.hash = `#/t/${code}`;
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = {
      rules: readRules(form, "mpo", formOpts),
      timer: parseInt(root.querySelector("#mp-timer").value, 10),
      level: root.querySelector("#mp-level").value,
      speed: root.querySelector("#mp-speed").value,
      fill: root.querySelector("#mp-fill").checked,
      public: root.querySelector("#mp-public").checked,
      spectators: root.querySelector("#mp-spectators").checked,
      ranked: root.querySelector("#mp-ranked").checked,
      name: root.querySelector("#mp-name").value.trim() || t("mp_player"),
      player: playerId(),
    };
    const r = await fetch("/api/tables", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await r.json();
    if (!r.ok) return showRefusal(root.querySelector("#create-error"), t("error", { reason: refusalText(data.code, data.reason) }));
    saveToken(data.code, data.token);
    location.hash = `#/t/${data.code}`;
  });
  closeLobby();
  const list = lobbyList();
  lobby = openSocket("/ws/lobby", {
    onMessage: (msg) => {
      if (list.take(msg)) drawLobby(list.tables(), opts);
    },
  });
}

// The lobby as a list of tables to join or watch at a glance.
function drawLobby(tables, opts) {
  const el = document.getElementById("lobby");
  if (!el) return;
  if (!tables.length) {
    el.innerHTML = `<p>${t("mp_lobby_empty")}</p>`;
    return;
  }
  el.innerHTML = `<ul class="lobby">${tables
    .map((x) => {
      const joinable = x.status === "waiting" && x.free;
      const seats = x.free ? t("mp_lobby_seats", { n: x.free }) : t("mp_lobby_full");
      const status = t("mp_lobby_" + x.status);
      return `<li class="lobby-table">
        <div class="lobby-head"><span class="code">${esc(x.display)}</span> <span class="status-tag ${esc(x.status)}">${esc(status)}</span></div>
        <div class="lobby-players">${t("mp_players")} ${x.players === AUTO ? `${x.taken} (${t("opt_players_auto")})` : `${x.taken}/${x.players}`}${x.names.length ? " — " + esc(listNames(x.names)) : ""} · ${esc(seats)}</div>
        <div class="lobby-rules">${esc(rulesLine(x.rules, opts))} · ${esc(t("speed"))} ${esc(t("speed_" + (x.options.speed || "normal")))} · ${esc(timerLabel(x.options.timer))} · ${x.options.ranked ? t("mp_ranked_short") : t("mp_friendly")}</div>
        <a class="button ${joinable ? "primary" : ""}" href="#/t/${x.code}" aria-label="${esc(`${joinable ? t("mp_join") : t("mp_watch")} ${x.display}`)}">${joinable ? t("mp_join") : t("mp_watch")}</a>
      </li>`;
    })
    .join("")}</ul>`;
}

