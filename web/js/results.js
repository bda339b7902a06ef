// results.js: a finished run's results: the per-task table of the run and
// the runs it is compared with (only the rows in view are built: see
// vtable.js), and the two scatters of per-task error against them,
// coloured by when the learner let each task in.
import { Scatter } from "./scatter.js";
import { VirtualTable } from "./vtable.js";
import { chosenLambda0 } from "./controller.js";

const $ = (id) => document.getElementById(id);

const errorOf = (metric, v) => (metric === "auc" ? 1 - v : v);

// The colour of a task by when it entered (evaluate's enteredAt): the
// paper's claim is that the hard tasks, let in late, gain most.
const enteredColour = (at) => (at === 1 ? "#2a6df4" : at >= 2 && at <= 3 ? "#2a9d5c" : at > 3 ? "#c49a00" : "#d0562b");

/** Wires the results table and the scatters; returns {scBase, scITL}. */
export function wireResults(app) {
  const tooltip = $("tooltip");
  const scBase = new Scatter($("scatter-base"), tooltip, "self-paced vs its baseline");
  const scITL = new Scatter($("scatter-itl"), tooltip, "self-paced vs ITL");
  const table = new VirtualTable($("results"));

  function clear() {
    scBase.set([], "", ""); scITL.set([], "", "");
    table.clear();
    $("results-note").textContent = "";
  }

  // showUnscored says that a run on every row (train rows/task: all) has
  // no held-out score, where the table and the scatters would show one.
  function showUnscored(r) {
    const empty = "no held-out rows: the run trained on all of them";
    for (const chart of [scBase, scITL]) { chart.title = `${r.main.label}: no test score`; chart.set([], "", "", empty); }
    table.clear();
    $("results-note").textContent = `${r.main.label}: trained on all ${app.runInfo.trainRows} rows (train rows/task: all), so no row was held out `
      + "and there is no test score. For one, give train rows/task a count or a fraction.";
  }

  function show(r) {
    // A run on every row has nothing held out to score.
    if (app.runInfo && app.runInfo.testRows === 0) { showUnscored(r); return; }
    const main = r.main, metric = main.metric;
    const errName = metric === "auc" ? "1 − AUC" : "RMSE";
    const name = main.label;
    const sequential = app.sequential();
    const points = (other) => main.tasks.map((task, i) => ({
      task, x: errorOf(metric, main.test[i]), y: other ? errorOf(metric, other.test[i]) : NaN, color: enteredColour(main.enteredAt[i]),
    }));
    const colour = sequential ? "the step that learned the task — blue at step 1, green at 2–3, amber later"
      : app.runInfo.config.selfPaced ? "when τ first reached 1/T — blue at iteration 1, green at 2–3, amber later, red never"
        : "without self-pacing every task takes part from iteration 1 (blue)";
    $("scatter-hint").textContent = `Points above the line are tasks where ${name} does better. Colour: ${colour}.`;
    const info = app.runInfo;
    const untested = new Set(info.untested || []);
    // Tasks with test rows but no score: an AUC needs both classes among them.
    const unscored = main.tasks.filter((_, i) => !untested.has(i) && !Number.isFinite(main.test[i])).length;
    const scored = main.tasks.filter((_, i) => Number.isFinite(main.test[i])).length;
    for (const [chart, role] of [[scBase, "baseline"], [scITL, "itl"]]) {
      const other = r[role];
      chart.title = other ? `${name} vs ${other.label}` : `${name}: no ${role === "itl" ? "ITL" : "baseline"} to compare with`;
      chart.set(other ? points(other) : [], `${errName}, ${name}`, other ? `${errName}, ${other.label}` : "",
        scored ? "no task has a score from both models" : "no task could be scored: see the note under the table");
    }
    const cols = ["main", "baseline", "itl"].filter((k) => r[k]);
    const f = (v) => (v === null || !Number.isFinite(v) ? "n/a" : v.toFixed(4));
    // Row 0 is the mean; row i + 1 is task i.
    table.set({
      head: ["task", ...cols.map((k) => `${r[k].label} ${metric.toUpperCase()}`)],
      count: main.tasks.length + 1,
      row: (i) => (i === 0 ? ["mean", ...cols.map((k) => f(r[k].mean))] : [main.tasks[i - 1], ...cols.map((k) => f(r[k].test[i - 1]))]),
      strong: (i) => i === 0,
      caption: `Test ${metric.toUpperCase()} per task (${main.tasks.length} tasks), ${name} and the runs it is compared with`,
    });
    // n/a is explained: an AUC is undefined for a task whose test rows are
    // all of one class, and the mean is over the tasks that have a score.
    let na = "";
    if (unscored && !scored) {
      na = "n/a: no task's test rows hold both classes, so no AUC can be computed; give each task more test rows (a smaller train rows/task).";
    } else if (unscored) {
      na = `n/a: ${unscored} task${unscored === 1 ? "'s" : "s'"} test rows are all of one class, where an AUC is undefined; the mean is over the ${scored} task${scored === 1 ? "" : "s"} with a score.`;
    }
    $("results-note").textContent = [`${name}: trained on ${info.trainRows} rows, tested on ${info.testRows}.`,
      chosenLambda0(info, app.snapshots[0]), info.untestedText ? `${info.untestedText}.` : "", na].filter(Boolean).join(" ");
  }

  app.on("reset", clear);
  app.on("results", show);
  window.addEventListener("resize", () => { scBase.draw(); scITL.draw(); });
  window.spmtlApp.resultsTable = () => ({ built: table.built(), rows: $("results").querySelectorAll("tbody tr:not(.spacer)").length,
    count: table.spec ? table.spec.count : 0 });
  window.spmtlApp.scatterAxes = () => [scBase, scITL].map((s) => (s.layout ? [s.layout.lo, s.layout.hi] : null));
  return { scBase, scITL };
}
