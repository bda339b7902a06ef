// model.js: the current model and what a visitor does with it. The current
// model is the finished run's or one loaded from a saved file, whichever
// came last. "Save model" downloads the finished run's model file (Go's
// JSON), "Load a saved model" reads one back, "Predict" reads a file's rows
// with the current model: a preview of the first rows, the warnings, and
// the predictions as a CSV. The CSV holds Go's text with every digit; the
// preview shows each prediction to 4 significant digits (previewNumber),
// its full text on hover. Its errors show in the panel, beside its buttons.
import { download, textBlob, toCSV, escapeXML } from "./export.js";
import { showSlot } from "./notices.js";

const $ = (id) => document.getElementById(id);

const PREVIEW_ROWS = 20;

/** A prediction as the preview shows it: 4 significant digits, without
 *  an exponent between 1e-4 and 1e6 ("0.7312", "1235", "-0.0453"); a text
 *  that is not a finite number as it is. */
export function previewNumber(text) {
  const x = Number(text);
  if (text === "" || !Number.isFinite(x)) return text;
  if (x === 0) return "0";
  const a = Math.abs(x);
  if (a < 1e-4 || a >= 1e6) return x.toPrecision(4);
  return String(Number(x.toPrecision(4)));
}

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
    $("predict-status").textContent = `${p.rows.length} rows of ${p.file} predicted with ${p.model}: column "${p.column}" is ${p.meaning}.`
      + (p.rows.length > PREVIEW_ROWS ? ` The first ${PREVIEW_ROWS} are shown.` : "");
    const warn = $("predict-warnings");
    warn.innerHTML = "";
    for (const w of p.warnings || []) { const li = document.createElement("li"); li.textContent = w; warn.append(li); }
    warn.hidden = !(p.warnings && p.warnings.length);
    let html = `<table><caption class="hint">Predictions of ${escapeXML(p.file)} (to 4 significant digits here; the CSV holds every digit)</caption><thead><tr>${p.header.map((h) => `<th scope="col">${escapeXML(h)}</th>`).join("")}</tr></thead><tbody>`;
    // The prediction is the row's last cell; the file's own cells are as written.
    const last = p.header.length - 1;
    const cell = (c, i) => {
      if (i !== last) return `<td>${escapeXML(c)}</td>`;
      const shown = previewNumber(c);
      return shown === c ? `<td>${escapeXML(c)}</td>` : `<td title="${escapeXML(c)}">${escapeXML(shown)}</td>`;
    };
    for (const r of p.rows.slice(0, PREVIEW_ROWS)) html += `<tr>${r.map(cell).join("")}</tr>`;
    $("predict-preview").innerHTML = html + "</tbody></table>";
    $("predict-csv").disabled = false;
  }

  $("predict-csv").addEventListener("click", () => {
    if (!predictions) return;
    const base = predictions.file.replace(/\.[^.]*$/, "");
    download(`${base}-predictions.csv`, textBlob(toCSV([predictions.header, ...predictions.rows]), "text/csv"));
  });

  showModel(null);
  window.spmtlApp.predictions = () => predictions;
}
