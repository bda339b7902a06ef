// charts.js: the per-iteration curves and the per-task error scatter.
import { escapeXML as esc } from "./export.js";

function setup(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth || canvas.width, h = canvas.clientHeight || canvas.height;
  canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.fillStyle = "#fff"; g.fillRect(0, 0, w, h);
  g.font = "11px system-ui, sans-serif";
  return { g, w, h };
}

function extent(values) {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (!Number.isFinite(lo)) return [0, 1];
  if (lo === hi) { const d = Math.abs(lo) * 0.05 || 0.5; return [lo - d, hi + d]; }
  const pad = (hi - lo) * 0.06;
  return [lo - pad, hi + pad];
}

const fmt = (v) => (Math.abs(v) >= 1000 || (Math.abs(v) < 0.01 && v !== 0) ? v.toExponential(1) : v.toPrecision(3));

/** Two stacked line panels: the objective and the mean test score per iteration. */
export class Curves {
  constructor(canvas) { this.canvas = canvas; this.points = []; this.metric = ""; }
  reset(metric) { this.points = []; this.metric = metric || ""; this.draw(); }
  push(iter, objective, score) { this.points.push({ iter, objective, score }); this.draw(); }

  draw() {
    const { g, w, h } = setup(this.canvas);
    const panels = [
      { key: "objective", label: "objective", color: "#2a6df4" },
      { key: "score", label: `mean test ${this.metric.toUpperCase() || "score"}`, color: "#d0562b" },
    ];
    const left = 58, right = 10, gap = 26, top = 18;
    const ph = (h - top - gap - 22) / 2;
    const n = Math.max(this.points.length, 2);
    panels.forEach((p, i) => {
      const y0 = top + i * (ph + gap);
      g.strokeStyle = "#d9dde5"; g.strokeRect(left, y0, w - left - right, ph);
      g.fillStyle = "#1d2330"; g.textAlign = "left"; g.textBaseline = "bottom";
      g.fillText(p.label, left, y0 - 3);
      const vals = this.points.map((q) => q[p.key]);
      const [lo, hi] = extent(vals);
      g.fillStyle = "#5b6475"; g.textAlign = "right"; g.textBaseline = "middle";
      g.fillText(fmt(hi), left - 4, y0 + 6); g.fillText(fmt(lo), left - 4, y0 + ph - 6);
      const X = (k) => left + (k / (n - 1)) * (w - left - right);
      const Y = (v) => y0 + ph - ((v - lo) / (hi - lo)) * ph;
      g.strokeStyle = p.color; g.lineWidth = 2; g.beginPath();
      let started = false;
      this.points.forEach((q, k) => {
        const v = q[p.key];
        if (!Number.isFinite(v)) { started = false; return; } // a gap, never a drawn NaN
        if (started) g.lineTo(X(k), Y(v)); else { g.moveTo(X(k), Y(v)); started = true; }
      });
      g.stroke(); g.lineWidth = 1;
      g.fillStyle = p.color;
      this.points.forEach((q, k) => { if (Number.isFinite(q[p.key])) g.fillRect(X(k) - 2, Y(q[p.key]) - 2, 4, 4); });
    });
    g.fillStyle = "#5b6475"; g.textAlign = "center"; g.textBaseline = "bottom";
    if (this.points.length) g.fillText(`iteration 1 … ${this.points[this.points.length - 1].iter}`, (left + w - right) / 2, h - 2);
  }
}

/** Per-task test error of the self-paced model (x) against another model (y), with y = x. */
export class Scatter {
  constructor(canvas, tooltip, title) {
    this.canvas = canvas; this.tooltip = tooltip; this.title = title;
    this.points = []; this.layout = null;
    canvas.addEventListener("mousemove", (e) => this.hover(e));
    canvas.addEventListener("mouseleave", () => { tooltip.hidden = true; });
  }

  /** points: [{task, x, y}] (NaN points are left out and counted). */
  set(points, xLabel, yLabel) { this.points = points; this.xLabel = xLabel; this.yLabel = yLabel; this.draw(); }

  draw() {
    const { g, w, h } = setup(this.canvas);
    const pts = this.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
    const left = 44, bottom = 34, top = 18, right = 10;
    const size = Math.min(w - left - right, h - top - bottom);
    g.fillStyle = "#1d2330"; g.textAlign = "left"; g.textBaseline = "bottom";
    g.fillText(this.title, left, top - 3);
    g.strokeStyle = "#d9dde5"; g.strokeRect(left, top, size, size);
    if (!pts.length) {
      g.fillStyle = "#5b6475"; g.textBaseline = "middle";
      g.fillText("runs when training finishes", left + 10, top + size / 2);
      this.layout = null;
      return;
    }
    const [lo, hi] = extent(pts.flatMap((p) => [p.x, p.y]));
    const X = (v) => left + ((v - lo) / (hi - lo)) * size;
    const Y = (v) => top + size - ((v - lo) / (hi - lo)) * size;
    g.strokeStyle = "#9aa3b2"; g.setLineDash([4, 3]); g.beginPath(); g.moveTo(X(lo), Y(lo)); g.lineTo(X(hi), Y(hi)); g.stroke(); g.setLineDash([]);
    for (const p of pts) {
      g.fillStyle = p.color || (p.y > p.x ? "#2a9d5c" : "#d0562b");
      g.beginPath(); g.arc(X(p.x), Y(p.y), 3.2, 0, 2 * Math.PI); g.fill();
    }
    g.fillStyle = "#5b6475"; g.textAlign = "center"; g.textBaseline = "top";
    g.fillText(this.xLabel, left + size / 2, top + size + 16);
    g.fillText(fmt(lo), left, top + size + 3); g.fillText(fmt(hi), left + size, top + size + 3);
    g.save(); g.translate(12, top + size / 2); g.rotate(-Math.PI / 2); g.fillText(this.yLabel, 0, -6); g.restore();
    const skipped = this.points.length - pts.length;
    if (skipped) { g.textAlign = "right"; g.fillText(`${skipped} task(s) without a score`, left + size, top + 2); }
    this.layout = { X, Y, pts };
  }

  /** The scatter as a standalone SVG document (tooltips per point). */
  svg() {
    const size = 400, left = 50, top = 30, w = left + size + 150, h = top + size + 40;
    const pts = this.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
    const [lo, hi] = extent(pts.flatMap((p) => [p.x, p.y]));
    const X = (v) => left + ((v - lo) / (hi - lo)) * size, Y = (v) => top + size - ((v - lo) / (hi - lo)) * size;
    let out = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="#fff"/>`;
    out += `<text x="${left}" y="18">${esc(this.title)}</text><rect x="${left}" y="${top}" width="${size}" height="${size}" fill="none" stroke="#999"/>`;
    out += `<line x1="${X(lo)}" y1="${Y(lo)}" x2="${X(hi)}" y2="${Y(hi)}" stroke="#999" stroke-dasharray="4 3"/>`;
    for (const p of pts) out += `<circle cx="${X(p.x).toFixed(1)}" cy="${Y(p.y).toFixed(1)}" r="4" fill="${p.color || "#2a6df4"}"><title>${esc(p.task)}: ${p.x.toPrecision(4)}, ${p.y.toPrecision(4)}</title></circle>`;
    out += `<text x="${left + size / 2}" y="${h - 8}" text-anchor="middle">${esc(this.xLabel)}</text>`;
    out += `<text transform="translate(14 ${top + size / 2}) rotate(-90)" text-anchor="middle">${esc(this.yLabel)}</text>`;
    return out + "</svg>\n";
  }

  hover(e) {
    if (!this.layout) return;
    const rect = this.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left, y = e.clientY - rect.top;
    let best = null, bd = 64;
    for (const p of this.layout.pts) {
      const d = (this.layout.X(p.x) - x) ** 2 + (this.layout.Y(p.y) - y) ** 2;
      if (d < bd) { bd = d; best = p; }
    }
    if (!best) { this.tooltip.hidden = true; return; }
    this.tooltip.textContent = `${best.task}\n${this.xLabel}: ${best.x.toPrecision(4)}\n${this.yLabel}: ${best.y.toPrecision(4)}`;
    this.tooltip.style.left = `${e.clientX + 14}px`; this.tooltip.style.top = `${e.clientY + 10}px`;
    this.tooltip.hidden = false;
  }
}

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
  reset(names) { this.series = names.map((name) => ({ name, points: [] })); this.draw(); }
  add(i, iter, y) { if (Number.isFinite(y)) { this.series[i].points.push([iter, y]); this.draw(); } }

  geometry(w, h) {
    const all = this.series.flatMap((s) => s.points);
    const [xlo, xhi] = [1, Math.max(2, ...all.map((p) => p[0]))];
    const [ylo, yhi] = extent(all.map((p) => p[1]));
    const L = { left: 58, right: 120, top: 22, bottom: 30 };
    L.X = (x) => L.left + ((x - xlo) / (xhi - xlo)) * (w - L.left - L.right);
    L.Y = (y) => h - L.bottom - ((y - ylo) / (yhi - ylo)) * (h - L.top - L.bottom);
    Object.assign(L, { xlo, xhi, ylo, yhi, w, h });
    return L;
  }

  draw() {
    const { g, w, h } = setup(this.canvas);
    const L = this.geometry(w, h);
    this.L = L;
    g.strokeStyle = "#d9dde5"; g.strokeRect(L.left, L.top, w - L.left - L.right, h - L.top - L.bottom);
    g.fillStyle = "#1d2330"; g.textAlign = "left"; g.textBaseline = "bottom"; g.fillText(this.title, L.left, L.top - 4);
    g.fillStyle = "#5b6475"; g.textAlign = "right"; g.textBaseline = "middle";
    g.fillText(fmt(L.yhi), L.left - 4, L.top + 6); g.fillText(fmt(L.ylo), L.left - 4, h - L.bottom - 6);
    g.textAlign = "center"; g.textBaseline = "top";
    g.fillText(`iteration ${L.xlo} … ${L.xhi}`, (L.left + w - L.right) / 2, h - L.bottom + 6);
    this.series.forEach((s, i) => {
      const col = PALETTE[i % PALETTE.length];
      g.strokeStyle = col; g.lineWidth = 2; g.beginPath();
      s.points.forEach(([x, y], k) => (k ? g.lineTo(L.X(x), L.Y(y)) : g.moveTo(L.X(x), L.Y(y))));
      g.stroke(); g.lineWidth = 1;
      g.fillStyle = col; g.fillRect(w - L.right + 10, L.top + i * 16, 10, 10);
      g.fillStyle = "#1d2330"; g.textAlign = "left"; g.textBaseline = "top"; g.fillText(s.name, w - L.right + 24, L.top + i * 16);
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
