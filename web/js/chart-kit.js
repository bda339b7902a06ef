// chart-kit.js: what the charts share: a canvas set up for drawing, the
// range of a series, axis number formatting, and drawing soon rather than
// at once.

/** Sizes canvas to its box at the device pixel ratio, clears it white and
 *  returns its 2D context and size in CSS pixels. */
export function setup(canvas) {
  const dpr = window.devicePixelRatio || 1;
  const w = canvas.clientWidth || canvas.width, h = canvas.clientHeight || canvas.height;
  canvas.width = Math.round(w * dpr); canvas.height = Math.round(h * dpr);
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  g.fillStyle = "#fff"; g.fillRect(0, 0, w, h);
  g.font = "11px system-ui, sans-serif";
  return { g, w, h };
}

/** The padded [lo, hi] of the finite values ([0, 1] when there are none). */
export function extent(values) {
  let lo = Infinity, hi = -Infinity;
  for (const v of values) if (Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (!Number.isFinite(lo)) return [0, 1];
  // Values that differ only in their last digits (rounding, a solver's
  // tolerance) are drawn as the flat line they are, not stretched over the
  // whole panel, where nothing would look like something.
  if (hi - lo <= 1e-9 * Math.max(Math.abs(lo), Math.abs(hi))) { const d = Math.abs(lo) * 0.05 || 0.5; return [lo - d, hi + d]; }
  const pad = (hi - lo) * 0.06;
  return [lo - pad, hi + pad];
}

/** A number for an axis label. */
export const fmt = (v) => (Math.abs(v) >= 1000 || (Math.abs(v) < 0.01 && v !== 0) ? v.toExponential(1) : v.toPrecision(3));

/** A value and its standard error to the digits the error supports (as
 *  Go's eval.WithSE): the error to two significant digits, the value to
 *  the same decimal place. Without an error, four significant digits. */
export function withSE(v, se) {
  if (typeof v !== "number" || !Number.isFinite(v)) return ["n/a", "n/a"];
  if (typeof se !== "number" || !Number.isFinite(se) || se <= 0) return [String(Number(v.toPrecision(4))), se === 0 ? "0" : "n/a"];
  let d = 1 - Math.floor(Math.log10(se));
  if (Math.round(se * 10 ** d) / 10 ** d >= 10 ** (2 - d)) d--;
  if (d < 0) { const s = 10 ** -d; return [String(Math.round(v / s) * s), String(Math.round(se / s) * s)]; }
  if (d >= 8) {
    // Past seven zeros after the point, both in one power of ten, as Go's
    // eval.WithSE writes them ("1.00e-7 ± 0.46e-7").
    const e = Math.floor(Math.log10(Math.max(Math.abs(v), se))), f = Math.max(d + e, 0);
    return [`${(v / 10 ** e).toFixed(f)}e${e}`, `${(se / 10 ** e).toFixed(f)}e${e}`];
  }
  return [v.toFixed(d), se.toFixed(d)];
}

/** The two ends of an axis as labels, with as many digits as it takes for
 *  them to differ (an axis labelled 0.0868 at both ends reads as broken). */
export function fmtRange(lo, hi) {
  if (lo === hi) return [fmt(lo), fmt(hi)];
  for (let d = 3; d <= 12; d++) {
    const f = (v) => (Math.abs(v) >= 1000 || (Math.abs(v) < 0.01 && v !== 0) ? v.toExponential(d - 2) : v.toPrecision(d));
    const a = f(lo), b = f(hi);
    if (a !== b) return [a, b];
  }
  return [String(lo), String(hi)];
}

// The charts held back while a link's first run trains (holdCharts): null
// when none are.
let held = null;

/** Holds back the drawing of every chart but those that lead (the τ
 *  heatmap: chart.leads) until releaseCharts. A link that trains at once
 *  (run=1) asks for this: before its first τ column, the page's thread
 *  drew the sweeps', the curves', the scatters' and the tune map's empty
 *  canvases, most of them below the fold, on the two cores the learner
 *  was starting on (docs/bench.md, "Twenty-fifth round"). */
export function holdCharts() { if (!held) held = new Set(); }

/** Draws every chart held back (holdCharts), each soon; later drawing is
 *  no longer held. Calling it again does nothing. */
export function releaseCharts() {
  const charts = held;
  held = null;
  if (charts) for (const c of charts) drawSoon(c);
}

/** Draws chart in a task of its own, once for any number of calls before
 *  that task runs: a burst of snapshots costs one drawing, and one chart's
 *  first (slow: fonts) drawing does not add to another's in one long task.
 *  While charts are held (holdCharts), one that does not lead waits. */
export function drawSoon(chart) {
  if (chart.drawTimer) return;
  if (held && !chart.leads) { held.add(chart); return; }
  chart.drawTimer = setTimeout(() => { chart.drawTimer = 0; chart.draw(); }, 0);
}

/** Breaks text into lines of at most width pixels at g's font, between
 *  words (a word longer than width gets a line of its own). */
export function wrapText(g, text, width) {
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (line && g.measureText(next).width > width) { lines.push(line); line = word; } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}
