// A table with others at the one table view (#/t/CODE): its mode
// (table_mode.js) adds the waiting room before the first deal, the table's
// extras (turn timer, presence, quick messages, mute, leave with a
// confirmation), the rematch, and a deal's summary that closes by itself
// (docs/multiplayer.md).
import { announce, copyField, esc, flashAlert } from "./dom.js";
import { seatName, t } from "./i18n.js";
import { load, playerId, prefs, save } from "./prefs.js";
import { getOptions } from "./rules_form.js";
import { openTable } from "./table.js";
import { TableMode } from "./table_mode.js";
import { saveToken, tokenFor } from "./seat_tokens.js";
import { botsToFill, rulesLine, timerLabel, waitingFor } from "./table_words.js";
export { normalizeCode } from "./codes.js";

const MUTES_KEY = "damepique.mutes";
// A deal's summary at a table closes for everyone after this, pressed or not
// (the server's own deadline wins where it sends one: docs/protocol.md).
export const SUMMARY_TIMEOUT = 15000;

function savedMutes(code) {
  return load(MUTES_KEY, {})[code] || [];
}
function saveMutes(code, seats) {
  save(MUTES_KEY, { ...load(MUTES_KEY, {}), [code]: seats });
}

function seatLabel(m, i) {
  const s = m.table.seats[i];
  if (s.kind === "empty") return t("mp_empty_seat");
  return seatName(s.name);
}

function waitingRoom(m) {
  const tb = m.table;
  if (!tb) return `<section class="waiting-room"><p class="status" role="status">${m.ctrl.reconnectLine() || esc(t(m.ctrl.status || "connecting"))}</p></section>`;
  const you = m.you;
  const link = `${location.origin}/#/t/${tb.code}`;
  const free = tb.seats.some((s) => s.kind === "empty");
  const bots = botsToFill(tb);
  // A program (docs/bot-api.md) sits as a human seat: it is said, and not counted among the people.
  const persons = tb.seats.filter((s) => s.kind === "human" && !s.program).length;
  const seats = tb.seats
    .map((s, i) => {
      const offline = s.kind === "human" && !s.connected;
      const tags = [i === tb.host ? t("mp_host") : "", i === you ? t("mp_you") : "", s.kind === "bot" ? t("mp_bot") : "", s.program ? t("mp_program") : "", offline ? t("mp_offline") : ""].filter(Boolean);
      // The dot says what the words say: green for a person here, an empty ring for one offline.
      return `<li class="seat-row seat-${s.kind}${offline ? " seat-offline" : ""}"><span class="seat-dot" aria-hidden="true"></span>${esc(seatLabel(m, i))}${tags.length ? ` <span class="muted">(${esc(tags.join(", "))})</span>` : ""}</li>`;
    })
    .join("");
  return `<section class="waiting-room" aria-labelledby="wait-h">
    <h1 id="wait-h">${t("mp_table")} <span class="code big-code">${esc(tb.display)}</span></h1>
    <p class="wait-for" role="status">${esc(waitingFor(tb, you))}</p>
    <div class="invite">
      <p>${t("mp_share")}</p>
      <div class="copy"><input id="share-link" readonly value="${esc(link)}" aria-label="${t("mp_link")}">
        <button type="button" class="button" id="copy-link">${t("mp_copy")}</button>
        ${navigator.share ? `<button type="button" class="button" id="share-btn">${t("mp_share_button")}</button>` : ""}</div>
    </div>
    <p class="rules-line">${esc(rulesLine(tb.rules, m.opts))} · ${esc(timerLabel(tb.options.timer))} · ${tb.options.ranked ? t("mp_ranked_short") : t("mp_friendly")}</p>
    <h2>${esc(t("mp_seated", { n: persons }))}</h2>
    <ol class="seats">${seats}</ol>
    ${bots ? `<p class="muted">${esc(t("mp_bots_fill", { n: bots }))}</p>` : ""}
    ${you === null && tb.status === "waiting" && free ? `<div class="row"><div class="field"><label for="sit-name">${t("your_name")}</label><input id="sit-name" maxlength="24" value="${esc(m.sitName ?? (prefs().name || ""))}"></div>
      <button type="button" class="button primary" id="sit-btn">${t("mp_sit")}</button></div>` : ""}
    ${you !== null && you === tb.host && tb.status === "waiting" ? `<p><button type="button" class="button primary" id="start-btn" ${tb.can_start ? "" : "disabled"}>${t("mp_start")}</button></p>` : ""}
    ${you !== null ? `<button type="button" class="button secondary" id="leave-btn">${t("mp_leave")}</button>` : ""}
    <p class="status" id="status">${m.ctrl.reconnectLine() || (m.ctrl.status && m.ctrl.status !== "connecting" ? esc(t(m.ctrl.status)) : "")}</p>
  </section>`;
}

function extrasPanel(m) {
  const tb = m.table;
  if (!tb) return "";
  const you = m.you;
  const timer = m.ctrl.shown?.timer;
  const waiting = timer && timer.deadline ? timer.seats.map((s) => m.ctrl.nameOf(s)).join(", ") : "";
  const chats = m.chats.slice(-6).map((c) => `<li>${t("label_value", { label: `<strong>${esc(m.ctrl.nameOf(c.seat))}</strong>`, value: esc(t("qm_" + c.message)) })}</li>`).join("");
  const others = tb.seats.map((s, i) => ({ s, i })).filter(({ s, i }) => s.kind === "human" && i !== you);
  const state = (s) => (s.left ? t("mp_left") : s.away ? t("mp_away") : s.connected ? t("mp_online") : t("mp_offline"));
  return `<section class="table-extras" aria-label="${t("mp_table")}">
    <p><strong>${t("mp_table")} ${esc(tb.display)}</strong>${m.ctrl.shown?.spectator ? ` · ${t("mp_spectating")}` : ""}</p>
    ${timer ? `<p class="turn-timer">${t("label_value", { label: t("mp_timer"), value: `<span id="turn-timer" data-deadline="${timer.deadline || ""}">${timer.deadline ? Math.max(0, Math.round((timer.deadline - Date.now()) / 1000)) + " s" : "—"}</span>${waiting ? ` (${esc(waiting)})` : ""}` })}</p>` : ""}
    <ul class="presence">${tb.seats.map((s, i) => (s.kind === "human" ? `<li>${esc(t("label_value", { label: m.ctrl.nameOf(i), value: state(s) }))}</li>` : "")).join("")}</ul>
    ${you !== null ? `<div class="quick" role="group" aria-label="${t("mp_quick")}">${m.quick.map((q) => `<button type="button" class="button small" data-quick="${esc(q)}">${esc(t("qm_" + q))}</button>`).join("")}</div>` : ""}
    ${m.notices.length ? `<ul class="notices">${m.notices.map((n) => `<li>${esc(n)}</li>`).join("")}</ul>` : ""}
    <ul class="chat" aria-live="polite">${chats}</ul>
    ${others.length ? `<div class="mutes">${others.map(({ i }) => `<label><input type="checkbox" data-mute="${i}" ${m.mutes.includes(i) ? "checked" : ""}> ${t("mp_mute", { name: esc(m.ctrl.nameOf(i)) })}</label>`).join(" ")}</div>` : ""}
    ${you !== null && !m.ctrl.shown?.over ? `<button type="button" class="button secondary" id="leave-btn">${t("mp_leave")}</button>` : ""}
  </section>`;
}

function leaveDialog() {
  return `<dialog class="confirm" id="leave-dialog" aria-labelledby="leave-h">
    <h2 id="leave-h">${t("mp_leave_q")}</h2><p>${t("mp_leave_text")}</p>
    <p class="actions"><button type="button" class="button" id="stay-btn">${t("mp_stay")}</button>
    <button type="button" class="button primary" id="leave-yes">${t("mp_leave_yes")}</button></p></dialog>`;
}

function leave(m) {
  m.ctrl.send({ type: "leave" });
  saveToken(m.code, null);
  m.ctrl.conn.target.token = null;
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

class TableWithOthers extends TableMode {
  constructor(code) {
    super({ table: code, token: tokenFor(code) });
    this.code = code;
    this.table = null; // the server's table: seats, options, status (its `table` messages)
    this.you = null; // this browser's seat, or null (a visitor)
    this.chats = [];
    this.quick = []; // the quick messages the server offers
    this.notices = [];
    this.mutes = savedMutes(code);
    this.opts = null; // /api/options, to name the table's preset
    this.sitName = null; // the name being typed to take a seat
  }

  get summaryTimeout() {
    return SUMMARY_TIMEOUT;
  }

  waitingRoom() {
    return waitingRoom(this);
  }

  parts() {
    // A tournament's table plays its deals once: no rematch there.
    const end = this.you === null || !this.table || this.table.kind === "tourney" ? "" : `<button type="button" class="button primary" id="rematch-btn">${t("mp_rematch")}</button>`;
    return { side: extrasPanel(this), end };
  }

  // A person's seat on the felt when they are not there to play.
  seatNote(i) {
    const s = this.table?.seats?.[i];
    if (!s || s.kind !== "human") return "";
    return s.left ? t("mp_left") : s.away ? t("mp_away") : s.connected ? "" : t("mp_offline");
  }

  fallbackName(seat) {
    return this.table ? seatLabel(this, seat) : "";
  }

  hintsOffered() {
    return this.you !== null && !!this.table && !this.table.options.ranked; // never in a ranked game
  }

  opened() {
    for (const seat of this.mutes) this.ctrl.send({ type: "mute", seat });
  }

  message(msg) {
    const c = this.ctrl;
    if (msg.type === "table") {
      this.table = msg.table;
      this.you = msg.you;
      // Back to the waiting room (before the first deal, or people left between games).
      if (msg.table.status === "waiting") c.state = c.shown = null;
    } else if (msg.type === "seated") {
      saveToken(msg.code, msg.token);
      c.conn.target.token = msg.token;
      this.you = msg.seat;
    } else if (msg.type === "notice") {
      const name = msg.seat === null || msg.seat === undefined ? "" : c.nameOf(msg.seat);
      const text = t("mp_notice_" + msg.kind, { name });
      this.notices = [...this.notices.slice(-4), text];
      announce(text);
    } else if (msg.type === "chat") {
      this.chats.push(msg);
      announce(t("label_value", { label: c.nameOf(msg.seat), value: t("qm_" + msg.message) }));
    } else if (msg.type === "error" && msg.code === "bad_token") {
      // The seat was given up or the token is for another table: come back as a visitor.
      saveToken(this.code, null);
      c.conn.target.token = null;
      c.conn.hello();
      return true;
    } else return false;
    c.render();
    return true;
  }

  input(e) {
    if (e.type === "click") this.click(e);
    else if (e.type === "input" && e.target.id === "sit-name") this.sitName = e.target.value; // kept while the room is drawn again
    else if (e.type === "change" && e.target.dataset?.mute !== undefined) this.mute(e.target);
  }

  click(e) {
    const c = this.ctrl;
    const name = (document.getElementById("sit-name")?.value ?? this.sitName ?? "").trim() || prefs().name || t("mp_player");
    if (e.target.closest("#sit-btn")) return c.send({ type: "sit", name, player: playerId() });
    if (e.target.closest("#start-btn")) return c.send({ type: "start" });
    if (e.target.closest("#rematch-btn")) return c.send({ type: "rematch", game: c.state?.game });
    if (e.target.closest("#copy-link")) return copyLink(e.target.closest("#copy-link"));
    if (e.target.closest("#share-btn")) {
      return navigator.share({ title: t("title"), text: t("mp_share_text", { code: this.table.display }), url: `${location.origin}/#/t/${this.code}` }).catch(() => {});
    }
    if (e.target.closest("#leave-btn")) {
      if (!c.shown || c.shown.over) return leave(this);
      document.getElementById("leave-dialog")?.remove();
      document.body.insertAdjacentHTML("beforeend", leaveDialog());
      const d = document.getElementById("leave-dialog");
      d.addEventListener("close", () => d.remove());
      d.querySelector("#stay-btn").addEventListener("click", () => d.close());
      d.querySelector("#leave-yes").addEventListener("click", () => {
        leave(this);
        d.close();
      });
      d.showModal();
      d.querySelector("#stay-btn").focus();
      return;
    }
    const quick = e.target.closest("[data-quick]");
    if (quick) c.send({ type: "chat", message: quick.dataset.quick });
  }

  mute(box) {
    const seat = parseInt(box.dataset.mute, 10);
    const set = new Set(this.mutes);
    if (box.checked) set.add(seat);
    else set.delete(seat);
    this.mutes = [...set];
    saveMutes(this.code, this.mutes);
    this.ctrl.send({ type: box.checked ? "mute" : "unmute", seat });
  }
}

/** The table with this code, drawn by the one table view. */
export function tableView(root, code) {
  if (!code) {
    root.innerHTML = `<section class="empty"><p>${t("mp_bad_code")}</p></section>`;
    return null;
  }
  const mode = new TableWithOthers(code);
  const ctrl = openTable(root, mode);
  fetch("/api/multiplayer").then((r) => r.json()).then((d) => {
    mode.quick = d.quick_messages;
    if (!ctrl.closed) ctrl.render();
  });
  getOptions().then((o) => {
    mode.opts = o;
    if (!ctrl.closed) ctrl.render();
  });
  clearInterval(timerClock);
  timerClock = setInterval(updateTimer, 500);
  return ctrl;
}
