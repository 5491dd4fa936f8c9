// Tables with others: create or join by code, the live lobby, the waiting
// room, and what the one table view gets for a table: its extras (timer,
// presence, quick messages, mute, leave with a confirmation), the rematch,
// and a deal's summary that closes by itself (docs/multiplayer.md).
import { has, listNames, refusalText, seatName, t } from "./i18n.js";
import { announce, copyField, esc, flashAlert, showRefusal } from "./dom.js";
import { load, playerId, prefs, save } from "./prefs.js";
import { lobbyList } from "./lobby.js";
import { openSocket } from "./net.js";
import { AUTO, AUTO_COUNTS, bindRulesForm, fullRules, getOptions, levelOptions, optionsGrid, presetFields, readRules } from "./rules_form.js";
import { openTable } from "./table.js";
import { normalizeCode } from "./codes.js";

const TOKENS_KEY = "damepique.tables";
const MUTES_KEY = "damepique.mutes";
// A deal's summary at a table closes for everyone after this, pressed or not
// (the server's own deadline wins where it sends one: docs/protocol.md).
export const SUMMARY_TIMEOUT = 15000;

export function tokenFor(code) {
  return load(TOKENS_KEY, {})[code] || null;
}
export function saveToken(code, token) {
  const all = load(TOKENS_KEY, {});
  if (token) all[code] = token;
  else delete all[code];
  save(TOKENS_KEY, all);
}
function savedMutes(code) {
  return load(MUTES_KEY, {})[code] || [];
}
function saveMutes(code, seats) {
  save(MUTES_KEY, { ...load(MUTES_KEY, {}), [code]: seats });
}
export { normalizeCode };

const presetOf = (rules, opts) => Object.keys(opts.presets).find((p) => {
  const full = fullRules(opts.presets[p], opts);
  return Object.keys(rules).every((k) => String(full[k]) === String(rules[k]));
});
// "auto": as many as sit down, three to five, until the host starts.
const AUTO_LEAST = AUTO_COUNTS[0];
const playersWords = (n) => (n === AUTO ? t("opt_players_auto") : String(n));
function rulesLine(rules, opts) {
  const p = opts && presetOf(rules, opts);
  const name = p ? t("preset_" + p) : t("preset_custom");
  return `${name} · ${t("opt_players")} ${playersWords(rules.players)} · ${has("opt_target_" + rules.target) ? t("opt_target_" + rules.target) : rules.target}`;
}
function timerLabel(s) {
  return s ? t("mp_timer_n", { n: s }) : t("mp_timer_none");
}

// ---------------------------------------------------------------- the "play with others" page

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

// ---------------------------------------------------------------- at a table

// A person's seat on the felt when they are not there to play.
function seatNote(ctrl, i) {
  const s = ctrl.table?.seats?.[i];
  if (!s || s.kind !== "human") return "";
  return s.left ? t("mp_left") : s.away ? t("mp_away") : s.connected ? "" : t("mp_offline");
}

function seatLabel(ctrl, i) {
  const s = ctrl.table.seats[i];
  if (s.kind === "empty") return t("mp_empty_seat");
  return seatName(s.name);
}

// What the waiting room waits for, in words.
function waitingFor(ctrl) {
  const tb = ctrl.table;
  const people = tb.seats.filter((s) => s.kind === "human").length;
  const empty = tb.seats.filter((s) => s.kind === "empty").length;
  if (tb.can_start) return ctrl.you === tb.host ? t("mp_wait_you") : t("mp_wait_host");
  if (tb.options.fill && people < 2) return t("mp_wait_second");
  if (tb.rules.players === AUTO) return t("mp_wait_auto", { n: AUTO_LEAST - people });
  return t("mp_wait_full", { n: empty });
}

// The seats computer players will take at the start: every empty one, or for
// an "auto" table only as many as make three.
function botsToFill(tb, people, empty) {
  if (!tb.options.fill) return 0;
  return tb.rules.players === AUTO ? Math.max(0, AUTO_LEAST - people) : empty;
}

function waitingRoom(ctrl) {
  const tb = ctrl.table;
  if (!tb) return `<section class="waiting-room"><p class="status" role="status">${ctrl.reconnectLine() || esc(t(ctrl.status || "connecting"))}</p></section>`;
  const you = ctrl.you;
  const link = `${location.origin}/#/t/${tb.code}`;
  const free = tb.seats.some((s) => s.kind === "empty");
  const empty = tb.seats.filter((s) => s.kind === "empty").length;
  const people = tb.seats.filter((s) => s.kind === "human").length;
  const bots = botsToFill(tb, people, empty);
  // A program (docs/bot-api.md) sits as a human seat: it is said, and not counted among the people.
  const persons = tb.seats.filter((s) => s.kind === "human" && !s.program).length;
  const seats = tb.seats
    .map((s, i) => {
      const tags = [i === tb.host ? t("mp_host") : "", i === you ? t("seat_you") : "", s.kind === "bot" ? t("mp_bot") : "", s.program ? t("mp_program") : "", s.kind === "human" && !s.connected ? t("mp_offline") : ""].filter(Boolean);
      return `<li class="seat-row seat-${s.kind}"><span class="seat-dot" aria-hidden="true"></span>${esc(seatLabel(ctrl, i))}${tags.length ? ` <span class="muted">(${esc(tags.join(", "))})</span>` : ""}</li>`;
    })
    .join("");
  return `<section class="waiting-room" aria-labelledby="wait-h">
    <h1 id="wait-h">${t("mp_table")} <span class="code big-code">${esc(tb.display)}</span></h1>
    <p class="wait-for" role="status">${esc(waitingFor(ctrl))}</p>
    <div class="invite">
      <p>${t("mp_share")}</p>
      <div class="copy"><input id="share-link" readonly value="${esc(link)}" aria-label="${t("mp_link")}">
        <button type="button" class="button" id="copy-link">${t("mp_copy")}</button>
        ${navigator.share ? `<button type="button" class="button" id="share-btn">${t("mp_share_button")}</button>` : ""}</div>
    </div>
    <p>${esc(rulesLine(tb.rules, ctrl.opts))} · ${esc(timerLabel(tb.options.timer))} · ${tb.options.ranked ? t("mp_ranked_short") : t("mp_friendly")}</p>
    <h2>${esc(t("mp_seated", { n: persons }))}</h2>
    <ol class="seats">${seats}</ol>
    ${bots ? `<p class="muted">${esc(t("mp_bots_fill", { n: bots }))}</p>` : ""}
    ${you === null && tb.status === "waiting" && free ? `<div class="row"><div class="field"><label for="sit-name">${t("your_name")}</label><input id="sit-name" maxlength="24" value="${esc(ctrl.sitName ?? (prefs().name || ""))}"></div>
      <button type="button" class="button primary" id="sit-btn">${t("mp_sit")}</button></div>` : ""}
    ${you !== null && you === tb.host && tb.status === "waiting" ? `<p><button type="button" class="button primary" id="start-btn" ${tb.can_start ? "" : "disabled"}>${t("mp_start")}</button></p>` : ""}
    ${you !== null ? `<button type="button" class="button secondary" id="leave-btn">${t("mp_leave")}</button>` : ""}
    <p class="status" id="status">${ctrl.reconnectLine() || (ctrl.status && ctrl.status !== "connecting" ? esc(t(ctrl.status)) : "")}</p>
  </section>`;
}

function extrasPanel(ctrl) {
  const tb = ctrl.table;
  if (!tb) return "";
  const you = ctrl.you;
  const timer = ctrl.shown?.timer;
  const waiting = timer && timer.deadline ? timer.seats.map((s) => ctrl.nameOf(s)).join(", ") : "";
  const chats = ctrl.chats.slice(-6).map((c) => `<li>${t("label_value", { label: `<strong>${esc(ctrl.nameOf(c.seat))}</strong>`, value: esc(t("qm_" + c.message)) })}</li>`).join("");
  const others = tb.seats.map((s, i) => ({ s, i })).filter(({ s, i }) => s.kind === "human" && i !== you);
  const state = (s) => (s.left ? t("mp_left") : s.away ? t("mp_away") : s.connected ? t("mp_online") : t("mp_offline"));
  return `<section class="table-extras" aria-label="${t("mp_table")}">
    <p><strong>${t("mp_table")} ${esc(tb.display)}</strong>${ctrl.shown?.spectator ? ` · ${t("mp_spectating")}` : ""}</p>
    ${timer ? `<p class="turn-timer">${t("label_value", { label: t("mp_timer"), value: `<span id="turn-timer" data-deadline="${timer.deadline || ""}">${timer.deadline ? Math.max(0, Math.round((timer.deadline - Date.now()) / 1000)) + " s" : "—"}</span>${waiting ? ` (${esc(waiting)})` : ""}` })}</p>` : ""}
    <ul class="presence">${tb.seats.map((s, i) => (s.kind === "human" ? `<li>${esc(t("label_value", { label: ctrl.nameOf(i), value: state(s) }))}</li>` : "")).join("")}</ul>
    ${you !== null ? `<div class="quick" role="group" aria-label="${t("mp_quick")}">${ctrl.quick.map((q) => `<button type="button" class="button small" data-quick="${esc(q)}">${esc(t("qm_" + q))}</button>`).join("")}</div>` : ""}
    ${ctrl.notices.length ? `<ul class="notices">${ctrl.notices.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>` : ""}
    <ul class="chat" aria-live="polite">${chats}</ul>
    ${others.length ? `<div class="mutes">${others.map(({ i }) => `<label><input type="checkbox" data-mute="${i}" ${ctrl.mutes.includes(i) ? "checked" : ""}> ${t("mp_mute", { name: esc(ctrl.nameOf(i)) })}</label>`).join(" ")}</div>` : ""}
    ${you !== null && !ctrl.shown?.over ? `<button type="button" class="button secondary" id="leave-btn">${t("mp_leave")}</button>` : ""}
  </section>`;
}

function leaveDialog() {
  return `<dialog class="confirm" id="leave-dialog" aria-labelledby="leave-h">
    <h2 id="leave-h">${t("mp_leave_q")}</h2><p>${t("mp_leave_text")}</p>
    <p class="actions"><button type="button" class="button" id="stay-btn">${t("mp_stay")}</button>
    <button type="button" class="button primary" id="leave-yes">${t("mp_leave_yes")}</button></p></dialog>`;
}

function leave(ctrl) {
  ctrl.send({ type: "leave" });
  saveToken(ctrl.code, null);
  ctrl.conn.target.token = null;
}

async function copyLink(button) {
  await copyField(document.getElementById("share-link"));
  flashAlert(t("mp_copied"), button, 1800);
}

let timerClock = null;
function updateTimer() {
  const el = document.getElementById("turn-timer");
  if (!el || !el.dataset.deadline) return;
  el.textContent = Math.max(0, Math.round((Number(el.dataset.deadline) - Date.now()) / 1000)) + " s";
}

/** The table with this code, drawn by the one table view. */
export function tableView(root, code) {
  if (!code) {
    root.innerHTML = `<section class="empty"><p>${t("mp_bad_code")}</p></section>`;
    return null;
  }
  const ctrl = openTable(root, {
    target: { table: code, token: tokenFor(code) },
    summaryTimeout: SUMMARY_TIMEOUT,
    waitingRoom,
    sidePanels: extrasPanel,
    hints: (c) => c.you !== null && !!c.table && !c.table.options.ranked, // never in a ranked game
    endActions: (c) => (c.you === null || !c.table ? "" : `<button type="button" class="button primary" id="rematch-btn">${t("mp_rematch")}</button>`),
    fallbackName: (c, seat) => (c.table ? seatLabel(c, seat) : ""),
    seatNote,
    onOpen: (c) => {
      for (const seat of c.mutes) c.send({ type: "mute", seat });
    },
    onMessage: (c, msg) => {
      if (msg.type === "table") {
        c.table = msg.table;
        c.you = msg.you;
        // Back to the waiting room (before the first deal, or people left between games).
        if (msg.table.status === "waiting") c.state = c.shown = null;
      } else if (msg.type === "seated") {
        saveToken(msg.code, msg.token);
        c.conn.target.token = msg.token;
        c.you = msg.seat;
      } else if (msg.type === "notice") {
        const name = msg.seat === null || msg.seat === undefined ? "" : c.nameOf(msg.seat);
        const text = t("mp_notice_" + msg.kind, { name });
        c.notices = [...c.notices.slice(-4), text];
        announce(text);
      } else if (msg.type === "chat") {
        c.chats.push(msg);
        announce(t("label_value", { label: c.nameOf(msg.seat), value: t("qm_" + msg.message) }));
      } else return;
      c.render();
    },
    onError: (c, msg) => {
      if (msg.code !== "bad_token") return false;
      // The seat was given up or the token is for another table: come back as a visitor.
      saveToken(code, null);
      c.conn.target.token = null;
      c.conn.hello();
      return true;
    },
    onClick: (c, e) => {
      const name = (document.getElementById("sit-name")?.value ?? c.sitName ?? "").trim() || prefs().name || t("mp_player");
      if (e.target.closest("#sit-btn")) return c.send({ type: "sit", name, player: playerId() });
      if (e.target.closest("#start-btn")) return c.send({ type: "start" });
      if (e.target.closest("#rematch-btn")) return c.send({ type: "rematch", game: c.state?.game });
      if (e.target.closest("#copy-link")) return copyLink(e.target.closest("#copy-link"));
      if (e.target.closest("#share-btn")) {
        return navigator.share({ title: t("title"), text: t("mp_share_text", { code: c.table.display }), url: `${location.origin}/#/t/${code}` }).catch(() => {});
      }
      if (e.target.closest("#leave-btn")) {
        if (!c.shown || c.shown.over) return leave(c);
        document.getElementById("leave-dialog")?.remove();
        document.body.insertAdjacentHTML("beforeend", leaveDialog());
        const d = document.getElementById("leave-dialog");
        d.addEventListener("close", () => d.remove());
        d.querySelector("#stay-btn").addEventListener("click", () => d.close());
        d.querySelector("#leave-yes").addEventListener("click", () => {
          leave(c);
          d.close();
        });
        d.showModal();
        d.querySelector("#stay-btn").focus();
        return;
      }
      const quick = e.target.closest("[data-quick]");
      if (quick) c.send({ type: "chat", message: quick.dataset.quick });
    },
    // The name being typed to take a seat, kept while the waiting room is drawn again.
    onInput: (c, e) => {
      if (e.target.id === "sit-name") c.sitName = e.target.value;
    },
    onChange: (c, e) => {
      if (e.target.dataset?.mute === undefined) return;
      const seat = parseInt(e.target.dataset.mute, 10);
      const set = new Set(c.mutes);
      if (e.target.checked) set.add(seat);
      else set.delete(seat);
      c.mutes = [...set];
      saveMutes(code, c.mutes);
      c.send({ type: e.target.checked ? "mute" : "unmute", seat });
    },
  });
  Object.assign(ctrl, { code, table: null, you: null, chats: [], quick: [], notices: [], mutes: savedMutes(code), opts: null });
  fetch("/api/multiplayer").then((r) => r.json()).then((d) => {
    ctrl.quick = d.quick_messages;
    if (!ctrl.closed) ctrl.render();
  });
  getOptions().then((o) => {
    ctrl.opts = o;
    if (!ctrl.closed) ctrl.render();
  });
  clearInterval(timerClock);
  timerClock = setInterval(updateTimer, 500);
  return ctrl;
}
