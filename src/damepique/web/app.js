// The page: a tiny hash router, the home form, the table, and the protocol client.
import { cardName, currentLang, detectLang, reasonText, refusalText, seatName, setLang, suitName, t } from "./i18n.js";
import { cardChip, cardFace, cardOrder, esc, rankLabel, sortHand, SUIT_SYMBOL } from "./cards.js";
import { renderGuide, renderHistory, renderReplay, renderRules, sealVerdict, totalsChart } from "./pages.js";
import * as MP from "./multiplayer.js";
import { patched } from "./patch.js";

const PROTOCOL = 2; // docs/protocol.md: one socket, /ws, and hello first, for every game
const CURRENT_KEY = "damepique.current";
const PREFS_KEY = "damepique.prefs";
const PLAYER_KEY = "damepique.player";
const main = () => document.getElementById("main");

// ---------------------------------------------------------------- small helpers

function load(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v ?? fallback;
  } catch {
    return fallback;
  }
}
function save(key, value) {
  localStorage.setItem(key, JSON.stringify(value));
}
export function playerId() {
  let id = localStorage.getItem(PLAYER_KEY);
  if (!id) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(PLAYER_KEY, id);
  }
  return id;
}

let liveTimer = null;
let liveQueue = [];
export function announce(text) {
  if (!text) return;
  liveQueue.push(text);
  clearTimeout(liveTimer);
  liveTimer = setTimeout(() => {
    const live = document.getElementById("live");
    live.textContent = liveQueue.join(" ");
    liveQueue = [];
  }, 60);
}

function applyDeckColours() {
  document.body.classList.toggle("four-colour", !!load(PREFS_KEY, {}).fourColour);
}

// ---------------------------------------------------------------- router

let options = null; // /api/options
async function getOptions() {
  if (!options) options = await (await fetch("/api/options")).json();
  return options;
}

function route() {
  const hash = location.hash || "";
  if (hash === "" || hash === "#") {
    const cur = load(CURRENT_KEY, null);
    if (cur && !cur.over) {
      location.replace("#/play");
      return;
    }
  }
  const parts = hash.replace(/^#\/?/, "").split("/");
  if (parts[0] !== "play" && parts[0] !== "t") closeGame();
  if (parts[0] !== "friends") MP.closeLobby();
  document.querySelectorAll("header nav a").forEach((a) => {
    a.toggleAttribute("aria-current", a.getAttribute("href") === `#/${parts[0]}`);
    if (a.getAttribute("href") === `#/${parts[0]}`) a.setAttribute("aria-current", "page");
  });
  switch (parts[0]) {
    case "play":
      return showTable();
    case "history":
      return renderHistory(main(), { playerId });
    case "replay":
      return renderReplay(main(), parts[1]);
    case "rules":
      return renderRules(main(), getOptions);
    case "guide":
      return renderGuide(main());
    case "friends":
      return renderFriendsPage();
    case "t":
      return showMultiTable(MP.normalizeCode(parts[1]));
    case "account":
      return MP.renderAccount(main());
    case "leaderboard":
      return MP.renderLeaderboard(main());
    case "player":
      return MP.renderProfile(main(), decodeURIComponent(parts[1] || ""));
    default:
      return renderHome();
  }
}

function renderChrome() {
  document.title = t("title");
  const nav = document.querySelector("header nav");
  nav.innerHTML = `
    <a href="#/">${t("nav_play")}</a>
    <a href="#/friends">${t("nav_friends")}</a>
    <a href="#/history">${t("nav_history")}</a>
    <a href="#/rules">${t("nav_rules")}</a>
    <a href="#/guide">${t("nav_guide")}</a>
    <a href="/scorer">${t("nav_scorer")}</a>
    <a href="#/leaderboard">${t("nav_leaderboard")}</a>
    <a href="#/account">${t("nav_account")}</a>`;
  const label = document.getElementById("lang-label");
  label.textContent = t("language");
  document.getElementById("lang").value = currentLang();
  document.querySelector(".skip").textContent = currentLang() === "fr" ? "Aller au contenu" : "Skip to content";
}

// ---------------------------------------------------------------- home

const OPTION_KEYS = [
  "players", "target", "passing", "pass_cycle", "no_points_first_trick", "must_break_hearts", "moon",
  "jack_of_diamonds", "leftover", "queen_points", "first_lead", "deck", "black_maria", "last_trick_points",
  "pass_count", "queen_breaks_hearts",
];
const BOOL_KEYS = new Set(["passing", "no_points_first_trick", "must_break_hearts", "jack_of_diamonds", "black_maria", "queen_breaks_hearts"]);
const NUMBER_KEYS = new Set(["queen_points", "last_trick_points", "pass_count"]);

function fullRules(presetRules, defaults) {
  return { ...defaults, deck: 52, black_maria: false, last_trick_points: 0, pass_count: 3, queen_breaks_hearts: false, ...presetRules };
}

// The engine's options as form controls, shared by the solo home page ("opt")
// and the form that creates a table with others ("mpo"): ids are PREFIX-KEY.
function ruleSelect(prefix, rules, key, values, labels) {
  return `<select id="${prefix}-${key}" data-rule="${key}">${values
    .map((v, i) => `<option value="${esc(v)}" ${String(rules[key]) === String(v) ? "selected" : ""}>${esc(labels[i])}</option>`)
    .join("")}</select>`;
}

function rulesGrid(prefix, rules, ch) {
  const sel = (key, values, labels) => ruleSelect(prefix, rules, key, values, labels);
  const yn = (key) => sel(key, ["true", "false"], [t("yes"), t("no")]);
  const num = (key, min, max) =>
    `<input type="number" id="${prefix}-${key}" data-rule="${key}" min="${min}" max="${max}" value="${rules[key]}">`;
  const field = (key, control) => `<div class="field"><label for="${prefix}-${key}">${t("opt_" + key)}</label>${control}</div>`;
  return `<details class="all-options">
        <summary>${t("all_options")}</summary>
        <div class="grid">
          ${field("players", sel("players", ch.players, ch.players.map(String)))}
          ${field("passing", yn("passing"))}
          ${field("pass_cycle", sel("pass_cycle", ch.pass_cycle, ch.pass_cycle.map((c) => t("cycle_" + c))))}
          ${field("pass_count", num("pass_count", 1, 8))}
          ${field("no_points_first_trick", yn("no_points_first_trick"))}
          ${field("must_break_hearts", yn("must_break_hearts"))}
          ${field("queen_breaks_hearts", yn("queen_breaks_hearts"))}
          ${field("moon", sel("moon", ch.moon, ch.moon.map((c) => t("moon_" + c))))}
          ${field("jack_of_diamonds", yn("jack_of_diamonds"))}
          ${field("leftover", sel("leftover", ch.leftover, ch.leftover.map((c) => t("leftover_" + c))))}
          ${field("queen_points", num("queen_points", 0, 100))}
          ${field("black_maria", yn("black_maria"))}
          ${field("first_lead", sel("first_lead", ch.first_lead, ch.first_lead.map((c) => t("first_" + c))))}
          ${field("deck", sel("deck", ch.deck, ch.deck.map((c) => t("deck_" + c))))}
          ${field("last_trick_points", num("last_trick_points", 0, 100))}
        </div>
      </details>`;
}

function readRulesForm(prefix) {
  const out = {};
  for (const key of OPTION_KEYS) {
    const el = document.getElementById(`${prefix}-${key}`);
    if (!el) continue;
    let v = el.value;
    if (BOOL_KEYS.has(key)) v = v === "true";
    else if (NUMBER_KEYS.has(key) || ["players", "target", "deck"].includes(key)) v = parseInt(v, 10);
    out[key] = v;
  }
  return out;
}

function showRulesForm(prefix, rules) {
  for (const key of OPTION_KEYS) {
    const el = document.getElementById(`${prefix}-${key}`);
    if (el) el.value = String(rules[key]);
  }
}

async function renderHome() {
  const opts = await getOptions();
  const prefs = load(PREFS_KEY, {});
  const preset = prefs.preset && (prefs.preset in opts.presets || prefs.preset === "custom") ? prefs.preset : "standard";
  const rules = fullRules(prefs.rules || opts.presets[preset === "custom" ? "standard" : preset], opts.defaults);
  const cur = load(CURRENT_KEY, null);
  const ch = opts.choices;
  main().innerHTML = `
  <section class="home">
    <h1>${t("home_heading")}</h1>
    <p class="intro">${t("home_intro")}</p>
    ${cur && !cur.over ? `<p><a class="button secondary" href="#/play">${t("resume")}</a></p>` : ""}
    <form id="home-form" class="home-form">
      <div class="row">
        <div class="field"><label for="level">${t("level")}</label>
          <select id="level">${opts.levels.map((l) => `<option value="${l}" ${l === (prefs.level || "intermediate") ? "selected" : ""}>${t(l)}</option>`).join("")}</select></div>
        <div class="field"><label for="speed">${t("speed")}</label>
          <select id="speed">${opts.speeds.map((s) => `<option value="${s}" ${s === (prefs.speed || "normal") ? "selected" : ""}>${t(s)}</option>`).join("")}</select></div>
        <div class="field"><label for="preset">${t("preset")}</label>
          <select id="preset">${[...Object.keys(opts.presets), "custom"].map((p) => `<option value="${p}" ${p === preset ? "selected" : ""}>${t("preset_" + p)}</option>`).join("")}</select></div>
        <div class="field"><label for="opt-target">${t("target")}</label>${ruleSelect("opt", rules, "target", ch.target, ch.target.map((v) => t("points_" + v)))}</div>
      </div>
      <button type="submit" class="button primary play-now">${t("play_now")}</button>
      ${rulesGrid("opt", rules, ch)}
      <div class="row">
        <div class="field"><label for="name">${t("your_name")}</label><input id="name" maxlength="24" value="${esc(prefs.name || "")}" placeholder="${t("you")}" autocomplete="nickname"></div>
        <div class="field check"><input type="checkbox" id="four-colour" ${prefs.fourColour ? "checked" : ""}><label for="four-colour">${t("four_colour")}</label></div>
      </div>
      <p class="error" id="home-error" role="alert"></p>
    </form>
  </section>`;
  const form = document.getElementById("home-form");
  const readRules = () => readRulesForm("opt");
  const sameRules = (a, b) => OPTION_KEYS.every((k) => String(a[k]) === String(b[k]));
  document.getElementById("preset").addEventListener("change", (e) => {
    const p = e.target.value;
    if (p === "custom") return;
    showRulesForm("opt", fullRules(opts.presets[p], opts.defaults));
  });
  form.querySelectorAll("[data-rule]").forEach((el) =>
    el.addEventListener("change", () => {
      const r = readRules();
      const match = Object.keys(opts.presets).find((p) => sameRules(fullRules(opts.presets[p], opts.defaults), r));
      document.getElementById("preset").value = match || "custom";
    }),
  );
  document.getElementById("four-colour").addEventListener("change", (e) => {
    save(PREFS_KEY, { ...load(PREFS_KEY, {}), fourColour: e.target.checked });
    applyDeckColours();
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const rules = readRules();
    const body = {
      rules,
      level: document.getElementById("level").value,
      speed: document.getElementById("speed").value,
      name: document.getElementById("name").value.trim() || t("you"),
      player: playerId(),
    };
    save(PREFS_KEY, {
      ...load(PREFS_KEY, {}),
      level: body.level,
      speed: body.speed,
      preset: document.getElementById("preset").value,
      rules,
      name: document.getElementById("name").value.trim(),
    });
    const button = form.querySelector(".play-now");
    button.disabled = true;
    try {
      const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const data = await r.json();
      if (!r.ok) throw new Error(refusalText(data.code, data.reason || r.statusText));
      save(CURRENT_KEY, { game: data.game, token: data.token, over: false });
      game = null;
      location.hash = "#/play";
    } catch (err) {
      document.getElementById("home-error").textContent = t("error", { reason: err.message });
      button.disabled = false;
    }
  });
}

// ---------------------------------------------------------------- the table: connection

let game = null;

function closeGame() {
  if (game) {
    game.closing = true;
    if (game.ws) game.ws.close();
    clearTimeout(game.flashTimer);
    clearTimeout(game.retry);
  }
  game = null;
}

function showTable() {
  const cur = load(CURRENT_KEY, null);
  if (!cur) {
    main().innerHTML = `<section class="empty"><p>${t("no_game")}</p><p><a class="button primary" href="#/">${t("play_now")}</a></p></section>`;
    return;
  }
  if (!game || game.token !== cur.token) {
    closeGame();
    game = {
      token: cur.token, id: cur.game, ws: null, state: null, pending: null, selected: [], flash: null,
      training: !!load(PREFS_KEY, {}).training, advice: null, adviceKey: null, reviews: {}, banner: null,
      status: t("connecting"), attempts: 0, nextId: 1,
    };
    connect();
  }
  render();
}

// A table with others (#/t/CODE): the same page and socket, its hello naming the table.
async function renderFriendsPage() {
  const opts = await getOptions();
  const ch = opts.choices;
  const r0 = fullRules(opts.presets.standard, opts.defaults);
  const optionsForm = `<div class="row">
    <div class="field"><label for="mp-preset">${t("preset")}</label><select id="mp-preset">${Object.keys(opts.presets)
      .map((p) => `<option value="${p}">${t("preset_" + p)}</option>`)
      .join("")}</select></div>
    <div class="field"><label for="mpo-target">${t("target")}</label>${ruleSelect("mpo", r0, "target", ch.target, ch.target.map((v) => t("points_" + v)))}</div></div>
    ${rulesGrid("mpo", r0, ch)}`;
  const readRules = () => readRulesForm("mpo");
  await MP.renderFriends(main(), { playerName: () => load(PREFS_KEY, {}).name || "", readRules, optionsForm });
  document.getElementById("mp-preset").addEventListener("change", (e) => {
    showRulesForm("mpo", fullRules(opts.presets[e.target.value], opts.defaults));
  });
}

function showMultiTable(code) {
  if (!code) {
    main().innerHTML = `<section class="empty"><p>${t("mp_bad_code")}</p></section>`;
    return;
  }
  if (!game || game.code !== code) {
    closeGame();
    game = {
      mode: "table", code, token: MP.tokenFor(code), id: null, ws: null, state: null, pending: null, selected: [],
      flash: null, training: false, advice: null, adviceKey: null, reviews: {}, banner: null,
      status: t("connecting"), attempts: 0, nextId: 1, table: null, you: null, chats: [], quick: [],
      mutes: MP.savedMutes(code), nameOf: (s) => (game.state ? nameOf(s) : MP.seatLabel(game, s)),
      playerName: () => load(PREFS_KEY, {}).name || "",
    };
    fetch("/api/multiplayer").then((r) => r.json()).then((d) => {
      if (game && game.code === code) {
        game.quick = d.quick_messages;
        render();
      }
    });
    connect();
  }
  render();
}

function onTableMessage(msg) {
  const g = game;
  if (msg.type === "table") {
    g.table = msg.table;
    g.you = msg.you;
    if (g.state && msg.table.status === "waiting") g.state = null; // back to the waiting room
  } else if (msg.type === "seated") {
    MP.saveToken(msg.code, msg.token);
    g.token = msg.token;
    g.you = msg.seat;
  } else if (msg.type === "notice") {
    const text = MP.noticeText(g, msg);
    g.notices = [...(g.notices || []).slice(-4), text];
    announce(text);
  } else if (msg.type === "chat") {
    g.chats.push(msg);
    announce(`${g.nameOf(msg.seat)}: ${t("qm_" + msg.message)}`);
  }
  render();
}

function connect() {
  const g = game;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws`);
  g.ws = ws;
  ws.onopen = () => {
    g.attempts = 0;
    if (g.mode === "table") {
      ws.send(JSON.stringify({ v: PROTOCOL, type: "hello", table: g.code, patches: true, ...(g.token ? { token: g.token } : {}) }));
      for (const seat of g.mutes) ws.send(JSON.stringify({ v: PROTOCOL, type: "mute", seat }));
    } else ws.send(JSON.stringify({ v: PROTOCOL, type: "hello", token: g.token, patches: true }));
  };
  ws.onmessage = (e) => {
    if (game !== g) return;
    let msg = JSON.parse(e.data);
    if (msg.type === "state" && msg.base !== undefined) {
      msg = patched(g.state, msg);
      if (!msg) {
        ws.close(); // out of step (never expected): reconnecting brings the whole state
        return;
      }
    }
    if (msg.type === "state") onState(msg);
    else if (msg.type === "error") onError(msg);
    else if (msg.type === "advice") onAdvice(msg);
    else if (msg.type === "review") onReview(msg);
    else if (g.mode === "table") onTableMessage(msg);
  };
  ws.onclose = () => {
    if (game !== g || g.closing) return;
    g.status = t("reconnecting");
    g.pending = null;
    render();
    g.attempts += 1;
    g.retry = setTimeout(connect, Math.min(5000, 300 * 2 ** g.attempts));
  };
}

function send(msg) {
  if (!game || !game.ws || game.ws.readyState !== WebSocket.OPEN) return null;
  const id = game.nextId++;
  game.ws.send(JSON.stringify({ v: PROTOCOL, ...msg, id }));
  return id;
}

function onError(msg) {
  if (game.mode === "table" && msg.code === "bad_token") {
    // The seat was given up or the token is for another table: come back as a visitor.
    MP.saveToken(game.code, null);
    game.token = null;
    game.ws.send(JSON.stringify({ v: PROTOCOL, type: "hello", table: game.code, patches: true }));
    return;
  }
  if (msg.code === "bad_token") {
    // A solo game whose token leads nowhere any more: start again from the home page.
    localStorage.removeItem(CURRENT_KEY);
    closeGame();
    location.hash = "#/";
    return;
  }
  if (game.pending !== null && msg.ref === game.pending) game.pending = null;
  game.status = t("error", { reason: refusalText(msg.code, msg.reason) });
  announce(game.status);
  render();
}

// ---------------------------------------------------------------- the table: state

function me() {
  // A spectator has no seat (null): -1 matches no seat, so nothing is ever "yours".
  return game.state.seat ?? -1;
}
function nameOf(seat) {
  const s = game.state.seats[seat];
  if (seat === me()) return s.name === "You" || s.name === "Vous" ? t("seat_you") : seatName(s.name);
  return seatName(s.name);
}

function onState(msg) {
  const prev = game.state;
  game.state = msg;
  game.status = "";
  if (msg.ack !== undefined && msg.ack === game.pending) game.pending = null;
  if (!prev || prev.view?.deal !== msg.view?.deal || prev.view?.phase !== msg.view?.phase) game.selected = [];
  const view = msg.view;
  // At "fast" speed one update carries several events (a card and the replies).
  const events = msg.events && msg.events.length ? msg.events : msg.event ? [msg.event] : [];
  let closed = null;
  for (const ev of events) {
    if (ev.type === "play") {
      const who = ev.seat === me() ? null : nameOf(ev.seat);
      announce(who ? t("plays", { name: who, card: cardName(ev.card) }) : t("you_play", { card: cardName(ev.card) }));
      if (ev.trick_winner !== undefined) {
        closed = ev;
        announce(ev.trick_winner === me() ? t("you_take_trick") : t("takes_trick", { name: nameOf(ev.trick_winner) }));
      } else {
        closed = null;
      }
      if (ev.deal_over) {
        const res = msg.results[msg.results.length - 1];
        game.banner = { deal: res ? msg.results.length - 1 : view.deal, result: res };
        announce(t("deal_over", { n: msg.results.length }));
        if (res && res.moon !== null && res.moon !== undefined) announce(t("shot_moon", { name: nameOf(res.moon) }));
        if (game.training) requestReview(msg.results.length - 1);
      }
    }
    if (ev.type === "pass" && ev.complete && view.received && view.received.length) {
      announce(t("received", { cards: view.received.map((c) => cardName(c)).join(", "), name: nameOf((me() - offsetOf(view) + n()) % n()) }));
    }
    if (ev.type === "deal") announce(t("deal_n", { n: view.deal + 1 }));
  }
  if (closed && view.trick.length === 0) {
    // Show the trick just taken, with its winner, for a moment.
    const trick = view.tricks[view.tricks.length - 1];
    game.flash = trick ? { trick, winner: closed.trick_winner } : null;
    clearTimeout(game.flashTimer);
    game.flashTimer = setTimeout(() => {
      if (game) {
        game.flash = null;
        render();
      }
    }, msg.speed === "fast" ? 900 : 1600);
  } else if (events.some((e) => e.type === "play")) {
    game.flash = null;
  }
  if (view && view.phase === "play" && view.tricks.length >= 1 && game.banner && game.banner.deal < view.deal) {
    game.banner = null;
  }
  if (msg.over) {
    const cur = load(CURRENT_KEY, null);
    if (cur && cur.token === game.token && !cur.over) save(CURRENT_KEY, { ...cur, over: true });
  }
  if (isMyTurn()) {
    if (!prev || !wasMyTurn(prev)) announce(t("your_turn"));
    if (game.training) requestAdvice();
  }
  render();
}

function n() {
  return game.state.seats.length;
}
function offsetOf(view) {
  return { left: 1, right: n() - 1, across: 2, none: 0 }[view.pass_direction] ?? 0;
}
function isMyTurn(state = game.state) {
  return !!state && !state.over && state.view && state.view.to_act === state.seat && state.view.phase !== "done";
}
function wasMyTurn(state) {
  return isMyTurn(state);
}

function decisionKey() {
  const v = game.state.view;
  return `${v.deal}:${v.phase}:${v.tricks.length}:${v.trick.length}`;
}
function requestAdvice() {
  const key = decisionKey();
  if (game.adviceKey === key) return;
  game.adviceKey = key;
  game.advice = null;
  send({ type: "advice" });
}
function onAdvice(msg) {
  game.advice = msg;
  render();
}
function requestReview(deal) {
  if (game.reviews[deal]) return;
  game.reviews[deal] = { pending: true };
  send({ type: "review", deal });
}
function onReview(msg) {
  game.reviews[msg.deal] = msg;
  render();
}

// ---------------------------------------------------------------- the table: actions

function whyNot(card) {
  const s = game.state;
  const v = s.view;
  if (!v || s.over || v.phase === "done") return t("why_done");
  if (v.phase === "pass") {
    if (v.to_act !== me()) return t("why_wait_pass");
    return null;
  }
  if (v.to_act !== me()) return t("why_not_your_turn");
  if (game.pending !== null) return t("why_not_your_turn");
  if (v.legal.includes(card)) return null;
  if (v.trick.length) {
    const led = v.trick[0][1];
    if (v.hand.some((c) => c[1] === led)) return t("why_follow", { suit: suitName(led) });
    return t("why_first_points");
  }
  if (v.legal.length === 1 && v.tricks.length === 0 && v.legal[0][1] === "C" && s.rules.first_lead !== "any") {
    return t("why_first_lead", { card: cardName(v.legal[0]) });
  }
  if (v.tricks.length === 0 && s.rules.no_points_first_trick && (card[1] === "H" || card === "QS")) return t("why_first_points");
  return t("why_hearts");
}

function onCard(card) {
  const s = game.state;
  if (!s || !s.view) return;
  const why = whyNot(card);
  if (why) {
    announce(why);
    return;
  }
  const v = s.view;
  const count = s.rules.pass_count ?? 3;
  if (v.phase === "pass") {
    const i = game.selected.indexOf(card);
    if (i >= 0) game.selected.splice(i, 1);
    else if (game.selected.length >= count) {
      announce(t("why_three", { n: count }));
      return;
    } else game.selected.push(card);
    render();
    return;
  }
  game.pending = send({ type: "play", card });
  render();
}

function onPass() {
  const s = game.state;
  const count = s.rules.pass_count ?? 3;
  if (game.selected.length !== count || game.pending !== null) return;
  game.pending = send({ type: "pass", cards: [...game.selected] });
  render();
}

// ---------------------------------------------------------------- the table: drawing

const POSITIONS = { 3: ["bottom", "left", "right"], 4: ["bottom", "left", "top", "right"], 5: ["bottom", "left", "top-left", "top-right", "right"] };
function posOf(seat) {
  return POSITIONS[n()][(seat - Math.max(0, me()) + n()) % n()];
}

function render() {
  if (!game) return;
  const root = main();
  const focused = document.activeElement?.dataset?.card || (document.activeElement?.id === "pass-btn" ? "#pass" : null);
  if (!game.state && game.mode === "table") {
    root.innerHTML = MP.waitingRoom(game);
    return;
  }
  if (!game.state) {
    root.innerHTML = `<section class="table-page"><p class="status">${esc(game.status)}</p></section>`;
    return;
  }
  const s = game.state;
  const v = s.view;
  root.innerHTML = `
  <section class="table-page ${game.training ? "training-on" : ""}" aria-label="${esc(t("deal_n", { n: (v?.deal ?? 0) + 1 }))}">
    ${topBar(s)}
    ${s.over ? gameOver(s) : ""}
    <div class="felt players-${n()}">
      ${s.seats.map((_, seat) => seatBox(seat)).join("")}
      ${centre()}
    </div>
    <p class="status" id="status">${esc(statusLine())}</p>
    ${handArea()}
    <div class="side">
      ${game.banner && !s.over ? dealBanner() : ""}
      ${game.mode === "table" ? MP.tablePanel(game) : ""}
      ${game.training ? trainingPanel() : ""}
      ${scoreSheet(s)}
      ${sealPanel(s)}
    </div>
  </section>`;
  if (focused) {
    const el = focused === "#pass" ? document.getElementById("pass-btn") : root.querySelector(`#hand [data-card="${focused}"]`);
    if (el) el.focus({ preventScroll: true });
    else root.querySelector("#hand button")?.focus({ preventScroll: true });
  }
}

function topBar(s) {
  const v = s.view;
  const dir = v && v.pass_direction !== "none" ? ` · ${t("pass_label")} → ${t("dir_" + v.pass_direction)}` : "";
  return `<div class="bar">
    <span class="deal-no">${t("deal_n", { n: (v?.deal ?? 0) + 1 })}${v?.phase === "pass" ? dir : ""}</span>
    <span class="hearts ${v?.hearts_broken ? "broken" : ""}">${v?.hearts_broken ? "♥ " + t("hearts_broken") : "♡ " + t("hearts_not_broken")}</span>
    ${v && v.kitty && v.kitty.length ? `<span class="kitty">${t("kitty")}: ${v.kitty.map(cardChip).join(" ")}</span>` : ""}
    ${game.mode === "table" ? "" : `<label class="switch"><input type="checkbox" role="switch" id="training" ${game.training ? "checked" : ""}> ${t("training")}</label>`}
    <details class="undo"><summary>${t("undo_q")}</summary><p>${t("undo_text")}</p></details>
  </div>`;
}

function seatBox(seat) {
  const s = game.state;
  const v = s.view;
  const pos = posOf(seat);
  const acting = v && v.to_act === seat && v.phase === "play";
  const voids = v ? v.voids[seat].map((x) => SUIT_SYMBOL["CDHS"[x]]).join(" ") : "";
  const passed = v && v.phase === "pass" && v.passed_seats.length ? (v.passed_seats[seat] ? " ✓" : " …") : "";
  return `<div class="seat pos-${pos} ${acting ? "acting" : ""} ${seat === me() ? "me" : ""}" aria-label="${esc(nameOf(seat))}">
    <div class="seat-name">${esc(nameOf(seat))}${passed}</div>
    ${seat === me() ? "" : `<div class="back" aria-hidden="true">${"<span></span>".repeat(Math.min(v ? v.hand_sizes[seat] : 0, 13))}</div>`}
    <div class="seat-info">${t("cards_left", { n: v ? v.hand_sizes[seat] : 0 })} · ${t("points_deal", { n: v ? v.taken_points[seat] : 0 })} · ${t("total", { n: s.totals[seat] })}</div>
    ${voids ? `<div class="seat-voids" title="${t("voids")}">${t("voids")}: ${voids}</div>` : ""}
  </div>`;
}

function centre() {
  const v = game.state.view;
  if (!v) return `<div class="centre"></div>`;
  let cards = [];
  let label = "";
  let winner = null;
  if (v.trick.length) {
    cards = v.trick.map((c, i) => ({ card: c, seat: (v.trick_leader + i) % n() }));
    label = v.trick_leader === me() ? t("you_lead") : t("leads", { name: nameOf(v.trick_leader) });
  } else if (game.flash) {
    const [leader, tc] = [game.flash.trick.leader, game.flash.trick.cards];
    cards = tc.map((c, i) => ({ card: c, seat: (leader + i) % n() }));
    winner = game.flash.winner;
    label = winner === me() ? t("you_take_trick") : t("takes_trick", { name: nameOf(winner) });
  } else if (v.phase === "play") {
    label = v.to_act === me() ? t("you_lead") : t("leads", { name: nameOf(v.to_act) });
  }
  return `<div class="centre" aria-label="${t("trick")}">
    <div class="trick">${cards.map((x) => `<div class="slot pos-${posOf(x.seat)} ${x.seat === winner ? "won" : ""}">${cardFace(x.card)}</div>`).join("")}</div>
    <div class="trick-label ${winner !== null ? "winner" : ""}">${esc(label)}</div>
  </div>`;
}

function statusLine() {
  const s = game.state;
  const v = s.view;
  if (game.status) return game.status;
  if (!v || s.over) return "";
  if (v.phase === "pass") {
    if (v.to_act === me()) {
      const count = s.rules.pass_count ?? 3;
      return `${t("pass_to", { n: count, dir: t("dir_" + v.pass_direction), name: nameOf(v.pass_to) })} ${t("pass_chosen", { k: game.selected.length, n: count })}`;
    }
    return t("waiting_pass");
  }
  if (v.phase === "play" && v.to_act === me()) return t("your_turn");
  if (v.phase === "play" && v.tricks.length === 0 && v.trick.length === 0 && v.pass_direction === "none" && !v.passed) return t("no_pass");
  return "";
}

function handArea() {
  const s = game.state;
  const v = s.view;
  if (!v) return "";
  const received = new Set(v.phase === "play" && v.received && !v.tricks.length ? v.received : []);
  const myPlays = v.tricks.some(() => false);
  void myPlays;
  const hand = sortHand(v.phase === "pass" && v.passed ? v.hand : v.hand);
  const passing = v.phase === "pass" && v.to_act === me();
  const count = s.rules.pass_count ?? 3;
  const buttons = hand
    .map((c) => {
      const why = whyNot(c);
      const selected = game.selected.includes(c);
      const id = `why-${c}`;
      return `<button type="button" class="card suit-${c[1]} ${received.has(c) ? "received" : ""} ${selected ? "selected" : ""}"
        data-card="${c}" aria-label="${esc(cardName(c))}" aria-disabled="${why ? "true" : "false"}"
        ${passing ? `aria-pressed="${selected ? "true" : "false"}"` : ""}
        ${why ? `aria-describedby="${id}" title="${esc(why)}" data-why="${esc(why)}"` : received.has(c) ? `title="${t("received_badge")}"` : ""}>
        <span class="rank" aria-hidden="true">${rankLabel(c)}</span><span class="pip" aria-hidden="true">${SUIT_SYMBOL[c[1]]}</span>
        ${received.has(c) ? `<span class="badge" aria-hidden="true">${t("received_badge")}</span>` : ""}
        ${why ? `<span class="sr-only" id="${id}">${esc(why)}</span>` : ""}
      </button>`;
    })
    .join("");
  const passBtn = passing
    ? `<button type="button" id="pass-btn" class="button primary pass-btn" ${game.selected.length === count && game.pending === null ? "" : "disabled"}>${t("pass_label")}</button>`
    : "";
  return `<div class="hand-area">
    <div id="hand" class="hand" role="group" aria-label="${t("your_hand")}">${buttons}</div>
    ${passBtn}
  </div>`;
}

function dealBanner() {
  const b = game.banner;
  const moon = b.result.moon;
  return `<div class="deal-banner" role="status">
    <strong>${t("deal_over", { n: b.deal + 1 })}</strong>
    ${moon !== null && moon !== undefined ? `<span class="moon">☾ ${esc(t("shot_moon", { name: nameOf(moon) }))}</span>` : ""}
    <span>${b.result.points.map((p, i) => `${esc(nameOf(i))} ${p > 0 ? "+" : ""}${p}`).join(" · ")}</span>
  </div>`;
}

function scoreSheet(s) {
  const rows = s.results
    .map(
      (r, k) => `<tr><th scope="row">${k + 1}</th>${r.points
        .map((p, i) => `<td>${p}${r.moon === i ? ` <span class="moon" title="${t("moon_mark")}">☾<span class="sr-only"> ${t("moon_mark")}</span></span>` : ""}</td>`)
        .join("")}</tr>`,
    )
    .join("");
  return `<section class="score-sheet" aria-label="${t("score_sheet")}">
    <h2>${t("score_sheet")}</h2>
    <table>
      <thead><tr><th scope="col">${t("deal_col")}</th>${s.seats.map((_, i) => `<th scope="col">${esc(nameOf(i))}</th>`).join("")}</tr></thead>
      <tbody>${rows}</tbody>
      <tfoot><tr><th scope="row">Σ</th>${s.totals.map((x) => `<td>${x}</td>`).join("")}</tr></tfoot>
    </table>
  </section>`;
}

// The commitment announced before the first deal; at the end, the secret and
// the browser's own check of every deal against it (docs/fairness.md).
function sealPanel(s) {
  const f = s.fairness;
  if (!f) return "";
  let end = "";
  if (f.secret) {
    if (game.sealGame !== s.game) {
      game.sealGame = s.game;
      game.seal = "";
      const gameId = s.game;
      fetch(`/api/games/${encodeURIComponent(gameId)}/record`)
        .then((r) => (r.ok ? r.json() : null))
        .then((record) => (record ? sealVerdict(record) : ""))
        .then((html) => {
          if (!game || game.state?.game !== gameId) return;
          game.seal = html;
          const el = document.getElementById("seal-verdict");
          if (el) el.innerHTML = html;
        })
        .catch(() => {});
    }
    end = `<p>${esc(t("seal_revealed", { s: f.secret.slice(0, 16) }))} <span id="seal-verdict">${game.seal || ""}</span></p>`;
  }
  return `<details class="seal-panel"><summary>${esc(t("seal_label", { c: f.commitment.slice(0, 8) }))}</summary>
    <p>${esc(t("seal_help"))}</p><p class="mono">${esc(f.commitment)}</p>${end}</details>`;
}

function gameOver(s) {
  const w = s.winner;
  const text = w === me() ? t("you_win", { n: s.totals[w] }) : t("winner_is", { name: nameOf(w), n: s.totals[w] });
  const names = s.seats.map((_, i) => nameOf(i));
  return `<section class="game-over" aria-labelledby="over-h">
    <h2 id="over-h">${t("game_over")}</h2>
    <p class="winner-line">${esc(text)}</p>
    ${totalsChart(s.results.map((r) => r.points), names)}
    <p class="actions">${game.mode === "table" ? MP.rematchButton(game) : `<a class="button primary" href="#/" id="new-game">${t("new_game")}</a>`}
    <a class="button" href="/api/games/${esc(s.game)}/record" download>${t("download")}</a></p>
  </section>`;
}

function trainingPanel() {
  const s = game.state;
  const v = s.view;
  if (!v) return "";
  let advice = "";
  if (isMyTurn()) {
    if (!game.advice || game.adviceKey !== decisionKey()) advice = `<p>${t("advice_wait")}</p>`;
    else {
      const opts = [...game.advice.options].sort((a, b) => (a.score ?? 0) - (b.score ?? 0));
      advice = `<ul class="advice">${opts
        .map(
          (o) => `<li class="${o.best ? "best" : ""} ${o.mistake ? "mistake" : ""}">${o.cards.map(cardChip).join(" ")}
          ${o.score !== null && o.score !== undefined ? `<span class="score">${o.score.toFixed(1)}</span>` : ""}
          <span class="reason">${esc(reasonText(o.reason))}</span>
          ${o.best ? `<span class="tag">${t("best")}</span>` : ""}${o.mistake ? `<span class="tag bad">${t("mistake")}</span>` : ""}</li>`,
        )
        .join("")}</ul>`;
    }
  }
  const played = [];
  for (const tr of v.tricks) played.push(...tr.cards);
  played.push(...v.trick);
  const bySuit = ["C", "D", "H", "S"]
    .map((su) => `<li><span class="suit-${su}">${SUIT_SYMBOL[su]}</span> ${played.filter((c) => c[1] === su).sort(cardOrder).map(cardChip).join(" ") || "—"}</li>`)
    .join("");
  const voids = s.seats
    .map((_, i) => `<li>${esc(nameOf(i))}: ${v.voids[i].length ? v.voids[i].map((x) => `<span class="suit-${"CDHS"[x]}">${SUIT_SYMBOL["CDHS"[x]]}</span> ${suitName("CDHS"[x])}`).join(", ") : t("none")}</li>`)
    .join("");
  const reviews = Object.entries(game.reviews)
    .sort((a, b) => b[0] - a[0])
    .slice(0, 1)
    .map(([deal, r]) => {
      if (r.pending) return `<p>${t("review_wait")}</p>`;
      if (!r.items.length) return `<p>${t("deal_n", { n: +deal + 1 })}: ${t("review_none")}</p>`;
      return `<p>${t("deal_n", { n: +deal + 1 })}</p><ul class="review">${r.items
        .map(
          (it) => `<li>${t("review_item", { t: it.trick + 1, mine: cardChip(it.played), theirs: cardChip(it.expert) })}${
            it.cost !== null && it.cost !== undefined ? ` — ${t("review_cost", { c: it.cost.toFixed(1) })}` : ""
          }</li>`,
        )
        .join("")}</ul>`;
    })
    .join("");
  return `<section class="training" aria-label="${t("training")}">
    ${isMyTurn() ? `<h2>${t("advice")}</h2>${advice}` : ""}
    <h2>${t("played_by_suit")}</h2><ul class="by-suit">${bySuit}</ul>
    <h2>${t("voids")}</h2><ul class="voids">${voids}</ul>
    ${reviews ? `<h2>${t("review")}</h2>${reviews}` : ""}
  </section>`;
}

// ---------------------------------------------------------------- events

document.addEventListener("click", (e) => {
  const card = e.target.closest("#hand [data-card]");
  if (card) return onCard(card.dataset.card);
  if (e.target.closest("#pass-btn")) return onPass();
  if (game && game.mode === "table") {
    if (e.target.closest("#sit-btn")) return send({ type: "sit", name: document.getElementById("sit-name")?.value.trim() || t("mp_player") });
    if (e.target.closest("#start-btn")) return send({ type: "start" });
    if (e.target.closest("#rematch-btn")) return send({ type: "rematch", game: game.state?.game });
    if (e.target.closest("#leave-btn")) {
      send({ type: "leave" });
      MP.saveToken(game.code, null);
      game.token = null;
      return;
    }
    const quick = e.target.closest("[data-quick]");
    if (quick) return send({ type: "chat", message: quick.dataset.quick });
  }
  if (e.target.closest("#new-game")) {
    localStorage.removeItem(CURRENT_KEY);
    closeGame();
  }
});
document.addEventListener("change", (e) => {
  if (e.target.id === "training" && game) {
    game.training = e.target.checked;
    save(PREFS_KEY, { ...load(PREFS_KEY, {}), training: game.training });
    if (game.training && game.state && isMyTurn()) {
      game.adviceKey = null;
      requestAdvice();
    }
    if (game.training && game.state) {
      const last = game.state.results.length - 1;
      if (last >= 0) requestReview(last);
    }
    render();
    document.getElementById("training")?.focus();
  }
  if (e.target.dataset?.mute !== undefined && game && game.mode === "table") {
    const seat = parseInt(e.target.dataset.mute, 10);
    MP.toggleMute(game, seat, e.target.checked);
    send({ type: e.target.checked ? "mute" : "unmute", seat });
  }
  if (e.target.id === "lang") {
    setLang(e.target.value);
    renderChrome();
    if (game) render();
    else route();
  }
});
document.addEventListener("keydown", (e) => {
  const btn = e.target.closest?.("#hand [data-card]");
  if (!btn) return;
  const all = [...document.querySelectorAll("#hand [data-card]")];
  const i = all.indexOf(btn);
  let j = null;
  if (e.key === "ArrowRight" || e.key === "ArrowDown") j = Math.min(all.length - 1, i + 1);
  if (e.key === "ArrowLeft" || e.key === "ArrowUp") j = Math.max(0, i - 1);
  if (e.key === "Home") j = 0;
  if (e.key === "End") j = all.length - 1;
  if (j !== null) {
    e.preventDefault();
    all[j].focus();
  }
});

setLang(detectLang(), false);
applyDeckColours();
renderChrome();
window.addEventListener("hashchange", route);
setInterval(MP.updateTimer, 500);
route();
