// tune-map.js: the cross-validation scores of a tuning grid as a small
// heatmap: ρ down, the multiples of the automatic λ0 across (one column for
// a baseline, which has no λ0), brighter for a better score, the chosen
// cell outlined and starred. A point not scored yet is blank and one whose
// fits all failed is grey with "n/a": neither takes a colour of the scale.
import { escapeXML as esc } from "./export.js";
import { setup, drawSoon } from "./chart-kit.js";

// Viridis at nine stops: perceptually uniform and never white, so a scored
// cell never looks like an empty one.
const STOPS = [[68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
  [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37]];

function viridis(t) {
  const x = Math.min(1, Math.max(0, t)) * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x)), f = x - i;
  return STOPS[i].map((a, k) => Math.round(a + f * (STOPS[i + 1][k] - a)));
}

/** The heatmap of a tuning grid's scores. */
export class TuneMap {
  constructor(canvas) { this.canvas = canvas; this.grid = null; this.scores = []; this.best = null; drawSoon(this); }

  /** grid: {rho, kappa, metric}; scores[i][j]: a number, null (failed) or undefined (not yet); best: [i, j] or null. */
  set(grid, scores, best) {
    this.grid = grid; this.scores = scores; this.best = best;
    this.canvas.setAttribute("aria-label", this.describe());
    drawSoon(this);
  }

  get higherBetter() { return this.grid && this.grid.metric === "auc"; }

  /** The range of the scores so far, [worst, best] as numbers (null when none). */
  range() {
    const v = this.scores.flat().filter((x) => typeof x === "number");
    if (!v.length) return null;
    const lo = Math.min(...v), hi = Math.max(...v);
    return this.higherBetter ? [lo, hi] : [hi, lo];
  }

  /** 0 for the worst score so far, 1 for the best. */
  goodness(v) {
    const r = this.range();
    if (!r || r[0] === r[1]) return 1;
    return (v - r[0]) / (r[1] - r[0]);
  }

  colLabels() { return this.grid.kappa.length ? this.grid.kappa.map((k) => (k === 1 ? "auto" : `${k}×`)) : ["no λ0 (baseline)"]; }

  describe() {
    if (!this.grid) return "cross-validation scores: no tuning run yet";
    const m = this.grid.metric.toUpperCase();
    const over = this.grid.kappa.length ? `ρ (${this.grid.rho.length} values, rows) and λ0 as multiples of the automatic λ0 (${this.grid.kappa.length} values, columns)` : `ρ (${this.grid.rho.length} values)`;
    let s = `Heatmap of the mean cross-validation ${m} over ${over}; brighter is better.`;
    // A point whose fits all failed (null) is not "scored": a grid that
    // failed everywhere must not read as complete.
    const all = this.scores.flat(), failed = all.filter((x) => x === null).length;
    s += ` ${all.filter((x) => typeof x === "number").length} of ${this.grid.rho.length * Math.max(1, this.grid.kappa.length)} points scored${failed ? `; ${failed} failed (no score)` : ""}.`;
    if (this.best) {
      const [i, j] = this.best, v = this.scores[i][j];
      s += ` Chosen: ρ = ${this.grid.rho[i]}${this.grid.kappa.length ? `, λ0 = ${this.colLabels()[j] === "auto" ? "auto" : `auto × ${this.grid.kappa[j]}`}` : ""}, ${m} ${typeof v === "number" ? v.toFixed(4) : "n/a"}.`;
    }
    return s;
  }

  geometry(w, h) {
    const rows = this.grid.rho.length, cols = Math.max(1, this.grid.kappa.length);
    const L = { left: 56, top: 30, bottom: 34, right: 8 };
    L.cw = Math.min(70, (w - L.left - L.right) / cols);
    L.rh = (h - L.top - L.bottom) / rows;
    L.rows = rows; L.cols = cols;
    return L;
  }

  // cells lists what each cell shows: {x, y, w, h, fill, text, ink, chosen}.
  cells(L) {
    const out = [];
    this.grid.rho.forEach((_, i) => {
      for (let j = 0; j < L.cols; j++) {
        const v = this.scores[i] ? this.scores[i][j] : undefined;
        const c = { x: L.left + j * L.cw, y: L.top + i * L.rh, w: L.cw, h: L.rh, chosen: !!this.best && this.best[0] === i && this.best[1] === j };
        if (v === undefined) Object.assign(c, { fill: "#ffffff", text: "…", ink: "#9aa3b2" });
        else if (v === null) Object.assign(c, { fill: "#e4e6eb", text: "n/a", ink: "#5b6475" });
        else {
          const t = this.goodness(v), [R, G, B] = viridis(t);
          Object.assign(c, { fill: `rgb(${R},${G},${B})`, text: v.toPrecision(4), ink: t > 0.6 ? "#1d2330" : "#ffffff" });
        }
        out.push(c);
      }
    });
    return out;
  }

  legend() {
    const r = this.range(), m = this.grid.metric.toUpperCase();
    const scale = r ? `${m} from ${r[0].toPrecision(4)} (dark) to ${r[1].toPrecision(4)} (bright)` : `${m}: none yet`;
    return `${scale}; ★ chosen; grey: every fit failed`;
  }

  draw() {
    const { g, w, h } = setup(this.canvas);
    if (!this.grid) {
      g.fillStyle = "#5b6475"; g.textBaseline = "middle";
      g.fillText("Press “Tune ρ and λ0” to cross-validate the grid.", 10, h / 2);
      return;
    }
    const L = this.geometry(w, h);
    g.fillStyle = "#1d2330"; g.textAlign = "left"; g.textBaseline = "top";
    g.fillText(this.grid.kappa.length ? "ρ ↓   λ0 = multiple of auto →" : "ρ ↓", 4, 4);
    g.textAlign = "center";
    this.colLabels().forEach((s, j) => g.fillText(s, L.left + (j + 0.5) * L.cw, 17));
    g.textAlign = "right"; g.textBaseline = "middle";
    this.grid.rho.forEach((rho, i) => g.fillText(String(rho), L.left - 6, L.top + (i + 0.5) * L.rh));
    g.textAlign = "center";
    for (const c of this.cells(L)) {
      g.fillStyle = c.fill; g.fillRect(c.x, c.y, c.w - 1, c.h - 1);
      g.fillStyle = c.ink; g.fillText(c.chosen ? `★ ${c.text}` : c.text, c.x + c.w / 2, c.y + c.h / 2);
      if (c.chosen) { g.strokeStyle = "#d0562b"; g.lineWidth = 3; g.strokeRect(c.x + 1.5, c.y + 1.5, c.w - 4, c.h - 4); g.lineWidth = 1; }
    }
    g.fillStyle = "#5b6475"; g.textAlign = "left"; g.textBaseline = "top";
    g.fillText(this.legend(), 4, L.top + L.rows * L.rh + 8);
    this.layout = L;
  }

  /** The heatmap as a standalone SVG document. */
  svg() {
    if (!this.grid) return `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n`;
    const w = 560, h = 40 + this.grid.rho.length * 26 + 40, L = this.geometry(w, h);
    let out = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="11"><rect width="100%" height="100%" fill="#fff"/>`;
    out += `<text x="4" y="12">${this.grid.kappa.length ? "ρ ↓   λ0 = multiple of auto →" : "ρ ↓"}</text>`;
    this.colLabels().forEach((s, j) => { out += `<text x="${L.left + (j + 0.5) * L.cw}" y="26" text-anchor="middle">${esc(s)}</text>`; });
    this.grid.rho.forEach((rho, i) => { out += `<text x="${L.left - 6}" y="${L.top + (i + 0.5) * L.rh + 4}" text-anchor="end">${rho}</text>`; });
    for (const c of this.cells(L)) {
      out += `<rect x="${c.x.toFixed(1)}" y="${c.y.toFixed(1)}" width="${(c.w - 1).toFixed(1)}" height="${(c.h - 1).toFixed(1)}" fill="${c.fill}"${c.chosen ? ' stroke="#d0562b" stroke-width="3"' : ""}/>`;
      out += `<text x="${(c.x + c.w / 2).toFixed(1)}" y="${(c.y + c.h / 2 + 4).toFixed(1)}" text-anchor="middle" fill="${c.ink}">${c.chosen ? "★ " : ""}${esc(c.text)}</text>`;
    }
    out += `<text x="4" y="${h - 10}" fill="#5b6475">${esc(this.legend())}</text>`;
    return out + "</svg>\n";
  }
}
