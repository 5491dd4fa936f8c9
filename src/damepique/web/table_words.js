// How a table with others is said, pure (Node tests it): its rules in one
// line, its turn timer, what its waiting room waits for and how many seats
// computer players take at the start. The friends page's lobby and the
// table's waiting room say a table the same way.
import { has, t } from "./i18n.js";
import { AUTO, AUTO_COUNTS, fullRules } from "./rules_form.js";

// "auto": as many as sit down, three to five, until the host starts.
export const AUTO_LEAST = AUTO_COUNTS[0];

/** The preset whose rules `rules` are, or undefined (a custom table); the players are left out at an "auto" table. */
export function presetOf(rules, opts) {
  const keys = Object.keys(rules).filter((k) => !(k === "players" && rules.players === AUTO));
  return Object.keys(opts.presets).find((p) => {
    const full = fullRules(opts.presets[p], opts);
    return keys.every((k) => String(full[k]) === String(rules[k]));
  });
}

/**
 * The table's rules in one line, each fact once: the preset's name, the
 * players where the name does not say them (an "auto" table, custom rules;
 * a preset for three or five says it, one for four needs not), the target
 * where the name does not say it ("Standard (100 points)").
 */
export function rulesLine(rules, opts) {
  const auto = rules.players === AUTO;
  const p = opts && presetOf(rules, opts);
  const name = p ? t("preset_" + p) : t("preset_custom");
  const parts = [name];
  if (auto || !p) parts.push(t("label_value", { label: t("opt_players"), value: auto ? t("opt_players_auto") : String(rules.players) }));
  if (!name.includes(String(rules.target))) parts.push(has("opt_target_" + rules.target) ? t("opt_target_" + rules.target) : String(rules.target));
  return parts.join(" · ");
}

/** "30 s a card", or no timer. */
export function timerLabel(s) {
  return s ? t("mp_timer_n", { n: s }) : t("mp_timer_none");
}

/**
 * What the waiting room of `tb` (the server's table) waits for, in words,
 * read by seat `you`. Where computer players take the empty seats, it waits
 * for a second person only, never for "N more people"; a program seated
 * (docs/bot-api.md) is a player but not that second person.
 */
export function waitingFor(tb, you) {
  if (tb.can_start) return you === tb.host ? t("mp_wait_you") : t("mp_wait_host");
  if (tb.options.fill) return t("mp_wait_second");
  const players = tb.seats.filter((s) => s.kind === "human").length;
  if (tb.rules.players === AUTO) return t("mp_wait_auto", { n: AUTO_LEAST - players });
  return t("mp_wait_full", { n: tb.seats.filter((s) => s.kind === "empty").length });
}

// The seats computer players will take at the start: every empty one, or for
// an "auto" table only as many as make three.
export function botsToFill(tb) {
  const people = tb.seats.filter((s) => s.kind === "human").length;
  const empty = tb.seats.filter((s) => s.kind === "empty").length;
  if (!tb.options.fill) return 0;
  return tb.rules.players === AUTO ? Math.max(0, AUTO_LEAST - people) : empty;
}
