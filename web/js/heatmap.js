// heatmap.js: the tasks × steps heatmap on a canvas, with a colour legend, a
// hover read-out, two task orders and an SVG copy. A self-paced run shows τ
// per iteration; a sequential run (CL, ELLA) the task learned at each step
// (and the ones learned before it), from the snapshot's seq.
import { escapeXML as esc } from "./export.js";
import { drawSoon } from "./chart-kit.js";

// Viridis, sampled at nine stops (perceptually uniform, never white, so
// every drawn cell differs from the background).
const STOPS = [[68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
  [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37]];

/** Returns the viridis colour of t in [0, 1] as [r, g, b]. */
export function viridis(t) {
  t = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0));
  const x = t * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  return STOPS[i].map((a, k) => Math.round(a + f * (STOPS[i + 1][k] - a)));
}

// A sequential run's cells: the task learned at this step, one learned
// before, one not learned yet.
const LEARNED_NOW = 1, LEARNED_BEFORE = 0.45, NOT_YET = 0;

/** The run's heatmap. */
export class Heatmap {
  constructor(canvas, legend, tooltip) {
    this.canvas = canvas;
    this.legend = legend;
    this.tooltip = tooltip;
    this.tasks = [];
    this.kind = "parallel";
    this.history = []; // snapshots
    this.entered = []; // per task, when the learner let it in (evaluate's enteredAt; 0: not yet)
    this.order = "name";
    this.layout = null;
    canvas.addEventListener("mousemove", (e) => this.hover(e));
    canvas.addEventListener("mouseleave", () => { tooltip.hidden = true; });
  }

  /** Clears the map for a run over tasks; kind is "parallel" or "sequential". */
  reset(tasks, kind = "parallel") { this.tasks = tasks; this.kind = kind; this.history = []; this.entered = []; drawSoon(this); }
  /** Adds a snapshot and the run's enteredAt after it. */
  push(snap, enteredAt) { this.history.push(snap); if (enteredAt) this.entered = enteredAt; drawSoon(this); }
  setOrder(order) { this.order = order; drawSoon(this); }
  get sequential() { return this.kind === "sequential"; }
  get stepWord() { return this.sequential ? "step" : "iteration"; }

  /** When the learner let task t in (1-based), or Infinity. */
  enteredAt(t) { return this.entered[t] > 0 ? this.entered[t] : Infinity; }

  rowOrder() {
    const idx = this.tasks.map((_, i) => i);
    if (this.order === "easy") {
      const at = idx.map((t) => this.enteredAt(t));
      idx.sort((a, b) => at[a] - at[b] || this.tasks[a].localeCompare(this.tasks[b]));
    } else {
      idx.sort((a, b) => this.tasks[a].localeCompare(this.tasks[b], undefined, { numeric: true }));
    }
    return idx;
  }

  /** The value drawn for task t in snapshot s: τ, or a sequential cell. */
  value(s, t) {
    if (!s.seq) return s.tau[t];
    if (s.seq.task === t) return LEARNED_NOW;
    return s.seq.order.includes(t) ? LEARNED_BEFORE : NOT_YET;
  }

  /** The colour range: the smallest and largest τ of the history. */
  range() {
    if (this.sequential) return [0, 1];
    let lo = Infinity, hi = 0;
    for (const s of this.history) for (const v of s.tau) { if (v > hi) hi = v; if (v < lo) lo = v; }
    if (!Number.isFinite(lo)) return [0, 1];
    if (hi - lo < 1e-12) return [Math.max(0, lo - 1e-3), hi + 1e-3];
    return [lo, hi];
  }

  draw() {
    const c = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const w = c.clientWidth || 900, h = c.clientHeight || 380;
    c.width = Math.round(w * dpr); c.height = Math.round(h * dpr);
    const g = c.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = "#ffffff";
    g.fillRect(0, 0, w, h);
    const T = this.tasks.length;
    const left = 96, top = 8, bottom = 26, right = 10;
    const pw = w - left - right, ph = h - top - bottom;
    const cols = Math.max(this.history.length, 1);
    const rowH = T ? ph / T : ph;
    const colW = pw / cols;
    this.layout = { left, top, width: pw, height: ph, rowH, colW, rows: T, cols: this.history.length, dpr };
    g.font = "11px system-ui, sans-serif";
    g.fillStyle = "#5b6475";
    if (!T) return;
    const order = this.rowOrder();
    this.order_ = order;
    this.layout.order = order; // row r shows task order[r]
    const [lo, hi] = this.range();
    // Rows shorter than a label: label every k-th.
    const every = Math.max(1, Math.ceil(12 / rowH));
    order.forEach((t, r) => {
      const y = top + r * rowH;
      this.history.forEach((s, k) => {
        const [R, G, B] = viridis((this.value(s, t) - lo) / (hi - lo));
        g.fillStyle = `rgb(${R},${G},${B})`;
        // Overlap by a pixel fraction to avoid hairline gaps between cells.
        g.fillRect(left + k * colW, y, Math.ceil(colW + 0.5), Math.max(rowH - (rowH > 6 ? 1 : 0), 0.75));
      });
      if (r % every === 0) {
        g.fillStyle = "#1d2330";
        g.textAlign = "right"; g.textBaseline = "middle";
        g.fillText(this.tasks[t].slice(0, 14), left - 6, y + rowH / 2);
      }
    });
    g.fillStyle = "#5b6475"; g.textAlign = "center"; g.textBaseline = "top";
    const stepLabel = Math.max(1, Math.ceil(28 / colW));
    this.history.forEach((s, k) => {
      if (k % stepLabel === 0 || k === this.history.length - 1) g.fillText(String(s.iter), left + (k + 0.5) * colW, top + ph + 4);
    });
    g.textAlign = "left";
    g.fillText(`${this.stepWord} →`, left, top + ph + 14 > h - 10 ? h - 11 : top + ph + 14);
    this.drawLegend(lo, hi);
  }

  drawLegend(lo, hi) {
    const c = this.legend, g = c.getContext("2d");
    const w = c.width, h = c.height;
    g.clearRect(0, 0, w, h);
    g.fillStyle = "#5b6475"; g.font = "11px system-ui, sans-serif"; g.textBaseline = "top";
    if (this.sequential) {
      let x = 4;
      for (const [v, label] of [[LEARNED_NOW, "learned at this step"], [LEARNED_BEFORE, "learned before"], [NOT_YET, "not yet learned"]]) {
        const [R, G, B] = viridis(v);
        g.fillStyle = `rgb(${R},${G},${B})`;
        g.fillRect(x, 4, 12, 12);
        g.fillStyle = "#5b6475"; g.textAlign = "left";
        g.fillText(label, x + 16, 4);
        x += 24 + g.measureText(label).width;
      }
      return;
    }
    for (let x = 0; x < w - 80; x++) {
      const [R, G, B] = viridis(x / (w - 81));
      g.fillStyle = `rgb(${R},${G},${B})`;
      g.fillRect(x + 40, 4, 1, 12);
    }
    g.fillStyle = "#5b6475";
    g.textAlign = "right"; g.fillText(`τ ${lo.toPrecision(3)}`, 38, 4);
    g.textAlign = "left"; g.fillText(hi.toPrecision(3), w - 38, 4);
    g.fillText(`uniform 1/T = ${(1 / Math.max(this.tasks.length, 1)).toPrecision(3)}`, 40, 20);
  }

  /** What a cell says: τ, or what happened to the task at that step. */
  cellText(s, t) {
    if (!s.seq) return `τ = ${s.tau[t].toPrecision(4)}`;
    if (s.seq.task === t) return "learned at this step";
    const j = s.seq.order.indexOf(t);
    if (j >= 0) return `learned at step ${j + 1}`;
    const score = s.seq.scores[t];
    return Number.isFinite(score) ? `not yet learned (selection score ${score.toPrecision(4)})` : "not yet learned";
  }

  /** The heatmap as a standalone SVG document (a read-out per cell). */
  svg() {
    const T = this.tasks.length, K = this.history.length;
    const left = 100, top = 20, cw = Math.max(8, Math.min(40, 600 / Math.max(K, 1))), rh = Math.max(4, Math.min(18, 500 / Math.max(T, 1)));
    const w = left + K * cw + 20, h = top + T * rh + 30;
    const [lo, hi] = this.range();
    let out = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="11"><rect width="100%" height="100%" fill="#fff"/>`;
    this.rowOrder().forEach((t, r) => {
      if (rh >= 9 || r % Math.ceil(9 / rh) === 0) out += `<text x="${left - 4}" y="${top + r * rh + rh * 0.75}" text-anchor="end">${esc(this.tasks[t])}</text>`;
      this.history.forEach((s, k) => {
        const [R, G, B] = viridis((this.value(s, t) - lo) / (hi - lo));
        out += `<rect x="${left + k * cw}" y="${top + r * rh}" width="${cw + 0.3}" height="${rh + 0.3}" fill="rgb(${R},${G},${B})"><title>${esc(this.tasks[t])}, ${this.stepWord} ${s.iter}: ${esc(this.cellText(s, t))}</title></rect>`;
      });
    });
    const key = this.sequential ? "yellow: learned at this step, teal: learned before, dark: not yet"
      : `τ from ${lo.toPrecision(3)} (dark) to ${hi.toPrecision(3)} (yellow)`;
    out += `<text x="${left}" y="${h - 8}">${this.stepWord} 1 … ${K}; ${key}</text>`;
    return out + "</svg>\n";
  }

  cellAt(e) {
    const L = this.layout;
    if (!L || !this.history.length || L.rows !== this.tasks.length) return null; // not drawn yet
    const rect = this.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left, y = e.clientY - rect.top;
    const k = Math.floor((x - L.left) / L.colW), r = Math.floor((y - L.top) / L.rowH);
    if (k < 0 || k >= L.cols || r < 0 || r >= L.rows) return null;
    return { task: this.order_[r], k };
  }

  hover(e) {
    const cell = this.cellAt(e);
    if (!cell) { this.tooltip.hidden = true; return; }
    const s = this.history[cell.k];
    const t = cell.task;
    this.tooltip.textContent = s.seq
      ? `${this.tasks[t]}\nstep ${s.iter}: learned ${this.tasks[s.seq.task]}\n${this.cellText(s, t)}`
      : `${this.tasks[t]}\niteration ${s.iter}   λ = ${s.lambda.toPrecision(4)}\n${this.cellText(s, t)}   task loss = ${s.loss[t].toPrecision(4)}`;
    this.tooltip.style.left = `${e.clientX + 14}px`;
    this.tooltip.style.top = `${e.clientY + 10}px`;
    this.tooltip.hidden = false;
  }
}
