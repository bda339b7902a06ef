// results.js: a finished run's results: its score with the standard error
// over tasks and how it compares with each run it is compared with, paired
// over tasks (Go's session.Evaluation: over, versus), in words; a line in
// the run bar that says in plain words how the run ended and what it
// scored; the per-task table of the run and the runs it is compared with
// (only the rows in view are built: see vtable.js), and the two scatters
// of per-task error against them, coloured by when the learner let each
// task in, in the heatmap's colours.
import { Scatter } from "./scatter.js";
import { withSE, fmt } from "./chart-kit.js";
import { VirtualTable } from "./vtable.js";
import { chosenLambda0 } from "./controller.js";
import { bundle } from "./catalog.js";
import { taskRows, SMALL_TASK } from "./heatmap.js";
import { grouped, plural, typicalRows, SMALL_TASKS } from "./columns.js";

const $ = (id) => document.getElementById(id);

const errorOf = (metric, v) => (metric === "auc" ? 1 - v : v);

/** The decimals withSE gives a value with this error (4 significant digits' worth without one). */
function decimalsFor(v, se) {
  const [text] = withSE(v, se);
  const sci = /^-?\d+(?:\.(\d*))?e(-?\d+)$/.exec(text); // "1.00e-7": 9 decimals
  if (sci) return Math.min(100, Math.max(0, (sci[1] || "").length - Number(sci[2])));
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : text.length - dot - 1;
}

// The colours of the scatter's points: when τ first gave the task an equal
// share or more, in the heatmap's language (red: trusted early, blue: not
// let in), from the heatmap's own scale (colourOf(T·τ)).
export function enteredColours(colourOf) {
  return { first: colourOf(8), early: colourOf(4), late: colourOf(1 / 4), never: colourOf(1 / 8) };
}
const enteredKind = (at) => (at === 1 ? "first" : at >= 2 && at <= 3 ? "early" : at > 3 ? "late" : "never");

/** How the run ended, in plain words (not the stopping rule's terms). */
export function plainStop(info, last, bundled) {
  if (!info || !last) return "";
  const n = last.iter, cap = info.config.maxIter;
  switch (last.stop) {
    case "converged":
      return last.tauRule ? `Settled after ${n} iteration${n === 1 ? "" : "s"}: τ and the objective stopped changing.`
        : `Settled after ${n} iteration${n === 1 ? "" : "s"}: the objective stopped changing.`;
    case "cap": {
      // τ settled (its last change within the τ rule's tolerance) leaves
      // the objective as what was still changing.
      const tauSettled = last.tauChange != null && last.tauChange <= (info.config.tauTol || 1e-6);
      const moving = info.config.selfPaced && !tauSettled ? "τ was still moving" : "the objective was still changing";
      return bundled && cap === 10 ? `Ran the paper's 10 iterations; ${moving}.`
        : `Stopped at the limit of ${n} iterations (max iterations); ${moving}: a higher limit lets it settle.`;
    }
    case "single": return "Done: this model is a single fit.";
    case "learned": return n === 1 ? "Done: the one task learned." : `Done: all ${n} tasks learned, one per step.`;
    default: return "";
  }
}

// verdictShort: a comparison in a few words, for the run bar.
function verdictShort(v, name) {
  if (!v) return "";
  const [mag] = withSE(Math.abs(v.diff), v.se);
  switch (v.verdict) {
    case "better": return `${name} better by ${mag}`;
    case "worse": return `${name} worse by ${mag}`;
    case "negligible": return "a negligible difference";
    case "identical": return "the same score on every task";
    case "too few tasks": return "too few tasks to compare";
    default: return "no detectable difference";
  }
}

/** Wires the results table and the scatters; returns {scBase, scITL}. */
export function wireResults(app) {
  const tooltip = $("tooltip");
  const scBase = new Scatter($("scatter-base"), tooltip, "self-paced vs its baseline");
  const scITL = new Scatter($("scatter-itl"), tooltip, "self-paced vs ITL");
  const table = new VirtualTable($("results"));
  const colourOf = (rel) => (window.spmtlApp.heatColour ? window.spmtlApp.heatColour(rel) : "#888888");

  function clear() {
    scBase.set([], "", ""); scITL.set([], "", "");
    table.clear();
    $("results-note").textContent = "";
    $("results-summary").replaceChildren();
    $("results-summary").hidden = true;
    $("run-outcome").textContent = "";
    $("run-outcome").hidden = true;
  }

  // summarize writes the score with its SE and each comparison in words,
  // under the Results heading and in the run bar.
  function summarize(r, metric, name) {
    const M = metric.toUpperCase();
    const over = r.main.over || {};
    // Which ITL: at the run's own ρ, or at the one tune chose for ITL
    // (app.compareITL); a record made before comparisons carried their
    // setting says neither.
    const runRho = app.runInfo && app.runInfo.config && app.runInfo.config.rho;
    const itlSetting = (c) => (!c || !(c.rho > 0) ? ""
      : c.rho === runRho ? `, at this run's ρ ${fmt(c.rho)}` : `, at the ρ Tune chose for it, ${fmt(c.rho)}`);
    const [mean, se] = withSE(over.mean, over.se);
    // Over how many tasks: "of all" when some have no score (their note
    // under the table says why), so that one task's score does not read
    // as the whole run's.
    const total = (r.main.tasks || []).length;
    const tasksWord = over.n < total ? `${grouped(over.n)} of ${plural(total, "task")}` : plural(over.n, "task");
    // One task's score has no standard error over tasks: said, not "± n/a".
    const pm = (m, s) => (s === "n/a" ? m : `${m} ± ${s}`);
    const lead = !over.n ? `${name}: no task could be scored.`
      : se === "n/a" ? `${name}: test ${M} ${mean} (over ${tasksWord}: no standard error over tasks).`
        : `${name}: test ${M} ${mean} ± ${se} (mean over ${tasksWord} ± its standard error over tasks).`;
    const items = [lead];
    const short = [];
    for (const role of ["baseline", "itl"]) {
      const o = r[role];
      if (!o) continue;
      const [m2, s2] = withSE(o.over && o.over.mean, o.over && o.over.se);
      const what = role === "itl" ? `each task learned alone${itlSetting(o.config)}` : "its baseline";
      const score = m2 === "n/a" ? "no task could be scored" : pm(m2, s2); // not "n/a ± n/a"
      items.push(o.versus ? `${o.versus.text}. (${o.label}, ${what}: ${score}.)` : `${o.label} (${what}): ${score}.`);
      if (o.versus) short.push(`vs ${o.label}: ${verdictShort(o.versus, name)}`);
    }
    $("results-summary").replaceChildren(...items.map((t, i) => {
      const li = document.createElement("li");
      li.textContent = t;
      if (i === 0) li.className = "lead";
      return li;
    }));
    $("results-summary").hidden = false;
    const stop = plainStop(app.runInfo, app.snapshots[app.snapshots.length - 1], !!bundle(app.settings.data));
    // No score is itself the outcome: the bar says so, where the results say why.
    const score = over.n ? `Test ${M} ${pm(mean, se)} over ${tasksWord}${short.length ? `; ${short.join("; ")}` : ""}.`
      : "No task could be scored (Results says why).";
    $("run-outcome").textContent = [stop, score].filter(Boolean).join(" ");
    $("run-outcome").hidden = !$("run-outcome").textContent;
  }

  // showUnscored says that a run on every row (train rows/task: all) has
  // no held-out score, where the table and the scatters would show one.
  function showUnscored(r) {
    const empty = "no held-out rows: the run trained on all of them";
    for (const chart of [scBase, scITL]) { chart.title = `${r.main.label}: no test score`; chart.set([], "", "", empty); }
    table.clear();
    $("results-note").textContent = `${r.main.label}: trained on all ${app.runInfo.trainRows} rows (train rows/task: all), so no row was held out `
      + "and there is no test score. For one, give train rows/task a count or a fraction.";
    // The run bar still says how the run ended, as after every other run.
    const stop = plainStop(app.runInfo, app.snapshots[app.snapshots.length - 1], !!bundle(app.settings.data));
    $("run-outcome").textContent = [stop, "No test score: every row was trained on (train rows/task: all)."].filter(Boolean).join(" ");
    $("run-outcome").hidden = false;
  }

  function show(r) {
    // A run on every row has nothing held out to score.
    if (app.runInfo && app.runInfo.testRows === 0) { showUnscored(r); return; }
    const main = r.main, metric = main.metric;
    const errName = metric === "auc" ? "1 − AUC" : "RMSE";
    const name = main.label;
    const sequential = app.sequential();
    const rows = taskRows(app.data, main.tasks);
    const cols = enteredColours(colourOf);
    const points = (other) => main.tasks.map((task, i) => ({
      task, rows: rows[i], small: rows[i] > 0 && rows[i] < SMALL_TASK,
      x: errorOf(metric, main.test[i]), y: other ? errorOf(metric, other.test[i]) : NaN, color: cols[enteredKind(main.enteredAt[i])],
    }));
    const colour = sequential ? "the step that learned the task — dark red at step 1, light red at 2–3, light blue later"
      : app.runInfo.config.selfPaced ? "when τ first gave the task an equal share, in the heatmap's colours — dark red at iteration 1 (trusted from the start), light red at 2–3, light blue later, dark blue never"
        : "without self-pacing every task takes part from iteration 1 (dark red)";
    $("scatter-hint").textContent = `Points above the line are tasks where ${name} does better. Colour: ${colour}. `
      + `A hollow point is a task of fewer than ${SMALL_TASK} rows, whose error is noisy.`;
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
    const keys = ["main", "baseline", "itl"].filter((k) => r[k]);
    // Every score to the decimals the main model's standard error supports.
    const dp = decimalsFor(main.over ? main.over.mean : main.mean, main.over ? main.over.se : NaN);
    const f = (v) => (v === null || !Number.isFinite(v) ? "n/a" : v.toFixed(dp));
    const meanCell = (k) => { const o = r[k].over || {}; const [m, s] = withSE(o.mean, o.se); return o.n ? (s === "n/a" ? m : `${m} ± ${s}`) : "n/a"; };
    // Row 0 is the mean; row i + 1 is task i.
    table.set({
      head: ["task", "rows", ...keys.map((k) => `${r[k].label} ${metric.toUpperCase()}`)],
      count: main.tasks.length + 1,
      row: (i) => (i === 0 ? ["mean ± SE over tasks", "", ...keys.map(meanCell)]
        : [main.tasks[i - 1], rows[i - 1] > 0 ? String(rows[i - 1]) : "", ...keys.map((k) => f(r[k].test[i - 1]))]),
      strong: (i) => i === 0,
      names: main.tasks, nameAt: (i) => i - 1,
      caption: `Test ${metric.toUpperCase()} per task (${plural(main.tasks.length, "task")}; rows: the task's rows in the data), ${name} and the runs it is compared with`,
    });
    summarize(r, metric, name);
    // n/a is explained: an AUC is undefined for a task whose test rows are
    // all of one class, and the mean is over the tasks that have a score.
    let na = "";
    if (unscored && !scored) {
      // With a handful of rows per task no split can give a task test rows
      // of both classes: more test rows is no remedy there, Tune's score
      // pooled over every held-out row is.
      const median = typicalRows(app.data && app.data.tasks);
      na = median > 0 && median <= SMALL_TASKS
        ? `n/a: no task's test rows hold both classes, so no AUC can be computed; with ${median} rows in a typical task no split can give a task test rows of both. Tune scores the file by its log-loss pooled over every held-out row (the Tune panel).`
        : "n/a: no task's test rows hold both classes, so no AUC can be computed; give each task more test rows (a smaller train rows/task).";
    } else if (unscored) {
      na = `n/a: ${unscored} task${unscored === 1 ? "'s" : "s'"} test rows are all of one class, where an AUC is undefined; the mean is over the ${scored} task${scored === 1 ? "" : "s"} with a score.`;
    }
    $("results-note").textContent = [`${name}: trained on ${grouped(info.trainRows)} rows, tested on ${grouped(info.testRows)}.`,
      // Scores called noisy only where some task has one.
      chosenLambda0(info, app.snapshots[0]), info.roundedText ? `${info.roundedText}.` : "", info.untestedText ? `${info.untestedText}.` : "", info.thinText && scored ? `${info.thinText}.` : "", na].filter(Boolean).join(" ");
  }

  app.on("reset", clear);
  app.on("run", clear);
  app.on("results", show);
  window.addEventListener("resize", () => { scBase.draw(); scITL.draw(); });
  window.spmtlApp.resultsTable = () => ({ built: table.built(), rows: $("results").querySelectorAll("tbody tr:not(.spacer)").length,
    count: table.spec ? table.spec.count : 0 });
  window.spmtlApp.scatterAxes = () => [scBase, scITL].map((s) => (s.layout ? [s.layout.lo, s.layout.hi] : null));
  window.spmtlApp.scatterNotes = () => [scBase, scITL].map((s) => (s.layout ? { bottom: s.layout.bottom, note: s.layout.note } : null));
  window.spmtlApp.resultsSummary = () => Array.from($("results-summary").children, (li) => li.textContent);
  return { scBase, scITL };
}
