// model.js: the current model and what a visitor does with it. The current
// model is the finished run's or one loaded from a saved file, whichever
// came last. "Save model for prediction" downloads a model file (Go's
// JSON) fitted on every row of the data with the finished run's settings,
// or with the settings shown when they changed since (Tune's choice): the
// run's own model when it trained on all rows, else a fit on all rows in a
// worker of its own, which leaves the run on screen as it is. "Save
// this run's model" downloads the run's model as trained (on its training
// rows). "Load a saved model" reads one back, "Predict" reads a file's rows
// with the current model: a preview of the first rows, the warnings, and
// the predictions as a CSV. The CSV holds Go's text with every digit and
// repeats the file's own cells as they are (not made inert as the page's
// other CSVs are: they are the visitor's data), and the status says so;
// the preview shows each prediction to 4 significant digits
// (previewNumber), its full text on hover. Its errors show in the panel,
// beside its buttons.
import { download, textBlob, toCSV, escapeXML, clipText } from "./export.js";
import { showSlot } from "./notices.js";
import { LearnerClient, giveModule } from "./client.js";
import { trainOptions, optionsKey } from "./state.js";
import { method } from "./catalog.js";
import { MODEL_BOUNDS, checkSize } from "./bounded-json.js";
import { grouped, plural } from "./columns.js";

const $ = (id) => document.getElementById(id);

const PREVIEW_ROWS = 20;
const PREVIEW_COLS = 40; // the preview's columns: the first ones and the prediction
const PREVIEW_CELL = 80; // characters of a cell shown

// makeWorker starts a learner worker of its own (as the tuning pool's).
const makeWorker = () => {
  if (window.SPMTL_MAKE_WORKER) return window.SPMTL_MAKE_WORKER();
  const w = new Worker(new URL("./worker.js", import.meta.url));
  giveModule(w);
  return w;
};

let runModel = null; // the wired panel's exportRunModel

/** The finished run's model file as JSON text (what "Save this run's
 *  model" downloads); rejects when no run has finished. */
export function runModelText() {
  return runModel ? runModel() : Promise.reject(new Error("the model panel is not wired"));
}

/** Fits the training options opts on every row of the data set read from
 *  source (app.source) in a worker of its own; resolves with {text: the
 *  model file's JSON text, its trained part saying so (file: the data's
 *  name), name: the model's name}. tuned is the last model search on the
 *  data set (app.tuned), which the file carries if it chose opts. */
export async function fitAllRows(source, opts, file, tuned = null) {
  const client = new LearnerClient(makeWorker());
  try {
    const data = source.generate ? await client.request("generate", source.generate)
      : await client.request("load", Object.assign({ name: source.name, opts: source.opts }, source.src));
    const finished = new Promise((resolve, reject) => {
      client.on("results", resolve);
      client.on("error", (m) => reject(new Error(m.message)));
    });
    const config = Object.assign({}, opts, { data: data.handle, all: true });
    delete config.train;
    const info = await client.request("start", { config, play: true, tag: 1 });
    await finished;
    const text = await client.request("exportModel", { handle: info.handle, opts: { file, rows: info.trainRows, all: true, seed: config.seed || 0, tuned } });
    return { text, name: info.name };
  } finally {
    client.close("the fit on all rows ended");
  }
}

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
  let runSplit = null; // the started run's {train, seed, all, opts}, for the model file's "trained" and a fit on all rows
  let loaded = null; // the handle of the model loaded from a file (freed when replaced)
  let predictions = null; // the last predictions, with {file, model}

  function describe(m) {
    if (!m) return "No model yet: train one to the end, or load a saved model.";
    const what = `${m.name} (${m.kind}, ${plural(m.tasks.length, "task")}, ${plural(m.features, "feature")})`;
    return m.from === "run" ? `Current model: ${what}, from the run that just finished on ${m.data}.`
      : `Current model: ${what}, loaded from ${m.file}${m.trained ? `; trained on ${m.trained}` : ""}.`;
  }

  // drifted: whether the run on screen is the current model and the Model
  // panel's settings are no longer the ones it trained with (Tune chose
  // others, or the visitor edited them). "Save model for prediction" then
  // fits the settings shown, as the command line's tune -save fits its
  // choice, and "Save this run's model" keeps the run's; the panel says so.
  function drifted(m) {
    if (!m || m.from !== "run" || !m.split || !m.split.opts || !app.data) return false;
    try {
      return optionsKey(shownOptions()) !== optionsKey(m.split.opts);
    } catch (_) { return true; } // a setting that is not a number is not the run's
  }
  const shownOptions = () => trainOptions(app.settings, 0, method(app.settings.model));
  const driftNote = " The Model panel's settings have changed since this run: \"Save model for prediction\" fits them on every row; \"Save this run's model\" saves the run's.";

  function showModel(m) {
    const drift = drifted(m);
    $("model-current").textContent = describe(m) + (drift ? driftNote : "");
    for (const id of ["save-model", "save-run-model"]) {
      $(id).disabled = !m || m.from !== "run";
      $(id).title = m && m.from === "file" ? "this model is a saved file already" : "";
    }
    // A run on all rows has one model to save: it is the one for
    // prediction, unless the settings shown are others.
    $("save-run-model").hidden = !!(m && m.from === "run" && m.split && m.split.all) && !drift;
    $("predict").disabled = !m;
  }

  app.on("run", () => {
    let opts = null;
    try { opts = trainOptions(app.settings, 0, method(app.settings.model)); } catch (_) { /* a run starts with good settings only */ }
    // source: how the data set was read for this run (Tune may move its
    // features' origin later: the fit on every row reads it as the run did).
    runSplit = { train: Number(app.settings.train), seed: Number(app.settings.seed) || 0, all: !!(opts && opts.all), opts, source: app.source };
  });
  // A finished run's model is the current one; a new run or other data
  // ends it (the worker frees the run).
  app.on("results", () => {
    const info = app.runInfo;
    forgetLoaded();
    app.setModel({ from: "run", handle: info.handle, name: info.name, kind: app.data.kind, tasks: info.tasks,
      features: app.data.features, data: app.data.name, trainRows: info.trainRows, fixedSplit: app.data.fixedSplit, split: runSplit });
  });
  app.on("reset", () => { if (app.model && app.model.from === "run") app.setModel(null); });
  // A setting edited, or chosen by Tune: the panel says whether the run
  // on screen still matches the form.
  app.on("settings", () => showModel(app.model));
  // Another model (or none): the last predictions, and what the status
  // said of them or of the model before, are not of this one.
  app.on("model", (m) => {
    if (predictions) clearPredictions();
    $("predict-status").textContent = "";
    showModel(m);
  });

  function forgetLoaded() {
    if (loaded !== null) client.request("free", { handle: loaded }).catch(() => {});
    loaded = null;
  }

  // exportRunModel: the finished run's model file, its trained part saying
  // what the run trained on (every row, or its split).
  function exportRunModel(m = app.model) {
    if (!m || m.from !== "run") return Promise.reject(new Error("no finished run: train one to the end"));
    const opts = { file: m.data, rows: m.trainRows, seed: m.split ? m.split.seed : 0 };
    if (m.split && m.split.all) opts.all = true;
    else if (!m.fixedSplit && m.split && Number.isFinite(m.split.train)) opts.train = m.split.train;
    if (app.tuned) opts.tuned = app.tuned;
    return client.request("exportModel", { handle: m.handle, opts });
  }
  runModel = exportRunModel;

  // save downloads a model file, saying what it was trained on.
  function save(text, what) {
    download("spmtl-model.json", textBlob(text, "application/json"));
    $("predict-status").textContent = `Saved ${what} as spmtl-model.json.`;
    showSlot("model-error", "");
  }

  // "Save model for prediction": a model fitted on every row. A run on
  // all rows is that model; another is fitted again on all rows, with
  // the run's settings, in a worker of its own. Settings changed since
  // the run (Tune's choice) are fitted instead, on the data as it is read
  // now (Tune may have moved its origin).
  let fitting = false;
  $("save-model").addEventListener("click", async () => {
    const m = app.model;
    if (!m || m.from !== "run" || fitting) return;
    try {
      const drift = drifted(m);
      if (m.split && m.split.all && !drift) { save(await exportRunModel(m), `${m.name}, trained on all ${grouped(m.trainRows)} rows`); return; }
      let opts, source;
      if (drift) {
        try { opts = shownOptions(); } catch (e) { throw new Error(`the Model panel's settings are not valid (${e.message}): correct them, or save this run's model`); }
        source = app.source;
      } else {
        opts = m.split && m.split.opts;
        source = (m.split && m.split.source) || app.source;
      }
      if (!opts || !source) throw new Error("the run's settings are not known: train again, or save this run's model");
      fitting = true;
      $("save-model").disabled = true;
      const which = drift ? "the settings shown" : `${m.name}`;
      $("predict-status").textContent = `Fitting ${which} on all ${grouped(app.data.rows)} rows of ${m.data} for the saved model (the run shown trained on ${grouped(m.trainRows)})…`;
      const fit = await fitAllRows(source, opts, m.data, app.tuned);
      if (app.model !== m) return; // another run or model came meanwhile
      m.savedAll = app.data.rows; // predictions with the run's model say it is not this one
      m.savedDrift = drift; // … and when it has other settings than the run's (Tune's choice)
      save(fit.text, drift ? `${fit.name}, fitted on all ${grouped(app.data.rows)} rows with the settings shown, not the run's ("Save this run's model" saves the run's ${m.name})`
        : `${m.name}, fitted on all ${grouped(app.data.rows)} rows with the run's settings (the run shown trained on ${grouped(m.trainRows)}; "Save this run's model" saves that one)`);
    } catch (e) {
      showSlot("model-error", `Cannot save a model fitted on all rows: ${e.message}`);
    } finally {
      fitting = false;
      showModel(app.model);
    }
  });
  $("save-run-model").addEventListener("click", async () => {
    const m = app.model;
    try {
      const text = await exportRunModel(m);
      save(text, `${m.name} as the run trained it (on ${grouped(m.trainRows)} rows)`);
    } catch (e) { showSlot("model-error", e.message); }
  });

  $("load-model").addEventListener("click", () => $("model-file").click());
  $("model-file").addEventListener("change", async () => {
    const f = $("model-file").files[0];
    $("model-file").value = "";
    if (!f) return;
    try {
      checkSize(f.size, f.name, MODEL_BOUNDS);
      const info = await client.request("importModel", { file: f, name: f.name });
      forgetLoaded();
      loaded = info.handle;
      app.setModel({ from: "file", handle: info.handle, name: info.name, method: info.method, kind: info.kind, tasks: info.tasks,
        features: info.featureCount, file: f.name, trained: info.trained });
      $("predict-status").textContent = `Loaded ${info.name} from ${f.name}.`;
      showSlot("model-error", "");
    } catch (e) {
      $("predict-status").textContent = `Cannot load ${f.name}.`;
      showSlot("model-error", e.message);
    }
  });

  $("predict").addEventListener("click", () => $("predict-file").click());
  // refused is the file a refusal with a remedy stopped, with the options
  // that take it away (a missing value: remedy.omit, the complete rows; a
  // task the model cannot predict: remedy.skip, the known tasks' rows),
  // for the button that predicts the rest.
  let refused = null;
  async function predictFile(f, opts) {
    const m = app.model;
    if (!f || !m) return;
    refused = null;
    $("predict-complete").hidden = true;
    $("predict-status").textContent = `Predicting ${f.name} with ${m.name}…`;
    try {
      const p = await client.request("predict", Object.assign({ handle: m.handle, file: f, name: f.name, tuned: app.tuned }, opts));
      predictions = Object.assign(p, { file: f.name, model: predictedWith(m) });
      showPredictions();
      showSlot("model-error", "");
    } catch (e) {
      clearPredictions();
      $("predict-status").textContent = `Cannot predict ${f.name}.`;
      showSlot("model-error", e.message);
      const remedy = e.omit && opts.missing !== "omit" ? { missing: "omit" } : e.skip && opts.newTasks !== "omit" ? { newTasks: "omit" } : null;
      if (remedy) {
        refused = { file: f, opts: Object.assign({}, opts, remedy) };
        $("predict-complete").textContent = remedy.missing ? "Predict only the rows that have every value" : "Predict only the rows of the tasks the model knows";
        $("predict-complete").hidden = false;
      }
    }
  }
  // predictedWith names the model a prediction used: a run's, trained on
  // its split, is not the one "Save model for prediction" fitted on every
  // row, which a visitor who saved that one could take it for.
  function predictedWith(m) {
    if (m.from !== "run" || (m.split && m.split.all) || !app.data) return m.name;
    const saved = m.savedAll ? `; the model saved for prediction, fitted on all ${grouped(m.savedAll)} rows${m.savedDrift ? " with the Model panel's settings, not the run's" : ""}, predicts differently: load its spmtl-model.json (Load a saved model) to predict with it` : "";
    return `${m.name} as the run trained it (on ${grouped(m.trainRows)} of the ${grouped(app.data.rows)} rows${saved})`;
  }
  $("predict-file").addEventListener("change", () => {
    const f = $("predict-file").files[0];
    $("predict-file").value = "";
    predictFile(f, {});
  });
  $("predict-complete").addEventListener("click", () => { if (refused) predictFile(refused.file, refused.opts); });

  // clearPredictions takes the last predictions off the panel: after a
  // file that could not be predicted they would read as that file's, and
  // after the model changed as the new model's.
  function clearPredictions() {
    predictions = null;
    refused = null;
    $("predict-complete").hidden = true;
    $("predict-warnings").innerHTML = "";
    $("predict-warnings").hidden = true;
    $("predict-preview").innerHTML = "";
    $("predict-csv").disabled = true;
  }

  function showPredictions() {
    const p = predictions;
    // The prediction is the preview's first column: last, as the CSV has
    // it, it was off the box's right edge below ~1900 px of a wide file.
    const fileCols = Math.min(p.header.length - 1, PREVIEW_COLS - 1);
    const cols = [p.header.length - 1, ...Array(fileCols).keys()];
    // A row left out (a missing value, a task the model cannot predict)
    // has no prediction (null); the warnings say which and why.
    const none = (p.values || []).filter((v) => v === null || Number.isNaN(v)).length;
    const predicted = none ? `${grouped(p.rows.length - none)} of the ${grouped(p.rows.length)} rows of ${p.file} predicted (${grouped(none)} without a prediction, below)` : `${plural(p.rows.length, "row")} of ${p.file} predicted`;
    $("predict-status").textContent = `${predicted} with ${p.model}: column "${p.column}" is ${p.meaning}.`
      + (p.rows.length > PREVIEW_ROWS ? ` The first ${PREVIEW_ROWS} are shown.` : "")
      + (cols.length < p.header.length ? ` The preview shows ${PREVIEW_COLS - 1} of the file's ${grouped(p.header.length - 1)} columns and the prediction.` : "")
      + " The CSV repeats the file's own cells as they are, beside the predictions."
      // The file's own labels, when it has the label column: Go's sentence
      // (app.PredictScore), as the command line prints it.
      + (p.score ? ` ${p.score.text[0].toUpperCase()}${p.score.text.slice(1)}.` : "");
    const warn = $("predict-warnings");
    warn.innerHTML = "";
    for (const w of p.warnings || []) { const li = document.createElement("li"); li.textContent = w; warn.append(li); }
    warn.hidden = !(p.warnings && p.warnings.length);
    const cell = (c) => escapeXML(clipText(c, PREVIEW_CELL));
    // The caption as vtable.js writes one: a line of the box's own width,
    // which a table wider than the box does not cut, and the table's
    // caption for screen readers.
    const caption = `Predictions of ${escapeXML(p.file)} (to 4 significant digits here, first; the CSV holds every digit, last)`;
    let html = `<p class="hint vcaption" aria-hidden="true">${caption}</p><table><caption class="visually-hidden">${caption}</caption><thead><tr>${cols.map((k) => `<th scope="col">${cell(p.header[k])}</th>`).join("")}</tr></thead><tbody>`;
    // The prediction is the row's last cell; the file's own cells are as written.
    const last = p.header.length - 1;
    const shownCell = (c, k) => {
      if (k === last && c === "") return `<td class="none">none</td>`;
      const shown = k === last ? previewNumber(c) : c;
      return shown === c ? `<td>${cell(c)}</td>` : `<td title="${escapeXML(c)}">${escapeXML(shown)}</td>`;
    };
    for (const r of p.rows.slice(0, PREVIEW_ROWS)) html += `<tr>${cols.map((k) => shownCell(r[k], k)).join("")}</tr>`;
    $("predict-preview").innerHTML = html + "</tbody></table>";
    $("predict-csv").disabled = false;
  }

  $("predict-csv").addEventListener("click", () => {
    if (!predictions) return;
    const base = predictions.file.replace(/\.[^.]*$/, "");
    // The visitor's own cells, as they are (echo): the file is their data
    // with a column added, in its own delimiter and decimal mark (Go's
    // Predictions.CSV writes the same).
    const p = predictions, last = p.header.length - 1;
    const rows = p.decimalComma ? p.rows.map((r) => r.map((c, j) => (j === last ? String(c).replace(".", ",") : c))) : p.rows;
    download(`${base}-predictions.csv`, textBlob(toCSV([p.header, ...rows], { echo: true, delimiter: p.delimiter || "," }), "text/csv"));
  });

  showModel(null);
  window.spmtlApp.predictions = () => predictions;
}
