// heat-legend.js: the heatmap's colour key on its own canvas. For τ: the
// fixed T·τ scale (or the run-stretched one, labelled as such) as a bar
// with its ticks (≤ 1/8, 1/2, 1, 2, ≥ 8: the ends clip), and this run's
// smallest and largest T·τ marked on it by a bracket, with their values on
// a line of their own above it; for a sequential run: its three cell
// states. Every text is measured and kept inside the canvas; the boxes
// drawn are kept in `texts` and the bracket's in `bracket` (the browser
// tests check that none overlaps another).
import { setup } from "./chart-kit.js";
import { relText, relEnds } from "./tau-scale.js";
import { viridis, SEQUENTIAL_KEY } from "./heatmap.js";

const INK = "#1d2330", MUTED = "#5b6475";

/** The heatmap's colour key. */
export class HeatLegend {
  constructor(canvas) { this.canvas = canvas; this.texts = []; this.bracket = null; this.width = 0; this.height = 0; }

  // text draws s with its box kept inside the canvas (shifted, never cut)
  // and records the box.
  text(g, s, x, y, align = "left", colour = MUTED) {
    g.textAlign = align; g.textBaseline = "alphabetic"; g.fillStyle = colour;
    const m = g.measureText(s);
    if (x + m.actualBoundingBoxRight > this.width - 2) x = this.width - 2 - m.actualBoundingBoxRight;
    if (x - m.actualBoundingBoxLeft < 2) x = 2 + m.actualBoundingBoxLeft;
    g.fillText(s, x, y);
    this.texts.push({ text: s, left: x - m.actualBoundingBoxLeft, right: x + m.actualBoundingBoxRight,
      top: y - m.actualBoundingBoxAscent, bottom: y + m.actualBoundingBoxDescent });
    return x + m.actualBoundingBoxRight;
  }

  // fits returns the first of the texts that fits the width w.
  fits(g, w, ...options) { return options.find((s) => g.measureText(s).width <= w - 4) || options[options.length - 1]; }

  /** Draws the key: {scale, runLo, runHi} for τ, or {sequential: true}. */
  draw({ scale, runLo, runHi, sequential }) {
    const { g, w, h } = setup(this.canvas);
    this.texts = []; this.bracket = null; this.width = w; this.height = h;
    if (sequential) {
      let x = 4, y = 16;
      for (const [v, label] of SEQUENTIAL_KEY) {
        const need = 16 + g.measureText(label).width + 14;
        if (x > 4 && x + need > w) { x = 4; y += 18; }
        const [R, G, B] = viridis(v);
        g.fillStyle = `rgb(${R},${G},${B})`;
        g.fillRect(x, y - 10, 12, 12);
        x = this.text(g, label, x + 16, y) + 14;
      }
      this.label = "Colour key: yellow, the task learned at this step; teal, a task learned before; dark purple, not yet learned.";
      this.canvas.setAttribute("aria-label", this.label);
      return;
    }
    const ticks = scale.ticks();
    const lw = g.measureText(ticks[0].label).width, rw = g.measureText(ticks[ticks.length - 1].label).width;
    const x0 = 4 + lw / 2, x1 = Math.min(w - 4 - rw / 2, x0 + 480);
    const at = (v) => x0 + scale.position(v) * (x1 - x0);
    const caption = scale.stretched
      ? this.fits(g, w, "T·τ, stretched to this run (1 = uniform; not comparable across runs)", "T·τ stretched to this run (1 = uniform)")
      : this.fits(g, w, "T·τ: the weight relative to uniform (1 = an equal share), log scale", "T·τ relative to uniform (1 = equal), log scale", "T·τ (1 = uniform)");
    this.text(g, caption, 4, 12, "left", INK);
    // Lines, top down: the caption, this run's range (its own line: beside
    // the bracket it ran into it whenever the range was wide), the bracket,
    // the bar, the ticks. The canvas's CSS height (style.css) fits them.
    const runY = 27, barY = 40, barH = 12;
    const l0 = Math.log2(scale.lo), l1 = Math.log2(scale.hi);
    for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
      const t = (x + 0.5 - x0) / (x1 - x0);
      const rel = 2 ** (l0 + t * (l1 - l0));
      g.fillStyle = scale.colour(rel);
      g.fillRect(x, barY, 1, barH);
    }
    g.strokeStyle = "#9aa3b2"; g.strokeRect(x0 - 0.5, barY - 0.5, x1 - x0 + 1, barH + 1);
    g.strokeStyle = INK;
    for (const tk of ticks) {
      const x = Math.round(at(tk.value)) + 0.5;
      g.beginPath(); g.moveTo(x, barY + barH); g.lineTo(x, barY + barH + 4); g.stroke();
      this.text(g, tk.label, x, barY + barH + 16, "center");
    }
    let run = "no run yet";
    if (runHi >= runLo) {
      // This run's range: a bracket above the bar from its smallest to its largest T·τ.
      const a = at(runLo), b = at(runHi);
      g.fillStyle = INK;
      for (const x of [a, b]) { g.beginPath(); g.moveTo(x - 4, barY - 7); g.lineTo(x + 4, barY - 7); g.lineTo(x, barY - 1); g.fill(); }
      g.fillRect(a, barY - 8, Math.max(b - a, 1), 2);
      this.bracket = { left: Math.min(a, b) - 4, right: Math.max(a, b) + 4, top: barY - 8, bottom: barY - 1 };
      const clip = (v) => (v < scale.lo ? ` (beyond ${relText(scale.lo)})` : v > scale.hi ? ` (beyond ${relText(scale.hi)})` : "");
      // Ends that would print alike get the digits that tell them apart;
      // equal ones print once.
      const [lo, hi] = relEnds(runLo, runHi);
      run = hi === undefined ? `this run: ${lo}${clip(runLo)} throughout` : `this run: ${lo}${clip(runLo)} – ${hi}${clip(runHi)}`;
      // Centred over the bracket; text() keeps it inside the canvas. On a
      // narrow canvas the ends' "beyond" notes go (the bar's ends say ≤, ≥).
      const shown = this.fits(g, w, run, hi === undefined ? `this run: ${lo} throughout` : `this run: ${lo} – ${hi}`);
      this.text(g, shown, (a + b) / 2, runY, "center", INK);
    }
    this.label = `Colour key, ${scale.stretched ? "stretched to this run" : "fixed"}: T·τ on a log scale from ${ticks[0].label} (blue) `
      + `through 1 (light grey: uniform) to ${ticks[ticks.length - 1].label} (red); ${run}.`;
    this.canvas.setAttribute("aria-label", this.label);
  }
}
