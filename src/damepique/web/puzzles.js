// Puzzles (#/puzzles): one position at a time, drawn like the table (the
// trick on the felt, the hand, what has fallen), where one card is clearly
// right (docs/protocol.md, "puzzles"). The player picks a card; right or
// wrong, the answer comes with the numbers of the card chosen and of the best
// one, then the next. A pass puzzle is answered with three cards. The
// server keeps each answer for this browser (its player id) or the account
// signed in, and its rating (Glicko-2): the page shows the server's figures
// when it has some (a guest's move to the account on sign-in), else what
// this device kept; the theme and the puzzles seen stay on the device.
import { cardName, expectedPoints, num, refusalText, seatName, t } from "./i18n.js";
import { esc } from "./dom.js";
import { cardChip, cardFace, faceSvg, sortHand } from "./cards.js";
import { load, playerId, save } from "./prefs.js";

export const PUZZLE_KEY = "damepique.puzzles";
const POSITIONS = {
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "top-left", "top-right", "right"],
};
const NAMES = {
  3: ["You", "West", "East"],
  4: ["You", "West", "North", "East"],
  5: ["You", "West", "North-West", "North-East", "East"],
};
export const THEMES = ["stop_moon", "dump_queen", "duck", "exit_card", "void_suit", "smoke_queen", "pass"];

/** What this device keeps: the rating ({rating, rd, vol}), the streaks, the theme, the puzzles seen. */
export function puzzleState() {
  const s = load(PUZZLE_KEY, {});
  return {
    rating: s.rating || { rating: 1500, rd: 350, vol: 0.06 },
    streak: s.streak || 0,
    best: s.best || 0,
    solved: s.solved || 0,
    tried: s.tried || 0,
    theme: s.theme || "all",
    seen: Array.isArray(s.seen) ? s.seen.slice(-200) : [],
  };
}

/** The state with the server's figures for this player (`GET /api/puzzles/me`), when it has some. */
export function withServer(state, me) {
  if (!me || !me.tried) return state;
  return {
    ...state,
    rating: { ...state.rating, rating: me.rating, rd: me.rd },
    streak: me.streak,
    best: me.best_streak,
    solved: me.solved,
    tried: me.tried,
  };
}

/** The state after an answer (`right`), with the server's new rating. */
export function afterAnswer(state, id, right, rating) {
  const streak = right ? state.streak + 1 : 0;
  return {
    ...state,
    rating,
    streak,
    best: Math.max(state.best, streak),
    solved: state.solved + (right ? 1 : 0),
    tried: state.tried + 1,
    seen: [...state.seen.filter((x) => x !== id), id].slice(-200),
  };
}

/** The position drawn like the table: the seats around the felt, the trick, the hand as buttons. */
export function positionHtml(p) {
  const v = p.view;
  const n = v.hand_sizes.length;
  const me = v.seat;
  const rel = (s) => (s - me + n) % n;
  const name = (s) => seatName(NAMES[n][rel(s)]);
  const trick = v.trick.map((c, i) => ({ card: c, seat: (v.trick_leader + i) % n }));
  const seats = [...Array(n).keys()].filter((s) => s !== me).map((s) => `<div class="seat pos-${POSITIONS[n][rel(s)]}">
    <div class="seat-name">${esc(name(s))}</div><div class="seat-info">${esc(t("pz_seat_info", { n: v.hand_sizes[s], p: v.taken_points[s] }))}</div></div>`).join("");
  const passing = v.phase === "pass";
  const label = passing
    ? t("pz_pass_dir", { dir: t("dir_to_" + v.pass_direction), name: name(v.pass_to) })
    : trick.length ? t("leads", { name: name(v.trick_leader) }) : t("you_lead");
  const fallen = v.tricks.flatMap((tr) => tr.cards);
  // A pass: any card of the hand, pressed or not; a play: the legal cards.
  const legal = new Set(passing ? v.hand : v.legal);
  const hand = sortHand(v.hand).map((c) => `<button type="button" class="card suit-${c[1]}" data-card="${c}" aria-label="${esc(cardName(c))}"
      ${passing ? `aria-pressed="false" ` : ""}aria-disabled="${legal.has(c) ? "false" : "true"}" ${legal.has(c) ? "" : `title="${esc(t("pz_not_legal"))}"`}>${faceSvg(c)}</button>`).join("");
  return `<div class="felt players-${n} puzzle-felt">${seats}
      <div class="centre" aria-label="${esc(t("trick"))}"><div class="trick">${trick
        .map((x) => `<div class="slot pos-${POSITIONS[n][rel(x.seat)]}">${cardFace(x.card)}</div>`).join("")}</div>
      <div class="trick-label">${esc(label)}</div></div></div>
    ${passing ? "" : `<p class="pz-facts">${esc(t("pz_trick", { t: v.tricks.length + 1 }))} · ${esc(t("pz_points", { p: v.taken_points[me] }))}${v.hearts_broken ? ` · ${esc(t("pz_hearts_broken"))}` : ""}</p>`}
    <div id="pz-hand" class="hand" role="group" aria-label="${esc(t("your_hand"))}" style="--n:${v.hand.length}">${hand}</div>
    ${v.received ? `<p>${t("label_value", { label: esc(t("pz_received")), value: v.received.map(cardChip).join(" ") })}</p>` : ""}
    ${v.passed ? `<p>${t("label_value", { label: esc(t("pz_passed")), value: v.passed.map(cardChip).join(" ") })}</p>` : ""}
    ${passing ? `<p><button type="button" class="button primary" id="pz-pass" disabled>${esc(t("pz_pass_go", { n: passCount(p) }))}</button></p>` : `<p class="pz-fallen">${t("label_value", { label: esc(t("pz_fallen")), value: fallen.length ? fallen.map(cardChip).join(" ") : esc(t("pz_nothing")) })}</p>`}`;
}

/** How many cards a pass puzzle's answer names (the rules' pass count). */
export function passCount(p) {
  return Number(p.rules?.pass_count) || 3;
}

/** The answer: right or not, the numbers of the card (or pass) chosen and of the best one. */
export function answerHtml(a) {
  const pts = (o) => t("pz_numbers", { expected: expectedPoints(o.expected), p: `${o.payoff > 0 ? "+" : ""}${num(o.payoff, 1)}` });
  const pass = a.theme === "pass";
  const mine = pass ? t("pz_passed_these", { cards: a.cards.map(cardChip).join(" ") }) : t("pz_chosen", { card: cardChip(a.card) });
  // A pass the expert did not weigh has no numbers: said so, never made up.
  const numbers = a.chosen ? esc(pts(a.chosen)) : esc(t("pz_unmeasured"));
  return `<p class="pz-verdict ${a.correct ? "right" : "wrong"}">${esc(t(a.correct ? (pass ? "pz_right_pass" : "pz_right") : pass ? "pz_wrong_pass" : "pz_wrong"))}</p>
    <p>${mine} ${numbers}</p>
    <p>${t("pz_best", { cards: a.best.cards.map(cardChip).join(" ") })} ${esc(pts(a.best))}</p>
    <p class="muted">${esc(pass ? t("pz_margin_pass", { x: num(a.margin, 1) }) : t("pz_margin", { x: num(a.margin, 1), theme: t("theme_" + a.theme) }))}</p>`;
}

function statusHtml(s) {
  return `${esc(t("pz_rating", { r: num(s.rating.rating, 0) }))} · ${esc(t("pz_streak", { n: s.streak, b: s.best }))} · ${esc(t("pz_solved", { k: s.solved, n: s.tried }))}`;
}

export async function renderPuzzles(root) {
  let state = puzzleState();
  const me = await fetch("/api/puzzles/me", { headers: { "X-Player": playerId() }, cache: "no-store" })
    .then((r) => (r.ok ? r.json() : null))
    .catch(() => null);
  if (!root.isConnected) return;
  state = withServer(state, me);
  root.innerHTML = `<section class="puzzles-page" aria-labelledby="pz-h"><h1 id="pz-h">${t("pz_heading")}</h1>
    <p class="pz-intro">${esc(t("pz_intro"))}</p>
    <p class="pz-bar"><label>${t("pz_theme")} <select id="pz-theme"><option value="all">${t("theme_all")}</option>${THEMES.map(
      (x) => `<option value="${x}" ${state.theme === x ? "selected" : ""}>${t("theme_" + x)}</option>`).join("")}</select></label>
      <span id="pz-status" class="muted">${statusHtml(state)}</span></p>
    <div id="pz-board">…</div><div id="pz-answer" aria-live="polite"></div>
    <p><button type="button" class="button primary" id="pz-next" hidden>${t("pz_next")}</button></p></section>`;
  let puzzle = null;
  let answered = false;
  const board = () => root.querySelector("#pz-board");
  const next = async () => {
    const q = new URLSearchParams({ theme: state.theme, rating: String(Math.round(state.rating.rating)), seen: state.seen.join(",") });
    const r = await fetch(`/api/puzzles/next?${q}`, { cache: "no-store" });
    const out = await r.json().catch(() => ({}));
    if (!root.isConnected) return;
    if (!r.ok) {
      board().innerHTML = `<p class="error" role="alert">${esc(refusalText(out.code, out.reason))}</p>`;
      return;
    }
    puzzle = out;
    answered = false;
    board().dataset.id = out.id;
    const task = out.theme === "pass" ? t("pz_task_pass", { n: passCount(out), r: out.rating }) : t("pz_task", { theme: t("theme_" + out.theme), r: out.rating });
    board().innerHTML = `<p class="pz-task">${esc(task)}</p>${positionHtml(out)}`;
    root.querySelector("#pz-answer").innerHTML = "";
    root.querySelector("#pz-next").hidden = true;
    root.querySelector('#pz-hand [aria-disabled="false"]')?.focus();
  };
  const choose = async (card, cards = null) => {
    if (!puzzle || answered) return;
    answered = true;
    const r = await fetch(`/api/puzzles/${encodeURIComponent(puzzle.id)}/answer`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...(cards ? { cards } : { card }), rating: state.rating, player: playerId() }),
    });
    const out = await r.json().catch(() => ({}));
    if (!root.isConnected) return;
    if (!r.ok) {
      answered = false;
      root.querySelector("#pz-answer").innerHTML = `<p class="error" role="alert">${esc(refusalText(out.code, out.reason))}</p>`;
      return;
    }
    state = afterAnswer(state, puzzle.id, out.correct, out.rating);
    save(PUZZLE_KEY, state);
    root.querySelectorAll("#pz-hand [data-card]").forEach((b) => {
      b.setAttribute("aria-disabled", "true");
      if (out.answer.includes(b.dataset.card)) b.classList.add("pz-best");
      if (out.cards.includes(b.dataset.card)) b.classList.add(out.correct ? "pz-right" : "pz-wrong");
    });
    root.querySelector("#pz-answer").innerHTML = answerHtml(out);
    root.querySelector("#pz-status").innerHTML = statusHtml(state);
    const button = root.querySelector("#pz-next");
    button.hidden = false;
    button.focus();
  };
  root.onclick = (e) => {
    const card = e.target.closest("#pz-hand [data-card]");
    if (card && card.getAttribute("aria-disabled") === "false") {
      if (puzzle?.theme !== "pass") return choose(card.dataset.card);
      // A pass: press up to the count, then "Pass these cards".
      const pressed = root.querySelectorAll('#pz-hand [aria-pressed="true"]').length;
      const on = card.getAttribute("aria-pressed") === "true";
      if (on || pressed < passCount(puzzle)) card.setAttribute("aria-pressed", on ? "false" : "true");
      const now = [...root.querySelectorAll('#pz-hand [aria-pressed="true"]')].map((b) => b.dataset.card);
      root.querySelector("#pz-pass").disabled = now.length !== passCount(puzzle);
      return;
    }
    if (e.target.closest("#pz-pass")) {
      const cards = [...root.querySelectorAll('#pz-hand [aria-pressed="true"]')].map((b) => b.dataset.card);
      if (cards.length === passCount(puzzle)) {
        root.querySelector("#pz-pass").disabled = true;
        return choose(null, cards);
      }
    }
    if (e.target.closest("#pz-next")) next();
  };
  // The arrows move along the hand, as at the table.
  root.onkeydown = (e) => {
    const card = e.target.closest?.("#pz-hand [data-card]");
    if (!card || !["ArrowLeft", "ArrowRight"].includes(e.key)) return;
    const cards = [...root.querySelectorAll("#pz-hand [data-card]")];
    const k = cards.indexOf(card) + (e.key === "ArrowRight" ? 1 : -1);
    if (k >= 0 && k < cards.length) cards[k].focus();
    e.preventDefault();
  };
  root.querySelector("#pz-theme").onchange = (e) => {
    state = { ...state, theme: e.target.value };
    save(PUZZLE_KEY, state);
    next();
  };
  await next();
}
