// Quick match's page without a browser: the seconds a reconnected page asks to
// wait (what was left, so the countdown does not start over), and its words.
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {} };
const { setLang, loadLang, t } = await import("../../src/damepique/web/i18n.js");
await loadLang("en");
await loadLang("fr");
const { QUICK_ENDPOINT, STUCK_MS, secondsLeft, stuck } = await import("../../src/damepique/web/quick.js");

test("a page that joins again asks for what was left of its wait", () => {
  assert.equal(QUICK_ENDPOINT, "/ws/match");
  assert.equal(secondsLeft(31_000, 1_000), 30);
  assert.equal(secondsLeft(31_000, 19_600), 11); // rounded to the nearest second
  assert.equal(secondsLeft(31_000, 40_000), 0); // over: bots at once
  assert.equal(secondsLeft(10_000_000, 0), 300); // never more than the server takes
});

test("the button and the countdown in both languages", () => {
  setLang("en", false);
  assert.equal(t("quick_button"), "Play with people");
  assert.equal(t("quick_countdown", { n: 1 }), "Computer players fill the empty seats in 1 second");
  assert.equal(t("quick_countdown", { n: 12 }), "Computer players fill the empty seats in 12 seconds");
  setLang("fr", false);
  assert.equal(t("quick_button"), "Jouer avec d'autres");
  assert.equal(t("quick_countdown", { n: 0 }), "Des joueurs virtuels prennent les places libres dans 0 seconde");
  assert.equal(t("quick_queued", { waiting: 3 }).replace(/[\u00a0\u202f]/g, " "), "En attente de joueurs : 3 ici pour cette partie…");
  setLang("en", false);
});

test("the reason a player is barred from quick ranked matches, with how long", () => {
  setLang("en", false);
  assert.equal(
    t("quick_barred", { minutes: 59, leaves: 3 }),
    "You left 3 ranked games in the last 24 hours: quick ranked matches are closed to you for 59 more minutes. Casual games and tables with friends are open.",
  );
  assert.match(t("quick_barred", { minutes: 1, leaves: 3 }), /for 1 more minute\. /);
  setLang("fr", false);
  assert.match(t("quick_barred", { minutes: 1, leaves: 3 }).replace(/[\u00a0\u202f]/g, " "), /^Vous avez quitté 3 parties classées ces dernières 24 heures : .* encore 1 minute\. /);
  setLang("en", false);
});

test("a wait long over with no table is given up, to try again", () => {
  assert.equal(stuck(10_000, 10_000 + STUCK_MS), false);
  assert.equal(stuck(10_000, 10_001 + STUCK_MS), true);
  assert.equal(stuck(10_000, 5_000), false); // still counting down
});
