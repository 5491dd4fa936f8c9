// The home page: a game against the computer chosen (rules, level, speed)
// and begun with "Play now", and the solo game in progress that the page
// remembers. The first page most visitors see: it loads only what it draws
// (the game itself, solo.js and the table, loads when it opens).
import { refusalText, t } from "./i18n.js";
import { esc, showRefusal } from "./dom.js";
import { load, playerId, prefs, save, setPrefs } from "./prefs.js";
import { bindRulesForm, fullRules, getOptions, levelOptions, optionsGrid, presetFields, readRules } from "./rules_form.js";

export const CURRENT_KEY = "damepique.current";
let focusNext = false; // "Play now" was pressed: the table puts the focus on the hand

/** Whether "Play now" was just pressed (the table then puts the focus on the hand); asking clears it. */
export function takePlayNow() {
  const pressed = focusNext;
  focusNext = false;
  return pressed;
}

export function currentGame() {
  return load(CURRENT_KEY, null);
}

function introLine(rules) {
  const bots = (rules.players ?? 4) - 1;
  return t("home_intro", { n: bots, w: t("number_words")[bots] ?? bots });
}

export function applyDeckColours() {
  document.body.classList.toggle("four-colour", !!prefs().fourColour);
}

export async function renderHome(root) {
  const opts = await getOptions();
  const p = prefs();
  const preset = p.preset && (p.preset in opts.presets || p.preset === "custom") ? p.preset : "standard";
  const rules = fullRules(p.rules || opts.presets[preset === "custom" ? "standard" : preset], opts);
  const cur = currentGame();
  const bots = [...opts.levels, ...(opts.personalities || [])];
  const level = bots.includes(p.level) ? p.level : opts.levels.includes("intermediate") ? "intermediate" : opts.levels[0];
  root.innerHTML = `
  <section class="home">
    <h1>${t("home_heading")}</h1>
    <p class="intro" id="home-intro">${esc(introLine(rules))}</p>
    ${cur && !cur.over ? `<p><a class="button secondary" href="#/play">${t("resume")}</a></p>` : ""}
    <form id="home-form" class="home-form">
      <div class="row">
        <div class="field"><label for="level">${t("level")}</label>
          <select id="level">${levelOptions(opts.levels, opts.personalities, level, opts)}</select></div>
        <div class="field"><label for="speed">${t("speed")}</label>
          <select id="speed">${opts.speeds.map((s) => `<option value="${s}" ${s === (p.speed || "normal") ? "selected" : ""}>${t("speed_" + s)}</option>`).join("")}</select></div>
        ${presetFields("opt", preset, rules, opts)}
      </div>
      <p class="submit-row"><button type="submit" class="button primary play-now">${t("play_now")}</button></p>
      <p class="error" id="home-error" role="alert"></p>
      <p class="quick-row"><a class="button secondary quick-button" href="#/quick">${t("quick_button")}</a></p>
      ${optionsGrid("opt", rules, opts)}
      <div class="row">
        <div class="field"><label for="name">${t("your_name")}</label><input id="name" maxlength="24" value="${esc(p.name || "")}" placeholder="${t("you")}" autocomplete="nickname"></div>
        <div class="field check"><input type="checkbox" id="four-colour" ${p.fourColour ? "checked" : ""}><label for="four-colour">${t("four_colour")}</label></div>
      </div>
    </form>
  </section>`;
  const form = root.querySelector("#home-form");
  bindRulesForm(form, "opt", opts, (r) => {
    root.querySelector("#home-intro").textContent = introLine(r);
  });
  root.querySelector("#four-colour").addEventListener("change", (e) => {
    setPrefs({ fourColour: e.target.checked });
    applyDeckColours();
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const chosen = readRules(form, "opt", opts);
    const name = root.querySelector("#name").value.trim();
    const body = { rules: chosen, level: root.querySelector("#level").value, speed: root.querySelector("#speed").value, name: name || t("you"), player: playerId() };
    setPrefs({ level: body.level, speed: body.speed, preset: root.querySelector("#opt-preset").value, rules: chosen, name });
    const button = form.querySelector(".play-now");
    button.disabled = true;
    try {
      const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const data = await r.json();
      if (!r.ok) throw new Error(refusalText(data.code, data.reason || r.statusText));
      save(CURRENT_KEY, { game: data.game, token: data.token, code: data.code, over: false });
      focusNext = true;
      location.hash = "#/play";
    } catch (err) {
      showRefusal(root.querySelector("#home-error"), t("error", { reason: err.message }));
      button.disabled = false;
    }
  });
}

