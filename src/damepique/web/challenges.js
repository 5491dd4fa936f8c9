// Challenges for people (docs/bot-api.md): #/challenges lists the challenges
// this account received (accept, or decline with a reason) and made (cancel),
// challenges other players or bots by nickname, and keeps the account's event
// stream (GET /api/stream/event) open while the page is shown, so a challenge
// arrives, an answer comes back and a game starts without a reload.
import { refusalText, t } from "./i18n.js";
import { esc, announce, showRefusal } from "./dom.js";
import { getOptions } from "./rules_form.js";
import { saveToken } from "./seat_tokens.js";
import { follow } from "./follow.js";

const REASONS = ["generic", "later", "rules", "timer", "too_many", "no_bots", "only_bots"];

async function call(method, url, body) {
  const r = await fetch(url, { method, headers: { "Content-Type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
  const data = await r.json();
  if (!r.ok) throw new Error(refusalText(data.code, data.reason, undefined, data.params));
  return data;
}

function describe(c) {
  const rules = t("ch_rules", { players: c.rules.players, target: c.rules.target });
  const extra = [c.options.fill ? t("ch_fill") : "", c.options.timer ? t("ch_timer", { n: c.options.timer }) : "", c.options.ranked ? t("ch_ranked") : ""].filter(Boolean);
  return esc([rules, ...extra].join(" · "));
}

function answerText(a) {
  if (a.answer === "accept") return t("ch_accepted");
  if (a.answer === "decline") return t("ch_declined_why", { reason: t("ch_reason_" + (a.reason || "generic")) });
  return t("ch_waiting");
}

function received(c) {
  const reasons = REASONS.map((r) => `<option value="${r}">${esc(t("ch_reason_" + r))}</option>`).join("");
  return `<li class="panel ch-in" data-id="${esc(c.id)}"><p><strong>${esc(c.from)}</strong> ${t("ch_challenges_you")} ${describe(c)}</p>
    <p class="row"><button type="button" class="button primary" data-accept="${esc(c.id)}">${t("ch_accept")}</button>
    <label class="field"><span>${t("ch_reason")}</span><select data-reason="${esc(c.id)}">${reasons}</select></label>
    <button type="button" class="button" data-decline="${esc(c.id)}">${t("ch_decline")}</button></p></li>`;
}

function made(c) {
  const answers = c.to.map((a) => `<li>${esc(a.nickname)}: ${esc(answerText(a))}</li>`).join("");
  return `<li class="panel ch-out" data-id="${esc(c.id)}"><p>${describe(c)}</p><ul>${answers}</ul>
    <p><button type="button" class="button secondary" data-cancel="${esc(c.id)}">${t("ch_cancel")}</button></p></li>`;
}

export async function renderChallenges(root) {
  const first = await fetch("/api/challenges");
  if (first.status === 401) {
    root.innerHTML = `<section class="narrow"><h1>${t("ch_heading")}</h1><p>${t("ch_sign_in")} <a href="#/account">${t("nav_account")}</a></p></section>`;
    return;
  }
  const opts = await getOptions();
  const presets = Object.keys(opts.presets);
  root.innerHTML = `<section class="challenges narrow">
    <h1>${t("ch_heading")}</h1><p class="intro">${t("ch_intro")}</p>
    <div id="ch-game" class="no-print" aria-live="polite"></div>
    <h2>${t("ch_in")}</h2><ul class="ch-list" id="ch-in"></ul>
    <h2>${t("ch_out")}</h2><ul class="ch-list" id="ch-out"></ul>
    <p class="error" id="ch-error" role="alert"></p>
    <form id="ch-form" class="panel stack"><h2>${t("ch_new")}</h2>
      <div class="field"><label for="ch-to">${t("ch_to")}</label><input id="ch-to" required maxlength="120"></div>
      <div class="row">
        <div class="field"><label for="ch-preset">${t("tn_rules")}</label><select id="ch-preset">${presets.map((p) => `<option value="${p}">${esc(t("preset_" + p))}</option>`).join("")}</select></div>
      </div>
      <div class="field check"><input type="checkbox" id="ch-fill" checked><label for="ch-fill">${t("ch_fill_label")}</label></div>
      <p><button type="submit" class="button primary">${t("ch_send")}</button></p>
    </form></section>`;
  const fail = (err) => showRefusal(root.querySelector("#ch-error"), t("error", { reason: err.message }));
  const draw = (data) => {
    root.querySelector("#ch-in").innerHTML = data.in.length ? data.in.map(received).join("") : `<li class="muted">${t("ch_none_in")}</li>`;
    root.querySelector("#ch-out").innerHTML = data.out.length ? data.out.map(made).join("") : `<li class="muted">${t("ch_none_out")}</li>`;
  };
  const refresh = async () => {
    const r = await fetch("/api/challenges");
    if (r.ok) draw(await r.json());
  };
  draw(await first.json());
  root.addEventListener("click", async (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    try {
      if (b.dataset.accept) await call("POST", `/api/challenges/${b.dataset.accept}/accept`);
      else if (b.dataset.decline) {
        const reason = root.querySelector(`select[data-reason="${b.dataset.decline}"]`).value;
        await call("POST", `/api/challenges/${b.dataset.decline}/decline`, { reason });
      } else if (b.dataset.cancel) await call("DELETE", `/api/challenges/${b.dataset.cancel}`);
      else return;
      await refresh();
    } catch (err) { fail(err); }
  });
  root.querySelector("#ch-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const to = root.querySelector("#ch-to").value.split(",").map((s) => s.trim()).filter(Boolean);
    try {
      await call("POST", "/api/challenges", { to, preset: root.querySelector("#ch-preset").value, fill: root.querySelector("#ch-fill").checked });
      root.querySelector("#ch-to").value = "";
      await refresh();
    } catch (err) { fail(err); }
  });
  listen(root, refresh);
}

// The account's event stream while the page is shown: each event redraws the
// lists; a game starting shows the way to its table (its seat token kept).
function listen(root, refresh) {
  return follow("/api/stream/event", root, async (event) => {
    if (!event) return;
    if (event.type === "gameStart") showGame(root, event.game);
    else if (event.type === "challengeDeclined") announce(t("ch_was_declined"));
    await refresh();
  });
}

function showGame(root, game) {
  saveToken(game.table, game.token);
  const box = root.querySelector("#ch-game");
  box.innerHTML = `<p class="panel"><strong>${t("ch_game_starts")}</strong> <a class="button primary" id="ch-go" href="#/t/${esc(game.table)}">${t("tn_go")}</a></p>`;
  announce(t("ch_game_starts"));
}
