// The page's router: the address after "#" says which page to draw; the
// header, the language and the table in progress (one at a time) are kept here.
// Only the home page is imported with the router: every other page, the
// table included, is imported when it opens (a phone's first visit waits for
// no module it does not draw: benchmarks/page_load.py).
import { currentLang, detectLang, loadLang, setLang, t } from "./i18n.js";
import { applyDeckColours, currentGame, renderHome } from "./home.js";
import { playerId } from "./prefs.js";

const main = () => document.getElementById("main");
let table = null; // the table drawn now: {key, ctrl}
let visits = 0; // routes taken: a page whose modules arrive after the next route draws nothing
// Pages with something open (a socket) to close when another page is shown, once loaded.
let friends = null;
let quick = null;

function closeTable() {
  if (table && table.ctrl) table.ctrl.close();
  table = null;
}

// One table at a time: the solo game at #/play, a table with others at #/t/CODE,
// the daily deal at #/daily/play. `visit`: the route that asked for it.
function showTable(visit, key, open) {
  if (visit !== visits) return;
  if (table && table.key === key && table.ctrl && !table.ctrl.closed) {
    table.ctrl.render();
    return;
  }
  closeTable();
  table = { key, ctrl: open(main()) };
}

// Each visit of a page draws into a new box: a visit still loading when the
// next begins (a language changed, a quick click) writes into a box no longer shown.
function box() {
  const el = document.createElement("div");
  main().replaceChildren(el);
  return el;
}

// A page drawn into a new box by `draw(module, box, arg)` once `load()` has imported its module.
const lazyPage = (load, draw) => async (arg) => {
  const el = box();
  return draw(await load(), el, arg);
};
const pages = () => import("./pages.js");
const accounts = () => import("./accounts.js");

const PAGES = {
  play: async (_, visit) => {
    const { soloTable } = await import("./solo.js");
    showTable(visit, `solo:${currentGame()?.token}`, soloTable);
  },
  t: async (code, visit) => {
    const { normalizeCode, tableView } = await import("./tables.js");
    const c = normalizeCode(code);
    showTable(visit, `table:${c}`, (root) => tableView(root, c));
  },
  history: lazyPage(pages, (m, el) => m.renderHistory(el, { playerId })),
  replay: lazyPage(pages, (m, el, id) => m.renderReplay(el, id)),
  rules: lazyPage(pages, (m, el) => m.renderRules(el)),
  guide: lazyPage(pages, (m, el) => m.renderGuide(el)),
  puzzles: lazyPage(() => import("./puzzles.js"), (m, el) => m.renderPuzzles(el)),
  analysis: lazyPage(() => import("./analysis.js"), (m, el, id) => m.renderAnalysis(el, id)),
  stats: lazyPage(() => import("./stats.js"), (m, el, name) => m.renderStats(el, decodeURIComponent(name || ""))),
  account: lazyPage(accounts, (m, el) => m.renderAccount(el)),
  leaderboard: lazyPage(accounts, (m, el) => m.renderLeaderboard(el)),
  player: lazyPage(accounts, (m, el, name) => m.renderProfile(el, decodeURIComponent(name || ""))),
  // Their streams close themselves when the address changes (follow.js).
  tournament: lazyPage(() => import("./tourney.js"), (m, el, code) => m.renderTourney(el, code)),
  challenges: lazyPage(() => import("./challenges.js"), (m, el) => m.renderChallenges(el)),
  // The lobby and quick match keep a socket open: the router closes it when another page is shown.
  friends: async (_, visit) => {
    const el = box();
    friends = await import("./friends.js");
    if (visit === visits) return friends.renderFriends(el);
  },
  quick: async (_, visit) => {
    const el = box();
    quick = await import("./quick.js");
    if (visit === visits) return quick.renderQuick(el);
  },
  daily: async (arg, visit) => {
    const el = arg === "play" ? null : box();
    const daily = await import("./daily.js");
    return arg === "play" ? showTable(visit, daily.dailyKey(), daily.dailyTable) : daily.renderDaily(el, arg);
  },
};

function route() {
  const hash = location.hash || "";
  if (hash === "" || hash === "#") {
    const cur = currentGame();
    if (cur && !cur.over) {
      location.replace("#/play");
      return;
    }
  }
  const [page, arg] = hash.replace(/^#\/?/, "").split("/");
  const visit = ++visits;
  if (page !== "play" && page !== "t" && !(page === "daily" && arg === "play")) closeTable();
  if (page !== "friends") friends?.closeLobby();
  if (page !== "quick") quick?.closeQuick();
  markNav();
  openMenu(false);
  return (PAGES[page] || (() => renderHome(box())))(arg, visit);
}

function markNav() {
  const page = (location.hash || "#/").replace(/^#\/?/, "").split("/")[0];
  document.querySelectorAll("header nav a").forEach((a) => {
    if (a.getAttribute("href") === `#/${page}`) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  });
}

// On a phone the links fold behind a "Menu" button.
function openMenu(open) {
  const button = document.querySelector("header .menu");
  button.setAttribute("aria-expanded", String(open));
  document.querySelector("header.top").classList.toggle("menu-open", open);
  openMore(false);
}

// The header's links; those a player opens less often under "More", so that on a desk they hold on one line.
const NAV = [
  ["#/", "nav_play"], ["#/daily", "nav_daily"], ["#/tournament", "nav_tourney"], ["#/friends", "nav_friends"], ["#/history", "nav_history"],
  ["#/puzzles", "nav_puzzles"], ["#/rules", "nav_rules"], ["#/leaderboard", "nav_leaderboard"], ["#/account", "nav_account"],
];
const NAV_MORE = [["#/challenges", "nav_challenges"], ["#/guide", "nav_guide"], ["/scorer/", "nav_scorer"]];

function openMore(open) {
  const more = document.querySelector("header .nav-more");
  if (!more) return;
  more.classList.toggle("open", open);
  more.querySelector("button").setAttribute("aria-expanded", String(open));
}

function renderChrome() {
  document.title = t("title");
  const nav = document.querySelector("header nav");
  nav.setAttribute("aria-label", t("nav_label"));
  const links = (list) => list.map(([href, key]) => `<a href="${href}">${t(key)}</a>`).join("");
  nav.innerHTML = `${links(NAV)}<div class="nav-more"><button type="button" class="nav-more-btn" aria-expanded="false" aria-controls="nav-more">${t("nav_more")}</button>
    <div class="nav-more-links" id="nav-more">${links(NAV_MORE)}</div></div>`;
  document.querySelector("header .menu").textContent = t("menu");
  markNav();
  document.getElementById("lang-label").textContent = t("language");
  document.getElementById("lang").value = currentLang();
  document.querySelector(".skip").textContent = t("skip");
}

// The table fills the screen under the header: it needs the header's height.
function measureHeader() {
  const h = document.querySelector("header.top")?.offsetHeight || 48;
  document.documentElement.style.setProperty("--header-h", `${h}px`);
}

document.querySelector("header .menu").addEventListener("click", (e) => openMenu(e.currentTarget.getAttribute("aria-expanded") !== "true"));
// "More" opens on its button; a click elsewhere, a link followed or Escape closes it.
document.addEventListener("click", (e) => {
  const button = e.target.closest?.(".nav-more-btn");
  if (button) openMore(button.getAttribute("aria-expanded") !== "true");
  else if (!e.target.closest?.(".nav-more-links")) openMore(false);
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && document.querySelector("header .nav-more.open")) {
    openMore(false);
    document.querySelector("header .nav-more-btn")?.focus();
  }
});
document.getElementById("lang").addEventListener("change", async (e) => {
  await loadLang(e.target.value);
  setLang(e.target.value);
  renderChrome();
  if (table && table.ctrl && !table.ctrl.closed) table.ctrl.render();
  else route();
});

await loadLang(detectLang());
setLang(detectLang(), false);
applyDeckColours();
renderChrome();
measureHeader();
new ResizeObserver(measureHeader).observe(document.querySelector("header.top"));
window.addEventListener("hashchange", route);
// Once the first page is drawn, the solo table's modules load while the
// person reads it: "Play now" then opens the table without a wait for them,
// and the first page never waited for them either (benchmarks/page_load.py).
// On a phone's network each level of imports costs a round trip: the table,
// its view and its socket are asked for at once, beside solo.js that imports
// them, so that four levels take two (a module left out here only loads later).
Promise.resolve(route()).finally(() => {
  const idle = globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 0));
  idle(() => Promise.all([import("./solo.js"), import("./table.js"), import("./table_view.js"), import("./net.js")]).catch(() => {}));
});
