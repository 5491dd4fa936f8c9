// The one line chart of the pages, drawn as SVG here: the totals deal by deal
// (the table's end of game, replays, the score keeper) and a player's rating
// after each ranked game (the profile). Drawn at the width of its box, so that
// its labels keep their size on a phone instead of shrinking with the picture.
import { num, t } from "./i18n.js";
import { esc } from "./dom.js";

export const COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65"];

// Round steps for the value axis: 1, 2, 5, 10, 20, 50...
function step(range, ticks) {
  const rough = range / ticks;
  const power = 10 ** Math.floor(Math.log10(Math.max(rough, 1)));
  for (const m of [1, 2, 5, 10]) if (m * power >= rough) return m * power;
  return 10 * power;
}

/**
 * `series`: [{name, values, colour?}], one value per x (0, 1, 2...); `target`:
 * a value drawn as a dashed line with its label; `width`: the box's width in
 * CSS pixels (the chart keeps a 2:1 shape, at least 160 px high).
 */
export function lineChart({ series, title, xLabel = "", target = null, width = 560, legend = true, cls = "chart" }) {
  const W = Math.round(Math.max(280, Math.min(720, width)));
  const H = Math.max(160, Math.round(W * 0.46));
  const pad = { left: 42, right: 14, top: 14, bottom: 32 };
  const all = series.flatMap((s) => s.values).concat(target === null ? [] : [target.value]);
  let low = Math.min(0, ...all);
  let high = Math.max(10, ...all);
  if (series.every((s) => s.values.every((v) => v > 100))) low = Math.min(...all); // ratings: no zero
  const s = step(high - low || 10, H > 200 ? 6 : 4);
  low = Math.floor(low / s) * s;
  high = Math.ceil(high / s) * s;
  const count = Math.max(1, ...series.map((x) => x.values.length - 1));
  const x = (i) => pad.left + (i / count) * (W - pad.left - pad.right);
  const y = (v) => pad.top + ((high - v) / (high - low || 1)) * (H - pad.top - pad.bottom);
  const parts = [];
  for (let v = low; v <= high; v += s) {
    parts.push(`<line class="grid" x1="${pad.left}" x2="${W - pad.right}" y1="${y(v)}" y2="${y(v)}"/>`,
      `<text class="axis" x="${pad.left - 6}" y="${y(v) + 4}" text-anchor="end">${num(v)}</text>`);
  }
  const every = Math.ceil(count / Math.max(2, Math.floor((W - pad.left) / 36)));
  for (let i = 0; i <= count; i += every) parts.push(`<text class="axis" x="${x(i)}" y="${H - pad.bottom + 16}" text-anchor="middle">${i}</text>`);
  if (xLabel) parts.push(`<text class="axis" x="${W - pad.right}" y="${H - 3}" text-anchor="end">${esc(xLabel)}</text>`);
  if (target !== null) {
    parts.push(`<line class="target" x1="${pad.left}" x2="${W - pad.right}" y1="${y(target.value)}" y2="${y(target.value)}"/>`);
  }
  series.forEach((line, i) => {
    const colour = line.colour || COLOURS[i % COLOURS.length];
    const pts = line.values.map((v, k) => `${x(k).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    parts.push(`<polyline class="series" fill="none" stroke="${colour}" points="${pts}"><title>${esc(line.name)}</title></polyline>`);
    line.values.forEach((v, k) => {
      if (k === 0 && line.values.length > 1) return;
      parts.push(`<circle cx="${x(k).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3.2" fill="${colour}"><title>${esc(line.name)}: ${num(v)}</title></circle>`);
    });
  });
  if (target !== null) {
    // At the left, over the lines: totals start at 0 and reach the target only at the right,
    // where a label would sit under the last points.
    parts.push(`<text class="target-label" x="${pad.left + 4}" y="${y(target.value) - 5}" text-anchor="start">${esc(target.label)}</text>`);
  }
  const desc = series.map((l) => `${l.name}: ${l.values.map((v) => num(v)).join(", ")}`).join("; ");
  const keys = legend
    ? `<ul class="legend">${series
        .map((l, i) => `<li><span class="swatch" style="background:${l.colour || COLOURS[i % COLOURS.length]}"></span>${esc(l.name)} <strong>${num(l.values[l.values.length - 1])}</strong></li>`)
        .join("")}</ul>`
    : "";
  return `<figure class="${cls}-box"><svg class="${cls}" viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="${esc(title)}">
    <desc>${esc(desc)}</desc>${parts.join("")}</svg>${keys}</figure>`;
}

/** The width a chart drawn in `el` gets: its box less its padding. */
export function contentWidth(el, fallback = 560) {
  if (!el || !el.clientWidth) return fallback;
  const cs = getComputedStyle(el);
  return el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
}

/** Running totals, deal by deal, from each deal's points ([[p0, p1, ...], ...]). */
export function totalsChart(pointsByDeal, names, { target = null, width } = {}) {
  const rows = [names.map(() => 0)];
  for (const pts of pointsByDeal) rows.push(rows[rows.length - 1].map((x, i) => x + pts[i]));
  return lineChart({
    series: names.map((name, i) => ({ name, values: rows.map((r) => r[i]) })),
    title: t("chart_title"),
    xLabel: t("chart_deal"),
    target: target === null ? null : { value: target, label: t("chart_target", { n: target }) },
    width,
  });
}
