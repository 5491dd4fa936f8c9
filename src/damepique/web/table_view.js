// The table's view: the markup of each part of the one table (the bar, the
// seats around the felt, the trick in the centre, the hand, the score sheet,
// the sealed deal's panel, the game-over dialog) from the controller's state,
// and the cards' travel between two drawings. Nothing here sends or decides:
// table.js holds the state and says when to draw; table_state.js decides.
import { cardName, num, t } from "./i18n.js";
import { esc } from "./dom.js";
import { cardBack, cardChip, cardFace, faceSvg, SUIT_SYMBOL, sortHand } from "./cards.js";
import { flip, ghost } from "./motion.js";
import { soundOn } from "./sound.js";
import { removedCards } from "./rules_form.js";
import { gameOverHtml } from "./summary.js";
import { contentWidth } from "./chart.js";
import { hintHtml } from "./advice.js";
import { giverOf, handRows, hintKey, placeOf, playedCount, whyNotPlay } from "./table_state.js";

/** The table's frame, drawn once; each part is then written into its box. */
export const SKELETON = `<section class="table-page" data-table>
      <div class="table-main">
        <div class="bar" id="t-bar"></div>
        <div class="felt" id="t-felt"><div class="layer" id="t-seats"></div><div class="layer" id="t-centre"></div></div>
        <p class="status" id="status"></p>
        <p class="hint-line" id="hint-line" role="status"></p>
        <div class="sheet" id="t-sheet"></div>
        <div class="hand-area" id="t-hand"></div>
        <dialog class="game-over" id="t-over" aria-labelledby="over-h"></dialog>
      </div>
      <div class="side" id="t-side"></div>
      <dialog class="summary" id="t-summary" aria-labelledby="sum-h"></dialog>
    </section>`;

const posOf = (ctrl, seat) => placeOf(seat, ctrl.me(), ctrl.n());

/** "You claim the rest: …" / "Ana claims the rest: …", "… without taking a trick: …" for a claim of none. */
export function claimText(ctrl, ev) {
  const cards = ev.cards.map((c) => cardName(c)).join(", ");
  const none = ev.tricks === "none" ? "_none" : "";
  return ev.seat === ctrl.me() ? t(`you_claim${none}`, { cards }) : t(`claims${none}`, { name: ctrl.nameOf(ev.seat), cards });
}

/** The "Hint" button: offered once a trick where the mode offers it. */
export function hintButton(ctrl, offered) {
  if (!offered) return "";
  const used = ctrl.hint.key === hintKey(ctrl.shown.view);
  const can = ctrl.isMyTurn() && !used && !ctrl.summary;
  return `<button type="button" class="button small hint-btn" id="hint-btn" title="${esc(t(used ? "hint_once" : "hint_title"))}" ${can ? "" : "disabled"}>${t("hint")}</button>`;
}

/** The line under the status: a claim shown to everyone until the next deal, else this trick's hint. */
export function hintLine(ctrl) {
  const s = ctrl.shown;
  const claimed = ctrl.claimed;
  if (claimed && s.view && claimed.deal === s.view.deal) return `<span class="claimed">${esc(claimText(ctrl, claimed))}</span>`;
  if (!s.view || ctrl.hint.key !== hintKey(s.view)) return "";
  if (ctrl.hint.pending !== null) return esc(t("hint_wait"));
  return ctrl.hint.answer ? hintHtml(ctrl.hint.answer, ctrl.hint.answer.phase, s.rules) : "";
}

/** The bar above the felt: the deal, hearts, the kitty, the mode's controls, the hint, sounds. */
export function barHtml(ctrl, extras, hint) {
  const s = ctrl.shown;
  const v = s.view;
  const dir = v && v.pass_direction !== "none" ? ` · ${t("pass_label")} → ${t("dir_" + v.pass_direction)}` : "";
  const kittySize = s.rules.leftover === "kitty" ? removedCards(s.rules).length : 0;
  let kitty = "";
  if (v && v.kitty && v.kitty.length) kitty = `<span class="kitty">${t("kitty", { cards: v.kitty.map(cardChip).join(" ") })}</span>`;
  else if (kittySize && v && v.phase !== "done") kitty = `<span class="kitty">${cardBack("mini")}${esc(t("kitty_face_down", { n: kittySize }))}</span>`;
  return `<span class="deal-no">${t("deal_n", { n: (v?.deal ?? 0) + 1 })}${v?.phase === "pass" ? dir : ""}</span>
      <span class="hearts ${v?.hearts_broken ? "broken" : ""}">${v?.hearts_broken ? "♥ " + t("hearts_broken") : "♡ " + t("hearts_not_broken")}</span>
      ${kitty}
      ${extras || ""}
      ${hint}
      <label class="switch"><input type="checkbox" role="switch" id="sound" ${soundOn() ? "checked" : ""}> ${t("sounds")}</label>
      <details class="undo"><summary>${t("undo_q")}</summary><p>${t("undo_text")}</p></details>`;
}

/** One seat on the felt; `note`: the mode's word when its person is not there ("offline"). */
export function seatHtml(ctrl, seat, note) {
  const s = ctrl.shown;
  const v = s.view;
  const acting = v && v.to_act === seat && v.phase === "play";
  const voids = v ? v.voids[seat].map((x) => SUIT_SYMBOL["CDHS"[x]]).join(" ") : "";
  const passed = v && v.phase === "pass" && v.passed_seats.length ? (v.passed_seats[seat] ? " ✓" : " …") : "";
  const size = v ? v.hand_sizes[seat] : 0;
  const name = ctrl.nameOf(seat);
  // A person who is offline or away is said so on the felt, not left looking as if they were thinking.
  return `<div class="seat pos-${posOf(ctrl, seat)} ${acting ? "acting" : ""} ${note ? "absent" : ""} ${seat === ctrl.me() ? "me" : ""}" data-seat="${seat}" aria-label="${esc(note ? `${name} (${note})` : name)}">
      <div class="seat-name">${esc(name)}${passed}</div>
      ${note ? `<div class="seat-note">${esc(note)}</div>` : ""}
      ${seat === ctrl.me() ? "" : `<div class="backs" aria-hidden="true" style="--k:${size}">${'<span class="mini-back"></span>'.repeat(Math.min(size, 13))}</div>`}
      <div class="seat-info wide">${t("cards_left", { n: size })} · ${t("points_deal", { n: v ? v.taken_points[seat] : 0 })} · ${t("total", { n: num(s.totals[seat]) })}</div>
      <div class="seat-info narrow">${seat === ctrl.me() ? "" : `${t("cards_left", { n: size })}<br>`}${t("points_short", { n: v ? v.taken_points[seat] : 0 })} · ${t("total", { n: num(s.totals[seat]) })}</div>
      ${voids ? `<div class="seat-voids">${t("seat_voids", { suits: voids })}</div>` : ""}
    </div>`;
}

/** The centre of the felt: the trick being played, or the last one taken (its flash, or "Last trick"). */
export function centreHtml(ctrl) {
  const v = ctrl.shown.view;
  if (!v) return `<div class="centre"></div>`;
  const n = ctrl.n();
  let cards = [];
  let label = "";
  let winner = null;
  const showTrick = (tr) => {
    cards = tr.cards.map((c, i) => ({ card: c, seat: (tr.leader + i) % n }));
    winner = tr.winner;
    label = `${winner === ctrl.me() ? t("you_take_trick") : t("takes_trick", { name: ctrl.nameOf(winner) })} (${t("trick_points", { n: tr.points })})`;
  };
  if (ctrl.lastTrick !== null && v.tricks.length) showTrick(v.tricks[v.tricks.length - 1]);
  else if (ctrl.flash) showTrick(ctrl.flash.trick);
  else if (v.trick.length) {
    cards = v.trick.map((c, i) => ({ card: c, seat: (v.trick_leader + i) % n }));
    label = v.trick_leader === ctrl.me() ? t("you_lead") : t("leads", { name: ctrl.nameOf(v.trick_leader) });
  } else if (v.phase === "play") label = v.to_act === ctrl.me() ? t("you_lead") : t("leads", { name: ctrl.nameOf(v.to_act) });
  const canLook = v.phase === "play" && v.tricks.length > 0 && !ctrl.flash;
  return `<div class="centre" aria-label="${t("trick")}">
      <div class="trick">${cards
        .map((x) => `<div class="slot pos-${posOf(ctrl, x.seat)} ${x.seat === winner ? "won" : ""}">${cardFace(x.card, "", `data-flip="${x.card}" data-from="${x.seat}"`)}</div>`)
        .join("")}</div>
      <div class="trick-label ${winner !== null ? "winner" : ""}">${esc(label)}</div>
      ${canLook ? `<button type="button" class="button small last-trick" id="last-trick-btn" aria-pressed="${ctrl.lastTrick !== null}">${t(ctrl.lastTrick !== null ? "last_trick_hide" : "last_trick")}</button>` : ""}
    </div>`;
}

/** Why `card` cannot be played now (null when it can): the summary open, a card on its way, else the rules. */
export function whyNot(ctrl, card) {
  if (ctrl.summary) return t("why_summary");
  if (ctrl.pending !== null && ctrl.shown.view?.phase === "play") return t("why_not_your_turn");
  return whyNotPlay(ctrl.shown, card, ctrl.me());
}

/**
 * The hand as keyed parts (hand.js draws them in place): the box's
 * attributes, each card's button by its card, and the Pass and Claim buttons
 * after it; `width`, `card`: the hand's and a card's CSS px (for its rows).
 */
export function handParts(ctrl, width, card) {
  const s = ctrl.shown;
  const v = s.view;
  if (!v) return null;
  const received = new Set(v.phase === "play" && v.received && !v.tricks.length ? v.received : []);
  const hand = sortHand(v.hand);
  const passing = v.phase === "pass" && v.to_act === ctrl.me();
  const count = s.rules.pass_count ?? 3;
  const buttons = hand.map((c) => {
    const why = whyNot(ctrl, c);
    const selected = ctrl.selected.includes(c);
    return `<button type="button" class="card suit-${c[1]} ${received.has(c) ? "received" : ""}" data-card="${c}" data-flip="${c}"
          tabindex="-1" aria-label="${esc(cardName(c))}" aria-disabled="${why ? "true" : "false"}"
          ${passing ? `aria-pressed="${selected}"` : ""}
          ${why ? `aria-describedby="why-${c}" title="${esc(why)}" data-why="${esc(why)}"` : received.has(c) ? `title="${t("received_badge")}"` : ""}>${faceSvg(c)}
          ${received.has(c) ? `<span class="badge" aria-hidden="true">${t("received_badge")}</span>` : ""}
          ${why ? `<span class="sr-only" id="why-${c}">${esc(why)}</span>` : ""}</button>`;
  });
  const passBtn = passing
    ? `<button type="button" id="pass-btn" class="button primary pass-btn" ${ctrl.selected.length === count && ctrl.pending === null ? "" : "disabled"}>${t("pass_label")}</button>`
    : "";
  // The server offers a claim only when this seat's cards must take every trick left.
  const claimBtn =
    v.claim && v.phase === "play" && ctrl.isMyTurn() && !ctrl.summary
      ? `<button type="button" id="claim-btn" class="button claim-btn" title="${esc(t("claim_title"))}" ${ctrl.pending === null ? "" : "disabled"}>${t("claim")}</button>`
      : "";
  // Where one row would leave a card less than TAP px of its own, the hand takes two.
  const rows = handRows(hand.length, width, card);
  const perRow = Math.ceil(hand.length / rows);
  const items = hand.map((c, i) => ({ key: c, html: buttons[i] }));
  if (rows === 2) items.splice(perRow, 0, { key: "row-break", html: `<span class="row-break" aria-hidden="true"></span>` });
  const attrs = { id: "hand", class: `hand ${rows === 2 ? "rows-2" : ""}`, role: "group", "aria-label": t("your_hand"), style: `--n:${Math.max(perRow, 1)}` };
  return { hand: { attrs, items }, after: `${passBtn}${claimBtn}` };
}

// One card of the hand is in the tab order (the arrows move along it), so
// that Tab goes from the hand to the Pass button in one key: the focused
// card, else the one that was (if the hand was not written again), else the
// first playable. It is set on the buttons, not written in the markup: a
// message drawn while a card takes the focus (a click's press) would write
// the hand again between the press and the release, and lose the click.
export function tabStop(hand, focusedCard) {
  if (!hand) return;
  const cards = [...hand.querySelectorAll("[data-card]")];
  const stop =
    cards.find((b) => b.dataset.card === focusedCard) ||
    cards.find((b) => b.getAttribute("tabindex") === "0") ||
    cards.find((b) => b.getAttribute("aria-disabled") === "false") ||
    cards[0];
  cards.forEach((b) => b.setAttribute("tabindex", b === stop ? "0" : "-1"));
}

/** Every deal's points and the totals, a column a seat. */
export function scoreSheet(ctrl) {
  const s = ctrl.shown;
  const rows = s.results
    .map((r, k) => `<tr><th scope="row">${k + 1}</th>${r.points
      .map((p, i) => `<td>${num(p)}${r.moon === i ? ` <span class="moon" title="${t("moon_mark")}">☾<span class="sr-only"> ${t("moon_mark")}</span></span>` : ""}</td>`)
      .join("")}</tr>`)
    .join("");
  return `<section class="score-sheet" aria-label="${t("score_sheet")}">
      <h2>${t("score_sheet")}</h2>
      <table>
        <thead><tr><th scope="col">${t("deal_col")}</th>${s.seats.map((_, i) => `<th scope="col" title="${esc(ctrl.nameOf(i))}">${esc(ctrl.nameOf(i))}</th>`).join("")}</tr></thead>
        <tbody>${rows}</tbody>
        <tfoot><tr><th scope="row">Σ</th>${s.totals.map((x) => `<td>${x}</td>`).join("")}</tr></tfoot>
      </table>
    </section>`;
}

// The commitment announced before the first deal; at the end, the secret and
// the browser's own check of every deal against it (`verdict`, docs/fairness.md).
export function sealHtml(fairness, verdict, open) {
  if (!fairness) return "";
  const end = fairness.secret ? `<p>${esc(t("seal_revealed", { s: fairness.secret.slice(0, 16) }))} <span id="seal-verdict">${verdict || ""}</span></p>` : "";
  return `<details class="seal-panel" ${open ? "open" : ""}><summary>${esc(t("seal_label", { c: fairness.commitment.slice(0, 8) }))}</summary>
      <p>${esc(t("seal_help"))}</p><p class="mono">${esc(fairness.commitment)}</p>${end}</details>`;
}

/** The game-over dialog `d` with the mode's `actions`, drawn at the dialog's own width. */
export function drawOver(ctrl, d, actions) {
  const s = ctrl.shown;
  if (!d.open) d.show();
  d.innerHTML = gameOverHtml(s, ctrl.me(), ctrl.nameOf, actions, 560);
  // Drawn again at the dialog's own width, now that it has one.
  const w = contentWidth(d);
  if (Math.abs(w - 560) > 4) d.innerHTML = gameOverHtml(s, ctrl.me(), ctrl.nameOf, actions, w);
}

// Cards travel: from where they were, from the seat that played them, from
// the deck at a new deal; a trick taken slides to its winner (`before`: where
// they were, motion.js's snapshot; `root`: where flying cards are drawn).
export function animate(ctrl, main, before, root) {
  const v = ctrl.shown.view;
  if (!v) return;
  const felt = main.querySelector("#t-felt");
  const feltRect = felt.getBoundingClientRect();
  const deck = { left: feltRect.left + feltRect.width / 2 - 20, top: feltRect.top + feltRect.height / 2 - 28, width: 40, height: 56 };
  const seatRect = (seat) => before.seats.get(seat) || main.querySelector(`[data-seat="${seat}"]`)?.getBoundingClientRect();
  const newDeal = !before.cards.size;
  let k = 0;
  flip(main, before, (el) => {
    if (el.dataset.from !== undefined) return { rect: seatRect(Number(el.dataset.from)) };
    if (el.closest("#hand")) {
      if ((v.received || []).includes(el.dataset.flip) && v.phase === "play") {
        const giver = giverOf(v, ctrl.me(), ctrl.n());
        return { rect: seatRect(giver) };
      }
      if (newDeal || v.tricks.length === 0) return { rect: deck, delay: 25 * k++ };
    }
    return null;
  });
  // Cards that left: a trick taken goes to its winner, cards passed to their receiver.
  const now = new Set([...main.querySelectorAll("[data-flip]")].map((el) => el.dataset.flip));
  for (const [card, was] of before.cards) {
    if (now.has(card)) continue;
    const trick = v.tricks.find((tr) => tr.cards.includes(card));
    let to = null;
    if (trick) to = seatRect(trick.winner);
    else if ((v.passed || []).includes(card) && v.pass_to !== null && v.pass_to !== undefined) to = seatRect(v.pass_to);
    if (to) ghost(was.html, was.rect, to, 0, root);
  }
}

/** Whether "Last trick" still shows the trick it was pressed for (false once a card is played since). */
export function lastTrickStill(ctrl) {
  return ctrl.lastTrick !== null && ctrl.lastTrick === playedCount(ctrl.shown.view, ctrl.n());
}
