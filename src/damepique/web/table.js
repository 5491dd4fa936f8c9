// The one table view, for solo games and tables with others alike. What
// differs between them (training, a table's extras and waiting room, the
// buttons at the end, how long a deal's summary may stay open) is handed in
// by solo.js and tables.js as `cfg`; nothing here asks which one it is.
import { cardName, num, refusalText, seatName, t } from "./i18n.js";
import { announce, esc, flashAlert } from "./dom.js";
import { cardBack, cardChip, cardFace, faceSvg, SUIT_SYMBOL, sortHand } from "./cards.js";
import { gameConnection } from "./net.js";
import { flip, ghost, reduced, snapshot } from "./motion.js";
import { play as sound, setSound, soundOn } from "./sound.js";
import { removedCards } from "./rules_form.js";
import { gameOverHtml, summaryHtml, summaryOpen } from "./summary.js";
import { contentWidth } from "./chart.js";
import { sealVerdict } from "./fairness.js";
import { hintHtml } from "./advice.js";
import { drawHand } from "./hand.js";
import { listen } from "./table_input.js";
import { eventsSince, flashFor, giverOf, handRows, hintKey, isMyTurn, placeOf, playedCount as played, statusText, trickTaken, whyNotPlay } from "./table_state.js";

// The pure parts live in table_state.js; these names stay importable from here.
export { FLASH, handRows, TAP, whyNotPlay } from "./table_state.js";

const SUMMARY_DELAY = 700; // ms the last trick stays in view before the deal's summary

function cardWidth() {
  return parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--card-w")) || 0;
}

/**
 * Open a table in `root`. `cfg`:
 * - target: {token} for a solo game, {table, token?} for a table (net.js);
 * - summaryTimeout: ms after which a deal's summary closes by itself (null: only its button);
 * - focusHand: put the focus on the hand once it is drawn (after "Play now");
 * - waitingRoom(ctrl), barExtras(ctrl), sidePanels(ctrl), endActions(ctrl), pageClass(ctrl): HTML;
 * - sheet(ctrl): HTML drawn between the felt and the hand (a phone's training advice);
 * - seatNote(ctrl, seat): a word on a seat of the felt ("offline"), or "";
 * - hints(ctrl): whether the "Hint" button is offered (once a trick; never in a ranked game);
 * - onMessage(ctrl, msg), onState(ctrl, prev), onError(ctrl, msg) -> handled?, onOpen(ctrl);
 * - onClick(ctrl, event), onChange(ctrl, event), onInput(ctrl, event), onHover(ctrl, element)
 *   (a card of the hand, or an option of the advice, pointed at or focused); fallbackName(ctrl, seat).
 */
export function openTable(root, cfg) {
  const ctrl = {
    cfg,
    root,
    state: null, // the latest state from the server
    received: 0, // state messages received (data-state on the page, for whoever waits on one)
    shown: null, // the state drawn: held while a deal's summary is open
    status: "connecting",
    pending: null,
    selected: [],
    flash: null,
    lastTrick: null, // the number of cards played when "Last trick" was pressed
    summary: null,
    hadServerSummary: false,
    summariesRead: new Set(), // deals whose summary this page closed (a reconnection does not open them again)
    hint: { key: null, pending: null, answer: null }, // this trick's hint
    seen: null, // deals already summed up in this game
    gameId: null,
    focusWanted: !!cfg.focusHand,
    overKey: null,
    closed: false,
    drawn: new WeakMap(), // the markup each part of the table was last given
  };
  const call = (name, ...args) => (cfg[name] ? cfg[name](ctrl, ...args) : undefined);

  ctrl.me = () => (ctrl.shown ? ctrl.shown.seat ?? -1 : -1); // a spectator has no seat: -1 matches none
  ctrl.n = () => ctrl.shown.seats.length;
  ctrl.nameOf = (seat) => {
    const s = (ctrl.shown || ctrl.state)?.seats?.[seat];
    if (!s) return call("fallbackName", seat) ?? "";
    if (seat === ctrl.me() && (s.name === "You" || s.name === "Vous")) return t("seat_you");
    return seatName(s.name);
  };
  ctrl.send = (msg) => ctrl.conn.send(msg);
  ctrl.isMyTurn = (state = ctrl.shown) => isMyTurn(state);

  // -- the connection

  ctrl.conn = gameConnection(cfg.target, {
    onOpen: () => {
      ctrl.status = null;
      ctrl.retryAt = null;
      clearInterval(ctrl.retryClock);
      call("onOpen");
      render();
    },
    onState: (msg) => onState(msg),
    onMessage: (msg) => {
      if (msg.type === "error") onError(msg);
      else if (msg.type === "hint") onHint(msg);
      else call("onMessage", msg);
    },
    onLost: (info) => {
      ctrl.status = "reconnecting";
      ctrl.pending = null;
      // The next attempt's time, counted down each second, with "Try now" beside it.
      ctrl.retryAt = info?.retryAt ?? null;
      clearInterval(ctrl.retryClock);
      ctrl.retryClock = setInterval(render, 1000);
      render();
    },
  });

  /** While the connection is lost: "Connection lost. Trying again in 9 s." and "Try now", as HTML ("" otherwise). */
  ctrl.reconnectLine = () => {
    if (ctrl.status !== "reconnecting") return "";
    if (ctrl.retryAt === null || ctrl.retryAt === undefined) return esc(t("reconnecting"));
    const n = Math.max(0, Math.ceil((ctrl.retryAt - Date.now()) / 1000));
    return `${esc(t("reconnecting_in", { n }))} <button type="button" class="button small retry-btn" id="retry-btn">${t("try_now")}</button>`;
  };

  function onError(msg) {
    if (call("onError", msg)) return;
    if (ctrl.pending !== null && msg.ref === ctrl.pending) ctrl.pending = null;
    if (ctrl.hint.pending !== null && msg.ref === ctrl.hint.pending) {
      // Refused: "hint_used" keeps this trick's hint spent; anything else may be asked again.
      ctrl.hint = { key: msg.code === "hint_used" ? ctrl.hint.key : null, pending: null, answer: null };
    }
    const text = t("error", { reason: refusalText(msg.code, msg.reason) });
    announce(text);
    flashAlert(text, document.getElementById("hand"), 4000);
    render();
  }

  // -- the hint: the best card now and why, once a trick (the server counts it)

  function hintOffered() {
    const s = ctrl.shown;
    return !!s && !s.over && !s.spectator && s.seat !== null && s.seat !== undefined && !!call("hints");
  }
  function askHint() {
    const v = ctrl.shown.view;
    if (!hintOffered() || !ctrl.isMyTurn() || ctrl.hint.key === hintKey(v) || ctrl.summary) return;
    ctrl.hint = { key: hintKey(v), pending: ctrl.send({ type: "hint" }), answer: null };
    render();
  }
  function onHint(msg) {
    if (ctrl.hint.pending === null || msg.ref !== ctrl.hint.pending) return;
    ctrl.hint = { ...ctrl.hint, pending: null, answer: msg };
    render();
  }
  function hintButton() {
    if (!hintOffered()) return "";
    const used = ctrl.hint.key === hintKey(ctrl.shown.view);
    const can = ctrl.isMyTurn() && !used && !ctrl.summary;
    return `<button type="button" class="button small hint-btn" id="hint-btn" title="${esc(t(used ? "hint_once" : "hint_title"))}" ${can ? "" : "disabled"}>${t("hint")}</button>`;
  }
  function claimText(ev) {
    const cards = ev.cards.map((c) => cardName(c)).join(", ");
    return ev.seat === ctrl.me() ? t("you_claim", { cards }) : t("claims", { name: ctrl.nameOf(ev.seat), cards });
  }
  function hintLine() {
    const s = ctrl.shown;
    const claimed = ctrl.claimed;
    if (claimed && s.view && claimed.deal === s.view.deal) return `<span class="claimed">${esc(claimText(claimed))}</span>`;
    if (!s.view || ctrl.hint.key !== hintKey(s.view)) return "";
    if (ctrl.hint.pending !== null) return esc(t("hint_wait"));
    return ctrl.hint.answer ? hintHtml(ctrl.hint.answer, ctrl.hint.answer.phase, s.rules) : "";
  }

  // -- states

  function newGame(msg) {
    ctrl.gameId = msg.game;
    ctrl.flash = null;
    ctrl.lastTrick = null;
    ctrl.selected = [];
    ctrl.summary = null;
    ctrl.summariesRead = new Set();
    ctrl.hint = { key: null, pending: null, answer: null };
    ctrl.overKey = null;
    // A page that joins a game already under way does not sum up its old deals.
    ctrl.seen = ctrl.shown ? 0 : msg.results.length;
    closeDialog();
    ctrl.shown = null;
  }

  // The page says which state it has received last, drawn or held (a summary
  // open holds the next deal): data-state counts them, data-deal is its deal,
  // data-drawn the deal drawn. Tests wait on these, never on time (docs/web.md).
  function mark() {
    const page = root.querySelector(".table-page");
    if (!page || !ctrl.state) return;
    page.dataset.state = String(ctrl.received);
    page.dataset.deal = String(ctrl.state.view?.deal ?? "");
    page.dataset.drawn = String(ctrl.shown?.view?.deal ?? "");
  }

  function onState(msg) {
    ctrl.received += 1;
    try {
      handleState(msg);
    } finally {
      mark();
    }
  }

  function handleState(msg) {
    const prev = ctrl.state;
    ctrl.state = msg;
    ctrl.status = null;
    if (msg.ack !== undefined && msg.ack === ctrl.pending) ctrl.pending = null;
    if (msg.game !== ctrl.gameId) newGame(msg);
    call("onState", prev);
    if (msg.results.length > ctrl.seen) {
      ctrl.seen = msg.results.length;
      draw(msg);
      if (!msg.over) openSummary(msg);
      return;
    }
    if (ctrl.summary) {
      if (msg.summary) ctrl.hadServerSummary = true;
      refreshSummary();
      return;
    }
    // A page that comes back while the table waits for it to read a deal's summary shows it.
    const server = msg.summary;
    if (server && !msg.over && (server.waiting || []).includes(msg.seat) && !ctrl.summariesRead.has(server.deal) && msg.results[server.deal]) {
      draw(msg);
      openSummary(msg, server.deal);
      return;
    }
    draw(msg);
  }

  // Draw `msg`: say what happened since the state drawn before, then draw it.
  function draw(msg) {
    const prev = ctrl.shown;
    if (!prev || prev.view?.deal !== msg.view?.deal || prev.view?.phase !== msg.view?.phase) ctrl.selected = [];
    ctrl.shown = msg;
    const view = msg.view;
    const events = eventsSince(prev, msg);
    const closed = trickTaken(events);
    for (const ev of events) {
      if (ev.type === "play") {
        sound("card");
        announce(ev.seat === ctrl.me() ? t("you_play", { card: cardName(ev.card) }) : t("plays", { name: ctrl.nameOf(ev.seat), card: cardName(ev.card) }));
        if (ev.trick_winner !== undefined) {
          sound("trick");
          announce(ev.trick_winner === ctrl.me() ? t("you_take_trick") : t("takes_trick", { name: ctrl.nameOf(ev.trick_winner) }));
        }
      }
      if (ev.type === "pass" && ev.complete && view.received && view.received.length) {
        const from = giverOf(view, ctrl.me(), ctrl.n());
        announce(t("received", { cards: view.received.map((c) => cardName(c)).join(", "), name: ctrl.nameOf(from) }));
      }
      if (ev.type === "deal") announce(t("deal_n", { n: view.deal + 1 }));
      if (ev.type === "claim") {
        // The claimed hand is shown to everyone until the next deal.
        ctrl.claimed = ev;
        announce(claimText(ev));
      }
    }
    if (closed && view.tricks.length) {
      // The trick just taken stays in view with its winner for a moment (FLASH), or
      // until the person plays: also when the computer players lead the next one in
      // the same update or in the next (a bot thinking for 0.45 s), so that everyone
      // sees every card of every trick.
      clearTimeout(ctrl.flashTimer);
      ctrl.flash = { trick: view.tricks[view.tricks.length - 1] };
      ctrl.flashTimer = setTimeout(() => {
        ctrl.flash = null;
        render();
      }, flashFor(msg.speed));
    }
    if (ctrl.isMyTurn() && !(prev && ctrl.isMyTurn(prev))) {
      announce(t("your_turn"));
      sound("turn");
    }
    render();
  }

  // -- the deal's summary

  function dialog() {
    return root.querySelector("#t-summary");
  }
  function closeDialog() {
    clearTimeout(ctrl.summaryTimer);
    clearInterval(ctrl.summaryClock);
    const d = dialog();
    if (d && d.open) d.close();
  }

  function openSummary(msg, deal = msg.results.length - 1) {
    ctrl.summary = {
      deal,
      result: msg.results[deal],
      view: msg.view && msg.view.deal === deal ? msg.view : null,
      totals: msg.totals,
      openedAt: Date.now(),
      pressed: false,
      shownAt: null,
    };
    ctrl.hadServerSummary = !!msg.summary;
    const delay = reduced() ? 0 : SUMMARY_DELAY;
    ctrl.summaryTimer = setTimeout(() => {
      if (!ctrl.summary || ctrl.closed) return;
      ctrl.summary.openedAt = Date.now();
      const d = dialog();
      if (!d) return;
      renderSummary();
      if (!d.open) d.showModal();
      d.querySelector("#continue-btn")?.focus();
      clearInterval(ctrl.summaryClock);
      ctrl.summaryClock = setInterval(refreshSummary, 1000);
    }, delay);
  }

  function summaryDeadline() {
    const server = ctrl.state?.summary;
    if (server && server.deal === ctrl.summary.deal && server.deadline) return server.deadline;
    return cfg.summaryTimeout === null || cfg.summaryTimeout === undefined ? null : ctrl.summary.openedAt + cfg.summaryTimeout;
  }

  function renderSummary() {
    const s = ctrl.summary;
    const d = dialog();
    if (!s || !d) return;
    const server = ctrl.state?.summary;
    const waiting = server && server.deal === s.deal && server.waiting ? server.waiting.map(ctrl.nameOf) : null;
    const deadline = summaryDeadline();
    const focused = document.activeElement === d.querySelector("#continue-btn");
    d.innerHTML = summaryHtml({
      deal: s.deal, result: s.result, view: s.view, totals: s.totals, rules: ctrl.shown.rules, me: ctrl.me(),
      nameOf: ctrl.nameOf, waiting, pressed: s.pressed,
      seconds: deadline === null ? null : Math.max(0, Math.ceil((deadline - Date.now()) / 1000)),
    });
    if (focused || !d.contains(document.activeElement)) d.querySelector("#continue-btn:not([disabled])")?.focus();
  }

  function refreshSummary() {
    if (!ctrl.summary) return;
    const open = summaryOpen(ctrl.summary, ctrl.state?.summary, cfg.summaryTimeout ?? null, Date.now(), ctrl.hadServerSummary);
    if (!open) endSummary();
    else if (dialog()?.open) renderSummary();
  }

  function pressContinue() {
    if (!ctrl.summary || ctrl.summary.pressed) return;
    ctrl.summary.pressed = true;
    // At a table the server holds the next deal until every person has read it
    // (its states' `summary`): it hears who pressed. A solo game's summary is the page's own.
    const s = ctrl.state;
    if (s && s.mode === "table" && !s.spectator && s.seat !== null) ctrl.send({ type: "continue", deal: ctrl.summary.deal });
    refreshSummary();
  }

  function endSummary() {
    ctrl.summariesRead.add(ctrl.summary.deal);
    ctrl.summary = null;
    closeDialog();
    ctrl.focusWanted = true;
    if (ctrl.state) draw(ctrl.state);
  }

  // -- drawing

  const posOf = (seat) => placeOf(seat, ctrl.me(), ctrl.n());

  function skeleton() {
    let page = root.querySelector(".table-page[data-table]");
    if (page) return page;
    root.innerHTML = `<section class="table-page" data-table>
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
    return root.querySelector(".table-page");
  }

  function render() {
    if (ctrl.closed) return;
    if (!ctrl.shown) {
      // The waiting room is drawn again at each change of the table: what is
      // being typed in it, and the focus, stay.
      const typed = [...root.querySelectorAll("input[id]:not([readonly])")].map((el) => [el.id, el.value]);
      const focused = document.activeElement?.id;
      const waiting = call("waitingRoom");
      root.innerHTML = waiting ?? `<section class="table-page"><p class="status">${ctrl.reconnectLine() || esc(t(ctrl.status || "connecting"))}</p></section>`;
      for (const [id, value] of typed) {
        const el = root.querySelector(`#${id}`);
        if (el) el.value = value;
      }
      if (focused) root.querySelector(`#${focused}`)?.focus();
      return;
    }
    const page = skeleton();
    const main = page.querySelector(".table-main");
    const s = ctrl.shown;
    page.className = `table-page players-${ctrl.n()} ${call("pageClass") || ""}`;
    page.setAttribute("aria-label", t("deal_n", { n: (s.view?.deal ?? 0) + 1 }));
    mark();
    const active = document.activeElement;
    const focusedCard = active?.closest?.("#hand") ? active.dataset.card : null;
    const focusWasPass = active?.id === "pass-btn";
    const before = snapshot(main);

    // Each part is written again only when its markup changed: a card played
    // changes the felt and one hand, seldom the bar or the side panels.
    put(page.querySelector("#t-bar"), barHtml());
    page.querySelector("#t-felt").className = `felt players-${ctrl.n()}`;
    put(page.querySelector("#t-seats"), s.seats.map((_, i) => seatHtml(i)).join(""));
    put(page.querySelector("#t-centre"), centreHtml());
    put(page.querySelector("#status"), ctrl.reconnectLine() || esc(statusLine()));
    put(page.querySelector("#hint-line"), hintLine());
    put(page.querySelector("#t-sheet"), call("sheet") || "");
    const parts = handParts();
    drawHand(page.querySelector("#t-hand"), parts?.hand, parts?.after ?? "");
    tabStop(page.querySelector("#hand"), focusedCard);
    put(page.querySelector("#t-side"), (call("sidePanels") || "") + scoreSheet() + sealPanel());
    renderOver();

    // A focus lost with the part drawn again comes back at once (the next
    // key must find it); the cards' travel waits for the next frame (before
    // it is painted): the state is on the page as soon as this message is handled.
    const lost = active && active !== document.body && !active.isConnected;
    const hand = page.querySelector("#hand");
    if ((ctrl.focusWanted || ((focusedCard || focusWasPass) && lost)) && hand && !dialog()?.open) {
      const target = (focusWasPass && page.querySelector("#pass-btn:not([disabled])")) || hand.querySelector('[tabindex="0"]');
      target?.focus({ preventScroll: true });
      if (target && document.activeElement === target && target.id !== "pass-btn") ctrl.focusWanted = false;
    }
    requestAnimationFrame(() => !ctrl.closed && animate(main, before));
  }

  function put(el, html) {
    if (ctrl.drawn.get(el) === html) return;
    el.innerHTML = html;
    ctrl.drawn.set(el, html);
  }

  // Cards travel: from where they were, from the seat that played them, from
  // the deck at a new deal; a trick taken slides to its winner.
  function animate(main, before) {
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

  function barHtml() {
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
      ${call("barExtras") || ""}
      ${hintButton()}
      <label class="switch"><input type="checkbox" role="switch" id="sound" ${soundOn() ? "checked" : ""}> ${t("sounds")}</label>
      <details class="undo"><summary>${t("undo_q")}</summary><p>${t("undo_text")}</p></details>`;
  }

  function seatHtml(seat) {
    const s = ctrl.shown;
    const v = s.view;
    const acting = v && v.to_act === seat && v.phase === "play";
    const voids = v ? v.voids[seat].map((x) => SUIT_SYMBOL["CDHS"[x]]).join(" ") : "";
    const passed = v && v.phase === "pass" && v.passed_seats.length ? (v.passed_seats[seat] ? " ✓" : " …") : "";
    const size = v ? v.hand_sizes[seat] : 0;
    const name = ctrl.nameOf(seat);
    // A person who is offline or away is said so on the felt, not left looking as if they were thinking.
    const note = call("seatNote", seat) || "";
    return `<div class="seat pos-${posOf(seat)} ${acting ? "acting" : ""} ${note ? "absent" : ""} ${seat === ctrl.me() ? "me" : ""}" data-seat="${seat}" aria-label="${esc(note ? `${name} (${note})` : name)}">
      <div class="seat-name">${esc(name)}${passed}</div>
      ${note ? `<div class="seat-note">${esc(note)}</div>` : ""}
      ${seat === ctrl.me() ? "" : `<div class="backs" aria-hidden="true" style="--k:${size}">${'<span class="mini-back"></span>'.repeat(Math.min(size, 13))}</div>`}
      <div class="seat-info wide">${t("cards_left", { n: size })} · ${t("points_deal", { n: v ? v.taken_points[seat] : 0 })} · ${t("total", { n: num(s.totals[seat]) })}</div>
      <div class="seat-info narrow">${t("cards_left", { n: size })}<br>${t("points_short", { n: v ? v.taken_points[seat] : 0 })} · ${t("total", { n: num(s.totals[seat]) })}</div>
      ${voids ? `<div class="seat-voids">${t("seat_voids", { suits: voids })}</div>` : ""}
    </div>`;
  }

  const playedCount = (v) => played(v, ctrl.n());

  function centreHtml() {
    const v = ctrl.shown.view;
    if (!v) return `<div class="centre"></div>`;
    if (ctrl.lastTrick !== null && ctrl.lastTrick !== playedCount(v)) ctrl.lastTrick = null;
    let cards = [];
    let label = "";
    let winner = null;
    const showTrick = (tr) => {
      cards = tr.cards.map((c, i) => ({ card: c, seat: (tr.leader + i) % ctrl.n() }));
      winner = tr.winner;
      label = `${winner === ctrl.me() ? t("you_take_trick") : t("takes_trick", { name: ctrl.nameOf(winner) })} (${t("trick_points", { n: tr.points })})`;
    };
    if (ctrl.lastTrick !== null && v.tricks.length) showTrick(v.tricks[v.tricks.length - 1]);
    else if (ctrl.flash) showTrick(ctrl.flash.trick);
    else if (v.trick.length) {
      cards = v.trick.map((c, i) => ({ card: c, seat: (v.trick_leader + i) % ctrl.n() }));
      label = v.trick_leader === ctrl.me() ? t("you_lead") : t("leads", { name: ctrl.nameOf(v.trick_leader) });
    } else if (v.phase === "play") label = v.to_act === ctrl.me() ? t("you_lead") : t("leads", { name: ctrl.nameOf(v.to_act) });
    const canLook = v.phase === "play" && v.tricks.length > 0 && !ctrl.flash;
    return `<div class="centre" aria-label="${t("trick")}">
      <div class="trick">${cards
        .map((x) => `<div class="slot pos-${posOf(x.seat)} ${x.seat === winner ? "won" : ""}">${cardFace(x.card, "", `data-flip="${x.card}" data-from="${x.seat}"`)}</div>`)
        .join("")}</div>
      <div class="trick-label ${winner !== null ? "winner" : ""}">${esc(label)}</div>
      ${canLook ? `<button type="button" class="button small last-trick" id="last-trick-btn" aria-pressed="${ctrl.lastTrick !== null}">${t(ctrl.lastTrick !== null ? "last_trick_hide" : "last_trick")}</button>` : ""}
    </div>`;
  }

  function statusLine() {
    return statusText(ctrl.shown, ctrl.me(), { status: ctrl.status, selected: ctrl.selected, nameOf: ctrl.nameOf });
  }

  function whyNot(card) {
    if (ctrl.summary) return t("why_summary");
    if (ctrl.pending !== null && ctrl.shown.view?.phase === "play") return t("why_not_your_turn");
    return whyNotPlay(ctrl.shown, card, ctrl.me());
  }

  // One card of the hand is in the tab order (the arrows move along it), so
  // that Tab goes from the hand to the Pass button in one key: the focused
  // card, else the one that was (if the hand was not written again), else the
  // first playable. It is set on the buttons, not written in the markup: a
  // message drawn while a card takes the focus (a click's press) would write
  // the hand again between the press and the release, and lose the click.
  function tabStop(hand, focusedCard) {
    if (!hand) return;
    const cards = [...hand.querySelectorAll("[data-card]")];
    const stop =
      cards.find((b) => b.dataset.card === focusedCard) ||
      cards.find((b) => b.getAttribute("tabindex") === "0") ||
      cards.find((b) => b.getAttribute("aria-disabled") === "false") ||
      cards[0];
    cards.forEach((b) => b.setAttribute("tabindex", b === stop ? "0" : "-1"));
  }

  // The hand as keyed parts (hand.js draws them in place): the box's attributes,
  // each card's button by its card, and the Pass and Claim buttons after it.
  function handParts() {
    const s = ctrl.shown;
    const v = s.view;
    if (!v) return null;
    const received = new Set(v.phase === "play" && v.received && !v.tricks.length ? v.received : []);
    const hand = sortHand(v.hand);
    const passing = v.phase === "pass" && v.to_act === ctrl.me();
    const count = s.rules.pass_count ?? 3;
    const whys = hand.map(whyNot);
    const buttons = hand
      .map((c, i) => {
        const why = whys[i];
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
    const rows = handRows(hand.length, root.querySelector("#t-hand")?.clientWidth ?? 0, cardWidth());
    const perRow = Math.ceil(hand.length / rows);
    const items = hand.map((c, i) => ({ key: c, html: buttons[i] }));
    if (rows === 2) items.splice(perRow, 0, { key: "row-break", html: `<span class="row-break" aria-hidden="true"></span>` });
    const attrs = { id: "hand", class: `hand ${rows === 2 ? "rows-2" : ""}`, role: "group", "aria-label": t("your_hand"), style: `--n:${Math.max(perRow, 1)}` };
    return { hand: { attrs, items }, after: `${passBtn}${claimBtn}` };
  }

  function scoreSheet() {
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
  // the browser's own check of every deal against it (docs/fairness.md).
  function sealPanel() {
    const s = ctrl.shown;
    const f = s.fairness;
    if (!f) return "";
    let end = "";
    if (f.secret) {
      if (ctrl.sealGame !== s.game) {
        ctrl.sealGame = s.game;
        ctrl.seal = "";
        const gameId = s.game;
        fetch(`/api/games/${encodeURIComponent(gameId)}/record`)
          .then((r) => (r.ok ? r.json() : null))
          .then((record) => (record ? sealVerdict(record) : ""))
          .then((html) => {
            if (ctrl.closed || ctrl.shown?.game !== gameId) return;
            ctrl.seal = html;
            const el = document.getElementById("seal-verdict");
            if (el) el.innerHTML = html;
          })
          .catch(() => {});
      }
      end = `<p>${esc(t("seal_revealed", { s: f.secret.slice(0, 16) }))} <span id="seal-verdict">${ctrl.seal || ""}</span></p>`;
    }
    const open = root.querySelector(".seal-panel")?.open ? "open" : "";
    return `<details class="seal-panel" ${open}><summary>${esc(t("seal_label", { c: f.commitment.slice(0, 8) }))}</summary>
      <p>${esc(t("seal_help"))}</p><p class="mono">${esc(f.commitment)}</p>${end}</details>`;
  }

  function renderOver() {
    const s = ctrl.shown;
    const d = root.querySelector("#t-over");
    if (!d) return;
    if (!s.over) {
      if (d.open) d.close();
      ctrl.overKey = null;
      return;
    }
    // The last trick is seen first, with its winner, as before a deal's summary.
    if (ctrl.flash) return;
    const actions = call("endActions") || "";
    const key = `${s.game}|${t("game_over")}|${actions}`;
    if (ctrl.overKey === key) return;
    ctrl.overKey = key;
    if (!d.open) d.show();
    d.innerHTML = gameOverHtml(s, ctrl.me(), ctrl.nameOf, actions, 560);
    // Drawn again at the dialog's own width, now that it has one.
    const w = contentWidth(d);
    if (Math.abs(w - 560) > 4) d.innerHTML = gameOverHtml(s, ctrl.me(), ctrl.nameOf, actions, w);
  }

  // -- actions

  function onCard(el) {
    const card = el.dataset.card;
    const s = ctrl.shown;
    if (!s || !s.view) return;
    const why = whyNot(card);
    if (why) {
      flashAlert(why, el);
      return;
    }
    const v = s.view;
    const count = s.rules.pass_count ?? 3;
    if (v.phase === "pass") {
      const i = ctrl.selected.indexOf(card);
      if (i >= 0) ctrl.selected.splice(i, 1);
      else if (ctrl.selected.length >= count) {
        flashAlert(t("why_three", { n: count }), el);
        return;
      } else ctrl.selected.push(card);
      render();
      return;
    }
    ctrl.pending = ctrl.send({ type: "play", card });
    ctrl.flash = null; // a card played ends the look at the trick just taken
    clearTimeout(ctrl.flashTimer);
    ctrl.focusWanted = true;
    render();
  }

  function onPass() {
    const count = ctrl.shown.rules.pass_count ?? 3;
    if (ctrl.selected.length !== count || ctrl.pending !== null) return;
    ctrl.pending = ctrl.send({ type: "pass", cards: [...ctrl.selected] });
    ctrl.focusWanted = true;
    render();
  }

  function onClaim() {
    if (ctrl.pending !== null || !ctrl.shown.view?.claim) return;
    ctrl.pending = ctrl.send({ type: "claim" });
    render();
  }

  function toggleLastTrick() {
    const v = ctrl.shown.view;
    ctrl.lastTrick = ctrl.lastTrick === null ? playedCount(v) : null;
    render();
    document.getElementById("last-trick-btn")?.focus();
  }

  // What the person does, said by table_input.js as the table's actions.
  const unlisten = listen(root, {
    card: onCard,
    pass: onPass,
    continueDeal: pressContinue,
    hint: askHint,
    claim: onClaim,
    retry: () => ctrl.conn.retry(),
    lastTrick: toggleLastTrick,
    sound: setSound,
    hover: (el) => {
      if (el === ctrl.hovered) return;
      ctrl.hovered = el;
      call("onHover", el);
    },
    // The end's chart is drawn at the width of its box, the hand's rows at the hand's.
    resize: () => {
      ctrl.overKey = null;
      if (ctrl.shown) render();
    },
    click: (e) => call("onClick", e),
    change: (e) => call("onChange", e),
    input: (e) => call("onInput", e),
  });

  ctrl.render = () => {
    ctrl.overKey = null;
    ctrl.drawn = new WeakMap(); // a new language: every part again
    render();
    if (ctrl.summary && dialog()?.open) renderSummary();
  };
  ctrl.close = () => {
    ctrl.closed = true;
    clearTimeout(ctrl.flashTimer);
    clearInterval(ctrl.retryClock);
    closeDialog();
    root.querySelectorAll(".ghost").forEach((g) => g.remove()); // cards still flying go with the table
    ctrl.conn.close();
    unlisten();
  };
  render();
  return ctrl;
}
