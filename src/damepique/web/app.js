// The page's router: the address after "#" says which page to draw; the
// header, the language and the table in progress (one at a time) are kept here.
import { currentLang, detectLang, loadLang, setLang, t } from "./i18n.js";
import { applyDeckColours, currentGame, renderHome, soloTable } from "./solo.js";
import { closeLobby, normalizeCode, renderFriends, tableView } from "./tables.js";
import { renderAccount, renderLeaderboard, renderProfile } from "./accounts.js";
import { renderGuide, renderHistory, renderReplay, renderRules } from "./pages.js";
import { playerId } from "./prefs.js";
import { closeQuick, renderQuick } from "./quick.js";
import { renderStats } from "./stats.js";

const main = () => document.getElementById("main");
let table = null; // the table drawn now: {key, ctrl}

function closeTable() {
  if (table && table.ctrl) table.ctrl.close();
  table = null;
}

// One table at a time: the solo game at #/play, a table with others at #/t/CODE.
function showTable(key, open) {
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

const PAGES = {
  play: () => showTable(`solo:${currentGame()?.token}`, soloTable),
  t: (code) => showTable(`table:${normalizeCode(code)}`, (root) => tableView(root, normalizeCode(code))),
  history: () => renderHistory(box(), { playerId }),
  replay: (id) => renderReplay(box(), id),
  puzzles: () => {
    const el = box();
    return import("./puzzles.js").then((m) => m.renderPuzzles(el));
  },
  analysis: (id) => {
    const el = box();
    return import("./analysis.js").then((m) => m.renderAnalysis(el, id));
  },
  rules: () => renderRules(box()),
  guide: () => renderGuide(box()),
  friends: () => renderFriends(box()),
  quick: () => renderQuick(box()),
  stats: (name) => renderStats(box(), decodeURIComponent(name || "")),
  account: () => renderAccount(box()),
  leaderboard: () => renderLeaderboard(box()),
  player: (name) => renderProfile(box(), decodeURIComponent(name || "")),
  tournament: async (code) => (await import("./tourney.js")).renderTourney(box(), code),
  daily: async (arg) => {
    const daily = await import("./daily.js"); // the daily deal's page: loaded when it opens
    return arg === "play" ? showTable(daily.dailyKey(), daily.dailyTable) : daily.renderDaily(box(), arg);
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
  if (page !== "play" && page !== "t" && !(page === "daily" && arg === "play")) closeTable();
  if (page !== "friends") closeLobby();
  if (page !== "quick") closeQuick();
  markNav();
  openMenu(false);
  return (PAGES[page] || (() => renderHome(box())))(arg);
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
}

function renderChrome() {
  document.title = t("title");
  const nav = document.querySelector("header nav");
  nav.setAttribute("aria-label", t("nav_label"));
  nav.innerHTML = [
    ["#/", "nav_play"], ["#/daily", "nav_daily"], ["#/tournament", "nav_tourney"], ["#/friends", "nav_friends"], ["#/history", "nav_history"], ["#/puzzles", "nav_puzzles"], ["#/rules", "nav_rules"],
    ["#/guide", "nav_guide"], ["/scorer/", "nav_scorer"], ["#/leaderboard", "nav_leaderboard"], ["#/account", "nav_account"],
  ].map(([href, key]) => `<a href="${href}">${t(key)}</a>`).join("");
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
route();
