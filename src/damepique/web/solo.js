// A game against the computer: the home page (rules, level, "Play now") and
// what the one table view gets for a solo game: the training mode (advice,
// cards played by suit, voids, the review of each deal) and "New game".
import { refusalText, suitName, t } from "./i18n.js";
import { esc, showRefusal } from "./dom.js";
import { adviceListHtml, reviewHtml, whyFor } from "./advice.js";
import { cardChip, cardOrder, SUIT_SYMBOL } from "./cards.js";
import { load, playerId, prefs, save, setPrefs } from "./prefs.js";
import { bindRulesForm, fullRules, getOptions, levelOptions, optionsGrid, presetFields, readRules } from "./rules_form.js";
import { openTable } from "./table.js";

export const CURRENT_KEY = "damepique.current";
let focusNext = false; // "Play now" was pressed: the table puts the focus on the hand

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

// ---------------------------------------------------------------- training

function decisionKey(v) {
  return `${v.deal}:${v.phase}:${v.tricks.length}:${v.trick.length}`;
}

function requestAdvice(ctrl) {
  const v = ctrl.state.view;
  const key = decisionKey(v);
  if (ctrl.adviceKey === key) return;
  ctrl.adviceKey = key;
  ctrl.advice = null;
  ctrl.send({ type: "advice" });
}

function requestReview(ctrl, deal) {
  if (ctrl.reviews[deal]) return;
  ctrl.reviews[deal] = { pending: true };
  ctrl.send({ type: "review", deal });
}

function adviceList(ctrl) {
  if (!ctrl.advice || ctrl.adviceKey !== decisionKey(ctrl.shown.view)) return `<p>${t("advice_wait")}</p>`;
  return adviceListHtml(ctrl.advice.options, ctrl.shown.rules);
}

// A replay of a finished game starts at the card reviewed (its deal and play).
function replayLink(ctrl, deal) {
  if (!ctrl.shown?.over) return () => null;
  return (it) => `#/replay/${encodeURIComponent(ctrl.shown.game)}?deal=${deal}${it.play === null || it.play === undefined ? "" : `&play=${it.play}`}`;
}

// The review of the last finished deal.
function reviewPanel(ctrl) {
  const last = Object.keys(ctrl.reviews).map(Number).sort((a, b) => b - a)[0];
  if (last === undefined) return "";
  const r = ctrl.reviews[last];
  const body = r.pending ? `<p>${t("review_wait")}</p>` : reviewHtml(r, ctrl.shown.rules, replayLink(ctrl, last));
  return `<h2>${t("review")}</h2><p>${t("deal_n", { n: last + 1 })}</p>${body}`;
}

// On a phone the advice for the decision in front of the player is drawn with
// the hand (a sheet between the felt and the hand), not below the page.
const PHONE = "(max-width: 760px)";
const onPhone = () => globalThis.matchMedia?.(PHONE).matches ?? false;

function adviceShown(ctrl) {
  return !!ctrl.training && !!ctrl.shown.view && ctrl.isMyTurn();
}

function adviceSheet(ctrl) {
  if (!onPhone() || !adviceShown(ctrl)) return "";
  return `<section class="advice-sheet" aria-label="${t("advice")}"><h2>${t("advice")}</h2>${adviceList(ctrl)}</section>`;
}

function trainingPanel(ctrl) {
  const v = ctrl.shown.view;
  if (!ctrl.training || !v) return "";
  const played = [];
  for (const tr of v.tricks) played.push(...tr.cards);
  played.push(...v.trick);
  const bySuit = ["C", "D", "H", "S"]
    .map((su) => `<li><span class="suit-${su}">${SUIT_SYMBOL[su]}</span> ${played.filter((c) => c[1] === su).sort(cardOrder).map(cardChip).join(" ") || "—"}</li>`)
    .join("");
  const voids = ctrl.shown.seats
    .map((_, i) => `<li>${t("label_value", { label: esc(ctrl.nameOf(i)), value: v.voids[i].length ? v.voids[i].map((x) => `<span class="suit-${"CDHS"[x]}">${SUIT_SYMBOL["CDHS"[x]]}</span> ${suitName("CDHS"[x])}`).join(", ") : t("none") })}</li>`)
    .join("");
  return `<section class="training" aria-label="${t("training")}">
    ${adviceShown(ctrl) && !onPhone() ? `<h2>${t("advice")}</h2>${adviceList(ctrl)}` : ""}
    ${reviewPanel(ctrl)}
    <h2>${t("played_by_suit")}</h2><ul class="by-suit">${bySuit}</ul>
    <h2>${t("voids")}</h2><ul class="voids">${voids}</ul>
  </section>`;
}

// ---------------------------------------------------------------- the solo table

/** The solo game in progress, drawn by the one table view; null when there is none. */
export function soloTable(root) {
  const cur = currentGame();
  if (!cur) {
    root.innerHTML = `<section class="empty"><p>${t("no_game")}</p><p><a class="button primary" href="#/">${t("play_now")}</a></p></section>`;
    return null;
  }
  const focusHand = focusNext;
  focusNext = false;
  const ctrl = openTable(root, {
    target: { token: cur.token },
    summaryTimeout: null, // a solo game waits for the player's "Continue"
    focusHand,
    pageClass: (c) => (c.training ? "training-on" : ""),
    barExtras: (c) => `<label class="switch"><input type="checkbox" role="switch" id="training" ${c.training ? "checked" : ""}> ${t("training")}</label>`,
    sidePanels: trainingPanel,
    sheet: adviceSheet,
    hints: (c) => !c.training, // outside the training mode, a hint once a trick
    onHover: (c, el) => {
      // The sentence under the advice: what separates the best card from the one pointed at.
      const why = document.getElementById("advice-why");
      if (!why || !c.advice || c.adviceKey !== decisionKey(c.shown.view)) return;
      const text = whyFor(c.advice.options, el.dataset.card || el.dataset.cards.split(" ")[0], c.shown.rules);
      if (text !== null) why.textContent = text;
    },
    endActions: () => `<a class="button primary" href="#/" id="new-game">${t("new_game")}</a>`,
    onState: (c) => {
      const s = c.state;
      if (s.over) {
        const saved = currentGame();
        if (saved && saved.token === cur.token && !saved.over) save(CURRENT_KEY, { ...saved, over: true });
      }
      if (c.training && c.isMyTurn(s)) requestAdvice(c);
      const finished = s.results.length - 1;
      if (c.training && finished >= 0 && c.lastReviewed !== finished && c.gameId === s.game) {
        c.lastReviewed = finished;
        requestReview(c, finished);
      }
    },
    onMessage: (c, msg) => {
      if (msg.type === "advice") c.advice = msg;
      else if (msg.type === "review") c.reviews[msg.deal] = msg;
      else return;
      c.render();
    },
    onError: (c, msg) => {
      // The game is gone, or its seat token leads nowhere any more ("bad_token"): home.
      if (msg.code !== "bad_token") return false;
      save(CURRENT_KEY, null);
      location.hash = "#/";
      return true;
    },
    onClick: (c, e) => {
      if (e.target.closest("#new-game")) save(CURRENT_KEY, null);
    },
    onChange: (c, e) => {
      if (e.target.id !== "training") return;
      c.training = e.target.checked;
      setPrefs({ training: c.training });
      if (c.training && c.state) {
        c.adviceKey = null;
        if (c.isMyTurn(c.state)) requestAdvice(c);
        const last = c.state.results.length - 1;
        if (last >= 0) requestReview(c, last);
      }
      c.render();
      document.getElementById("training")?.focus();
    },
  });
  ctrl.training = !!prefs().training;
  ctrl.advice = null;
  ctrl.adviceKey = null;
  ctrl.reviews = {};
  ctrl.lastReviewed = null;
  return ctrl;
}
