// Duplicate tournaments for clubs (docs/tournaments.md): #/tournament makes
// one (its director keeps the token on this browser), #/tournament/CODE joins
// it, starts or ends it (the director), leads a player to their table, and
// shows the results: the standings and a table per deal, printable, as CSV or JSON.
// Before the start its director may seat the players by hand (seatingForm).
import { currentLang, num, refusalText, t } from "./i18n.js";
import { esc, showRefusal } from "./dom.js";
import { cardChip } from "./cards.js";
import { load, playerId, save } from "./prefs.js";
import { getOptions } from "./rules_form.js";
import { saveToken } from "./seat_tokens.js";
import { follow } from "./follow.js";

const DIRECTOR_KEY = "damepique.tourney.director";
const PLAYER_KEY = "damepique.tourney.player";
const MOVEMENTS = ["rotation", "fixed", "random"]; // server/tourney/movement.py's KINDS, the default first
const keep = (key, code, value) => save(key, { ...load(key, {}), [code]: value });
const kept = (key, code) => load(key, {})[code] || null;

// X-Player: the browser's id, so that a guest's games of the tournament count in its statistics.
async function post(url, body) {
  const headers = { "Content-Type": "application/json", "X-Player": playerId() };
  const r = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) throw new Error(refusalText(data.code, data.reason));
  return data;
}

export async function renderTourney(root, code) {
  if (code) {
    followOne(root, code); // open while the page is shown: not waited on
    return;
  }
  const opts = await getOptions();
  const presets = Object.keys(opts.presets);
  root.innerHTML = `<section class="tourney narrow">
    <h1>${t("tn_heading")}</h1><p class="intro">${t("tn_intro")}</p>
    <form id="tn-form" class="panel stack">
      <div class="field"><label for="tn-name">${t("tn_name")}</label><input id="tn-name" maxlength="24" required></div>
      <div class="row">
        <div class="field"><label for="tn-preset">${t("tn_rules")}</label><select id="tn-preset">${presets.map((p) => `<option value="${p}">${esc(t("preset_" + p))}</option>`).join("")}</select></div>
        <div class="field"><label for="tn-deals">${t("tn_deals")}</label><input id="tn-deals" type="number" min="1" max="26" value="8"></div>
        <div class="field"><label for="tn-tables">${t("tn_tables")}</label><input id="tn-tables" type="number" min="1" max="20" value="2"></div>
        <div class="field"><label for="tn-rounds">${t("tn_rounds")}</label><input id="tn-rounds" type="number" min="1" max="20" value="1" aria-describedby="tn-rounds-help"></div>
        <div class="field"><label for="tn-movement">${t("tn_movement")}</label><select id="tn-movement" aria-describedby="tn-rounds-help">${MOVEMENTS.map((m) => `<option value="${m}">${t("tn_movement_" + m)}</option>`).join("")}</select></div>
      </div>
      <p class="hint" id="tn-rounds-help">${t("tn_rounds_help")}</p>
      <div class="field"><label for="tn-start-at">${t("tn_start_at")}</label><input id="tn-start-at" type="datetime-local" aria-describedby="tn-start-at-help"></div>
      <p class="hint" id="tn-start-at-help">${t("tn_start_at_help")}</p>
      <div class="field check"><input type="checkbox" id="tn-bots" checked><label for="tn-bots">${t("tn_bots")}</label></div>
      <p><button type="submit" class="button primary">${t("tn_create")}</button></p>
      <p class="error" id="tn-error" role="alert"></p>
    </form></section>`;
  root.querySelector("#tn-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = {
      name: root.querySelector("#tn-name").value,
      preset: root.querySelector("#tn-preset").value,
      deals: Number(root.querySelector("#tn-deals").value),
      tables: Number(root.querySelector("#tn-tables").value),
      rounds: Number(root.querySelector("#tn-rounds").value),
      movement: root.querySelector("#tn-movement").value,
      bots: root.querySelector("#tn-bots").checked,
      start: startTime(root.querySelector("#tn-start-at").value),
    };
    try {
      const made = await post("/api/tournaments", body);
      keep(DIRECTOR_KEY, made.code, made.director);
      location.hash = `#/tournament/${made.code}`;
    } catch (err) {
      showRefusal(root.querySelector("#tn-error"), t("error", { reason: err.message }));
    }
  });
}

// The start a director chose (the browser's local time) in seconds since the epoch; none: null.
function startTime(value) {
  return value ? new Date(value).getTime() / 1000 : null;
}

// When a tournament not begun starts by itself, in the reader's language and time zone.
function startsAt(info) {
  if (info.status !== "open" || info.start == null) return "";
  const when = new Intl.DateTimeFormat(currentLang(), { dateStyle: "full", timeStyle: "short" }).format(new Date(info.start * 1000));
  return `<p id="tn-starts">${esc(t("tn_starts_at", { time: when }))}</p>`;
}

function signed(x) {
  const text = num(Math.abs(x), Number.isInteger(x) ? 0 : 2);
  return x > 0 ? `+${text}` : x < 0 ? `−${text}` : text;
}

const who = (r) => `${esc(r.name)}${r.kind === "bot" ? ` <span class="muted">(${t("tn_bot")})</span>` : ""}`;

function standings(res) {
  if (!res.standings.length) return `<p class="muted">${t("tn_none_yet")}</p>`;
  return `<div class="tn-scroll"><table class="data-table" id="tn-standings"><caption>${res.final ? t("tn_final") : t("tn_running")}</caption>
    <thead><tr><th scope="col">${t("lb_rank")}</th><th scope="col">${t("tn_player")}</th><th scope="col" class="num">${t("tn_table")}</th>
    <th scope="col" class="num">${t("tn_mp")}</th><th scope="col" class="num">%</th><th scope="col" class="num">${t("tn_diff")}</th></tr></thead>
    <tbody>${res.standings.map((r) => `<tr><td>${r.rank}</td><td class="name">${who(r)}</td><td class="num">${r.table}</td><td class="num">${num(r.matchpoints, 1)}</td><td class="num">${num(r.percent, 1)}</td><td class="num">${signed(r.diff)}</td></tr>`).join("")}</tbody>
  </table></div>`;
}

// A board's heading: its deal, and its round when there are several.
function boardName(b, res) {
  if ((res.rounds || 1) < 2) return `${t("daily_deal")} ${b.deal + 1}`;
  return t("tn_round_deal", { r: b.round + 1, k: b.deal - b.round * res.deals + 1 });
}

function board(b, res) {
  if (!b.published) return `<h3>${boardName(b, res)}</h3><p class="muted">${t("tn_hidden")}</p>`;
  const rows = b.results.map((r) => `<tr><td>${r.table}</td><td>${t("tn_seat_n", { n: r.seat + 1 })}</td><td class="name">${who(r)}${r.stand_in ? ` <span class="stand-in" title="${t("tn_stand_in")}">*</span>` : ""}</td>
    <td class="num">${r.points ?? "—"}</td><td class="num">${num(r.matchpoints, 1)}</td><td class="num">${signed(r.diff)}</td></tr>`).join("");
  const hands = b.hands.map((h, s) => `<li><strong>${t("tn_seat_n", { n: s + 1 })}</strong>: <span class="cards-text">${h.map(cardChip).join(" ")}</span></li>`).join("");
  return `<h3>${boardName(b, res)}</h3>
    <details class="tn-hands"><summary>${t("tn_who_held")}</summary><ul>${hands}</ul></details>
    <div class="tn-scroll"><table class="data-table tn-board"><thead><tr><th scope="col">${t("tn_table")}</th><th scope="col">${t("tn_seat")}</th><th scope="col">${t("tn_player")}</th>
    <th scope="col" class="num">${t("daily_total")}</th><th scope="col" class="num">${t("tn_mp")}</th><th scope="col" class="num">${t("tn_diff")}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

// The director's seating: a list of seats for each table, each seat a choice of
// the players (in the order they joined, filled table by table to begin with)
// or nobody (a computer player, where the tournament allows them).
function seatingForm(info) {
  const per = info.rules.players;
  const empty = info.bots ? t("tn_seat_computer") : t("tn_seat_nobody");
  const tables = Array.from({ length: info.tables }, (_, i) => {
    const seats = Array.from({ length: per }, (_, s) => {
      const first = info.players[i * per + s];
      const options = [`<option value="">${esc(empty)}</option>`, ...info.players.map((p) =>
        `<option value="${esc(p.id)}"${first && first.id === p.id ? " selected" : ""}>${esc(p.name)}</option>`)];
      const id = `tn-seat-${i}-${s}`;
      return `<div class="field"><label for="${id}">${t("tn_seat_n", { n: s + 1 })}</label><select id="${id}" data-table="${i}" data-seat="${s}">${options.join("")}</select></div>`;
    }).join("");
    return `<fieldset class="tn-seating-table"><legend>${t("tn_table")} ${i + 1}</legend><div class="row">${seats}</div></fieldset>`;
  }).join("");
  return `<form id="tn-seating" class="panel stack no-print" aria-labelledby="tn-seating-h"><h2 id="tn-seating-h">${t("tn_seating")}</h2>
    <p class="muted">${t(info.bots ? "tn_seating_help" : "tn_seating_help_full")}</p>${tables}
    <p><button type="submit" class="button primary">${t("tn_start_seated")}</button></p></form>`;
}

// What the seating form says: one list of player ids (null: nobody) a table, in seat order.
function chosenSeating(form, info) {
  const rows = Array.from({ length: info.tables }, () => Array(info.rules.players).fill(null));
  form.querySelectorAll("select[data-table]").forEach((sel) => {
    rows[Number(sel.dataset.table)][Number(sel.dataset.seat)] = sel.value || null;
  });
  return rows;
}

// The name of a player the seating puts at two seats (null: none is), for
// the director to see which choice to change.
function seatedTwice(seating, info) {
  const seen = new Set();
  for (const id of seating.flat()) {
    if (id === null) continue;
    if (seen.has(id)) return info.players.find((p) => p.id === id)?.name ?? id;
    seen.add(id);
  }
  return null;
}

// The page follows the tournament's changes (a player joining, a round, a
// board, the end) and draws it again at each; the first line says the server
// listens, and the first drawing comes then, so no change falls in between.
function followOne(root, code) {
  return follow(`/api/tournaments/${encodeURIComponent(code)}/changes`, root, async (line) => {
    const typing = root.querySelector("#tn-you")?.value; // a name being typed is not wiped
    if (!line ? !root.querySelector(".tourney") : !typing) await renderOne(root, code);
  }).then(() => { if (!root.querySelector(".tourney")) return renderOne(root, code); });
}

async function renderOne(root, code) {
  const r = await fetch(`/api/tournaments/${encodeURIComponent(code)}`);
  const info = await r.json();
  if (!r.ok) {
    root.innerHTML = `<section class="narrow"><p role="alert">${esc(refusalText(info.code, info.reason))}</p></section>`;
    return;
  }
  const res = await (await fetch(`/api/tournaments/${info.code}/results`)).json();
  const director = kept(DIRECTOR_KEY, info.code);
  const player = kept(PLAYER_KEY, info.code);
  let mine = null;
  if (player) {
    const m = await fetch(`/api/tournaments/${info.code}/me`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ player }) });
    if (m.ok) mine = await m.json();
  }
  root.innerHTML = `<section class="tourney">
    <h1>${esc(info.name)}</h1>
    <p>${t("tn_code")} <strong class="code">${esc(info.display)}</strong> · ${t("tn_status_" + info.status)} · ${t("tn_shape", { n: info.deals, tables: t("tn_tables_n", { n: info.tables }) })}${info.rounds > 1 ? ` · ${t("tn_round_of", { r: info.round + 1, n: info.rounds })} · ${t("tn_movement_" + (info.movement || "rotation"))}` : ""}</p>
    ${startsAt(info)}
    ${info.players.length ? `<p class="no-print">${t("tn_players", { n: info.players.length })} ${info.players.map((p) => esc(p.name)).join(", ")}</p>` : ""}
    ${info.status === "open" && !player ? `<form id="tn-join" class="row no-print"><div class="field"><label for="tn-you">${t("your_name")}</label><input id="tn-you" maxlength="24" required></div>
      <p><button type="submit" class="button primary">${t("tn_join")}</button></p></form>` : ""}
    ${mine && mine.seat && info.status === "playing" ? `<p class="no-print"><a class="button primary" id="tn-go" href="#/t/${mine.seat.table}">${t("tn_go")}</a></p>` : ""}
    ${mine && !mine.seat ? `<p class="no-print">${t("tn_joined", { name: esc(mine.name) })}</p>` : ""}
    ${director && info.status === "open" ? `<p class="no-print"><button type="button" class="button${info.players.length ? "" : " primary"}" id="tn-start">${t("tn_start")}</button></p>` : ""}
    ${director && info.status === "open" && info.players.length ? seatingForm(info) : ""}
    ${director && info.status === "playing" ? `<p class="no-print"><button type="button" class="button" id="tn-end">${t("tn_end")}</button></p>` : ""}
    <p class="error" id="tn-error" role="alert"></p>
    <h2>${t("tn_standings")}</h2>${standings(res)}
    <h2>${t("tn_boards")}</h2>${res.boards.map((b) => board(b, res)).join("")}
    <p class="no-print tn-export"><a href="/api/tournaments/${info.code}/results.csv" download>${t("tn_csv")}</a> · <a href="/api/tournaments/${info.code}/results" target="_blank" rel="noopener">${t("tn_json")}</a> ·
      <button type="button" class="button secondary" id="tn-print">${t("tn_print")}</button></p>
    <p class="muted">${t("tn_commitment")} <code class="hash">${esc(info.fairness.commitment)}</code>${info.fairness.secret ? `<br>${t("tn_secret")} <code class="hash">${esc(info.fairness.secret)}</code>` : ""}</p>
  </section>`;
  const fail = (err) => showRefusal(root.querySelector("#tn-error"), t("error", { reason: err.message }));
  root.querySelector("#tn-join")?.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const joined = await post(`/api/tournaments/${info.code}/players`, { name: root.querySelector("#tn-you").value });
      keep(PLAYER_KEY, info.code, joined.player);
      renderOne(root, code);
    } catch (err) { fail(err); }
  });
  root.querySelector("#tn-go")?.addEventListener("click", () => saveToken(mine.seat.table, mine.seat.token));
  root.querySelector("#tn-start")?.addEventListener("click", async () => {
    try { await post(`/api/tournaments/${info.code}/start`, { director }); renderOne(root, code); } catch (err) { fail(err); }
  });
  // A choice changed: what was refused is no longer what the form says.
  root.querySelector("#tn-seating")?.addEventListener("change", () => showRefusal(root.querySelector("#tn-error"), ""));
  root.querySelector("#tn-seating")?.addEventListener("submit", async (e) => {
    e.preventDefault();
    const seating = chosenSeating(e.currentTarget, info);
    const twice = seatedTwice(seating, info);
    if (twice) return showRefusal(root.querySelector("#tn-error"), t("tn_seated_twice", { name: twice }));
    try {
      await post(`/api/tournaments/${info.code}/start`, { director, seating });
      renderOne(root, code);
    } catch (err) { fail(err); }
  });
  root.querySelector("#tn-end")?.addEventListener("click", async () => {
    try { await post(`/api/tournaments/${info.code}/end`, { director }); renderOne(root, code); } catch (err) { fail(err); }
  });
  root.querySelector("#tn-print").addEventListener("click", () => window.print());
}
