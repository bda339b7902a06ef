// model.js: the current model and what a visitor does with it. The current
// model is the finished run's or one loaded from a saved file, whichever
// came last. "Save model" downloads the finished run's model file (Go's
// JSON), "Load a saved model" reads one back, "Predict" reads a file's rows
// with the current model: a preview of the first rows, the warnings, and
// the predictions as a CSV. The predictions are Go's text, never
// reformatted here; the CSV repeats the file's own cells as they are (not
// made inert as the page's other CSVs are: they are the visitor's data),
// and the status says so. Its errors show in the panel, beside its buttons.
import { download, textBlob, toCSV, escapeXML, clipText } from "./export.js";
import { showSlot } from "./notices.js";

const $ = (id) => document.getElementById(id);

const PREVIEW_ROWS = 20;
const PREVIEW_COLS = 40; // the preview's columns: the first ones and the prediction
const PREVIEW_CELL = 80; // characters of a cell shown

/** Wires the Save, load, predict panel. */
export function wireModel(app) {
  const client = app.client;
  let runSplit = null; // the started run's {train, seed}, for the model file's "trained"
  let loaded = null; // the handle of the model loaded from a file (freed when replaced)
  let predictions = null; // the last predictions, with {file, model}

  function describe(m) {
    if (!m) return "No model yet: train one to the end, or load a saved model.";
    const what = `${m.name} (${m.kind}, ${m.tasks.length} tasks, ${m.features} features)`;
    return m.from === "run" ? `Current model: ${what}, from the run that just finished on ${m.data}.`
      : `Current model: ${what}, loaded from ${m.file}${m.trained ? `; trained on ${m.trained}` : ""}.`;
  }

  function showModel(m) {
    $("model-current").textContent = describe(m);
    $("save-model").disabled = !m || m.from !== "run";
    $("save-model").title = m && m.from === "file" ? "this model is a saved file already" : "";
    $("predict").disabled = !m;
  }

  app.on("run", () => { runSplit = { train: Number(app.settings.train), seed: Number(app.settings.seed) || 0 }; });
  // A finished run's model is the current one; a new run or other data
  // ends it (the worker frees the run).
  app.on("results", () => {
    const info = app.runInfo;
    forgetLoaded();
    app.setModel({ from: "run", handle: info.handle, name: info.name, kind: app.data.kind, tasks: info.tasks,
      features: app.data.features, data: app.data.name, trainRows: info.trainRows, fixedSplit: app.data.fixedSplit, split: runSplit });
  });
  app.on("reset", () => { if (app.model && app.model.from === "run") app.setModel(null); });
  app.on("model", (m) => { if (predictions) clearPredictions(); showModel(m); });

  function forgetLoaded() {
    if (loaded !== null) client.request("free", { handle: loaded }).catch(() => {});
    loaded = null;
  }

  $("save-model").addEventListener("click", async () => {
    const m = app.model;
    if (!m || m.from !== "run") return;
    try {
      const opts = { file: m.data, rows: m.trainRows, seed: m.split ? m.split.seed : 0 };
      if (!m.fixedSplit && m.split && Number.isFinite(m.split.train)) opts.train = m.split.train;
      const text = await client.request("exportModel", { handle: m.handle, opts });
      download("spmtl-model.json", textBlob(text, "application/json"));
      $("predict-status").textContent = `Saved ${m.name} as spmtl-model.json.`;
      showSlot("model-error", "");
    } catch (e) { showSlot("model-error", e.message); }
  });

  $("load-model").addEventListener("click", () => $("model-file").click());
  $("model-file").addEventListener("change", async () => {
    const f = $("model-file").files[0];
    $("model-file").value = "";
    if (!f) return;
    try {
      const info = await client.request("importModel", { file: f, name: f.name });
      forgetLoaded();
      loaded = info.handle;
      app.setModel({ from: "file", handle: info.handle, name: info.name, method: info.method, kind: info.kind, tasks: info.tasks,
        features: info.features.length, file: f.name, trained: info.trained });
      $("predict-status").textContent = `Loaded ${info.name} from ${f.name}.`;
      showSlot("model-error", "");
    } catch (e) {
      $("predict-status").textContent = `Cannot load ${f.name}.`;
      showSlot("model-error", e.message);
    }
  });

  $("predict").addEventListener("click", () => $("predict-file").click());
  $("predict-file").addEventListener("change", async () => {
    const f = $("predict-file").files[0];
    $("predict-file").value = "";
    const m = app.model;
    if (!f || !m) return;
    $("predict-status").textContent = `Predicting ${f.name} with ${m.name}…`;
    try {
      const p = await client.request("predict", { handle: m.handle, file: f, name: f.name });
      predictions = Object.assign(p, { file: f.name, model: m.name });
      showPredictions();
      showSlot("model-error", "");
    } catch (e) {
      clearPredictions();
      $("predict-status").textContent = `Cannot predict ${f.name}.`;
      showSlot("model-error", e.message);
    }
  });

  // clearPredictions takes the last predictions off the panel: after a
  // file that could not be predicted they would read as that file's, and
  // after the model changed as the new model's.
  function clearPredictions() {
    predictions = null;
    $("predict-warnings").innerHTML = "";
    $("predict-warnings").hidden = true;
    $("predict-preview").innerHTML = "";
    $("predict-csv").disabled = true;
  }

  function showPredictions() {
    const p = predictions;
    const cols = p.header.length > PREVIEW_COLS ? [...Array(PREVIEW_COLS - 1).keys(), p.header.length - 1] : [...p.header.keys()];
    $("predict-status").textContent = `${p.rows.length} rows of ${p.file} predicted with ${p.model}: column "${p.column}" is ${p.meaning}.`
      + (p.rows.length > PREVIEW_ROWS ? ` The first ${PREVIEW_ROWS} are shown.` : "")
      + (cols.length < p.header.length ? ` The preview shows ${PREVIEW_COLS - 1} of the file's ${p.header.length - 1} columns and the prediction.` : "")
      + " The CSV repeats the file's own cells as they are, beside the predictions.";
    const warn = $("predict-warnings");
    warn.innerHTML = "";
    for (const w of p.warnings || []) { const li = document.createElement("li"); li.textContent = w; warn.append(li); }
    warn.hidden = !(p.warnings && p.warnings.length);
    const cell = (c) => escapeXML(clipText(c, PREVIEW_CELL));
    let html = `<table><caption class="hint">Predictions of ${escapeXML(p.file)}</caption><thead><tr>${cols.map((k) => `<th scope="col">${cell(p.header[k])}</th>`).join("")}</tr></thead><tbody>`;
    for (const r of p.rows.slice(0, PREVIEW_ROWS)) html += `<tr>${cols.map((k) => `<td>${cell(r[k])}</td>`).join("")}</tr>`;
    $("predict-preview").innerHTML = html + "</tbody></table>";
    $("predict-csv").disabled = false;
  }

  $("predict-csv").addEventListener("click", () => {
    if (!predictions) return;
    const base = predictions.file.replace(/\.[^.]*$/, "");
    // The visitor's own cells, as they are (echo): the file is their data with a column added.
    download(`${base}-predictions.csv`, textBlob(toCSV([predictions.header, ...predictions.rows], { echo: true }), "text/csv"));
  });

  showModel(null);
  window.spmtlApp.predictions = () => predictions;
}
