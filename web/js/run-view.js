// run-view.js: draws a run as it goes: the τ heatmap (a sequential run: the
// task learned at each step) with its order menu and heading, and the
// objective and test-score curves (a sequential run has no objective: a
// note stands in for it).
import { Heatmap } from "./heatmap.js";
import { Curves } from "./curves.js";

const $ = (id) => document.getElementById(id);

/** Wires the heatmap and curve panels; returns {heat, curves}. */
export function wireRunView(app, form) {
  const heat = new Heatmap($("heatmap"), $("legend"), $("tooltip"));
  const curves = new Curves($("curves"));
  const heading = $("heat-panel").querySelector("h2");
  const curveHeading = $("curve-panel").querySelector("h2");

  function setMode(sequential, name) {
    const note = $("curve-note");
    note.hidden = !sequential;
    note.textContent = sequential ? `${name} learns one task per step and has no objective to draw; the curve is its mean test score after each step.` : "";
    heading.textContent = sequential ? "Task learned at each step" : "Task weights τ per iteration";
    curveHeading.textContent = sequential ? "Test score per step" : "Objective and test score per iteration";
    $("order").querySelector('option[value="easy"]').textContent = sequential ? "by the step that learned them" : "by when they became easy";
    $("export-tau").textContent = sequential ? "steps as CSV" : "τ as CSV";
  }

  app.on("reset", () => {
    setMode(false);
    heat.order = app.settings.order;
    heat.reset(app.data ? app.data.tasks.map((t) => t.name) : [], "parallel");
    curves.reset("", "parallel");
  });
  app.on("run", (info) => {
    setMode(info.kind === "sequential", info.name);
    heat.reset(info.tasks, info.kind);
    curves.reset("", info.kind);
  });
  app.on("snapshot", (snap, ev) => {
    heat.push(snap, ev.enteredAt);
    if (curves.points.length === 0) curves.metric = ev.metric;
    curves.push(snap.iter, snap.seq ? NaN : snap.objective, ev.mean === null ? NaN : ev.mean);
  });
  $("order").addEventListener("change", () => { form.read(); heat.setOrder(app.settings.order); });
  window.addEventListener("resize", () => { heat.draw(); curves.draw(); });
  window.spmtlApp.heatmapLayout = () => heat.layout;
  return { heat, curves };
}
