// The rules' options as a form, drawn from what the server lists in
// /api/options (defaults, choices, presets), so that a new option appears
// once the server offers it (its words: opt_KEY and opt_KEY_VALUE in the
// strings files). The form only offers combinations the rules allow: a
// fixed pass direction needs passing, "across" four players, and the
// leftover cards are named for the players and deck chosen.
import { cardShort, has, t } from "./i18n.js";
import { esc } from "./dom.js";

let cached = null;
/** /api/options, fetched once. */
export async function getOptions() {
  if (!cached) cached = await (await fetch("/api/options")).json();
  return cached;
}

/** A computer player's name: the page's words (level_NAME), else its code (the server sends no words). */
export function levelName(level) {
  return has("level_" + level) ? t("level_" + level) : level.replaceAll("_", " ");
}

/** What a bot does, in a few words: the page's own (none for a bot the page does not know yet). */
export function levelAbout(level) {
  return has(`level_${level}_about`) ? t(`level_${level}_about`) : "";
}

/**
 * The options of a computer players' select: the levels, then the
 * personalities beside them (the bold "shooter"), each with its description.
 */
export function levelOptions(levels, personalities, selected, opts = cached) {
  const option = (l) => {
    const about = levelAbout(l);
    const title = about ? ` title="${esc(about)}"` : "";
    return `<option value="${esc(l)}"${title} ${l === selected ? "selected" : ""}>${esc(levelName(l))}</option>`;
  };
  if (!personalities || !personalities.length) return levels.map(option).join("");
  return `<optgroup label="${esc(t("levels_group"))}">${levels.map(option).join("")}</optgroup>
    <optgroup label="${esc(t("personalities_group"))}">${personalities.map(option).join("")}</optgroup>`;
}

// Options the server accepts but does not list among its defaults.
const EXTRAS = { deck: 52, black_maria: false, last_trick_points: 0, pass_count: 3, queen_breaks_hearts: false };
// The order of the form; keys the server adds later come after these.
const ORDER = [
  "players", "passing", "pass_cycle", "pass_count", "no_points_first_trick", "first_trick_discard", "must_break_hearts",
  "hearts_broken_by", "queen_breaks_hearts", "moon", "jack_of_diamonds", "leftover", "queen_points", "black_maria",
  "first_lead", "deck", "last_trick_points", "tie",
];
const BOUNDS = { queen_points: [0, 100], last_trick_points: [0, 100], pass_count: [1, 8] };
const RANKS = "23456789TJQKA";

/** Every option of a preset: the defaults, then the preset's own values. */
export function fullRules(presetRules, opts) {
  return { ...EXTRAS, ...opts.defaults, ...presetRules };
}

function keysOf(opts) {
  const known = new Set([...Object.keys(EXTRAS), ...Object.keys(opts.defaults), ...Object.keys(opts.choices)]);
  known.delete("target");
  return [...ORDER.filter((k) => known.has(k)), ...[...known].filter((k) => !ORDER.includes(k)).sort()];
}

// A table's "auto": as many players as sit down, three to five (docs/multiplayer.md).
export const AUTO = "auto";
export const AUTO_COUNTS = [3, 4, 5];
const countsOf = (rules) => (rules.players === AUTO ? AUTO_COUNTS : [rules.players ?? 4]);

/**
 * The cards left out of the deal ("2♦", "2♣"), as the engine removes them;
 * for "auto", those of the count that removes the most.
 */
export function removedCards(rules) {
  const deck = rules.deck ?? 52;
  const low = deck === 52 ? 0 : RANKS.indexOf("6");
  const out = [];
  const most = Math.max(...countsOf(rules).map((n) => deck % n));
  for (let i = 0; i < most; i++) out.push(RANKS[low + (i >> 1)] + "DC"[i % 2]);
  return out;
}

/** What shooting the moon is worth under these rules (every point card). */
export function moonPoints(rules) {
  const hearts = (rules.deck ?? 52) === 52 ? 13 : 9;
  return hearts + (rules.queen_points ?? 13) + (rules.black_maria ? 17 : 0) + (rules.last_trick_points ?? 0);
}

function lowestClub(rules) {
  // "auto": the two of clubs, which leads at three and four players (five put it aside: the three leads).
  const gone = rules.leftover === "kitty" || rules.players === AUTO ? [] : removedCards(rules);
  const low = (rules.deck ?? 52) === 52 ? 0 : RANKS.indexOf("6");
  for (let r = low; r < 13; r++) if (!gone.includes(RANKS[r] + "C")) return RANKS[r] + "C";
  return "2C";
}

/** The choices a key offers under `rules`, with their words, and whether it is open at all. */
export function choicesFor(key, rules, opts) {
  let values = [...opts.choices[key]];
  let open = true;
  let label = (v) => t(`opt_${key}_${v}`);
  if (key === "pass_cycle") {
    if (rules.players !== 4) values = values.filter((v) => v !== "across");
    if (!rules.passing) open = false;
    label = (v) => t(v === "standard" && rules.players !== 4 ? "opt_pass_cycle_standard_3" : `opt_pass_cycle_${v}`);
  } else if (key === "leftover") {
    const gone = removedCards(rules);
    if (!gone.length) open = false;
    label = (v) => (!gone.length ? t("opt_leftover_none") : t(`opt_leftover_${v}`, { cards: gone.map((c) => cardShort(c)).join(", ") }));
  } else if (key === "moon") {
    label = (v) => t(`opt_moon_${v}`, { n: moonPoints(rules) });
  } else if (key === "first_lead") {
    label = (v) => t(`opt_first_lead_${v}`, { card: cardShort(lowestClub(rules)) });
  } else if (key === "first_trick_discard") {
    open = !!rules.no_points_first_trick;
  } else if (key === "hearts_broken_by") {
    open = !!rules.must_break_hearts;
  } else if (key === "target") {
    label = (v) => (has(`opt_target_${v}`) ? t(`opt_target_${v}`) : `${v}`);
  }
  return { values, open, label: (v) => (has(`opt_${key}_${v}`) || key === "target" || key === "leftover" ? label(v) : String(v)) };
}

function isOpen(key, rules, opts) {
  if (key in opts.choices) return choicesFor(key, rules, opts).open;
  if (key === "pass_count") return !!rules.passing;
  if (key === "queen_breaks_hearts") return !!rules.must_break_hearts;
  return true;
}

function control(prefix, key, rules, opts) {
  const id = `${prefix}-${key}`;
  const value = rules[key];
  if (key in opts.choices) {
    const c = choicesFor(key, rules, opts);
    return `<select id="${id}" data-rule="${key}" ${c.open ? "" : "disabled"}>${c.values
      .map((v) => `<option value="${esc(v)}" ${String(value) === String(v) ? "selected" : ""}>${esc(c.label(v))}</option>`)
      .join("")}</select>`;
  }
  if (typeof value === "boolean") {
    return `<select id="${id}" data-rule="${key}" data-bool ${isOpen(key, rules, opts) ? "" : "disabled"}>
      <option value="true" ${value ? "selected" : ""}>${t("yes")}</option><option value="false" ${value ? "" : "selected"}>${t("no")}</option></select>`;
  }
  const [min, max] = BOUNDS[key] || [0, 1000];
  return `<input type="number" id="${id}" data-rule="${key}" data-number min="${min}" max="${key === "pass_count" ? handSize(rules) - 1 : max}" value="${esc(value)}" ${isOpen(key, rules, opts) ? "" : "disabled"}>`;
}

// The smallest hand the rules may deal (for "auto", five players').
function handSize(rules) {
  return Math.floor((rules.deck ?? 52) / Math.max(...countsOf(rules)));
}

// An option the strings files have no words for yet shows by its name.
const label = (key) => (has("opt_" + key) ? t("opt_" + key) : key.replaceAll("_", " "));
const field = (prefix, key, inner) => `<div class="field"><label for="${prefix}-${key}">${esc(label(key))}</label>${inner}</div>`;

/**
 * The "Rules" (preset) and "Game ends at" controls, for the form's first row;
 * with `players`, the number of players too (a table's "auto" in plain sight).
 */
export function presetFields(prefix, preset, rules, opts, { custom = true, players = false } = {}) {
  const names = [...Object.keys(opts.presets), ...(custom ? ["custom"] : [])];
  return `<div class="field"><label for="${prefix}-preset">${t("preset")}</label>
      <select id="${prefix}-preset" data-preset>${names
        .map((p) => `<option value="${p}" ${p === preset ? "selected" : ""}>${esc(has("preset_" + p) ? t("preset_" + p) : p.replaceAll("_", " "))}</option>`)
        .join("")}</select></div>
    <div class="field"><label for="${prefix}-target">${t("target")}</label>${control(prefix, "target", rules, opts)}</div>${
    players ? field(prefix, "players", control(prefix, "players", rules, opts)) : ""}`;
}

/** Every other option, in a closed "Every option" box (`players`: shown in the first row instead). */
export function optionsGrid(prefix, rules, opts, { players = false } = {}) {
  const keys = keysOf(opts).filter((k) => !(players && k === "players"));
  return `<details class="all-options" ${players ? 'data-upfront="players"' : ""}><summary>${t("all_options")}</summary>
    <div class="grid">${keys.map((k) => field(prefix, k, control(prefix, k, rules, opts))).join("")}</div></details>`;
}

/** The rules the form shows now (a closed option keeps the value that goes with it). */
export function readRules(root, prefix, opts) {
  const out = {};
  for (const key of ["target", ...keysOf(opts)]) {
    const el = root.querySelector(`#${prefix}-${key}`);
    if (!el) continue;
    let v = el.value;
    if (el.hasAttribute("data-bool")) v = v === "true";
    else if (v !== AUTO && (el.hasAttribute("data-number") || typeof opts.defaults[key] === "number" || typeof EXTRAS[key] === "number")) v = parseInt(v, 10);
    out[key] = v;
  }
  return normalise(out, opts);
}

// What a closed option must be: the value the engine accepts with the rest.
function normalise(rules, opts) {
  const r = { ...rules };
  if (!r.passing && "pass_cycle" in r) r.pass_cycle = "standard";
  if (r.pass_cycle === "across" && r.players !== 4) r.pass_cycle = "standard";
  if ("pass_count" in r) r.pass_count = Math.max(1, Math.min(handSize(r) - 1, r.pass_count || 1));
  if ("leftover" in r && !removedCards(r).length) r.leftover = opts.defaults.leftover ?? "remove";
  return r;
}

/**
 * Keep the form honest as it changes: each change draws the grid again for
 * the new combination (choices offered, options closed), and the preset
 * select says which preset the rules are, or "custom". `onChange(rules)`.
 */
export function bindRulesForm(root, prefix, opts, onChange = () => {}) {
  const presetSelect = root.querySelector(`#${prefix}-preset`);
  const same = (a, b) => Object.keys(b).every((k) => String(a[k]) === String(b[k]));
  const redraw = (rules) => {
    const details = root.querySelector("details.all-options");
    const wasOpen = details?.open;
    const focused = document.activeElement?.id;
    if (details) {
      details.outerHTML = optionsGrid(prefix, rules, opts, { players: details.dataset.upfront === "players" });
      const fresh = root.querySelector("details.all-options");
      if (fresh && wasOpen) fresh.open = true;
    }
    const target = root.querySelector(`#${prefix}-target`);
    if (target) target.outerHTML = control(prefix, "target", rules, opts);
    if (focused) document.getElementById(focused)?.focus();
  };
  root.addEventListener("change", (e) => {
    if (e.target === presetSelect) {
      if (presetSelect.value === "custom") return;
      const rules = fullRules(opts.presets[presetSelect.value], opts);
      redraw(rules);
      onChange(rules);
      return;
    }
    if (!e.target.matches("[data-rule]")) return;
    const rules = readRules(root, prefix, opts);
    redraw(rules);
    if (presetSelect) {
      const match = Object.keys(opts.presets).find((p) => same(rules, fullRules(opts.presets[p], opts)) && same(fullRules(opts.presets[p], opts), rules));
      presetSelect.value = match || (presetSelect.querySelector('option[value="custom"]') ? "custom" : presetSelect.value);
    }
    onChange(rules);
  });
}
