// knowledge.js: the "Shared knowledge" panel. For the current model (a
// finished run's, or one loaded from a file) it asks Go's inspect: what the
// shared knowledge Θ is for this method (a title and one sentence), one
// bar chart per chart (MTFL: feature relevance diag(D); MMTL: the mean
// predictor; MTASO: each shared direction) over the encoded features'
// names, and the order in which τ let the tasks in. Each chart exports as
// PNG and SVG, all of them as one CSV.
import { Bars } from "./bars.js";
import { isolated } from "./labels.js";
import { download, canvasPNG, toCSV, textBlob } from "./export.js";

const $ = (id) => document.getElementById(id);

/** Wires the panel to the current model; returns {charts()}. */
export function wireKnowledge(app) {
  let shown = null; // {model, ins, bars}
  let asked = 0; // the latest request decides

  function clear(text) {
    shown = null;
    $("knowledge-title").textContent = text;
    $("knowledge-explain").textContent = "";
    $("knowledge-charts").innerHTML = "";
    $("knowledge-order").textContent = "";
    $("knowledge-csv").disabled = true;
  }

  async function show(model) {
    const gen = ++asked;
    if (!model) { clear("Shown when a run has finished, or for a loaded model."); return; }
    let ins;
    try {
      ins = await app.client.request("inspect", { handle: model.handle });
    } catch (e) {
      if (gen === asked) clear(`The shared knowledge of ${model.name} cannot be shown: ${e.message}`);
      return;
    }
    if (gen !== asked) return;
    // A model with no Θ to show: Go's explanation says what its method shares.
    clear(ins.title ? `${ins.title} — ${model.name}${model.from === "file" ? ` (loaded from ${model.file})` : ""}` : `${model.name} keeps no shared knowledge to show.`);
    $("knowledge-explain").textContent = ins.explain || "";
    const bars = (ins.charts || []).map((chart, k) => {
      const fig = document.createElement("figure");
      fig.className = "kchart";
      const canvas = document.createElement("canvas");
      canvas.id = `knowledge-chart-${k + 1}`;
      canvas.width = 460;
      fig.append(canvas);
      const tools = document.createElement("div");
      tools.className = "toolbar";
      const png = button(`Download ${chart.title} as PNG`);
      const svg = button(`Download ${chart.title} as SVG`);
      tools.append(png, svg);
      fig.append(tools);
      $("knowledge-charts").append(fig);
      const b = new Bars(canvas, chart);
      png.addEventListener("click", () => canvasPNG(canvas, `spmtl-knowledge-${k + 1}.png`));
      svg.addEventListener("click", () => download(`spmtl-knowledge-${k + 1}.svg`, textBlob(b.svg(), "image/svg+xml")));
      return b;
    });
    $("knowledge-order").textContent = orderText(ins.order || []);
    $("knowledge-csv").disabled = bars.length === 0;
    shown = { model, ins, bars };
  }

  // orderText: "τ let the tasks in at iteration 1: A, B; 2: C; never: D."
  function orderText(order) {
    if (!order.length) return "";
    const groups = new Map();
    for (const e of order) {
      const k = e.at > 0 ? `iteration ${e.at}` : "never";
      if (!groups.has(k)) groups.set(k, []);
      groups.get(k).push(e.task);
    }
    // Each name isolated (labels.js): an Arabic one keeps the commas and numbers after it in place.
    const parts = Array.from(groups, ([k, tasks]) => `${k}: ${tasks.slice(0, 12).map(isolated).join(", ")}${tasks.length > 12 ? `, and ${tasks.length - 12} more` : ""}`);
    return `The order τ let the tasks in (the iteration at which a task's τ first reached 1/T): ${parts.join("; ")}.`;
  }

  function button(text) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    return b;
  }

  $("knowledge-csv").addEventListener("click", () => {
    if (!shown || !shown.ins.charts.length) return;
    // A chart may label some of the features only (a new task's level
    // reads the averages of a few): each value goes under its feature's
    // name, and a feature a chart has no value for is left empty there.
    const charts = shown.ins.charts, byLabel = charts.map((c) => new Map(c.labels.map((f, j) => [f, c.values[j]])));
    const features = [...new Set(charts.flatMap((c) => c.labels))];
    const rows = [["feature", ...charts.map((c) => c.title)], ...features.map((f) => [f, ...byLabel.map((m) => (m.has(f) ? m.get(f) : ""))])];
    download("spmtl-knowledge.csv", textBlob(toCSV(rows), "text/csv"));
  });
  app.on("model", show);
  window.addEventListener("resize", () => { if (shown) for (const b of shown.bars) b.draw(); });
  window.spmtlApp.knowledge = () => (shown ? { title: shown.ins.title, charts: shown.ins.charts, order: shown.ins.order || [],
    shown: shown.bars.map((b) => b.shown.map((x) => x.label)), svgs: shown.bars.map((b) => b.svg()) } : null);
  return { charts: () => (shown ? shown.bars : []) };
}
