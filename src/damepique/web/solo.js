// A solo game against the computer at the one table view: its mode
// (table_mode.js) adds the training mode (the advice for each decision, the
// cards played by suit, the voids, the review of each deal) and "New game",
// and waits for the player's "Continue" after each deal.
import { suitName, t } from "./i18n.js";
import { esc } from "./dom.js";
import { adviceListHtml, reviewHtml, whyFor } from "./advice.js";
import { cardChip, cardOrder, SUIT_SYMBOL } from "./cards.js";
import { prefs, save, setPrefs } from "./prefs.js";
import { openTable } from "./table.js";
import { TableMode } from "./table_mode.js";
import { CURRENT_KEY, currentGame, takePlayNow } from "./home.js";

// ---------------------------------------------------------------- training

function decisionKey(v) {
  return `${v.deal}:${v.phase}:${v.tricks.length}:${v.trick.length}`;
}

function adviceList(m) {
  if (!m.advice || m.adviceKey !== decisionKey(m.ctrl.shown.view)) return `<p>${t("advice_wait")}</p>`;
  return adviceListHtml(m.advice.options, m.ctrl.shown.rules);
}

// A replay starts at the card reviewed (its deal and play): the deal is
// finished, so its player may replay it while the game goes on (that deal alone).
function replayLink(ctrl, deal) {
  return (it) => `#/replay/${encodeURIComponent(ctrl.shown.game)}?deal=${deal}${it.play === null || it.play === undefined ? "" : `&play=${it.play}`}`;
}

// The review of the last finished deal.
function reviewPanel(m) {
  const ctrl = m.ctrl;
  const last = Object.keys(m.reviews).map(Number).sort((a, b) => b - a)[0];
  if (last === undefined) return "";
  const r = m.reviews[last];
  const body = r.pending ? `<p>${t("review_wait")}</p>` : reviewHtml(r, ctrl.shown.rules, replayLink(ctrl, last));
  return `<h2>${t("review")}</h2><p>${t("deal_n", { n: last + 1 })}</p>${body}`;
}

// On a phone the advice for the decision in front of the player is drawn with
// the hand (a sheet between the felt and the hand), not below the page.
const PHONE = "(max-width: 760px)";
const onPhone = () => globalThis.matchMedia?.(PHONE).matches ?? false;

function adviceShown(m) {
  return m.training && !!m.ctrl.shown.view && m.ctrl.isMyTurn();
}

function adviceSheet(m) {
  if (!onPhone() || !adviceShown(m)) return "";
  return `<section class="advice-sheet" aria-label="${t("advice")}"><h2>${t("advice")}</h2>${adviceList(m)}</section>`;
}

function trainingPanel(m) {
  const ctrl = m.ctrl;
  const v = ctrl.shown.view;
  if (!m.training || !v) return "";
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
    ${adviceShown(m) && !onPhone() ? `<h2>${t("advice")}</h2>${adviceList(m)}` : ""}
    ${reviewPanel(m)}
    <h2>${t("played_by_suit")}</h2><ul class="by-suit">${bySuit}</ul>
    <h2>${t("voids")}</h2><ul class="voids">${voids}</ul>
  </section>`;
}

// ---------------------------------------------------------------- the solo table

class SoloMode extends TableMode {
  constructor(token, focusHand) {
    super({ token });
    this.token = token;
    this.focus = focusHand;
    this.training = !!prefs().training;
    this.advice = null; // the advice for the decision `adviceKey`
    this.adviceKey = null;
    this.reviews = {}; // deal -> its review ({pending} while asked)
    this.lastReviewed = null;
  }

  get focusHand() {
    return this.focus;
  }

  parts() {
    return {
      pageClass: this.training ? "training-on" : "",
      bar: `<label class="switch"><input type="checkbox" role="switch" id="training" ${this.training ? "checked" : ""}> ${t("training")}</label>`,
      side: trainingPanel(this),
      sheet: adviceSheet(this),
      end: `<a class="button primary" href="#/" id="new-game">${t("new_game")}</a>`,
    };
  }

  hintsOffered() {
    return !this.training; // outside the training mode, a hint once a trick
  }

  requestAdvice() {
    const key = decisionKey(this.ctrl.state.view);
    if (this.adviceKey === key) return;
    this.adviceKey = key;
    this.advice = null;
    this.ctrl.send({ type: "advice" });
  }

  requestReview(deal) {
    if (this.reviews[deal]) return;
    this.reviews[deal] = { pending: true };
    this.ctrl.send({ type: "review", deal });
  }

  stateReceived() {
    const c = this.ctrl;
    const s = c.state;
    if (s.over) {
      const saved = currentGame();
      if (saved && saved.token === this.token && !saved.over) save(CURRENT_KEY, { ...saved, over: true });
    }
    if (this.training && c.isMyTurn(s)) this.requestAdvice();
    const finished = s.results.length - 1;
    if (this.training && finished >= 0 && this.lastReviewed !== finished && c.gameId === s.game) {
      this.lastReviewed = finished;
      this.requestReview(finished);
    }
  }

  message(msg) {
    if (msg.type === "advice") this.advice = msg;
    else if (msg.type === "review") this.reviews[msg.deal] = msg;
    else if (msg.type === "error" && msg.code === "bad_token") {
      // The game is gone, or its seat token leads nowhere any more: home.
      save(CURRENT_KEY, null);
      location.hash = "#/";
      return true;
    } else return false;
    this.ctrl.render();
    return true;
  }

  input(e) {
    if (e.type === "click" && e.target.closest("#new-game")) save(CURRENT_KEY, null);
    if (e.type !== "change" || e.target.id !== "training") return;
    const c = this.ctrl;
    this.training = e.target.checked;
    setPrefs({ training: this.training });
    if (this.training && c.state) {
      this.adviceKey = null;
      if (c.isMyTurn(c.state)) this.requestAdvice();
      const last = c.state.results.length - 1;
      if (last >= 0) this.requestReview(last);
    }
    c.render();
    document.getElementById("training")?.focus();
  }

  // The sentence under the advice: what separates the best card from the one pointed at.
  pointed(el) {
    const why = document.getElementById("advice-why");
    const c = this.ctrl;
    if (!why || !this.advice || this.adviceKey !== decisionKey(c.shown.view)) return;
    const text = whyFor(this.advice.options, el.dataset.card || el.dataset.cards.split(" ")[0], c.shown.rules);
    if (text !== null) why.textContent = text;
  }
}

/** The solo game in progress, drawn by the one table view; null when there is none. */
export function soloTable(root) {
  const cur = currentGame();
  if (!cur) {
    root.innerHTML = `<section class="empty"><p>${t("no_game")}</p><p><a class="button primary" href="#/">${t("play_now")}</a></p></section>`;
    return null;
  }
  return openTable(root, new SoloMode(cur.token, takePlayNow()));
}
