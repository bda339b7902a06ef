// run-view.js: draws a run as it goes: the τ heatmap (a sequential run: the
// task learned at each step) with its colour key, its order, zoom and
// stretch controls, its text alternatives (the canvas's aria-label after
// each step and a toggleable table of every cell, with each task's rows),
// a sentence beside it at the end on what τ did (near uniform, or which
// tasks it trusted most and least), and the objective and test-score
// curves (a sequential run has no objective: a note stands in for it).
import { Heatmap, taskRows, SMALL_TASK } from "./heatmap.js";
import { HeatLegend } from "./heat-legend.js";
import { Curves } from "./curves.js";
import { VirtualTable } from "./vtable.js";
import { tauScale } from "./catalog.js";

const $ = (id) => document.getElementById(id);

/** Wires the heatmap and curve panels; returns {heat, curves}. */
export function wireRunView(app, form) {
  const heat = new Heatmap({ wrap: $("heatwrap"), canvas: $("heatmap"), spacer: $("heat-spacer"), tooltip: $("tooltip"), readout: $("heat-readout") }, tauScale());
  const legend = new HeatLegend($("legend"));
  const curves = new Curves($("curves"));
  const table = new VirtualTable($("tau-table"));
  const heading = $("heat-panel").querySelector("h2");
  const curveHeading = $("curve-panel").querySelector("h2");
  let tableTimer = 0;
  // The heat panel's labels: index.html's, of τ, and a sequential run's,
  // whose map has no τ but the order in which the tasks were learned.
  const modeLabels = [
    [$("heatmap-png"), null, "Download the learning order as PNG"],
    [$("heatmap-svg"), null, "Download the learning order as SVG"],
    [$("tau-table-box").querySelector("summary"), null, "Show the learning order as a table"],
    [$("heat-readout"), null, "Point at a cell, or focus the map and use the arrow keys, to read when a task was learned."],
    [$("heatwrap"), "aria-label", "The order in which the tasks were learned: scroll it, or use the arrow keys to read a cell"],
    [$("tau-table"), "aria-label", "The step at which each task was learned"],
  ].map(([el, attr, seq]) => ({ el, attr, seq, tau: attr ? el.getAttribute(attr) : el.textContent }));

  heat.onChange = () => {
    $("heatmap").setAttribute("aria-label", heat.describe());
    legend.draw(heat.sequential ? { sequential: true } : { scale: heat.scale, runLo: heat.runLo, runHi: heat.runHi });
    if ($("tau-table-box").open && !tableTimer) tableTimer = setTimeout(() => { tableTimer = 0; showTable(); }, 200);
  };

  // rowsCell: a task's rows in the data, starred when it is a small task.
  const rowsCell = (t) => (heat.rows[t] > 0 ? `${heat.rows[t]}${heat.small(t) ? " *" : ""}` : "");

  // showTable fills the table alternative: a row per task in the map's order.
  function showTable() {
    const h = heat.history, order = heat.rowOrder(), T = heat.tasks.length;
    if (!h.length) { table.set({ head: ["task"], count: 0, row: () => [], caption: "No run yet." }); return; }
    const at = (t) => (heat.entered[t] > 0 ? String(heat.entered[t]) : "never");
    if (heat.sequential) {
      const step = new Map(h[h.length - 1].seq.order.map((t, j) => [t, j + 1]));
      table.set({ head: ["task", "rows", "learned at step"], count: T, names: heat.tasks, nameAt: (i) => order[i],
        row: (i) => [heat.tasks[order[i]], rowsCell(order[i]), step.has(order[i]) ? String(step.get(order[i])) : "not yet"],
        caption: "The step at which the sequential learner learned each task; rows: the task's rows in the data." });
      return;
    }
    table.set({
      head: ["task", "rows", "let in at iteration", ...h.map((s) => `τ at ${s.iter} (T·τ)`)],
      count: T, names: heat.tasks, nameAt: (i) => order[i],
      row: (i) => { const t = order[i]; return [heat.tasks[t], rowsCell(t), at(t), ...h.map((s) => `${s.tau[t].toPrecision(4)} (${(T * s.tau[t]).toPrecision(3)})`)]; },
      caption: `τ of each task per iteration, with T·τ (1 = uniform, T = ${T}) in brackets; rows: the task's rows in the data (* fewer than ${SMALL_TASK}); in the heatmap's order.`,
    });
  }

  function setMode(sequential, name) {
    const note = $("curve-note");
    note.hidden = !sequential;
    // A sequential learner has no objective: the note says what the curve is instead.
    $("curve-about").hidden = sequential;
    note.textContent = sequential ? `${name} learns one task per step and has no objective to draw; the curve is its mean test score after each step.` : "";
    heading.textContent = sequential ? "Task learned at each step" : "Task weights τ per iteration";
    curveHeading.textContent = sequential ? "Test score per step" : "Objective and test score per iteration";
    $("heat-about").textContent = sequential
      ? `${name} learns one task per step: each row is a task, each column a step; yellow marks the task learned at that step, teal the ones learned before.`
      : `Each row is a task, each column an iteration. Colour is the task's weight relative to an equal share (T·τ): red, trusted more than uniform; blue, less; light grey, uniform. A black notch left of a row marks a small task (fewer than ${SMALL_TASK} rows).`;
    $("order").querySelector('option[value="easy"]').textContent = sequential ? "by the step that learned them" : "by when τ let them in";
    $("export-tau").textContent = sequential ? "Download steps as CSV" : "Download τ as CSV";
    // (The read-out gets its hint back too: a cell read out of the last run is not of this one.)
    for (const { el, attr, seq, tau } of modeLabels) {
      const text = sequential ? seq : tau;
      if (attr) el.setAttribute(attr, text);
      else if (el.textContent !== text) el.textContent = text;
    }
    $("heat-stretch").disabled = sequential;
  }

  // showVerdict: the sentence beside the map on what τ did over the run.
  function showVerdict(text) {
    $("heat-verdict").textContent = text;
    $("heat-verdict").hidden = !text;
  }

  app.on("reset", () => {
    setMode(false);
    showVerdict("");
    heat.order = app.settings.order;
    const names = app.data ? app.data.tasks.map((t) => t.name) : [];
    heat.emptyText = app.data ? `${app.data.name}: no run yet. Play or Step draws a column per iteration.` : "";
    heat.reset(names, "parallel", app.settings.sp === "1", taskRows(app.data, names));
    curves.reset("", "parallel");
    showTable();
  });
  // A file waiting for its task and label columns (data.js askColumns), or
  // refused before it was ever read (why: "refused"): the map no longer
  // lists the data set before it as if it were next.
  app.on("prompt", (name, why) => {
    if (app.runInfo) return; // a run on screen stays until the file is read
    setMode(false);
    showVerdict("");
    heat.emptyText = why === "refused"
      ? `${name} is not read (the Data panel says why and what to do); its tasks are drawn here once it is read.`
      : `${name} waits for its task and label columns (the Data panel); its tasks are drawn here once it is read.`;
    heat.reset([], "parallel", false, []);
    curves.reset("", "parallel");
  });
  app.on("run", (info) => {
    // From the first run on (body.has-run), a phone shows the map right
    // after the run bar (style.css): the map follows Play's status and
    // score. It stays so: later loads and resets leave the panels in place.
    document.body.classList.add("has-run");
    setMode(info.kind === "sequential", info.name);
    showVerdict("");
    heat.emptyText = ""; // its first column is on its way (a refusal is said in the run bar)
    heat.reset(info.tasks, info.kind, !!info.config.selfPaced, taskRows(app.data, info.tasks));
    curves.reset("", info.kind);
  });
  app.on("snapshot", (snap, ev) => {
    heat.push(snap, ev.enteredAt);
    if (curves.points.length === 0) curves.metric = ev.metric;
    curves.push(snap.iter, snap.seq ? NaN : snap.objective, ev.mean === null ? NaN : ev.mean);
  });
  app.on("results", (r) => {
    curves.finish(r && r.main && r.main.over ? r.main.over.se : NaN);
    showVerdict((heat.verdict() + changedNothing(r)).trim());
  });
  // changedNothing: when the self-paced run scored as its baseline on
  // every task (Go's verdict "identical": to six digits), the weights the
  // map paints moved no prediction, and the sentence beside it says so.
  function changedNothing(r) {
    const b = r && r.baseline, v = b && b.versus;
    if (!heat.selfPaced || !v || v.verdict !== "identical") return "";
    return ` These weights changed no prediction: ${r.main.label} scored as ${b.label}, without self-pacing, on every task (Results).`;
  }
  $("order").addEventListener("change", () => { form.read(); heat.setOrder(app.settings.order); });
  $("heat-zoom").addEventListener("change", () => heat.setZoom($("heat-zoom").value));
  $("heat-stretch").addEventListener("change", () => heat.setStretch($("heat-stretch").checked));
  $("tau-table-box").addEventListener("toggle", () => { if ($("tau-table-box").open) showTable(); });
  window.addEventListener("resize", () => { heat.draw(); curves.draw(); });
  window.spmtlApp.heatmapLayout = () => heat.layout;
  window.spmtlApp.heatCursor = () => heat.cursor; // the keyboard's (or the clicked) cell: {r, k}, or null
  window.spmtlApp.heatColour = (rel) => heat.colourOf(rel);
  window.spmtlApp.tauScale = () => tauScale();
  window.spmtlApp.legendLayout = () => ({ width: legend.width, height: legend.height, texts: legend.texts, bracket: legend.bracket, label: legend.label });
  window.spmtlApp.heatVerdict = () => ($("heat-verdict").hidden ? "" : $("heat-verdict").textContent);
  window.spmtlApp.tauTable = () => ({ built: table.built(), rows: $("tau-table").querySelectorAll("tbody tr:not(.spacer)").length });
  return { heat, curves };
}
