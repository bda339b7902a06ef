// curves.js: the objective and the mean test score per iteration, two
// stacked line panels on one canvas, with a sentence for screen readers
// (its aria-label, after each step). Each panel's axis spans only the
// values reached, and says so ("zoomed"); at the end the score panel also
// gives the size of one standard error over tasks, against which its rise
// or fall can be read. A sequential run (CL, ELLA) has no objective: its
// upper panel carries a note and the lower one is per step. The lines are
// in ink: red and blue belong to τ (the heatmap's colours).
import { setup, extent, fmtRange, drawSoon, wrapText, withSE } from "./chart-kit.js";

/** Two stacked line panels: the objective and the mean test score per iteration. */
export class Curves {
  constructor(canvas) { this.canvas = canvas; this.points = []; this.metric = ""; this.kind = "parallel"; }
  /** Clears the curves for a run of kind "parallel" or "sequential". */
  reset(metric, kind = "parallel") { this.points = []; this.metric = metric || ""; this.kind = kind; this.done = false; this.se = NaN; drawSoon(this); }
  /** Marks the run finished: a score that never came is then "none", not
   *  "not yet"; se is the final mean score's standard error over tasks. */
  finish(se = NaN) { this.done = true; this.se = se; drawSoon(this); }

  // seNote: how the score panel's span compares with one standard error
  // over tasks ("" before the end or without one).
  seNote() {
    const v = this.points.map((q) => q.score).filter(Number.isFinite);
    if (!this.done || !(this.se > 0) || v.length < 2) return "";
    // A loop, not Math.max(...v): a run may have 100,000 iterations, about
    // as many arguments as a call takes.
    let lo = Infinity, hi = -Infinity;
    for (const x of v) { if (x < lo) lo = x; if (x > hi) hi = x; }
    const span = hi - lo;
    const ratio = span / this.se;
    // The SE as the results write it (two significant digits, 0.0067).
    const se = withSE(this.se, this.se)[1];
    if (ratio < 1) return `its whole range is ${ratio < 0.1 ? "under a tenth of" : `${ratio.toFixed(1)} ×`} one standard error over tasks (${se})`;
    return `one standard error over tasks is ${se}${this.worseNote()}`;
  }

  // worseNote: when the last score is worse than an earlier iteration's
  // by more than one standard error, that it is, and why the run did not
  // stop there: a curve that rises after its first point otherwise tells
  // a story no sentence mentions.
  worseNote() {
    const higher = this.metric === "auc";
    let best = -1;
    this.points.forEach((q, k) => {
      if (Number.isFinite(q.score) && (best < 0 || (higher ? q.score > this.points[best].score : q.score < this.points[best].score))) best = k;
    });
    const last = this.points[this.points.length - 1];
    if (best < 0 || !Number.isFinite(last.score)) return "";
    const by = Math.abs(last.score - this.points[best].score) / this.se;
    if (by <= 1) return "";
    return `; the last score is ${by.toFixed(1)} standard errors worse than at iteration ${this.points[best].iter} (${withSE(this.points[best].score, this.se)[0]}): the run follows its objective on the training rows, not the test score, and keeps its last iteration`;
  }
  push(iter, objective, score) { this.points.push({ iter, objective, score }); drawSoon(this); }

  /** A sentence for screen readers: where each curve started and ended. */
  describe() {
    const p = this.points, sequential = this.kind === "sequential", word = sequential ? "step" : "iteration";
    if (!p.length) return "Objective and mean test score per iteration: no run yet.";
    const ends = (key) => {
      const v = p.map((q) => q[key]).filter(Number.isFinite);
      if (!v.length) return this.done ? "none (no task could be scored)" : "none yet";
      const [a, b] = fmtRange(v[0], v[v.length - 1]);
      return `from ${a} to ${b}`;
    };
    const se = this.seNote();
    const score = `mean test ${this.metric.toUpperCase() || "score"} ${ends("score")}${se ? ` (${se})` : ""}`;
    return sequential ? `Mean test score over ${p.length} ${word}s of a sequential learner (no objective), axis zoomed to the values reached: ${score}.`
      : `Over ${p.length} ${word}${p.length === 1 ? "" : "s"}, each axis zoomed to the values reached: objective ${ends("objective")}; ${score}.`;
  }

  draw() {
    this.canvas.setAttribute("aria-label", this.describe());
    const { g, w, h } = setup(this.canvas);
    const left = 58, right = 10, gap = 26, top = 18;
    const n = Math.max(this.points.length, 2);
    const sequential = this.kind === "sequential";
    // The score panel's name, its axis's note and, at the end, the size of
    // one SE over tasks on the line above it when they fit; on a narrow
    // canvas the SE's note goes under the chart, in room the panels give
    // up (over the line it once hid the first, steepest points).
    const scoreLabel = `mean test ${this.metric.toUpperCase() || "score"}`;
    const se = this.seNote();
    const room = w - left - right;
    const seInline = se && g.measureText(`· axis zoomed to the values reached; ${se}`).width + g.measureText(scoreLabel).width + 8 < room;
    const noteLines = se && !seInline ? wrapText(g, se, w - 8) : [];
    const lh = 13, noteH = noteLines.length ? noteLines.length * lh + 4 : 0;
    const ph = (h - top - gap - 22 - noteH) / 2;
    const panels = [
      { key: "objective", label: "objective", color: "#1d2330" },
      { key: "score", label: scoreLabel, color: "#5b6475" },
    ];
    panels.forEach((p, i) => {
      const y0 = top + i * (ph + gap);
      g.strokeStyle = "#d9dde5"; g.strokeRect(left, y0, room, ph);
      g.fillStyle = "#1d2330"; g.textAlign = "left"; g.textBaseline = "bottom";
      g.fillText(p.label, left, y0 - 3);
      if (sequential && p.key === "objective") {
        g.fillStyle = "#5b6475"; g.textBaseline = "middle";
        g.fillText("none: a sequential learner has no joint objective", left + 10, y0 + ph / 2);
        return;
      }
      const vals = this.points.map((q) => q[p.key]);
      if (!vals.some(Number.isFinite)) {
        g.fillStyle = "#5b6475"; g.textBaseline = "middle";
        g.fillText(!this.points.length ? "no run yet: press Play" : this.done ? "no task could be scored: see the results' note" : "no score yet", left + 10, y0 + ph / 2);
        return;
      }
      const [lo, hi] = extent(vals);
      // The axis is zoomed to the values: said beside the panel's name.
      const labelW = g.measureText(p.label).width;
      let zoom = "· axis zoomed to the values reached";
      if (p.key === "score" && seInline) zoom += `; ${se}`;
      else if (g.measureText(zoom).width + labelW + 8 >= room) zoom = "· zoomed";
      g.fillStyle = "#5b6475"; g.textAlign = "left"; g.textBaseline = "bottom";
      g.fillText(zoom, left + labelW + 6, y0 - 3);
      g.fillStyle = "#5b6475"; g.textAlign = "right"; g.textBaseline = "middle";
      const [loText, hiText] = fmtRange(lo, hi);
      g.fillText(hiText, left - 4, y0 + 6); g.fillText(loText, left - 4, y0 + ph - 6);
      const X = (k) => left + (k / (n - 1)) * room;
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
    // A rise smaller than one SE is noise, and a zoomed axis makes it look
    // steep, so the note is never dropped: under the iteration axis when
    // the line above the panel has no room for it.
    g.fillStyle = "#5b6475"; g.textAlign = "left"; g.textBaseline = "top";
    noteLines.forEach((l, k) => g.fillText(l, 4, h - noteH + 2 + k * lh));
    g.fillStyle = "#5b6475"; g.textAlign = "center"; g.textBaseline = "bottom";
    if (this.points.length) g.fillText(`${sequential ? "step" : "iteration"} 1 … ${this.points[this.points.length - 1].iter}`, (left + w - right) / 2, h - noteH - 2);
  }
}
