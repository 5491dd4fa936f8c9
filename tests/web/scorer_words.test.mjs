// The score keeper's sentences in French are the page's alone (issue 25): the
// server sends a code and its params, and these are the words the French
// page makes of what the server sends for the refusals and outcomes its tests
// check (tests/scorer: the same params).
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.document = { documentElement: {} };
const { loadLang, t } = await import("../../src/damepique/web/i18n.js");
await loadLang("fr");
const fr = (key, params) => t(key, params, "fr");
// French typography: a no-break space before ":", a narrow one before ";", "!" and "?".
const typo = (s) => s.replace(/ :/g, "\u00a0:").replace(/ ([;!?])/g, "\u202f$1");

test("the score keeper's refusals and outcomes in French, from code and params", () => {
  assert.equal(fr("scm_players_count", { count: 2 }), typo("une feuille compte de 3 à 6 joueurs, pas 2"));
  assert.equal(
    fr("scm_sum_short", { total: 24, expected: 26, difference: 2 }),
    typo("les points font 24 au total, une donne en distribue 26 : il manque 2 points"),
  );
  assert.match(fr("scm_sum_over", { total: 29, expected: 26, difference: 3 }), /3 points de trop$/);
  assert.match(fr("scm_points_negative", { player: "Ann", points: -2 }), /valet de carreau/);
  assert.equal(
    fr("scm_points_too_many", { player: "Ann", points: 30, limit: 26, over: 4 }),
    typo("Ann a 30, mais une donne ne compte que 26 points : 4 points de trop"),
  );
  assert.equal(
    fr("scm_game_over", { winner: "Cy", winners: ["Cy", "Dee"] }),
    typo("la partie est finie : Cy et Dee ont gagné. Modifiez ou supprimez une donne pour continuer"),
  );
  assert.equal(
    fr("scm_moon_or_ordinary", { player: "Ann", points: 16, shooter_score: -10, others_score: 26 }),
    typo("Ann a 16 : un grand chelem avec aussi le valet de carreau (Ann -10, les autres 26 chacun) ou une donne ordinaire ? Choisissez"),
  );
  assert.equal(fr("scm_winner", { player: "Dee", total: 0 }), typo("Dee gagne avec 0 point"));
  // What a rule takes, said from the rule's key.
  assert.equal(
    fr("scm_rules_type", { key: "target", value: "100" }),
    'target doit être un nombre entier, pas "100"',
  );
  assert.equal(fr("scm_shared", { players: ["Cy", "Dee"], total: 0 }), typo("Cy et Dee se partagent la victoire avec 0 point"));
  assert.equal(fr("scm_game_over", { winner: "Cy", winners: ["Cy"] }), typo("la partie est finie : Cy a gagné. Modifiez ou supprimez une donne pour continuer"));
  assert.equal(fr("scm_no_such_deal", { number: 3, count: 0 }), "il n'y a pas de donne 3 (aucune donne entrée)");
  assert.equal(fr("scm_no_such_deal", { number: 3, count: 2 }), "il n'y a pas de donne 3 (donnes 1 à 2)");
  assert.equal(fr("scm_playing", { players: ["Cy"] }), "Cy mène");
  assert.equal(fr("scm_playing", { players: ["Cy", "Dee", "Eva"] }), "Cy, Dee et Eva sont en tête");
});
