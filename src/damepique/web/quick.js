// Quick match (docs/multiplayer.md, "Quick match: play with people now"): a
// choice, then a wait on /ws/match with a countdown until the server seats the
// person (with people, or bots once the wait is over); then to the table.
import { refusalText, t } from "./i18n.js";
import { announce, esc, showRefusal } from "./dom.js";
import { openSocket } from "./net.js";
import { playerId, prefs, setPrefs } from "./prefs.js";
import { saveToken } from "./seat_tokens.js";

export const QUICK_ENDPOINT = "/ws/match";

let current = null; // the wait in progress: {sock, timer}

/** Stop waiting (the page is left): the socket closes, so the server takes the person out. */
export function closeQuick() {
  if (!current) return;
  current.sock.close();
  clearInterval(current.timer);
  current = null;
}

/** A wait's own name, kept while it lasts: a reconnected page gets its place (or its seat) back. */
function newTicket() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The seconds a page asks to wait when it joins again: what was left of the
 * wait it chose (`deadline`, ms on `now`'s clock), so a reconnect does not
 * start the countdown over. Whole seconds from 0 to `most`.
 */
export function secondsLeft(deadline, now, most = 300) {
  return Math.max(0, Math.min(most, Math.round((deadline - now) / 1000)));
}

/** Whether a wait is over by far with no table (`STUCK_MS` past its end). */
export const STUCK_MS = 30000;
export function stuck(deadline, now) {
  return now - deadline > STUCK_MS;
}

export async function renderQuick(root) {
  const [q, me] = await Promise.all([
    fetch("/api/quick").then((r) => r.json()),
    fetch("/api/me").then((r) => r.json()),
  ]);
  if (!root.isConnected) return;
  closeQuick();
  const p = prefs().quick || {};
  const ranked = Boolean(me.nickname && p.ranked);
  const option = (value, label, chosen) => `<option value="${value}" ${String(value) === String(chosen) ? "selected" : ""}>${label}</option>`;
  root.innerHTML = `
  <section class="quick">
    <h1>${t("quick_heading")}</h1>
    <p class="intro">${t("quick_intro")}</p>
    <form id="quick-form" class="quick-form">
      <fieldset class="row quick-mode"><legend>${t("quick_mode")}</legend>
        <label><input type="radio" name="quick-mode" value="casual" ${ranked ? "" : "checked"}> ${t("quick_casual")}</label>
        <label><input type="radio" name="quick-mode" value="ranked" ${ranked ? "checked" : ""} ${me.nickname ? "" : "disabled"}> ${t("quick_ranked")}${me.nickname ? "" : ` (${t("mp_ranked_needs")})`}</label>
      </fieldset>
      <div class="row">
        <div class="field"><label for="quick-target">${t("opt_target")}</label>
          <select id="quick-target">${q.targets.map((v) => option(v, t("opt_target_" + v), p.target ?? 100)).join("")}</select></div>
        <div class="field"><label for="quick-players">${t("quick_players")}</label>
          <select id="quick-players">${q.players.map((v) => option(v, t(v === "4" ? "quick_players_4" : "quick_players_3_5"), p.players ?? "4")).join("")}</select></div>
        <div class="field"><label for="quick-wait">${t("quick_wait")}</label>
          <select id="quick-wait">${q.waits.map((s) => option(s, t("quick_wait_n", { n: s }), p.wait ?? q.wait)).join("")}</select></div>
        ${me.nickname ? "" : `<div class="field"><label for="quick-name">${t("your_name")}</label><input id="quick-name" maxlength="24" value="${esc(prefs().name || "")}" autocomplete="nickname"></div>`}
      </div>
      <p class="submit-row"><button type="submit" class="button primary" id="quick-go">${t("quick_play")}</button></p>
      <p class="error" id="quick-error" role="alert"></p>
    </form>
    <div class="quick-waiting" id="quick-waiting" hidden>
      <p id="quick-status" role="status"></p>
      <p class="quick-countdown" id="quick-countdown" aria-live="off"></p>
      <button type="button" class="button secondary" id="quick-leave">${t("quick_leave")}</button>
    </div>
  </section>`;
  const form = root.querySelector("#quick-form");
  const waitingBox = root.querySelector("#quick-waiting");
  const status = root.querySelector("#quick-status");
  const countdown = root.querySelector("#quick-countdown");
  const error = root.querySelector("#quick-error");
  const say = (text) => {
    status.textContent = text;
    announce(text);
  };
  const stop = (text) => {
    closeQuick();
    waitingBox.hidden = true;
    form.hidden = false;
    if (text) showRefusal(error, text);
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    showRefusal(error, "");
    const choice = {
      ranked: form.querySelector('input[name="quick-mode"]:checked')?.value === "ranked",
      target: Number(form.querySelector("#quick-target").value),
      players: form.querySelector("#quick-players").value,
    };
    const wait = Number(form.querySelector("#quick-wait").value);
    const name = (root.querySelector("#quick-name")?.value || "").trim();
    setPrefs({ quick: { ...choice, wait }, ...(me.nickname ? {} : { name }) });
    const ticket = newTicket();
    let deadline = Date.now() + wait * 1000;
    closeQuick();
    const sock = openSocket(QUICK_ENDPOINT, {
      onOpen: () => sock.send({ type: "join", ...choice, wait: secondsLeft(deadline, Date.now()), ticket, name: name || t("mp_player"), player: playerId() }),
      // A server restarting keeps the wait: the page joins again with its ticket (docs/multiplayer.md).
      onLost: (info) => say(t(info.goingAway ? "quick_restarting" : "quick_reconnecting")),
      onMessage: (msg) => {
        if (msg.type === "error") {
          // Barred for leaving ranked games: the reason, with how long (docs/multiplayer.md, "Fair ranked play").
          stop(msg.code === "quick_barred" && msg.params ? t("quick_barred", msg.params) : refusalText(msg.code, msg.reason));
        } else if (msg.status === "queued") {
          deadline = Date.now() + msg.seconds * 1000;
          say(t("quick_queued", { waiting: msg.waiting }));
        } else if (msg.status === "waiting") {
          status.textContent = t("quick_queued", { waiting: msg.waiting }); // shown, not read out each time
        } else if (msg.status === "matched") {
          saveToken(msg.code, msg.token);
          say(t("quick_matched"));
          closeQuick();
          location.hash = `#/t/${msg.code}`;
        } else if (msg.status === "restarting") {
          say(t("quick_restarting"));
        } else if (msg.status === "replaced" || msg.status === "failed") {
          stop(t("quick_" + msg.status));
        }
      },
    });
    const tick = () => {
      const n = secondsLeft(deadline, Date.now());
      countdown.textContent = n > 0 ? t("quick_countdown", { n }) : t("quick_filling");
      // No table long after the wait (the server that was seating us went away): say so, to try again.
      if (stuck(deadline, Date.now())) stop(t("quick_failed"));
    };
    current = { sock, timer: setInterval(tick, 1000) };
    tick();
    form.hidden = true;
    waitingBox.hidden = false;
    say(t("quick_queued", { waiting: 1 }));
    root.querySelector("#quick-leave").focus();
  });
  root.querySelector("#quick-leave").addEventListener("click", () => {
    current?.sock.send({ type: "leave" });
    stop("");
    say(t("quick_left"));
  });
}
