// The one table view's controller, for every kind of table: the connection,
// the states as they come and what they announce, the hint, what the
// person's actions send, and when each part is drawn again. What differs
// between a solo game, a table with others and the daily deal comes from the
// table's mode (table_mode.js); nothing here asks which one it is. The markup
// is table_view.js's, the pure decisions table_state.js's, the events
// table_input.js's, the hand's buttons hand.js's, the deal's summary
// table_summary.js's.
import { cardName, refusalText, seatName, t } from "./i18n.js";
import { announce, esc, flashAlert } from "./dom.js";
import { gameConnection } from "./net.js";
import { snapshot } from "./motion.js";
import { play as sound, setSound } from "./sound.js";
import { sealVerdict } from "./fairness.js";
import { drawHand } from "./hand.js";
import { dealSummary } from "./table_summary.js";
import { listen } from "./table_input.js";
import { eventsSince, flashFor, giverOf, hintKey, isMyTurn, playedCount, statusText, trickTaken } from "./table_state.js";
import { animate, barHtml, centreHtml, claimText, drawOver, handParts, hintButton, hintLine, lastTrickStill, scoreSheet, sealHtml, seatHtml, SKELETON, tabStop, whyNot } from "./table_view.js";

// The pure parts live in table_state.js; these names stay importable from here.
export { FLASH, handRows, TAP, whyNotPlay } from "./table_state.js";

function cardWidth() {
  return parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--card-w")) || 0;
}

/**
 * Open a table in `root` for `mode` (a TableMode: table_mode.js says what it
 * may add). Returns the controller: `render()` draws again (a new language),
 * `close()` ends it; its `state` and `shown`, `send`, `nameOf`, `isMyTurn`
 * and `conn` are what the mode reads and uses.
 */
export function openTable(root, mode) {
  const ctrl = {
    mode,
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
    focusWanted: !!mode.focusHand,
    overKey: null,
    closed: false,
    drawn: new WeakMap(), // the markup each part of the table was last given
    seal: { game: null, verdict: "" }, // the browser's check of a sealed game, once revealed
  };
  mode.attach(ctrl);

  ctrl.me = () => (ctrl.shown ? ctrl.shown.seat ?? -1 : -1); // a spectator has no seat: -1 matches none
  ctrl.n = () => ctrl.shown.seats.length;
  ctrl.nameOf = (seat) => {
    const s = (ctrl.shown || ctrl.state)?.seats?.[seat];
    if (!s) return mode.fallbackName(seat) ?? "";
    if (seat === ctrl.me() && (s.name === "You" || s.name === "Vous")) return t("seat_you");
    return seatName(s.name);
  };
  ctrl.send = (msg) => ctrl.conn.send(msg);
  const summary = dealSummary(ctrl, root, mode.summaryTimeout, () => {
    ctrl.focusWanted = true;
    if (ctrl.state) draw(ctrl.state);
  });
  ctrl.isMyTurn = (state = ctrl.shown) => isMyTurn(state);

  // -- the connection

  ctrl.conn = gameConnection(mode.target, {
    onOpen: () => {
      ctrl.status = null;
      ctrl.retryAt = null;
      clearInterval(ctrl.retryClock);
      mode.opened();
      render();
    },
    onState: (msg) => onState(msg),
    onMessage: (msg) => {
      if (mode.message(msg)) return;
      if (msg.type === "error") onError(msg);
      else if (msg.type === "hint") onHint(msg);
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
    return !!s && !s.over && !s.spectator && s.seat !== null && s.seat !== undefined && !!mode.hintsOffered();
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
    summary.close();
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
    mode.stateReceived(prev);
    if (msg.results.length > ctrl.seen) {
      ctrl.seen = msg.results.length;
      draw(msg);
      if (!msg.over) summary.open(msg);
      return;
    }
    if (ctrl.summary) {
      if (msg.summary) ctrl.hadServerSummary = true;
      summary.refresh();
      return;
    }
    // A page that comes back while the table waits for it to read a deal's summary shows it.
    const server = msg.summary;
    if (server && !msg.over && (server.waiting || []).includes(msg.seat) && !ctrl.summariesRead.has(server.deal) && msg.results[server.deal]) {
      draw(msg);
      summary.open(msg, server.deal);
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
        announce(claimText(ctrl, ev));
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

  // -- drawing

  function render() {
    if (ctrl.closed) return;
    if (!ctrl.shown) {
      // The waiting room is drawn again at each change of the table: what is
      // being typed in it, and the focus, stay.
      const typed = [...root.querySelectorAll("input[id]:not([readonly])")].map((el) => [el.id, el.value]);
      const focused = document.activeElement?.id;
      const waiting = mode.waitingRoom();
      root.innerHTML = waiting ?? `<section class="table-page"><p class="status">${ctrl.reconnectLine() || esc(t(ctrl.status || "connecting"))}</p></section>`;
      for (const [id, value] of typed) {
        const el = root.querySelector(`#${id}`);
        if (el) el.value = value;
      }
      if (focused) root.querySelector(`#${focused}`)?.focus();
      return;
    }
    let page = root.querySelector(".table-page[data-table]");
    if (!page) {
      root.innerHTML = SKELETON;
      page = root.querySelector(".table-page");
    }
    const main = page.querySelector(".table-main");
    const s = ctrl.shown;
    if (ctrl.lastTrick !== null && !lastTrickStill(ctrl)) ctrl.lastTrick = null;
    const parts = mode.parts();
    page.className = `table-page players-${ctrl.n()} ${parts.pageClass || ""}`;
    page.setAttribute("aria-label", t("deal_n", { n: (s.view?.deal ?? 0) + 1 }));
    mark();
    const active = document.activeElement;
    const focusedCard = active?.closest?.("#hand") ? active.dataset.card : null;
    const focusWasPass = active?.id === "pass-btn";
    const before = snapshot(main);

    // Each part is written again only when its markup changed: a card played
    // changes the felt and one hand, seldom the bar or the side panels.
    put(page.querySelector("#t-bar"), barHtml(ctrl, parts.bar, hintButton(ctrl, hintOffered())));
    page.querySelector("#t-felt").className = `felt players-${ctrl.n()}`;
    put(page.querySelector("#t-seats"), s.seats.map((_, i) => seatHtml(ctrl, i, mode.seatNote(i) || "")).join(""));
    put(page.querySelector("#t-centre"), centreHtml(ctrl));
    put(page.querySelector("#status"), ctrl.reconnectLine() || esc(statusText(ctrl.shown, ctrl.me(), { status: ctrl.status, selected: ctrl.selected, nameOf: ctrl.nameOf })));
    put(page.querySelector("#hint-line"), hintLine(ctrl));
    put(page.querySelector("#t-sheet"), parts.sheet || "");
    const hand = handParts(ctrl, root.querySelector("#t-hand")?.clientWidth ?? 0, cardWidth());
    drawHand(page.querySelector("#t-hand"), hand?.hand, hand?.after ?? "");
    tabStop(page.querySelector("#hand"), focusedCard);
    checkSeal();
    const sealOpen = !!root.querySelector(".seal-panel")?.open;
    put(page.querySelector("#t-side"), (parts.side || "") + scoreSheet(ctrl) + sealHtml(s.fairness, ctrl.seal.verdict, sealOpen));
    renderOver(parts.end || "");

    // A focus lost with the part drawn again comes back at once (the next
    // key must find it); the cards' travel waits for the next frame (before
    // it is painted): the state is on the page as soon as this message is handled.
    const lost = active && active !== document.body && !active.isConnected;
    const handBox = page.querySelector("#hand");
    if ((ctrl.focusWanted || ((focusedCard || focusWasPass) && lost)) && handBox && !summary.shown()) {
      const target = (focusWasPass && page.querySelector("#pass-btn:not([disabled])")) || handBox.querySelector('[tabindex="0"]');
      target?.focus({ preventScroll: true });
      if (target && document.activeElement === target && target.id !== "pass-btn") ctrl.focusWanted = false;
    }
    requestAnimationFrame(() => !ctrl.closed && animate(ctrl, main, before, root));
  }

  function put(el, html) {
    if (ctrl.drawn.get(el) === html) return;
    el.innerHTML = html;
    ctrl.drawn.set(el, html);
  }

  // A sealed game's secret, once revealed, is checked by the browser against
  // every deal of its record (docs/fairness.md), once a game.
  function checkSeal() {
    const s = ctrl.shown;
    if (!s.fairness?.secret || ctrl.seal.game === s.game) return;
    const gameId = s.game;
    ctrl.seal = { game: gameId, verdict: "" };
    fetch(`/api/games/${encodeURIComponent(gameId)}/record`)
      .then((r) => (r.ok ? r.json() : null))
      .then((record) => (record ? sealVerdict(record) : ""))
      .then((html) => {
        if (ctrl.closed || ctrl.shown?.game !== gameId) return;
        ctrl.seal = { game: gameId, verdict: html };
        const el = document.getElementById("seal-verdict");
        if (el) el.innerHTML = html;
      })
      .catch(() => {});
  }

  function renderOver(actions) {
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
    const key = `${s.game}|${t("game_over")}|${actions}`;
    if (ctrl.overKey === key) return;
    ctrl.overKey = key;
    drawOver(ctrl, d, actions);
  }

  // -- actions

  function onCard(el) {
    const card = el.dataset.card;
    const s = ctrl.shown;
    if (!s || !s.view) return;
    const why = whyNot(ctrl, card);
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
    ctrl.lastTrick = ctrl.lastTrick === null ? playedCount(v, ctrl.n()) : null;
    render();
    document.getElementById("last-trick-btn")?.focus();
  }

  // What the person does, said by table_input.js as the table's actions.
  const unlisten = listen(root, {
    card: onCard,
    pass: onPass,
    continueDeal: summary.press,
    hint: askHint,
    claim: onClaim,
    retry: () => ctrl.conn.retry(),
    lastTrick: toggleLastTrick,
    sound: setSound,
    hover: (el) => {
      if (el === ctrl.hovered) return;
      ctrl.hovered = el;
      mode.pointed(el);
    },
    // The end's chart is drawn at the width of its box, the hand's rows at the hand's.
    resize: () => {
      ctrl.overKey = null;
      if (ctrl.shown) render();
    },
    click: (e) => mode.input(e),
    change: (e) => mode.input(e),
    input: (e) => mode.input(e),
  });

  ctrl.render = () => {
    ctrl.overKey = null;
    ctrl.drawn = new WeakMap(); // a new language: every part again
    render();
    if (ctrl.summary) summary.render();
  };
  ctrl.close = () => {
    ctrl.closed = true;
    clearTimeout(ctrl.flashTimer);
    clearInterval(ctrl.retryClock);
    summary.close();
    root.querySelectorAll(".ghost").forEach((g) => g.remove()); // cards still flying go with the table
    ctrl.conn.close();
    unlisten();
  };
  render();
  return ctrl;
}
