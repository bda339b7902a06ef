// scatter.js: per-task test error of one model against another, with the
// line y = x, a hover read-out, a sentence for screen readers and an SVG
// copy. Both axes are errors (RMSE, 1 − AUC) and start at 0, so a
// distance from the corner is a size of error. A small task (its point's
// `small`) is drawn hollow: its error rests on few rows; the read-out
// gives every task's rows.
import { escapeXML as esc } from "./export.js";
import { visibleName } from "./labels.js";
import { setup, fmt, drawSoon, wrapText } from "./chart-kit.js";

/** Per-task test error of the self-paced model (x) against another model (y), with y = x. */
export class Scatter {
  constructor(canvas, tooltip, title) {
    this.canvas = canvas; this.tooltip = tooltip; this.title = title;
    this.points = []; this.layout = null;
    // What an empty chart says: before a run's end, or why none came.
    this.empty = "runs when training finishes";
    canvas.addEventListener("mousemove", (e) => this.hover(e));
    canvas.addEventListener("mouseleave", () => { tooltip.hidden = true; });
  }

  /** points: [{task, x, y, color?, rows?, small?}] (NaN points are left out and counted); empty:
   *  what the chart says when no point can be drawn. */
  set(points, xLabel, yLabel, empty = "runs when training finishes") {
    this.points = points; this.xLabel = xLabel; this.yLabel = yLabel; this.empty = empty;
    this.canvas.setAttribute("aria-label", this.describe());
    drawSoon(this);
  }

  /** The axes' range: from 0 to a little above the largest error. */
  range(pts) {
    let hi = 0;
    for (const p of pts) hi = Math.max(hi, p.x, p.y);
    return [0, hi > 0 ? hi * 1.06 : 1];
  }

  /** A sentence for screen readers: what is compared and how many tasks lie on each side. */
  describe() {
    const pts = this.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
    if (!pts.length) return `Scatter, ${this.title}: per-task test error: ${this.empty}.`;
    const above = pts.filter((p) => p.y > p.x).length, below = pts.filter((p) => p.y < p.x).length;
    const small = pts.filter((p) => p.small).length;
    return `Scatter, ${this.title}: per-task test error, ${this.xLabel} across, ${this.yLabel} up, both from 0; ${pts.length} tasks, `
      + `${above} above the line y = x (the first model has the lower error), ${below} below, ${pts.length - above - below} on it`
      + `${small ? `; ${small} small task${small === 1 ? "" : "s"} drawn hollow` : ""}.`;
  }

  draw() {
    const { g, w, h } = setup(this.canvas);
    const pts = this.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
    // A line under the x axis's label counts the tasks without a score:
    // inside the square it sat over the largest points.
    const skipped = this.points.length - pts.length;
    const left = 44, bottom = skipped ? 48 : 34, top = 18, right = 10;
    const size = Math.min(w - left - right, h - top - bottom);
    g.fillStyle = "#1d2330"; g.textAlign = "left"; g.textBaseline = "bottom";
    g.fillText(this.title, left, top - 3);
    g.strokeStyle = "#d9dde5"; g.strokeRect(left, top, size, size);
    if (!pts.length) {
      // Wrapped to the frame: "no task could be scored: see the note
      // under the table" ran past it, on a phone too.
      g.fillStyle = "#5b6475"; g.textBaseline = "middle";
      const lines = wrapText(g, this.empty, size - 20);
      lines.forEach((l, i) => g.fillText(l, left + 10, top + size / 2 + (i - (lines.length - 1) / 2) * 15));
      this.layout = null;
      return;
    }
    const [lo, hi] = this.range(pts);
    const X = (v) => left + ((v - lo) / (hi - lo)) * size;
    const Y = (v) => top + size - ((v - lo) / (hi - lo)) * size;
    g.strokeStyle = "#9aa3b2"; g.setLineDash([4, 3]); g.beginPath(); g.moveTo(X(lo), Y(lo)); g.lineTo(X(hi), Y(hi)); g.stroke(); g.setLineDash([]);
    for (const p of pts) {
      const c = p.color || "#1d2330";
      g.beginPath(); g.arc(X(p.x), Y(p.y), 3.2, 0, 2 * Math.PI);
      // A dark rim keeps the light colours visible on white.
      if (p.small) { g.strokeStyle = c; g.lineWidth = 1.5; g.stroke(); g.lineWidth = 1; } else { g.fillStyle = c; g.fill(); g.strokeStyle = "#1d2330"; g.lineWidth = 0.75; g.stroke(); g.lineWidth = 1; }
    }
    g.fillStyle = "#5b6475"; g.textAlign = "center"; g.textBaseline = "top";
    g.fillText(this.xLabel, left + size / 2, top + size + 16);
    g.textAlign = "left"; g.fillText("0", left, top + size + 3);
    g.textAlign = "right"; g.fillText(fmt(hi), left + size, top + size + 3);
    g.textBaseline = "top"; g.fillText(fmt(hi), left - 3, top);
    g.textBaseline = "bottom"; g.fillText("0", left - 3, top + size);
    g.textAlign = "center"; g.textBaseline = "top";
    g.save(); g.translate(12, top + size / 2); g.rotate(-Math.PI / 2); g.fillText(this.yLabel, 0, -6); g.restore();
    const note = skipped ? { text: `${skipped} task${skipped === 1 ? "" : "s"} without a score, not drawn`, y: top + size + 30 } : null;
    if (note) { g.textAlign = "left"; g.fillText(note.text, left, note.y); }
    this.layout = { X, Y, pts, lo, hi, bottom: top + size, note };
  }

  /** The scatter as a standalone SVG document (tooltips per point). */
  svg() {
    const pts = this.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
    const skipped = this.points.length - pts.length;
    const size = 400, left = 50, top = 30, w = left + size + 150, h = top + size + (skipped ? 58 : 40);
    const [lo, hi] = this.range(pts);
    const X = (v) => left + ((v - lo) / (hi - lo)) * size, Y = (v) => top + size - ((v - lo) / (hi - lo)) * size;
    let out = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="#fff"/>`;
    out += `<text x="${left}" y="18">${esc(this.title)}</text><rect x="${left}" y="${top}" width="${size}" height="${size}" fill="none" stroke="#999"/>`;
    out += `<line x1="${X(lo)}" y1="${Y(lo)}" x2="${X(hi)}" y2="${Y(hi)}" stroke="#999" stroke-dasharray="4 3"/>`;
    for (const p of pts) {
      const paint = p.small ? `fill="none" stroke="${p.color || "#1d2330"}" stroke-width="1.5"` : `fill="${p.color || "#1d2330"}"`;
      const rows = p.rows > 0 ? ` (${p.rows} rows)` : "";
      out += `<circle cx="${X(p.x).toFixed(1)}" cy="${Y(p.y).toFixed(1)}" r="4" ${paint}><title>${esc(p.task)}${rows}: ${p.x.toPrecision(4)}, ${p.y.toPrecision(4)}</title></circle>`;
    }
    out += `<text x="${left}" y="${top + size + 14}">0</text><text x="${left + size}" y="${top + size + 14}" text-anchor="end">${esc(fmt(hi))}</text>`;
    out += `<text x="${left - 4}" y="${top + 10}" text-anchor="end">${esc(fmt(hi))}</text>`;
    out += `<text x="${left + size / 2}" y="${top + size + 32}" text-anchor="middle">${esc(this.xLabel)}</text>`;
    if (skipped) out += `<text x="${left}" y="${h - 8}">${skipped} task${skipped === 1 ? "" : "s"} without a score, not drawn</text>`;
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
    const rows = best.rows > 0 ? `\n${best.rows} row${best.rows === 1 ? "" : "s"}${best.small ? " (a small task)" : ""}` : "";
    this.tooltip.textContent = `${visibleName(best.task)}${rows}\n${this.xLabel}: ${best.x.toPrecision(4)}\n${this.yLabel}: ${best.y.toPrecision(4)}`;
    this.tooltip.style.left = `${e.clientX + 14}px`; this.tooltip.style.top = `${e.clientY + 10}px`;
    this.tooltip.hidden = false;
  }
}
