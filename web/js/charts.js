// charts.js: the per-iteration curves and the per-task error scatter.

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
