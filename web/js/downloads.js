// downloads.js: the page's export buttons: every chart as PNG (data-export
// buttons) or SVG, τ (or a sequential run's steps) and the per-task
// results as CSV, the whole run as JSON, the sweep as SVG and CSV. The
// files are made here from what the page holds; nothing is sent anywhere.
// A run's exports are enabled only while there is something to export:
// the map, curves and run file from the first step, the scatters and the
// per-task table once the run has finished.
import { download, canvasPNG, toCSV, textBlob } from "./export.js";

const $ = (id) => document.getElementById(id);

const svgFile = (name, text) => download(name, textBlob(text, "image/svg+xml"));

/** Wires the export buttons to the charts ({heat, scBase, scITL, sweepObj}),
 *  sweep rows and the run file (runFile: run-open.js's file). */
export function wireDownloads(app, { heat, scBase, scITL, sweepObj, sweepRows, runFile }) {
  document.querySelectorAll("[data-export]").forEach((b) => b.addEventListener("click", () => canvasPNG($(b.dataset.export), `spmtl-${b.dataset.export}.png`)));
  $("export-tau").addEventListener("click", () => {
    const tasks = app.runInfo ? app.runInfo.tasks : [];
    // A sequential run has no τ: a row per step names the task it learned.
    const rows = app.sequential()
      ? [["step", "task"], ...app.snapshots.map((s) => [s.iter, tasks[s.seq.task]])]
      : [["iteration", "lambda", ...tasks], ...app.snapshots.map((s) => [s.iter, s.lambda, ...Array.from(s.tau)])];
    download(app.sequential() ? "spmtl-steps.csv" : "spmtl-tau.csv", textBlob(toCSV(rows), "text/csv"));
  });
  $("export-results").addEventListener("click", () => {
    if (!app.results) return;
    const r = app.results, keys = ["main", "baseline", "itl"].filter((k) => r[k]);
    const rows = [["task", ...keys.map((k) => `${r[k].label}_${r.main.metric}`)], ...r.main.tasks.map((t, i) => [t, ...keys.map((k) => r[k].test[i])])];
    download("spmtl-results.csv", textBlob(toCSV(rows), "text/csv"));
  });
  // The run file (run-open.js): its settings, data summary, snapshots with
  // the test score after each, results and model; "Open a saved run…"
  // shows it again without training.
  $("export-json").addEventListener("click", async () => {
    const run = await runFile();
    if (run) download("spmtl-run.json", textBlob(JSON.stringify(run, null, 1), "application/json"));
  });
  $("heatmap-svg").addEventListener("click", () => svgFile("spmtl-tau.svg", heat.svg()));
  $("scatter-base-svg").addEventListener("click", () => svgFile("spmtl-scatter.svg", scBase.svg()));
  $("scatter-itl-svg").addEventListener("click", () => svgFile("spmtl-scatter-itl.svg", scITL.svg()));
  $("sweep-svg").addEventListener("click", () => svgFile("spmtl-sweep-objective.svg", sweepObj.svg()));
  $("sweep-csv").addEventListener("click", () => download("spmtl-sweep.csv", textBlob(toCSV([[$("sweep-param").value, "iteration", "objective", "test"], ...sweepRows()]), "text/csv")));
  // offer enables the run's exports that have something to export.
  const duringRun = ["heatmap-png", "heatmap-svg", "export-tau", "curves-png", "export-json"];
  const afterRun = ["scatter-base-png", "scatter-itl-png", "scatter-base-svg", "scatter-itl-svg", "export-results"];
  function offer() {
    for (const id of duringRun) $(id).disabled = app.snapshots.length === 0;
    for (const id of afterRun) $(id).disabled = !app.results;
    // A scatter with no comparison has nothing to export either.
    if (app.results) {
      for (const [role, ids] of [["baseline", ["scatter-base-png", "scatter-base-svg"]], ["itl", ["scatter-itl-png", "scatter-itl-svg"]]]) {
        for (const id of ids) $(id).disabled = !app.results[role];
      }
    }
  }
  for (const ev of ["reset", "run", "snapshot", "results"]) app.on(ev, offer);
  offer();
  window.spmtlApp.svgs = () => ({ heatmap: heat.svg(), scatter: scBase.svg(), scatterITL: scITL.svg() });
}
