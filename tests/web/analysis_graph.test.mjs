// The analysis graph at a phone's width (390 px): the moon risk's "0 %" label
// is drawn clear of the last point (a deal's last decision is often at 0
// expected points), and "100 %" inside the drawing. A label's box is taken as
// 0.6 of the 12 px axis font a character (digits are narrower), from its x (text-anchor start).
import { test } from "node:test";
import assert from "node:assert/strict";

globalThis.localStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} };
globalThis.document = { documentElement: {}, addEventListener: () => {}, querySelector: () => null };
globalThis.window = { addEventListener: () => {}, location: { hash: "" } };
const { loadLang, setLang } = await import("../../src/damepique/web/i18n.js");
const { dealGraph } = await import("../../src/damepique/web/analysis.js");
await loadLang("en");
await loadLang("fr");

const entry = (expected, moon) => [0, { expected, moon, verdict: "best", chosen: ["2C"], trick: 0, seat: 0 }];

for (const lang of ["en", "fr"]) {
  test(`"0 %" and "100 %" keep clear of the last point at 390 px (${lang})`, () => {
    setLang(lang, false);
    const entries = [entry(8, 0.4), entry(3, 0.1), entry(0, 0)].map(([, d], i) => [i, d]);
    const svg = dealGraph(entries, 2, 358, 0); // 390 px less the page's margins; the last point selected
    const W = Number(/viewBox="0 0 (\d+) (\d+)"/.exec(svg)[1]);
    const dots = [...svg.matchAll(/<circle class="dot" cx="([\d.]+)" cy="([\d.]+)" r="(\d+)"/g)].map((m) => m.slice(1).map(Number));
    const [cx, cy, r] = dots[dots.length - 1];
    const labels = [...svg.matchAll(/<text class="axis" x="([\d.]+)" y="([\d.]+)">([^<]*%)<\/text>/g)].map((m) => [Number(m[1]), Number(m[2]), m[3]]);
    assert.equal(labels.length, 2, svg);
    for (const [x, y, text] of labels) {
      const box = { left: x, right: x + 12 * 0.6 * text.length, top: y - 12, bottom: y + 3 };
      const clear = box.left > cx + r || box.bottom < cy - r || box.top > cy + r;
      assert.ok(clear, `${text} at ${x},${y} under the last point at ${cx},${cy} (r ${r})`);
      assert.ok(box.right <= W, `${text} runs past the drawing's right edge (${box.right} > ${W})`);
    }
  });
}
setLang("en", false);
