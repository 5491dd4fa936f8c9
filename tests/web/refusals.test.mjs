// Refusals from the server shown in the page's language (i18n.refusalText).
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.document = { documentElement: {} };
const { refusalText, loadLang } = await import("../../src/damepique/web/i18n.js");
await loadLang("en");
await loadLang("fr");

test("in English the server's own reason, in French the page's words", () => {
  assert.equal(refusalText("table_full", "every seat at this table is taken", "en"), "every seat at this table is taken");
  assert.equal(refusalText("table_full", "every seat at this table is taken", "fr"), "Toutes les places de cette table sont prises.");
  assert.equal(refusalText("too_many_codes", "too many unknown table codes; try again in 20 s", "fr"),
    "Trop de codes de table inconnus essayés\u202f; réessayez plus tard.");
});

test("a code the page does not know falls back to the reason, then to the code", () => {
  assert.equal(refusalText("brand_new", "something new", "fr"), "something new");
  assert.equal(refusalText("brand_new", undefined, "en"), "brand new");
  assert.equal(refusalText(undefined, "Not Found", "fr"), "Not Found");
});

test("too_large is said for an uploaded game as well as for a message", () => {
  // The same code refuses a socket message over 4096 bytes, a request body, and
  // an uploaded record too large or too long to check (server/solo/uploads.py).
  const fr = refusalText("too_large", "a record of 120000 cards passed and played: at most 100000 are checked", "fr");
  assert.match(fr, /partie envoyée/);
  assert.doesNotMatch(fr, /^Message/);
});
