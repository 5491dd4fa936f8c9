// The deal-by-deal chart of totals: one line per player, drawn as SVG here.

const SVG = "http://www.w3.org/2000/svg";
export const COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65"];

function el(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// Round steps for the value axis: 1, 2, 5, 10, 20, 50...
function step(range) {
  const rough = range / 6;
  const power = 10 ** Math.floor(Math.log10(Math.max(rough, 1)));
  for (const m of [1, 2, 5, 10]) if (m * power >= rough) return m * power;
  return 10 * power;
}

export function totalsChart(sheet, t) {
  // Fewer units on a phone, so that the labels stay readable.
  const width = Math.max(320, Math.min(640, (window.innerWidth || 640) - 40));
  const height = Math.round(width * 0.5);
  const pad = { left: 44, right: 16, top: 16, bottom: 34 };
  const rows = [sheet.players.map(() => 0), ...sheet.deals.map((d) => d.totals)];
  const values = rows.flat().concat([sheet.rules.target, 0]);
  let low = Math.min(...values);
  let high = Math.max(...values);
  const s = step(high - low || 10);
  low = Math.floor(low / s) * s;
  high = Math.ceil(high / s) * s;
  const deals = Math.max(rows.length - 1, 1);
  const x = (i) => pad.left + (i / deals) * (width - pad.left - pad.right);
  const y = (v) => pad.top + ((high - v) / (high - low || 1)) * (height - pad.top - pad.bottom);

  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "chart",
    role: "img",
    "aria-label": t("chart"),
  });
  svg.append(el("title", {}, t("chart")));
  for (let v = low; v <= high; v += s) {
    svg.append(el("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(el("text", { x: pad.left - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, v));
  }
  const every = Math.ceil(deals / 12);
  for (let i = 0; i <= deals; i += every) {
    svg.append(el("text", { x: x(i), y: height - pad.bottom + 18, class: "axis", "text-anchor": "middle" }, i));
  }
  svg.append(
    el("text", { x: width - pad.right, y: height - 4, class: "axis", "text-anchor": "end" }, t("deal")),
  );
  const ty = y(sheet.rules.target);
  svg.append(el("line", { x1: pad.left, x2: width - pad.right, y1: ty, y2: ty, class: "target" }));
  svg.append(
    el("text", { x: width - pad.right, y: ty - 5, class: "target-label", "text-anchor": "end" },
      t("targetLine", { n: sheet.rules.target })),
  );
  sheet.players.forEach((name, seat) => {
    const colour = COLOURS[seat % COLOURS.length];
    const points = rows.map((r, i) => `${x(i).toFixed(1)},${y(r[seat]).toFixed(1)}`).join(" ");
    const line = el("polyline", { points, fill: "none", stroke: colour, class: "series" });
    line.append(el("title", {}, name));
    svg.append(line);
    rows.forEach((r, i) => {
      if (i === 0 && rows.length > 1) return;
      const dot = el("circle", { cx: x(i), cy: y(r[seat]), r: 3.5, fill: colour });
      dot.append(el("title", {}, `${name}: ${r[seat]}`));
      svg.append(dot);
    });
  });
  return svg;
}
