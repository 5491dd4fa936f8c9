// The score keeper's page: a new sheet (no query), a sheet to keep (?id=...)
// or a shared, read-only sheet (?view=...). It speaks /api/sheets.

import { COLOURS, contentWidth, totalsChart } from "../chart.js";
import { currentLang, detectLang, has, LANG_NAMES, LANGS, loadLang, setLang as chooseLang, t } from "../i18n.js";
import { copyField } from "../dom.js";
import { openSocket } from "../net.js";
import { RULES_PAGE, dealPoints, looksLikeMoon, readingLabel, ruleLines, winnerWords } from "./rules.js";

const API = "/api/sheets";
const RECENT_KEY = "damepique.scorer.sheets";

const params = new URLSearchParams(location.search);
const state = {
  sheetId: params.get("id"),
  readId: params.get("view"),
  sheet: null,
  draft: [],
  editing: null, // the number of the deal being corrected
  jack: "", // with the J♦: who took it on a moon ("" = the shooter)
  error: null,
  ambiguous: null, // an entry that reads two ways: { readings, method, path }
  notice: null,
  live: false,
  busy: false,
  newPlayers: ["", "", "", ""],
  // The new sheet's choices, kept across re-renders (a refusal, a language switch).
  newRules: {
    target: "100", other: "", moon: "others", queen: "13", jack: false, black_maria: false, deck: "52", tie: false,
  },
};
await loadLang(detectLang());
chooseLang(detectLang(), false);
const app = document.getElementById("app");

// -- small helpers ------------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (v === true) node.setAttribute(k, "");
    else node.setAttribute(k, String(v));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The server's code and params in the page's words (strings: scm_CODE); its
// own sentences where the page has none for a code.
function words({ code, params, messages, reason }) {
  if (has("scm_" + code)) return t("scm_" + code, params || {});
  return (messages && (messages[currentLang()] || messages.en)) || reason || code;
}

// A refusal, in the one shape of every refusal over HTTP (docs/protocol.md):
// its code and params in the page's words.
function message(body) {
  if (!body || typeof body.code !== "string") return t("sc_network");
  const fields = body.params && body.params.fields;
  if (body.code === "bad_body" && Array.isArray(fields)) {
    const d = fields[0] || {};
    const where = (d.loc || []).filter((p) => p !== "body").join(" ");
    return t("sc_badInput", { detail: `${where}: ${d.msg}` });
  }
  return words(body);
}

async function call(method, path, body) {
  try {
    const response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json().catch(() => null);
    return { ok: response.ok, status: response.status, data };
  } catch {
    return { ok: false, status: 0, data: null };
  }
}

function passWords(direction) {
  return t(`sc_pass_${direction}`);
}

const PASS_ARROWS = { left: "←", right: "→", across: "↑", none: "·" };

function rulesSummary(sheet) {
  const r = sheet.rules;
  const parts = [t("sc_rulesSummary", { target: r.target })];
  const n = sheet.moon_points;
  parts.push(
    r.moon === "others"
      ? t("sc_summaryMoonOthers", { n })
      : r.moon === "self"
        ? t("sc_summaryMoonSelf", { n })
        : t("sc_summaryMoonOff"),
  );
  if (r.deck === 36) parts.push(t("sc_summaryDeck36"));
  if (r.jack_of_diamonds) parts.push(t("sc_summaryJack"));
  if (r.deck !== 36 && r.queen_points !== 13) parts.push(t("sc_summaryQueen", { n: r.queen_points }));
  if (r.black_maria) parts.push(t("sc_summaryBM"));
  if (r.tie === "share") parts.push(t("sc_summaryShare"));
  return parts.join(" · ");
}

// The variant's rules in a few lines, and a link to the whole rules page.
function rulesCard(rules, players, open) {
  return h("details", { class: "card rules-card", open, "data-testid": "rules" },
    h("summary", {}, h("h2", {}, t("sc_rulesTitle"))),
    h("ul", {}, ruleLines(rules, players, t).map((line) => h("li", {}, line))),
    h("p", {}, h("a", { href: RULES_PAGE }, `${t("sc_rulesAll")} →`)));
}

// The new sheet's rules as chosen in the form so far.
function chosenRules() {
  const r = state.newRules;
  const target = Number(r.target === "other" ? r.other : r.target);
  const deck = r.deck === "36" ? 36 : 52;
  return {
    target: Number.isSafeInteger(target) && target > 0 ? target : 100,
    moon: r.moon,
    jack_of_diamonds: r.jack,
    queen_points: deck === 36 ? undefined : Number(r.queen),
    black_maria: r.black_maria,
    deck,
    tie: r.tie ? "share" : "play_on",
  };
}

function recentSheets() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function remember(sheet) {
  const list = recentSheets().filter((s) => s.id !== sheet.id);
  list.unshift({ id: sheet.id, players: sheet.players, created_at: sheet.created_at });
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, 20)));
  } catch {
    // Nothing to do: the list is a convenience.
  }
}

// -- language -----------------------------------------------------------------------------

async function setLang(lang) {
  await loadLang(lang);
  chooseLang(lang);
  render();
}

function renderHeader() {
  document.title = `${t("sc_title")} · Dame de pique`;
  const header = document.getElementById("bar");
  header.replaceChildren(
    // One product, one look: the app's own brand, colours and size (web/style.css header.top).
    h("a", { class: "home brand", href: "/" }, h("span", { "aria-hidden": "true" }, "♠ "), "Dame de pique"),
    h("a", { class: "title", href: "/scorer/" }, t("sc_title")),
    // The app's language control too: a select whose options name each language in itself.
    h(
      "div",
      { class: "lang" },
      h("label", { for: "lang" }, t("language")),
      h(
        "select",
        { id: "lang", onchange: (e) => setLang(e.currentTarget.value) },
        LANGS.map((lang) => h("option", { value: lang, lang, selected: lang === currentLang() }, LANG_NAMES[lang])),
      ),
    ),
  );
}

// -- a new sheet ----------------------------------------------------------------------------

function renderNew() {
  const players = state.newPlayers;
  const rules = state.newRules;
  const choose = (e) => {
    keepChoices(e.currentTarget);
    // The deck changes which queen values and moon amounts there are: the form
    // drawn for the other deck is drawn again; else only the rules shown change.
    if (state.newRules.deck !== rules.deck) render();
    else showChosenRules();
  };
  const form = h("form", {
    class: "card new-sheet",
    novalidate: true,
    onsubmit: createSheet,
    onchange: choose,
    oninput: choose,
  });
  const list = h("ol", { class: "names" });
  players.forEach((name, i) => {
    const input = h("input", {
      id: `player-${i}`,
      name: `player-${i}`,
      value: name,
      maxlength: 30,
      autocomplete: "off",
      required: true,
      oninput: (e) => {
        players[i] = e.target.value;
      },
    });
    list.append(
      h(
        "li",
        {},
        h("label", { for: `player-${i}` }, t("sc_playerN", { n: i + 1 })),
        input,
        players.length > 3
          ? h(
              "button",
              {
                type: "button",
                class: "icon",
                "aria-label": t("sc_removePlayer", { name: name || t("sc_playerN", { n: i + 1 }) }),
                onclick: () => {
                  players.splice(i, 1);
                  render();
                },
              },
              "✕",
            )
          : null,
      ),
    );
  });
  form.append(
    h("h2", {}, t("sc_newSheet")),
    h("fieldset", {}, h("legend", {}, t("sc_players")), h("p", { class: "hint" }, t("sc_playersHint")), list,
      players.length < 6
        ? h("button", { type: "button", class: "secondary", onclick: () => { players.push(""); render(); } },
            `+ ${t("sc_addPlayer")}`)
        : null),
  );
  const target = h("div", { class: "field" },
    h("span", { class: "label", id: "target-label" }, t("sc_target")),
    h("div", { class: "choices", role: "radiogroup", "aria-labelledby": "target-label" },
      ...[100, 50].map((v) =>
        h("label", { class: "choice" },
          h("input", { type: "radio", name: "target", value: v, checked: String(v) === rules.target }), ` ${v}`)),
      h("label", { class: "choice" },
        h("input", { type: "radio", name: "target", value: "other", checked: rules.target === "other" }),
        ` ${t("sc_targetOther")} `,
        h("input", {
          type: "number", name: "target-other", class: "short", min: 1, max: 10000, step: 1, value: rules.other,
          "aria-label": `${t("sc_target")} (${t("sc_targetOther")})`,
          oninput: (e) => { e.target.form.querySelector('input[name="target"][value="other"]').checked = true; },
        })),
    ),
  );
  const moonPoints = dealPoints(chosenRules()).moon;
  const deck = h("div", { class: "field" },
    h("span", { class: "label", id: "deck-label" }, t("sc_deck")),
    h("div", { class: "choices", role: "radiogroup", "aria-labelledby": "deck-label" },
      [["52", t("sc_deck52")], ["36", t("sc_deck36")]].map(([v, text]) => h("label", { class: "choice" },
        h("input", { type: "radio", name: "deck", value: v, checked: v === rules.deck }), ` ${text}`))),
  );
  const moon = h("div", { class: "field" },
    h("span", { class: "label", id: "moon-label" }, t("sc_moonRule")),
    h("div", { class: "choices", role: "radiogroup", "aria-labelledby": "moon-label" },
      [["others", t("sc_moonOthers", { n: moonPoints })], ["self", t("sc_moonSelf", { n: moonPoints })], ["off", t("sc_moonOff")]].map(
        ([v, text]) => h("label", { class: "choice" },
          h("input", { type: "radio", name: "moon", value: v, checked: v === rules.moon }), ` ${text}`)),
    ),
  );
  // The 36-card game has its own queen (5): no choice to make there.
  const queen = rules.deck === "36" ? null : h("div", { class: "field" },
    h("label", { class: "label", for: "queen" }, t("sc_queen")),
    h("select", { id: "queen", name: "queen" },
      h("option", { value: 13, selected: rules.queen === "13" }, "13"),
      h("option", { value: 12, selected: rules.queen === "12" }, "12")),
  );
  form.append(
    h("fieldset", {}, h("legend", {}, t("sc_rules")), target, deck, moon, queen,
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "jack", checked: rules.jack }), ` ${t("sc_jack")}`),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "black_maria", checked: rules.black_maria }),
        ` ${t("sc_blackMaria")}`),
      h("label", { class: "check" }, h("input", { type: "checkbox", name: "tie", checked: rules.tie }), ` ${t("sc_tieShare")}`)),
    errorBox(),
    h("button", { type: "submit", class: "primary", disabled: state.busy }, t("sc_create")),
  );
  const recent = recentSheets();
  const recentBox = h("section", { class: "card recent" }, h("h2", {}, t("sc_yourSheets")),
    recent.length
      ? h("ul", {}, recent.map((s) => h("li", {},
          h("a", { href: `/scorer/?id=${encodeURIComponent(s.id)}` }, s.players.join(", ")),
          h("span", { class: "muted" }, ` · ${new Date(s.created_at).toLocaleDateString(currentLang())}`))))
      : h("p", { class: "muted" }, t("sc_noSheets")));
  app.replaceChildren(h("p", { class: "tagline" }, t("sc_tagline")), form,
    h("div", { id: "chosen-rules" }, rulesCard(chosenRules(), players.length, true)), recentBox);
}

function showChosenRules() {
  const box = document.getElementById("chosen-rules");
  if (box) box.replaceChildren(rulesCard(chosenRules(), state.newPlayers.length, true));
}

function keepChoices(form) {
  const data = new FormData(form);
  state.newRules = {
    target: String(data.get("target") || "100"),
    other: String(data.get("target-other") || ""),
    moon: String(data.get("moon") || "others"),
    queen: String(data.get("queen") || state.newRules.queen || "13"),
    jack: data.get("jack") === "on",
    black_maria: data.get("black_maria") === "on",
    deck: String(data.get("deck") || "52"),
    tie: data.get("tie") === "on",
  };
}

async function createSheet(event) {
  event.preventDefault();
  const form = event.target;
  const data = new FormData(form);
  let target = data.get("target");
  if (target === "other") target = data.get("target-other");
  const number = Number(target);
  if (String(target).trim() === "" || !Number.isSafeInteger(number)) {
    state.error = t("sc_targetWhole");
    render();
    return;
  }
  const deck = data.get("deck") === "36" ? 36 : 52;
  const body = {
    players: state.newPlayers.map((n) => n.trim()),
    rules: {
      target: number,
      moon: data.get("moon"),
      jack_of_diamonds: data.get("jack") === "on",
      black_maria: data.get("black_maria") === "on",
      deck,
      tie: data.get("tie") === "on" ? "share" : "play_on",
    },
  };
  // The 36-card game's queen is its own (5): left out, the server sets it.
  if (deck === 52) body.rules.queen_points = Number(data.get("queen"));
  state.busy = true;
  const r = await call("POST", API, body);
  state.busy = false;
  if (!r.ok) {
    state.error = message(r.data);
    render();
    return;
  }
  remember(r.data);
  history.pushState(null, "", `/scorer/?id=${encodeURIComponent(r.data.id)}`);
  state.sheetId = r.data.id;
  state.error = null;
  setSheet(r.data);
  connectLive();
}

// -- a sheet ------------------------------------------------------------------------------------

// A message shown on its own is a sentence: it starts with a capital (the words are shared with the API's, lower-case).
function capital(text) {
  return text ? text.charAt(0).toLocaleUpperCase(currentLang()) + text.slice(1) : "";
}

function errorBox() {
  return h("p", { class: "error", role: "alert", id: "entry-error" }, capital(state.error || ""));
}

function setSheet(sheet) {
  const grew = !state.sheet || state.sheet.players.length !== sheet.players.length;
  state.sheet = sheet;
  if (grew || state.draft.length !== sheet.players.length) state.draft = sheet.players.map(() => "");
  render();
}

function statusBanner(sheet) {
  const text = words(sheet.status);
  if (sheet.over) {
    return h("div", { class: "banner win", role: "status", "data-testid": "status" },
      h("strong", {}, `★ ${winnerWords(sheet, t)}`),
      h("span", {}, `${t("sc_gameOver")} · ${text}`));
  }
  if (sheet.status.code === "tie") {
    return h("div", { class: "banner tie", role: "status", "data-testid": "status" },
      h("strong", {}, t("sc_tie")), h("span", {}, text));
  }
  return h("div", { class: "banner", role: "status", "data-testid": "status" }, h("span", {}, text));
}

function sumOfDraft() {
  return state.draft.reduce((s, v) => s + (v === "" || Number.isNaN(Number(v)) ? 0 : Number(v)), 0);
}

function sumLine(sheet) {
  if (looksLikeMoon(state.draft, sheet.rules)) return t("sc_sumMoon");
  return t("sc_sumNow", { sum: sumOfDraft(), total: sheet.deal_total });
}

function renderEntry(sheet) {
  const editing = state.editing;
  const number = editing ?? sheet.next_deal.number;
  const direction = editing ? sheet.deals[editing - 1].pass : sheet.next_deal.pass;
  const heading = editing
    ? t("sc_editing", { n: editing })
    : `${t("sc_dealN", { n: number })} · ${passWords(direction)}`;
  const sum = h("span", { class: "sum", "data-testid": "sum" }, sumLine(sheet));
  sum.classList.toggle("moon-hint", looksLikeMoon(state.draft, sheet.rules));
  const negatives = sheet.rules.jack_of_diamonds;
  const inputs = h("div", { class: "points" },
    sheet.players.map((name, seat) =>
      h("label", { class: "point", style: `--c:${COLOURS[seat % COLOURS.length]}` },
        h("span", { class: "name" }, name),
        h("input", {
          type: "number",
          step: 1,
          inputmode: negatives ? undefined : "numeric",
          name: `points-${seat}`,
          value: state.draft[seat],
          placeholder: "0",
          oninput: (e) => {
            state.draft[seat] = e.target.value;
            sum.textContent = sumLine(sheet);
            sum.classList.toggle("moon-hint", looksLikeMoon(state.draft, sheet.rules));
          },
        }))));
  const form = h("form", { class: "entry-form", novalidate: true, onsubmit: saveDeal },
    inputs,
    h("p", { class: "hint" }, t("sc_dealGives", { n: sheet.deal_total }), " ",
      negatives ? t("sc_jackHint") : null, " ", sum),
    errorBox(),
    state.ambiguous ? h("div", { class: "readings", role: "group", "aria-labelledby": "entry-error" },
      state.ambiguous.readings.map((reading) => h("button", {
        type: "button", class: "secondary", disabled: state.busy, onclick: () => chooseReading(reading),
      }, readingLabel(reading, sheet.players, t)))) : null,
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary", disabled: state.busy },
        editing ? t("sc_saveEdit", { n: editing }) : t("sc_save")),
      editing ? h("button", { type: "button", class: "secondary", onclick: stopEditing }, t("sc_cancel")) : null));
  const section = h("section", { class: "card entry", "aria-labelledby": "entry-title" },
    h("h2", { id: "entry-title" }, heading), form);
  if (sheet.rules.moon !== "off") {
    const moon = h("div", { class: "moon" }, h("p", { class: "hint" }, t("sc_orMoon")));
    if (sheet.rules.jack_of_diamonds) {
      moon.append(h("label", { class: "jack" }, `${t("sc_jackTakenBy")} `,
        h("select", { onchange: (e) => { state.jack = e.target.value; } },
          h("option", { value: "", selected: state.jack === "" }, t("sc_theShooter")),
          sheet.players.map((name, seat) =>
            h("option", { value: seat, selected: state.jack === String(seat) }, name)))));
    }
    moon.append(h("div", { class: "moon-buttons" }, sheet.players.map((name, seat) =>
      h("button", { type: "button", class: "moon-button", disabled: state.busy,
        style: `--c:${COLOURS[seat % COLOURS.length]}`, onclick: () => saveMoon(seat) },
        h("span", { class: "moon-icon", "aria-hidden": "true" }, "☾"), t("sc_moonBy", { name })))));
    section.append(moon);
  }
  return section;
}

function renderTable(sheet, editable) {
  const head = h("tr", {}, h("th", { scope: "col", class: "deal-col" }, t("sc_deal")),
    h("th", { scope: "col", class: "pass" }, t("sc_pass")),
    sheet.players.map((name, seat) => h("th", { scope: "col", title: name, style: `--c:${COLOURS[seat % COLOURS.length]}` },
      h("span", { class: "swatch", "aria-hidden": "true" }), name)),
    editable ? h("th", { scope: "col", class: "no-print edit-col" }, h("span", { class: "visually-hidden" }, t("sc_edit"))) : null);
  const body = h("tbody", {}, sheet.deals.map((deal) =>
    h("tr", { class: deal.number === state.editing ? "editing" : "" },
      h("th", { scope: "row" }, deal.number),
      h("td", { class: "pass", title: passWords(deal.pass) }, PASS_ARROWS[deal.pass]),
      deal.points.map((p, seat) => h("td", {},
        h("span", { class: "pts" }, p),
        deal.moon === seat ? h("span", { class: "tag", title: t("sc_moonTag") }, "☾", h("span", { class: "tag-word" }, ` ${t("sc_moonTag")}`)) : null,
        h("span", { class: "run" }, deal.totals[seat]))),
      editable
        ? h("td", { class: "no-print" }, h("div", { class: "row-actions" },
            h("button", { type: "button", class: "small", "aria-label": t("sc_editDeal", { n: deal.number }),
              onclick: () => startEditing(deal) }, "✎"),
            h("button", { type: "button", class: "small danger", "aria-label": t("sc_deleteDeal", { n: deal.number }),
              onclick: () => deleteDeal(deal.number) }, "✕")))
        : null)));
  // The Pass column has its own (empty) cell here: where a phone hides that
  // column, the totals stay under their names.
  const foot = h("tr", { class: "totals" }, h("th", { scope: "row" }, t("sc_total")), h("td", { class: "pass" }),
    sheet.totals.map((total, seat) => h("td", {
      class: sheet.leaders.includes(seat) ? "leader" : "",
      "data-testid": `total-${seat}`,
    }, total)),
    editable ? h("td", { class: "no-print" }) : null);
  return h("div", { class: "table-wrap" },
    h("table", { class: "sheet-table" }, h("thead", {}, head), body, h("tfoot", {}, foot)));
}

function renderSheet() {
  const sheet = state.sheet;
  const editable = Boolean(sheet.editable);
  const parts = [];
  parts.push(h("div", { class: "sheet-head" },
    h("h1", {}, sheet.players.join(" · ")),
    h("p", { class: "muted" }, rulesSummary(sheet)),
    !editable ? h("p", { class: "readonly" }, t("sc_readOnly"), " ",
      h("span", { class: `live ${state.live ? "on" : "off"}` }, state.live ? t("sc_live") : t("sc_offline"))) : null));
  parts.push(statusBanner(sheet));
  parts.push(rulesCard(sheet.rules, sheet.players.length, false));
  if (editable && !sheet.over) parts.push(renderEntry(sheet));
  else if (editable && state.editing) parts.push(renderEntry(sheet));
  const table = h("section", { class: "card", "aria-label": t("sc_title") }, renderTable(sheet, editable));
  if (sheet.next_deal) {
    table.append(h("p", { class: "muted next" },
      t("sc_nextPass", { n: sheet.next_deal.number, pass: passWords(sheet.next_deal.pass) })));
  }
  if (editable) {
    table.append(h("div", { class: "actions no-print" },
      h("button", { type: "button", class: "secondary", disabled: !sheet.can_undo || state.busy, onclick: undo },
        `↶ ${t("sc_undo")}`)));
    if (sheet.over) table.append(errorBox());
  }
  parts.push(table);
  if (sheet.deals.length) {
    const chart = h("section", { class: "card chart-card" }, h("h2", {}, t("sc_chart")));
    chart.insertAdjacentHTML("beforeend", totalsChart(sheet.deals.map((d) => d.points), sheet.players,
      { target: sheet.rules.target, width: Math.min(720, contentWidth(app) - 34) }));
    parts.push(chart);
  }
  const shareUrl = new URL(sheet.links.share, location.href).href;
  parts.push(h("section", { class: "card share no-print" },
    h("h2", {}, editable ? t("sc_share") : t("sc_exportTitle")),
    editable ? h("p", { class: "hint" }, t("sc_shareHint")) : null,
    editable ? h("div", { class: "copy" },
      h("input", { readonly: true, value: shareUrl, "aria-label": t("sc_share"), id: "share-link",
        onfocus: (e) => e.target.select() }),
      h("button", { type: "button", class: "secondary", onclick: copyLink }, t("sc_copy"))) : null,
    state.notice ? h("p", { class: "notice", role: "status" }, state.notice) : null,
    h("p", { class: "exports" }, t("sc_exportLabel"), " ",
      h("a", { href: sheet.links.csv, download: "" }, "CSV"), " · ",
      h("a", { href: sheet.links.json, download: "" }, "JSON"), " · ",
      h("button", { type: "button", class: "link", onclick: () => window.print() }, t("sc_print"))),
    h("p", {}, h("a", { href: "/scorer/" }, `+ ${t("sc_newSheet")}`))));
  app.replaceChildren(...parts);
}

function render() {
  renderHeader();
  if (state.sheet) renderSheet();
  else if (state.sheetId || state.readId) {
    app.replaceChildren(state.error ? h("p", { class: "error", role: "alert" }, state.error)
      : h("p", { class: "muted" }, t("sc_loading")),
    h("p", {}, h("a", { href: "/scorer/" }, `+ ${t("sc_newSheet")}`)));
  } else renderNew();
}

// -- changes ----------------------------------------------------------------------------------

async function change(method, path, body) {
  state.busy = true;
  const r = await call(method, path, body);
  state.busy = false;
  if (r.ok) {
    state.error = null;
    state.ambiguous = null;
    state.notice = null;
    setSheet(r.data);
    return true;
  }
  // Points that read two ways (a moon with the J♦, or not): ask which.
  const refusal = r.data;
  state.ambiguous = refusal && refusal.kind === "ambiguous" ? { readings: refusal.params.readings, method, path } : null;
  state.error = message(r.data);
  render();
  const box = document.getElementById("entry-error");
  if (box) box.scrollIntoView({ block: "nearest" });
  return false;
}

function entryPath() {
  return state.editing
    ? `${API}/${encodeURIComponent(state.sheetId)}/deals/${state.editing}`
    : `${API}/${encodeURIComponent(state.sheetId)}/deals`;
}

async function saveDeal(event) {
  event.preventDefault();
  const points = state.draft.map((v) => (String(v).trim() === "" ? 0 : Number(v)));
  const bad = points.findIndex((p) => !Number.isSafeInteger(p));
  if (bad >= 0) {
    // The number box lets "2.5" through; say so here, in the reader's language.
    state.error = t("sc_notWhole", { name: state.sheet.players[bad], value: state.draft[bad] });
    render();
    return;
  }
  const method = state.editing ? "PUT" : "POST";
  if (await change(method, entryPath(), { points })) {
    state.draft = state.sheet.players.map(() => "");
    state.editing = null;
    render();
  }
}

async function saveMoon(seat) {
  const body = { moon: seat };
  if (state.sheet.rules.jack_of_diamonds && state.jack !== "") body.jack = Number(state.jack);
  const method = state.editing ? "PUT" : "POST";
  if (await change(method, entryPath(), body)) {
    state.draft = state.sheet.players.map(() => "");
    state.editing = null;
    state.jack = "";
    render();
  }
}

async function chooseReading(reading) {
  const { method, path } = state.ambiguous;
  if (await change(method, path, reading.entry)) {
    state.draft = state.sheet.players.map(() => "");
    state.editing = null;
    render();
  }
}

function startEditing(deal) {
  state.editing = deal.number;
  state.error = null;
  state.ambiguous = null;
  if (deal.entry.points) state.draft = deal.entry.points.map(String);
  else state.draft = state.sheet.players.map(() => "");
  state.jack = deal.entry.jack === null || deal.entry.jack === undefined ? "" : String(deal.entry.jack);
  render();
  document.getElementById("entry-title")?.scrollIntoView({ block: "start" });
}

function stopEditing() {
  state.editing = null;
  state.error = null;
  state.ambiguous = null;
  state.draft = state.sheet.players.map(() => "");
  render();
}

async function deleteDeal(number) {
  if (!window.confirm(t("sc_confirmDelete", { n: number }))) return;
  if (state.editing === number) state.editing = null;
  await change("DELETE", `${API}/${encodeURIComponent(state.sheetId)}/deals/${number}`);
}

async function undo() {
  state.editing = null;
  await change("POST", `${API}/${encodeURIComponent(state.sheetId)}/undo`);
}

async function copyLink() {
  await copyField(document.getElementById("share-link"));
  state.notice = t("sc_copied");
  render();
}

// -- loading and live updates -----------------------------------------------------------------------

let socket = null;

function connectLive() {
  const readId = state.readId || (state.sheet && state.sheet.read_id);
  if (!readId || socket) return;
  socket = openSocket(`${API}/shared/${encodeURIComponent(readId)}/live`, {
    onOpen: () => {
      state.live = true;
      if (state.sheet && !state.sheet.editable) render();
    },
    onMessage: (msg) => {
      if (msg.type !== "sheet") return;
      if (state.sheet && state.sheet.editable) {
        // Another phone changed the sheet: keep our id and our links.
        if (msg.sheet.version > state.sheet.version) refresh();
      } else {
        state.error = null;
        setSheet(msg.sheet);
      }
    },
    onLost: () => {
      state.live = false;
      if (state.sheet && !state.sheet.editable) render();
    },
  });
}

async function refresh() {
  const r = await call("GET", `${API}/${encodeURIComponent(state.sheetId)}`);
  if (r.ok && r.data.version > state.sheet.version) setSheet(r.data);
}

async function load() {
  render();
  if (state.sheetId) {
    const r = await call("GET", `${API}/${encodeURIComponent(state.sheetId)}`);
    if (!r.ok) {
      state.error = message(r.data);
      render();
      return;
    }
    remember(r.data);
    setSheet(r.data);
    connectLive();
  } else if (state.readId) {
    const r = await call("GET", `${API}/shared/${encodeURIComponent(state.readId)}`);
    if (!r.ok) {
      state.error = message(r.data);
      render();
      return;
    }
    setSheet(r.data);
    connectLive();
  }
}

window.addEventListener("popstate", () => location.reload());
load();
