// tune-map.js: the cross-validation scores of a tuning grid as a small
// heatmap: ρ down, the multiples of the automatic λ0 across (one column for
// a baseline, which has no λ0), brighter for a better score, the chosen
// cell outlined and starred. The colours span at least one standard error
// of the chosen score, so that differences within the noise look alike;
// a flat λ0 grid (every multiple
// tied) says so in the footnote. A point not scored yet is blank and one whose
// fits all failed is grey with "n/a": neither takes a colour of the scale.
// Every text is fitted to the canvas (a phone's is ~280 px wide): the cell
// labels take the largest type and most digits that fit every cell, or
// are left out; the column headers shrink; the footnote wraps. The text
// alternative keeps every score, whatever the cells could show.
import { escapeXML as esc } from "./export.js";
import { setup, drawSoon, wrapText as wrap } from "./chart-kit.js";

const INK = "#1d2330", MUTED = "#5b6475";
// Type sizes tried, largest first: below 9 px a label is not worth reading
// on the canvas (the text alternative and the CSV have every number).
const SIZES = [11, 10, 9];
const font = (px) => `${px}px system-ui, sans-serif`;
const FOOT_LINE = 13; // px between the footnote's lines


// scoreText writes a score with the given significant digits.
const scoreText = (v, digits) => (v === undefined ? "…" : v === null ? "n/a" : v.toPrecision(digits));

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
// rhoLabel writes a ρ of the search to three significant digits: the search
// steps by quarter decades (0.5623413251903493 is 10^-0.25), whose full
// digits would not fit a row label and mean nothing more.
const rhoLabel = (rho) => String(Number(Number(rho).toPrecision(3)));

export class TuneMap {
  constructor(canvas) { this.canvas = canvas; this.grid = null; this.scores = []; this.best = null; this.se = NaN; this.flat = false; drawSoon(this); }

  /** grid: {rho, kappa, metric}; scores[i][j]: a number, null (failed) or
   *  undefined (not yet); best: [i, j] or null; opts: {se, flat}, the
   *  chosen score's standard error and whether the λ0 grid is flat. */
  set(grid, scores, best, opts = {}) {
    this.grid = grid; this.scores = scores; this.best = best;
    this.se = typeof opts.se === "number" ? opts.se : NaN; this.flat = !!opts.flat;
    // stage: which part of a staged search the grid is ("" for a whole grid).
    this.stage = opts.stage || "";
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

  /** 0 for the worst score so far (or one SE below the best, when the
   *  scores span less than that), 1 for the best. */
  goodness(v) {
    const r = this.range();
    if (!r) return 1;
    let worst = r[0];
    if (this.se > 0 && Math.abs(r[1] - worst) < this.se) worst = this.higherBetter ? r[1] - this.se : r[1] + this.se;
    if (worst === r[1]) return 1;
    return (v - worst) / (r[1] - worst);
  }

  // narrow tells whether the scores span less than one standard error.
  narrow() { const r = this.range(); return !!r && this.se > 0 && Math.abs(r[1] - r[0]) < this.se; }

  colLabels() { return this.grid.kappa.length ? this.grid.kappa.map((k) => (k === 1 ? "auto" : `${k}×`)) : ["no λ0 (baseline)"]; }

  describe() {
    if (!this.grid) return "cross-validation scores: no tuning run yet";
    const nk = Math.max(1, this.grid.kappa.length);
    const m = this.grid.metric.toUpperCase();
    const over = this.grid.kappa.length ? `ρ (${this.grid.rho.length} values, rows) and λ0 as multiples of the automatic λ0 (${this.grid.kappa.length} values, columns)` : `ρ (${this.grid.rho.length} values)`;
    let s = `Heatmap of the mean cross-validation ${m} over ${over}${this.stage ? ` (${this.stage})` : ""}; brighter is better.`;
    // A point whose fits all failed (null) is not "scored": a grid that
    // failed everywhere must not read as complete.
    const all = this.scores.flat(), failed = all.filter((x) => x === null).length;
    const scored = all.filter((x) => typeof x === "number").length;
    s += ` ${scored} of ${this.grid.rho.length * nk} points scored${failed ? `; ${failed} failed (no score)` : ""}.`;
    // Every score as a cell shows it at full size: on a narrow canvas the
    // cells may show fewer digits, or none.
    if (scored + failed > 0) {
      const rows = this.grid.rho.map((rho, i) => `ρ = ${rhoLabel(rho)}: ${Array.from({ length: nk }, (_, j) => {
        const v = this.scores[i] ? this.scores[i][j] : undefined;
        return v === undefined ? "not yet" : scoreText(v, 4);
      }).join(", ")}`);
      s += ` Scores by ρ${this.grid.kappa.length ? ` (columns ${this.colLabels().join(", ")})` : ""}: ${rows.join("; ")}.`;
    }
    if (this.flat) s += " Flat: every λ0 scored within one standard error of the best, so the pace's strength makes no difference here; the simplest λ0 (the most even weighting) is chosen.";
    if (this.best) {
      const [i, j] = this.best, v = this.scores[i][j];
      s += ` Chosen: ρ = ${rhoLabel(this.grid.rho[i])}${this.grid.kappa.length ? `, λ0 = ${this.colLabels()[j] === "auto" ? "auto" : `auto × ${this.grid.kappa[j]}`}` : ""}, ${m} ${typeof v === "number" ? v.toFixed(4) : "n/a"}.`;
    }
    return s;
  }

  // geometry places the grid: left is the row labels' width, footLines
  // the footnote's lines under the grid.
  geometry(w, h, left = 56, footLines = 1) {
    const rows = this.grid.rho.length, cols = Math.max(1, this.grid.kappa.length);
    const L = { left, top: 30, bottom: 21 + footLines * FOOT_LINE, right: 8 };
    L.cw = Math.min(70, (w - L.left - L.right) / cols);
    L.rh = (h - L.top - L.bottom) / rows;
    L.rows = rows; L.cols = cols;
    return L;
  }

  // cellLabels chooses how the cells' labels are written: the largest
  // type, then the most digits, with which every label fits its cell
  // ({px, digits}), or null when none fits (the labels are left out).
  // One choice for the whole map, so that every cell reads alike. Digits
  // that print two different scores alike are not a choice (seven cells
  // of "0.116" in seven colours read as a broken map: the colours then
  // carry the scores alone), and the chosen cell's label fits with its ★
  // inside its outline (the caption promises the ★).
  cellLabels(g, L) {
    const values = this.scores.flat();
    const scored = values.filter((v) => typeof v === "number");
    const distinct = new Set(scored).size;
    const best = this.best && this.scores[this.best[0]] ? this.scores[this.best[0]][this.best[1]] : undefined;
    for (const digits of [4, 3, 2]) {
      if (new Set(scored.map((v) => scoreText(v, digits))).size < distinct) break;
      for (const px of SIZES) {
        if (px > L.rh - 2) continue;
        g.font = font(px);
        if (values.every((v) => g.measureText(scoreText(v, digits)).width <= L.cw - 4) &&
          (best === undefined || g.measureText(`★${scoreText(best, digits)}`).width <= L.cw - 10)) return { px, digits };
      }
    }
    return null;
  }

  // fitted returns the first of the texts that fits width at one of the
  // sizes (largest first), as {text, px}, or null.
  fitted(g, texts, width) {
    for (const text of texts) {
      for (const px of SIZES) {
        g.font = font(px);
        if (g.measureText(text).width <= width) return { text, px };
      }
    }
    return null;
  }

  // cells lists what each cell shows: {x, y, w, h, fill, text, ink, chosen}.
  cells(L, digits = 4) {
    const out = [];
    this.grid.rho.forEach((_, i) => {
      for (let j = 0; j < L.cols; j++) {
        const v = this.scores[i] ? this.scores[i][j] : undefined;
        const c = { x: L.left + j * L.cw, y: L.top + i * L.rh, w: L.cw, h: L.rh, chosen: !!this.best && this.best[0] === i && this.best[1] === j };
        if (v === undefined) Object.assign(c, { fill: "#ffffff", text: "…", ink: "#9aa3b2" });
        else if (v === null) Object.assign(c, { fill: "#e4e6eb", text: "n/a", ink: MUTED });
        else {
          const t = this.goodness(v), [R, G, B] = viridis(t);
          Object.assign(c, { fill: `rgb(${R},${G},${B})`, text: scoreText(v, digits), ink: t > 0.6 ? INK : "#ffffff" });
        }
        out.push(c);
      }
    });
    return out;
  }

  legend() {
    const r = this.range(), m = this.grid.metric.toUpperCase();
    // No score: "none yet" while points are pending, not after every one failed.
    const none = this.scores.flat().some((x) => x === undefined) ? "none yet" : "no point could be scored";
    let scale = r ? `${m} from ${r[0].toPrecision(4)} (dark) to ${r[1].toPrecision(4)} (bright)` : `${m}: ${none}`;
    if (r && this.narrow()) {
      const [a, b] = [r[0].toPrecision(4), r[1].toPrecision(4)];
      scale = `${m} ${a === b ? `${a} at every point` : `${a} to ${b}`}, under one SE (${this.se.toPrecision(2)}) apart: the colours span one SE`;
    }
    const flat = this.flat ? "flat: every λ0 ties; ★ the simplest; " : "";
    // The outline and the ★ mark the chosen cell at every width (the ★
    // alone when the cells have no room for their scores).
    return `${this.stage ? `${this.stage}; ` : ""}${flat}${scale}; outlined ★: chosen; grey n/a: could not be scored`;
  }

  draw() {
    const { g, w, h } = setup(this.canvas);
    if (!this.grid) {
      const hint = this.fitted(g, ["Press “Tune” (this model) to cross-validate the grid.", "Press “Tune”."], w - 14);
      g.font = font(hint ? hint.px : SIZES[SIZES.length - 1]);
      g.fillStyle = MUTED; g.textBaseline = "middle";
      g.fillText(hint ? hint.text : "Press “Tune”.", 10, h / 2);
      return;
    }
    // The footnote and the row labels first: they set the grid's room.
    g.font = font(SIZES[0]);
    const foot = wrap(g, this.legend(), w - 8);
    const rowLabels = this.grid.rho.map(rhoLabel);
    const left = Math.min(56, 10 + Math.max(...rowLabels.map((s) => g.measureText(s).width)));
    const L = this.geometry(w, h, left, foot.length);
    g.fillStyle = INK; g.textAlign = "left"; g.textBaseline = "top";
    const title = this.fitted(g, this.grid.kappa.length ? ["ρ ↓   λ0 = multiple of auto →", "ρ ↓  λ0 = × auto →"] : ["ρ ↓"], w - 8);
    if (title) { g.font = font(title.px); g.fillText(title.text, 4, 4); }
    // Column headers: the largest type that fits each column, the same
    // for all; without the "×" (the title says "multiple of auto") when
    // that is what fits. A single column (a baseline) has the row's width.
    const heads = this.colLabels();
    const room = L.cols > 1 ? L.cw - 3 : w - L.left - 4;
    let head = null;
    for (const variant of [heads, heads.map((s) => s.replace(/×$/, ""))]) {
      for (const px of SIZES) {
        g.font = font(px);
        if (variant.every((s) => g.measureText(s).width <= room)) { head = { texts: variant, px }; break; }
      }
      if (head) break;
    }
    if (head) {
      g.font = font(head.px);
      g.textAlign = L.cols > 1 ? "center" : "left";
      head.texts.forEach((s, j) => g.fillText(s, L.cols > 1 ? L.left + (j + 0.5) * L.cw : L.left, 17));
    }
    g.font = font(SIZES[0]);
    g.textAlign = "right"; g.textBaseline = "middle";
    rowLabels.forEach((s, i) => g.fillText(s, L.left - 6, L.top + (i + 0.5) * L.rh));
    const labels = this.cellLabels(g, L);
    g.textAlign = "center";
    for (const c of this.cells(L, labels ? labels.digits : 4)) {
      g.fillStyle = c.fill; g.fillRect(c.x, c.y, c.w - 1, c.h - 1);
      if (labels) {
        // The star, with a space where it fits (cellLabels made room for
        // it without one).
        g.font = font(labels.px);
        const text = !c.chosen ? c.text : [`★ ${c.text}`, `★${c.text}`].find((t) => g.measureText(t).width <= c.w - 10) || `★${c.text}`;
        g.fillStyle = c.ink; g.fillText(text, c.x + c.w / 2, c.y + c.h / 2);
      } else if (c.chosen) {
        // No labels: the ★ alone, which the caption names.
        g.font = font(Math.min(SIZES[0], Math.max(8, c.h - 8)));
        g.fillStyle = c.ink; g.fillText("★", c.x + c.w / 2, c.y + c.h / 2);
      }
      // The chosen cell's outline: ink with a white rim, seen on any cell colour.
      if (c.chosen) {
        g.strokeStyle = INK; g.lineWidth = 3; g.strokeRect(c.x + 1.5, c.y + 1.5, c.w - 4, c.h - 4);
        g.strokeStyle = "#ffffff"; g.lineWidth = 1; g.strokeRect(c.x + 3.5, c.y + 3.5, c.w - 8, c.h - 8);
      }
    }
    g.font = font(SIZES[0]);
    g.fillStyle = MUTED; g.textAlign = "left"; g.textBaseline = "top";
    const y0 = L.top + L.rows * L.rh + 8;
    foot.forEach((line, k) => g.fillText(line, 4, y0 + k * FOOT_LINE));
    this.layout = L;
  }

  /** The heatmap as a standalone SVG document. */
  svg() {
    if (!this.grid) return `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n`;
    const w = 560, h = 40 + this.grid.rho.length * 26 + 40, L = this.geometry(w, h);
    let out = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="11"><rect width="100%" height="100%" fill="#fff"/>`;
    out += `<text x="4" y="12">${this.grid.kappa.length ? "ρ ↓   λ0 = multiple of auto →" : "ρ ↓"}</text>`;
    this.colLabels().forEach((s, j) => { out += `<text x="${L.left + (j + 0.5) * L.cw}" y="26" text-anchor="middle">${esc(s)}</text>`; });
    this.grid.rho.forEach((rho, i) => { out += `<text x="${L.left - 6}" y="${L.top + (i + 0.5) * L.rh + 4}" text-anchor="end">${rhoLabel(rho)}</text>`; });
    for (const c of this.cells(L)) {
      out += `<rect x="${c.x.toFixed(1)}" y="${c.y.toFixed(1)}" width="${(c.w - 1).toFixed(1)}" height="${(c.h - 1).toFixed(1)}" fill="${c.fill}"${c.chosen ? ` stroke="${INK}" stroke-width="3"` : ""}/>`;
      out += `<text x="${(c.x + c.w / 2).toFixed(1)}" y="${(c.y + c.h / 2 + 4).toFixed(1)}" text-anchor="middle" fill="${c.ink}">${c.chosen ? "★ " : ""}${esc(c.text)}</text>`;
    }
    out += `<text x="4" y="${h - 10}" fill="#5b6475">${esc(this.legend())}</text>`;
    return out + "</svg>\n";
  }
}
