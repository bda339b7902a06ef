// multiline.js: several series against the iteration (the Figures sweeps),
// with a legend (beside the plot, or under it on a narrow screen), a hover
// read-out, a sentence for screen readers and an SVG copy.
import { escapeXML as esc } from "./export.js";
import { setup, extent, fmt, drawSoon } from "./chart-kit.js";

const PALETTE = ["#2a6df4", "#d0562b", "#2a9d5c", "#8e44ad", "#c49a00", "#16a3b5", "#7f8c8d", "#e84393"];

/** Several series against the iteration, with a legend and hover read-out;
 *  it can also render itself as SVG. */
export class MultiLine {
  constructor(canvas, tooltip, title, ylabel) {
    this.canvas = canvas; this.tooltip = tooltip; this.title = title; this.ylabel = ylabel;
    this.series = []; // {name, points: [[iter, y], ...]}
    canvas.addEventListener("mousemove", (e) => this.hover(e));
    canvas.addEventListener("mouseleave", () => { tooltip.hidden = true; });
  }
  reset(names) { this.series = names.map((name) => ({ name, points: [] })); drawSoon(this); }

  /** A sentence for screen readers: the series and where each ended. */
  describe() {
    if (!this.series.length) return `${this.title}: no sweep run yet.`;
    const ends = this.series.map((s) => `${s.name}: ${s.points.length ? `${fmt(s.points[s.points.length - 1][1])} after ${s.points.length} iterations` : "not started"}`);
    return `${this.title}, ${this.series.length} runs; ${ends.join("; ")}.`;
  }

  // legendAt places series i's key: beside the plot, or in two columns under it.
  legendAt(L, i) {
    if (!L.narrow) return [L.w - L.right + 10, L.top + i * 16];
    return [L.left + (i % 2) * ((L.w - L.left) / 2), L.h - L.bottom + 30 + Math.floor(i / 2) * 16];
  }
  add(i, iter, y) { if (Number.isFinite(y)) { this.series[i].points.push([iter, y]); drawSoon(this); } }

  geometry(w, h) {
    const all = this.series.flatMap((s) => s.points);
    const [xlo, xhi] = [1, Math.max(2, ...all.map((p) => p[0]))];
    const [ylo, yhi] = extent(all.map((p) => p[1]));
    const narrow = w < 480;
    const L = { left: 58, right: narrow ? 12 : 120, top: 22, bottom: narrow ? 34 + 16 * Math.ceil(this.series.length / 2) : 30, narrow };
    L.X = (x) => L.left + ((x - xlo) / (xhi - xlo)) * (w - L.left - L.right);
    L.Y = (y) => h - L.bottom - ((y - ylo) / (yhi - ylo)) * (h - L.top - L.bottom);
    Object.assign(L, { xlo, xhi, ylo, yhi, w, h });
    return L;
  }

  draw() {
    this.canvas.setAttribute("aria-label", this.describe());
    const { g, w, h } = setup(this.canvas);
    const L = this.geometry(w, h);
    this.L = L;
    g.strokeStyle = "#d9dde5"; g.strokeRect(L.left, L.top, w - L.left - L.right, h - L.top - L.bottom);
    g.fillStyle = "#1d2330"; g.textAlign = "left"; g.textBaseline = "bottom"; g.fillText(this.title, L.left, L.top - 4);
    if (!this.series.some((s) => s.points.length)) {
      // No numbers yet: no axis to read numbers off.
      g.fillStyle = "#5b6475"; g.textBaseline = "middle";
      g.fillText(this.series.length ? "waiting for the first iteration…" : "no sweep yet: press “Run sweep”", L.left + 10, (L.top + h - L.bottom) / 2);
      return;
    }
    g.fillStyle = "#5b6475"; g.textAlign = "right"; g.textBaseline = "middle";
    g.fillText(fmt(L.yhi), L.left - 4, L.top + 6); g.fillText(fmt(L.ylo), L.left - 4, h - L.bottom - 6);
    g.textAlign = "center"; g.textBaseline = "top";
    g.fillText(`iteration ${L.xlo} … ${L.xhi}`, (L.left + w - L.right) / 2, h - L.bottom + 6);
    this.series.forEach((s, i) => {
      const col = PALETTE[i % PALETTE.length];
      g.strokeStyle = col; g.lineWidth = 2; g.beginPath();
      s.points.forEach(([x, y], k) => (k ? g.lineTo(L.X(x), L.Y(y)) : g.moveTo(L.X(x), L.Y(y))));
      g.stroke(); g.lineWidth = 1;
      const [kx, ky] = this.legendAt(L, i);
      g.fillStyle = col; g.fillRect(kx, ky, 10, 10);
      g.fillStyle = "#1d2330"; g.textAlign = "left"; g.textBaseline = "top"; g.fillText(s.name, kx + 14, ky);
    });
  }

  hover(e) {
    if (!this.L) return;
    const r = this.canvas.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top;
    let best = null, bd = 100;
    this.series.forEach((s) => s.points.forEach(([px, py]) => {
      const d = (this.L.X(px) - x) ** 2 + (this.L.Y(py) - y) ** 2;
      if (d < bd) { bd = d; best = { s: s.name, px, py }; }
    }));
    if (!best) { this.tooltip.hidden = true; return; }
    this.tooltip.textContent = `${best.s}\niteration ${best.px}\n${this.ylabel} = ${best.py.toPrecision(5)}`;
    this.tooltip.style.left = `${e.clientX + 14}px`; this.tooltip.style.top = `${e.clientY + 10}px`;
    this.tooltip.hidden = false;
  }

  /** The chart as a standalone SVG document. */
  svg() {
    const w = 640, h = 360, L = this.geometry(w, h);
    let out = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="#fff"/>`;
    out += `<text x="${L.left}" y="16">${esc(this.title)}</text><rect x="${L.left}" y="${L.top}" width="${w - L.left - L.right}" height="${h - L.top - L.bottom}" fill="none" stroke="#999"/>`;
    out += `<text x="${L.left - 4}" y="${L.top + 10}" text-anchor="end">${esc(fmt(L.yhi))}</text><text x="${L.left - 4}" y="${h - L.bottom}" text-anchor="end">${esc(fmt(L.ylo))}</text>`;
    out += `<text x="${(L.left + w - L.right) / 2}" y="${h - 8}" text-anchor="middle">iteration ${L.xlo} … ${L.xhi}</text>`;
    this.series.forEach((s, i) => {
      const col = PALETTE[i % PALETTE.length];
      const d = s.points.map(([x, y], k) => `${k ? "L" : "M"}${L.X(x).toFixed(1)} ${L.Y(y).toFixed(1)}`).join(" ");
      out += `<path d="${d}" fill="none" stroke="${col}" stroke-width="2"><title>${esc(s.name)}</title></path>`;
      out += `<rect x="${w - L.right + 10}" y="${L.top + i * 16}" width="10" height="10" fill="${col}"/><text x="${w - L.right + 24}" y="${L.top + i * 16 + 10}">${esc(s.name)}</text>`;
    });
    return out + "</svg>\n";
  }
}
