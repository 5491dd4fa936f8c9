// The expert's advice in the page's words (docs/protocol.md, "advice", "hint",
// "review"): each option's numbers, labelled; the one sentence that says what
// separates two options, built from the server's `comparison` (the templates
// are strings/*.js's cmp_KEY, which bots/advice.py reads too: one copy); the
// hint; the deal's review. Pure functions of the server's answers, for the
// training panel, the hint, the review and the replay's expert view.
import { cardShort, currentLang, num, reasonText, t } from "./i18n.js";
import { esc } from "./dom.js";
import { cardChip } from "./cards.js";

const SHARES = new Set(["queen", "moon_by_self", "moon_by_other"]);

/** A probability as a percentage in the page's language: "23%", in French "23 %" (a narrow no-break space). */
export function percent(x, l = currentLang()) {
  const n = num(Math.round(100 * x), 0, l);
  return l === "fr" ? `${n}\u202f%` : `${n}%`;
}

/** Several heavy spades count (Black Maria): the "queen" outcome is any of them. */
function heavy(rules) {
  return !!(rules && rules.black_maria);
}

/**
 * The sentence for a comparison ({cards, other, key, value, other_value}):
 * "With 8♠ you take the queen of spades in 23% of the deals played out;
 * with 2♠, in 4%." Empty when there is none.
 */
export function sentence(comparison, rules) {
  if (!comparison) return "";
  const key = comparison.key === "queen" && heavy(rules) ? "queen_heavy" : comparison.key;
  const value = (x) => (SHARES.has(comparison.key) ? percent(x) : num(x, 1));
  const va = value(comparison.value);
  const vb = value(comparison.other_value);
  // Two numbers that read the same would compare nothing: say they are about equal.
  return t(`cmp_${key}${va === vb ? "_same" : ""}`, {
    a: comparison.cards.map((c) => cardShort(c)).join(" "),
    b: comparison.other.map((c) => cardShort(c)).join(" "),
    va,
    vb,
  });
}

/** An option's numbers, each with its label (a description list). */
export function numbersHtml(option, rules) {
  const o = option.outcomes || {};
  const points = option.expected_points ?? option.score;
  const items = [];
  if (points !== null && points !== undefined) items.push([t("adv_expected"), num(points, 1), "score"]);
  if (o.queen !== undefined) items.push([t(heavy(rules) ? "adv_queen_heavy" : "adv_queen"), percent(o.queen), "queen"]);
  if (o.hearts !== undefined) items.push([t("adv_hearts"), num(o.hearts, 1), "hearts"]);
  if (o.moon_by_self !== undefined) items.push([t("adv_moon_self"), percent(o.moon_by_self), "moon-self"]);
  if (o.moon_by_other !== undefined) items.push([t("adv_moon_other"), percent(o.moon_by_other), "moon-other"]);
  return `<dl class="numbers">${items.map(([label, value, cls]) => `<div class="n-${cls}"><dt>${esc(label)}</dt> <dd class="${cls === "score" ? "score" : ""}">${esc(value)}</dd></div>`).join(" ")}</dl>`;
}

/**
 * The options of an advice, best first, each with its numbers and reason; a
 * "mistake" only where the server says so. `played`: the card the seat
 * played (a replay), marked. The sentence of each option (what separates
 * it from the best) is its row's `data-why`.
 */
export function adviceListHtml(options, rules, { played = null } = {}) {
  const runnerUp = options.find((o) => !o.best && o.comparison);
  return `<p class="advice-unit">${t("advice_unit")}</p><ul class="advice">${options
    .map((o) => {
      const why = o.best ? sentence(runnerUp?.comparison, rules) : sentence(o.comparison, rules);
      const mine = played !== null && o.cards.includes(played);
      return `<li class="${o.best ? "best" : ""} ${o.mistake ? "mistake" : ""} ${mine ? "played" : ""}" data-cards="${esc(o.cards.join(" "))}" data-why="${esc(why)}">
        <div class="option"><span class="cards">${o.cards.map(cardChip).join(" ")}</span>
        <span class="reason">${esc(reasonText(o.reason, currentLang(), o.cards.length > 1 ? "pass" : "play"))}</span>
        ${o.best ? `<span class="tag">${t("best")}</span>` : ""}${o.mistake ? `<span class="tag bad">${t("mistake")}</span>` : ""}${mine ? `<span class="tag played">${t("adv_played")}</span>` : ""}</div>
        ${numbersHtml(o, rules)}</li>`;
    })
    .join("")}</ul>
    <p class="advice-why" id="advice-why" aria-live="polite">${esc(defaultWhy(options, rules))}</p>`;
}

/** The sentence shown under the list before any card is pointed at: the best against the runner-up. */
export function defaultWhy(options, rules) {
  return sentence(options.find((o) => !o.best && o.comparison)?.comparison, rules);
}

/** The sentence for the option holding `card` (the best: against the runner-up). */
export function whyFor(options, card, rules) {
  const o = options.find((x) => x.cards.includes(card));
  if (!o) return null;
  return o.best ? defaultWhy(options, rules) : sentence(o.comparison, rules);
}

/** A hint ({advice, comparison}) in one line and its sentence. */
export function hintHtml(hint, phase, rules) {
  const a = hint.advice;
  const cards = a.cards.map(cardChip).join(" ");
  const line = t(phase === "pass" ? "hint_pass" : "hint_play", { cards, reason: esc(reasonText(a.reason, currentLang(), phase)) });
  const why = sentence(hint.comparison, rules);
  return `<span class="hint-best">${line}</span>${why ? ` <span class="hint-why">${esc(why)}</span>` : ""}`;
}

/**
 * The deal's review (the server's three costliest choices, costliest first):
 * where (the trick, the hand, the cards on the table), what was played and the
 * better choice, the cost, the sentence, and a link to replay from that card
 * (`replayLink(item)`; null: none).
 */
export function reviewHtml(review, rules, replayLink = () => null) {
  if (!review.items.length) return `<p>${t("review_none")}</p>`;
  return `<ol class="review">${review.items
    .map((it) => {
      const where = it.play === null || it.play === undefined
        ? t("review_pass")
        : t("review_trick", { t: it.trick + 1 });
      const table = it.trick_cards && it.trick_cards.length ? it.trick_cards.map(cardChip).join(" ") : t("review_lead");
      const chosen = it.chosen.cards.map(cardChip).join(" ");
      const best = it.best.cards.map(cardChip).join(" ");
      const link = replayLink(it);
      return `<li class="${it.mistake ? "mistake" : ""}">
        <p class="review-where"><strong>${esc(where)}</strong> · ${t("label_value", { label: esc(t("review_hand")), value: it.hand.map(cardChip).join(" ") })}${
          it.play === null || it.play === undefined ? "" : ` · ${t("label_value", { label: esc(t("review_table")), value: table })}`}</p>
        <p class="review-choice">${t(it.play === null || it.play === undefined ? "review_passed" : "review_played", { mine: chosen, theirs: best })} — ${esc(t("review_cost", { n: it.cost, digits: 1, x: num(it.cost, 1) }))}${
          it.mistake ? ` <span class="tag bad">${t("mistake")}</span>` : ""}</p>
        ${it.comparison ? `<p class="review-why">${esc(sentence(it.comparison, rules))}</p>` : ""}
        ${link ? `<p><a href="${esc(link)}">${t("review_replay")}</a></p>` : ""}
      </li>`;
    })
    .join("")}</ol><p class="muted review-unit">${t("review_unit")}</p>`;
}
