// bars.js: one value per feature as horizontal bars (the shared-knowledge
// view): the features with the largest |value|, named, on an axis that
// always includes 0, so a bar's length is its value and a zero is no bar.
// The bars are in ink, a negative one lighter (the side of 0 and the value
// say its sign): red and blue belong to τ. It can also render itself as SVG.
import { escapeXML as esc } from "./export.js";
import { visibleName, isolated } from "./labels.js";
import { setup, fmt, drawSoon, wrapText } from "./chart-kit.js";

const POS = "#3d4a5c", NEG = "#8b93a3";

/** Horizontal bars of the top features of one chart {title, measure, labels, values}. */
export class Bars {
  constructor(canvas, chart, top = 15) {
    this.canvas = canvas;
    this.chart = chart;
    // The top features by |value|, largest first (ties in feature order).
    const idx = chart.values.map((_, i) => i).filter((i) => Number.isFinite(chart.values[i]));
    idx.sort((a, b) => Math.abs(chart.values[b]) - Math.abs(chart.values[a]) || a - b);
    this.shown = idx.slice(0, top).map((i) => ({ label: chart.labels[i], value: chart.values[i] }));
    let lo = 0, hi = 0;
    for (const b of this.shown) { lo = Math.min(lo, b.value); hi = Math.max(hi, b.value); }
    if (lo === 0 && hi === 0) hi = 1; // every value is zero: an axis, no bars
    this.lo = lo; this.hi = hi;
    canvas.height = TOP + this.shown.length * 18 + 34;
    canvas.style.height = `${canvas.height}px`;
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", this.describe());
    drawSoon(this);
  }

  /** The chart's title with what it shows of the features. */
  titleText() {
    return `${this.chart.title} (top ${this.shown.length} of ${this.chart.values.length} by |${this.chart.measure}|)`;
  }

  /** A sentence for screen readers: what the bars show and the largest ones. */
  describe() {
    const c = this.chart, n = c.values.length;
    // A feature's name isolated: an Arabic one does not take its value into its run.
    const top = this.shown.slice(0, 3).map((b) => `${isolated(b.label)} ${b.value.toPrecision(3)}`).join(", ");
    return `Bar chart, ${c.title}: the ${this.shown.length} features with the largest |${c.measure}| of ${n}${top ? `; largest: ${top}` : ""}.`;
  }

  // layout places the bars; measure(s) is a label's width (the canvas's
  // font; the SVG estimates 6.2 px a character).
  layout(w, h, measure = (s) => 6.2 * s.length) {
    const longest = Math.max(40, ...this.shown.map((b) => Math.min(170, measure(clip(b.label)))));
    // Room for the value written beyond each bar's end, on either side of 0.
    const L = { labels: longest + 6, left: longest + 12 + (this.lo < 0 ? 52 : 0), right: this.hi > 0 ? 64 : 12, top: TOP, rowH: 18, w, h, longest };
    L.width = Math.max(40, w - L.left - L.right);
    L.X = (v) => L.left + ((v - this.lo) / (this.hi - this.lo)) * L.width;
    return L;
  }

  draw() {
    const { g, w, h } = setup(this.canvas);
    const L = this.layout(w, h, (s) => g.measureText(s).width);
    g.fillStyle = "#1d2330"; g.textAlign = "left"; g.textBaseline = "top";
    // The title in two lines at most (it was cut at the canvas's edge), the
    // second ending in "…" when it needs more.
    const lines = wrapText(g, this.titleText(), w - 8);
    if (lines.length > 2) lines.splice(1, lines.length - 1, fitText(g, `${lines.slice(1).join(" ")}`, w - 8));
    lines.forEach((line, i) => g.fillText(line, 4, 4 + 14 * i));
    const x0 = L.X(0);
    this.shown.forEach((b, r) => {
      const y = L.top + r * L.rowH;
      g.fillStyle = "#1d2330"; g.textAlign = "right"; g.textBaseline = "middle";
      g.fillText(fitText(g, clip(b.label), L.longest), L.labels, y + L.rowH / 2);
      const x = L.X(b.value);
      g.fillStyle = b.value >= 0 ? POS : NEG;
      g.fillRect(Math.min(x0, x), y + 3, Math.abs(x - x0), L.rowH - 6);
      g.fillStyle = "#5b6475"; g.textAlign = b.value >= 0 ? "left" : "right";
      g.fillText(b.value.toPrecision(3), b.value >= 0 ? Math.max(x, x0) + 4 : Math.min(x, x0) - 4, y + L.rowH / 2);
    });
    const yAxis = L.top + this.shown.length * L.rowH + 2;
    g.strokeStyle = "#9aa3b2";
    g.beginPath(); g.moveTo(x0 + 0.5, L.top - 2); g.lineTo(x0 + 0.5, yAxis); g.stroke();
    g.beginPath(); g.moveTo(L.X(this.lo), yAxis + 0.5); g.lineTo(L.X(this.hi), yAxis + 0.5); g.stroke();
    g.fillStyle = "#5b6475"; g.textBaseline = "top"; g.textAlign = "center";
    // 0 first; an end whose text would run into one drawn is left out
    // (the bars' own values say it).
    const drawn = [];
    for (const v of ticks(this.lo, this.hi).sort((a, b) => (a === 0 ? -1 : b === 0 ? 1 : 0))) {
      const text = v === 0 ? "0" : fmt(v), half = g.measureText(text).width / 2 + 3, x = L.X(v);
      if (drawn.some(([a, b]) => x + half > a && x - half < b)) continue;
      drawn.push([x - half, x + half]);
      g.fillText(text, x, yAxis + 4);
    }
    g.fillText(this.chart.measure, L.left + L.width / 2, yAxis + 16);
  }

  /** The chart as a standalone SVG document. */
  svg() {
    const w = 640, h = TOP + this.shown.length * 18 + 46;
    const L = this.layout(w, h), x0 = L.X(0);
    let out = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="11"><rect width="100%" height="100%" fill="#fff"/>`;
    // The title in lines of about 100 characters (11 px sans-serif, 6.2 px a character).
    const words = { measureText: (t) => ({ width: 6.2 * t.length }) };
    wrapText(words, this.titleText(), w - 8).forEach((line, i) => { out += `<text x="4" y="${14 + 14 * i}">${esc(line)}</text>`; });
    this.shown.forEach((b, r) => {
      const y = L.top + r * L.rowH, x = L.X(b.value);
      out += `<text x="${L.labels}" y="${y + 13}" text-anchor="end">${esc(clip(b.label))}</text>`;
      out += `<rect x="${Math.min(x0, x).toFixed(1)}" y="${y + 3}" width="${Math.abs(x - x0).toFixed(1)}" height="${L.rowH - 6}" fill="${b.value >= 0 ? POS : NEG}"><title>${esc(isolated(b.label))}: ${b.value}</title></rect>`;
      out += `<text x="${(b.value >= 0 ? Math.max(x, x0) + 4 : Math.min(x, x0) - 4).toFixed(1)}" y="${y + 13}" text-anchor="${b.value >= 0 ? "start" : "end"}" fill="#5b6475">${b.value.toPrecision(3)}</text>`;
    });
    const yAxis = L.top + this.shown.length * L.rowH + 2;
    out += `<line x1="${x0}" y1="${L.top - 2}" x2="${x0}" y2="${yAxis}" stroke="#9aa3b2"/><line x1="${L.X(this.lo)}" y1="${yAxis}" x2="${L.X(this.hi)}" y2="${yAxis}" stroke="#9aa3b2"/>`;
    for (const v of ticks(this.lo, this.hi)) out += `<text x="${L.X(v).toFixed(1)}" y="${yAxis + 14}" text-anchor="middle" fill="#5b6475">${v === 0 ? "0" : esc(fmt(v))}</text>`;
    out += `<text x="${L.left + L.width / 2}" y="${yAxis + 28}" text-anchor="middle" fill="#5b6475">${esc(this.chart.measure)}</text>`;
    return out + "</svg>\n";
  }
}

// The axis ticks: its ends and 0.
function ticks(lo, hi) { return [...new Set([lo, 0, hi])]; }

// A name as drawn: its bidi controls escaped (labels.js visibleName), cut to 28 characters.
const clip = (s) => { s = visibleName(s); return s.length > 28 ? `${s.slice(0, 27)}…` : s; };

// TOP is where the bars start: below a title of two lines.
const TOP = 48;

// fitText cuts s, ending it in "…", to at most width pixels at g's font.
function fitText(g, s, width) {
  if (g.measureText(s).width <= width) return s;
  let n = s.length;
  while (n > 1 && g.measureText(`${s.slice(0, n - 1)}…`).width > width) n--;
  return `${s.slice(0, n - 1)}…`;
}
