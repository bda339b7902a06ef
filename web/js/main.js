// main.js: the page controller. It keeps the settings in the URL hash, asks
// the worker to load data and train, and feeds the charts with snapshots.
import { LearnerClient } from "./client.js";
import { readHash, writeHash, trainOptions, presetDefaults } from "./state.js";
import { Heatmap } from "./heatmap.js";
import { Curves, Scatter, MultiLine } from "./charts.js";
import { wireIntake } from "./intake.js";
import { download, canvasPNG, toCSV, textBlob, escapeXML } from "./export.js";
import { Reproduction } from "./repro.js";

const $ = (id) => document.getElementById(id);
const settingIds = ["model", "select", "tau", "variant", "loss", "rho", "lambda0", "c", "h", "maxIter", "train", "seed"];
const sequential = (model) => model === "cl" || model === "ella";

const app = {
  settings: readHash(),
  data: null, // summary of the loaded data set
  reloadable: false, // the worker keeps a CSV that a column change re-parses
  header: [], columns: null, // that CSV's header and the columns last parsed
  runInfo: null,
  state: "idle",
  snapshots: [],
  evals: [],
  results: null,
  pendingRun: false,
};
window.spmtlApp = {
  state: () => app.state,
  tauHistory: () => app.snapshots.map((s) => Array.from(s.tau)),
  snapshots: () => app.snapshots,
  results: () => app.results,
  summary: () => app.data,
  heatmapLayout: () => heat.layout,
  error: () => ($("error").hidden ? "" : $("error").textContent),
};

// The offline single-file build and embedding hosts may provide their own
// worker factory and preset texts (see web/offline).
const worker = window.SPMTL_MAKE_WORKER ? window.SPMTL_MAKE_WORKER() : new Worker(new URL("./worker.js", import.meta.url));
const client = new LearnerClient(worker);
const tooltip = $("tooltip");
const heat = new Heatmap($("heatmap"), $("legend"), tooltip);
const curves = new Curves($("curves"));
const scBase = new Scatter($("scatter-base"), tooltip, "self-paced vs its baseline");
const scITL = new Scatter($("scatter-itl"), tooltip, "self-paced vs ITL");

function showError(msg) {
  const el = $("error");
  if (!msg) { el.hidden = true; el.textContent = ""; return; }
  el.textContent = msg;
  el.hidden = false;
}

function setStatus() {
  const last = app.snapshots[app.snapshots.length - 1];
  const cap = app.runInfo ? app.runInfo.config.maxIter : app.settings.maxIter;
  const it = last ? `iteration ${last.iter} / ${cap}   λ = ${last.lambda.toPrecision(4)}` : "iteration 0";
  const words = { idle: "ready", running: "running", paused: "paused", done: "done", failed: "failed", loading: "loading data…" };
  // A finished run says why it ended (converged, or the iteration cap).
  const why = app.state === "done" && last && last.stopMessage ? last.stopMessage : words[app.state] || app.state;
  $("status").textContent = `${it}   · ${why}`;
  $("play").textContent = app.state === "running" ? "❚❚ Pause" : "▶ Play";
  $("play").disabled = !app.data || app.state === "loading";
  $("step").disabled = !app.data || app.state === "running" || app.state === "done" || app.state === "loading";
}

function applySettingsToForm() {
  const s = app.settings;
  for (const id of settingIds) $(id).value = s[id] ?? "";
  $("selfPaced").checked = s.sp === "1";
  $("order").value = s.order;
  const presets = Array.from($("preset").options).map((o) => o.value);
  $("preset").value = presets.includes(s.data) ? s.data : "custom";
}

function readForm() {
  for (const id of settingIds) app.settings[id] = $(id).value;
  app.settings.sp = $("selfPaced").checked ? "1" : "0";
  app.settings.order = $("order").value;
  writeHash(app.settings);
}

/** Where a bundled data file ("landmine/data.csv") comes from: the page's
 *  own copy in the offline build ({text}), else data/ next to the page
 *  ({url}, fetched by the worker so the page's thread never decodes it). */
function dataSource(rel) {
  const embedded = window.SPMTL_PRESETS && window.SPMTL_PRESETS[rel];
  return embedded ? { text: embedded() } : { url: new URL(`data/${rel}`, location.href).href };
}

async function loadPreset(name) {
  app.state = "loading"; setStatus();
  try {
    let summary;
    if (name === "syn1" || name === "syn2") {
      summary = await client.request("generate", { name, seed: Number(app.settings.seed) || 1 });
      app.reloadable = false;
      fillColumns([]);
    } else {
      const file = name === "sentiment" ? "data.svm" : "data.csv";
      const src = dataSource(`${name}/${file}`);
      if (name === "school" || name === "cs") {
        const sp = dataSource(`${name}/splits.csv`);
        if (sp.text !== undefined) src.splitText = sp.text; else src.splitURL = sp.url;
      }
      summary = await loadData(src, `${name}/${file}`);
    }
    await onLoaded(summary, name);
  } catch (e) {
    app.state = "idle"; setStatus();
    showError(e.message);
  }
}

/** Loads data in the worker: src is {url}, {file} or {text} (and a split). */
async function loadData(src, name) {
  const opts = { task: app.settings.task, label: app.settings.label };
  const summary = await client.request("load", Object.assign({ name, opts }, src));
  return takeColumns(summary);
}

/** Parses the worker's kept data again with the chosen columns. */
async function reloadData() {
  return takeColumns(await client.request("reload", { opts: { task: app.settings.task, label: app.settings.label } }));
}

// takeColumns fills the column menus from a load's answer and returns the
// data set's summary without them.
function takeColumns(answer) {
  const { header, task, label, ...summary } = answer;
  app.reloadable = header.length > 0;
  app.header = header;
  if (task) app.settings.task = task;
  if (label) app.settings.label = label;
  app.columns = { task: app.settings.task, label: app.settings.label };
  fillColumns(header);
  return summary;
}

function fillColumns(header) {
  for (const [id, key] of [["task-col", "task"], ["label-col", "label"]]) {
    const sel = $(id);
    sel.innerHTML = "";
    for (const h of header) sel.add(new Option(h, h));
    sel.disabled = header.length === 0;
    if (header.includes(app.settings[key])) sel.value = app.settings[key];
  }
}

// yieldToPage lets the browser handle input and paint before more work.
const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));

// onLoaded shows a newly loaded data set. The first drawing of the charts
// costs tens of milliseconds on a slow machine, so the form and summary, the
// charts and the autostarted run go in separate turns of the event loop.
async function onLoaded(summary, name) {
  // Play and Step stay disabled until the charts are reset for the new data.
  app.state = "loading"; setStatus();
  app.settings.data = name;
  writeHash(app.settings);
  applySettingsToForm();
  showError("");
  const rows = summary.tasks.map((t) => t.rows);
  const pos = summary.kind === "classification" ? `, ${summary.tasks.reduce((a, t) => a + t.positives, 0)} positive (${summary.positive})` : "";
  $("summary").textContent = `${summary.name}: ${summary.tasks.length} tasks, ${summary.rows} rows (${Math.min(...rows)}–${Math.max(...rows)} per task${pos}), ${summary.features} features, ${summary.kind}${summary.fixedSplit ? "; fixed train/test split" : ""}.`;
  await yieldToPage();
  if (app.data) client.request("free", { handle: app.data.handle }).catch(() => {});
  app.data = summary;
  resetRun();
  if (app.pendingRun) {
    app.pendingRun = false;
    await yieldToPage();
    await play();
  }
}

function resetRun() {
  client.request("reset").catch(() => {});
  app.runInfo = null; app.snapshots = []; app.evals = []; app.results = null;
  app.state = app.data ? "idle" : "loading";
  heat.reset(app.data ? app.data.tasks.map((t) => t.name) : []);
  curves.reset("");
  scBase.set([], "", ""); scITL.set([], "", "");
  $("results").innerHTML = "";
  setStatus();
}

async function startRun(play) {
  readForm();
  showError("");
  const opts = trainOptions(app.settings, app.data.handle);
  resetRun();
  app.runInfo = await client.request("start", { config: opts, play });
  heat.reset(app.runInfo.tasks);
  document.querySelector("#heat-panel h2").textContent = sequential(app.runInfo.config.model)
    ? "Task learned at each step (τ = 1 for the task learned)" : "Task weights τ per iteration";
  if (!play) app.state = "paused";
  setStatus();
}

async function play() {
  if (!app.data) { app.pendingRun = true; return; }
  try {
    if (app.state === "running") await client.request("pause");
    else if (app.state === "paused" && app.runInfo) await client.request("resume");
    else await startRun(true);
  } catch (e) { showError(e.message); app.state = "failed"; setStatus(); }
}

async function step() {
  try {
    if (!app.runInfo || app.state === "done" || app.state === "idle" || app.state === "failed") await startRun(false);
    await client.request("step");
  } catch (e) { showError(e.message); }
}

client.on("state", (m) => { app.state = m.state; setStatus(); });
client.on("error", (m) => { showError(m.message); app.state = "failed"; setStatus(); });
client.on("snapshot", (m) => {
  const s = m.snap;
  app.snapshots.push(s);
  app.evals.push(m.eval);
  heat.push(s);
  if (curves.points.length === 0) curves.metric = m.eval.metric;
  curves.push(s.iter, s.objective, m.eval.mean === null ? NaN : m.eval.mean);
  setStatus();
});
client.on("results", (m) => { app.results = m.results; showResults(); });

function errorOf(metric, v) { return metric === "auc" ? 1 - v : v; }

function showResults() {
  const r = app.results, main = r.main;
  const metric = main.metric;
  const errName = metric === "auc" ? "1 − AUC" : "RMSE";
  const cfg = app.runInfo.config;
  const seqModel = sequential(cfg.model);
  const spName = seqModel ? (cfg.model === "ella" ? `ELLA-${app.settings.select}` : "CL") : (cfg.selfPaced ? "sp" : "") + cfg.model.toUpperCase();
  const baseName = seqModel ? "spMTFL" : cfg.model.toUpperCase();
  // Colour tasks by when τ first let them in (the paper's claim: the hard
  // tasks, let in late, gain most). Sequential models: by the step learned.
  const easyColour = (i) => {
    const at = heat.easyAt(i);
    return at === 1 ? "#2a6df4" : at <= 3 ? "#2a9d5c" : Number.isFinite(at) ? "#c49a00" : "#d0562b";
  };
  const mk = (other) => main.tasks.map((task, i) => ({ task, x: errorOf(metric, main.test[i]), y: other ? errorOf(metric, other.test[i]) : NaN, color: easyColour(i) }));
  if (seqModel) {
    // The paper's comparison: spMTFL against each sequential learner; points
    // below the line are tasks where spMTFL does better.
    scBase.title = `${spName} vs spMTFL`;
    $("scatter-hint").textContent = `Points below the line are tasks where spMTFL does better than ${spName}.`;
  } else {
    scBase.title = "self-paced vs its baseline";
    $("scatter-hint").textContent = "Points above the line are tasks where the self-paced model does better. Colour: when τ first reached 1/T — blue at iteration 1, green at 2–3, amber later, red never.";
  }
  scITL.title = `${spName} vs ITL`;
  scBase.set(r.baseline ? mk(r.baseline) : [], `${errName}, ${spName}`, `${errName}, ${baseName}`);
  scITL.set(r.itl ? mk(r.itl) : [], `${errName}, ${spName}`, `${errName}, ITL`);
  const cols = [["main", spName], ["baseline", baseName], ["itl", "ITL"]].filter(([k]) => r[k]);
  const f = (v) => (v === null || !Number.isFinite(v) ? "n/a" : v.toFixed(4));
  let html = `<table><thead><tr><th>task</th>${cols.map(([, n]) => `<th>${n} ${metric.toUpperCase()}</th>`).join("")}</tr></thead><tbody>`;
  html += `<tr><td><b>mean</b></td>${cols.map(([k]) => `<td><b>${f(r[k].mean)}</b></td>`).join("")}</tr>`;
  main.tasks.forEach((t, i) => { html += `<tr><td>${escapeXML(t)}</td>${cols.map(([k]) => `<td>${f(r[k].test[i])}</td>`).join("")}</tr>`; });
  $("results").innerHTML = html + "</tbody></table>";
}


// Controls.
$("play").addEventListener("click", play);
$("step").addEventListener("click", step);
$("reset").addEventListener("click", resetRun);
$("preset").addEventListener("change", () => {
  const name = $("preset").value;
  Object.assign(app.settings, presetDefaults[name] || {});
  applySettingsToForm();
  loadPreset(name);
});
for (const id of settingIds) $(id).addEventListener("change", () => { readForm(); if (id === "seed" && (app.settings.data === "syn1" || app.settings.data === "syn2")) loadPreset(app.settings.data); });
$("selfPaced").addEventListener("change", readForm);
$("order").addEventListener("change", () => { readForm(); heat.setOrder(app.settings.order); });
let columnChanges = 0; // counts column menu changes; the latest one decides
for (const [id, key] of [["task-col", "task"], ["label-col", "label"]]) {
  $(id).addEventListener("change", async () => {
    app.settings[key] = $(id).value;
    writeHash(app.settings);
    if (!app.reloadable) return;
    const gen = ++columnChanges;
    try {
      await onLoaded(await reloadData(), app.settings.data);
    } catch (e) {
      // The worker answers in order, so the latest change decides. If it
      // failed, the loaded data set is still the one parsed with the last
      // good columns: the menus say so again, the error says why.
      if (gen !== columnChanges) return;
      Object.assign(app.settings, app.columns);
      fillColumns(app.header);
      writeHash(app.settings);
      showError(e.message);
    }
  });
}
wireIntake({ drop: $("drop"), file: $("file"), pasteBtn: $("paste-btn"), pasteBox: $("paste-box"), paste: $("paste"), pasteLoad: $("paste-load") },
  async (src, name, err) => {
    if (err) { showError(err.message); return; }
    // A new file's columns: "task" and "y" when it has them, else its first two.
    app.settings.task = "task"; app.settings.label = "y";
    try {
      await onLoaded(await loadData(src, name), "custom");
    } catch (e) { showError(e.message); app.state = app.data ? "idle" : "loading"; setStatus(); }
  });

// Exports.
document.querySelectorAll("[data-export]").forEach((b) => b.addEventListener("click", () => canvasPNG($(b.dataset.export), `spmtl-${b.dataset.export}.png`)));
$("export-tau").addEventListener("click", () => {
  const tasks = app.runInfo ? app.runInfo.tasks : [];
  const rows = [["iteration", "lambda", ...tasks], ...app.snapshots.map((s) => [s.iter, s.lambda, ...Array.from(s.tau)])];
  download("spmtl-tau.csv", textBlob(toCSV(rows), "text/csv"));
});
$("export-results").addEventListener("click", () => {
  if (!app.results) return;
  const r = app.results, keys = ["main", "baseline", "itl"].filter((k) => r[k]);
  const rows = [["task", ...keys.map((k) => `${k}_${r.main.metric}`)], ...r.main.tasks.map((t, i) => [t, ...keys.map((k) => r[k].test[i])])];
  download("spmtl-results.csv", textBlob(toCSV(rows), "text/csv"));
});
$("export-json").addEventListener("click", () => {
  const plain = (s) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, ArrayBuffer.isView(v) ? Array.from(v) : v]));
  const run = { settings: app.settings, data: app.data, run: app.runInfo, snapshots: app.snapshots.map(plain), results: app.results && Object.fromEntries(Object.entries(app.results).map(([k, v]) => [k, plain(v)])) };
  download("spmtl-run.json", textBlob(JSON.stringify(run, null, 1), "application/json"));
});
window.addEventListener("resize", () => { heat.draw(); curves.draw(); scBase.draw(); scITL.draw(); });

// Figures: convergence against λ0 or c, one run per value, drawn live.
const sweepObj = new MultiLine($("sweep-objective"), tooltip, "objective per iteration", "objective");
const sweepTest = new MultiLine($("sweep-test"), tooltip, "mean test score per iteration", "test score");
let sweepRows = [];
$("sweep-param").addEventListener("change", () => {
  $("sweep-values").value = $("sweep-param").value === "c" ? "1.01,1.05,1.1,1.2,1.5" : "1,10,25,50,75,100";
});
client.on("sweep", (m) => {
  sweepObj.add(m.index, m.iter, m.objective);
  sweepTest.add(m.index, m.iter, m.score === null ? NaN : m.score);
  sweepRows.push([m.value, m.iter, m.objective, m.score]);
  $("sweep-status").textContent = `${$("sweep-param").value} = ${m.value}, iteration ${m.iter}`;
});
$("sweep-run").addEventListener("click", async () => {
  if (!app.data) return;
  const param = $("sweep-param").value;
  const values = $("sweep-values").value.split(",").map(Number);
  if (!values.length || values.some((v) => !Number.isFinite(v) || v <= 0)) { showError("sweep values must be positive numbers, separated by commas"); return; }
  readForm();
  const name = param === "c" ? "c" : "λ0";
  sweepObj.reset(values.map((v) => `${name} = ${v}`));
  sweepTest.reset(values.map((v) => `${name} = ${v}`));
  sweepRows = [];
  $("sweep-run").disabled = true; $("sweep-cancel").disabled = false;
  try {
    const done = await client.request("sweep", { config: trainOptions(app.settings, app.data.handle), param, values });
    $("sweep-status").textContent += done ? " · done" : " · cancelled";
  } catch (e) { showError(e.message); }
  $("sweep-run").disabled = false; $("sweep-cancel").disabled = true;
});
$("sweep-cancel").addEventListener("click", () => client.request("cancelSweep"));
$("heatmap-svg").addEventListener("click", () => download("spmtl-tau.svg", textBlob(heat.svg(), "image/svg+xml")));
$("scatter-base-svg").addEventListener("click", () => download("spmtl-scatter.svg", textBlob(scBase.svg(), "image/svg+xml")));
$("scatter-itl-svg").addEventListener("click", () => download("spmtl-scatter-itl.svg", textBlob(scITL.svg(), "image/svg+xml")));
window.spmtlApp.svgs = () => ({ heatmap: heat.svg(), scatter: scBase.svg(), scatterITL: scITL.svg() });
$("sweep-svg").addEventListener("click", () => download("spmtl-sweep-objective.svg", textBlob(sweepObj.svg(), "image/svg+xml")));
$("sweep-csv").addEventListener("click", () => download("spmtl-sweep.csv", textBlob(toCSV([[$("sweep-param").value, "iteration", "objective", "test"], ...sweepRows]), "text/csv")));
window.spmtlApp.sweep = () => ({ series: sweepObj.series, rows: sweepRows, svg: sweepObj.svg() });

// The offline single file ships landmine, cs and the generators only, and
// no reproduction workers (README, "Offline").
if (window.SPMTL_OFFLINE) {
  $("repro-panel").hidden = true;
  for (const o of $("preset").options) if (!["landmine", "cs", "syn1", "syn2", "custom"].includes(o.value)) o.disabled = true;
}

// The reproduction view.
const repro = new Reproduction({
  datasets: () => Array.from(document.querySelectorAll("#repro-sets input:checked")).map((i) => i.value),
  runs: $("repro-runs"), quick: $("repro-quick"), variant: $("repro-variant"),
  start: $("repro-start"), cancel: $("repro-cancel"), bar: $("repro-bar"), status: $("repro-status"), table: $("repro-table"),
  exportCSV: $("repro-csv"), exportJSON: $("repro-json"), exportMD: $("repro-md"), onError: showError,
}, () => (window.SPMTL_MAKE_REPRO_WORKER ? window.SPMTL_MAKE_REPRO_WORKER() : new Worker(new URL("./repro-worker.js", import.meta.url))),
(d, f) => dataSource(`${d}/${f}`));
window.spmtlApp.repro = () => ({ state: repro.state, final: repro.final, partial: repro.partial });
$("repro-quick").addEventListener("change", () => { $("repro-runs").value = $("repro-quick").checked ? 3 : 10; });

// Start: the data set in the hash (landmine by default), then run=1 plays.
applySettingsToForm();
setStatus();
app.pendingRun = app.settings.run === "1";
const start = app.settings.data;
loadPreset(["landmine", "school", "cs", "sentiment", "syn1", "syn2"].includes(start) ? start : "landmine");

// Embedding (index.html#embed=1&controls=play,step&...): a compact learner
// that shows the τ heatmap and only the controls named in the link, and
// speaks a postMessage protocol with the host page (README, "Embedding").
const embedded = app.settings.embed === "1";
const host = embedded && window.parent !== window ? window.parent : null;
if (embedded) {
  document.body.classList.add("embed");
  const shown = new Set((app.settings.controls || "play,step,reset").split(",").map((c) => c.trim()));
  for (const id of ["play", "step", "reset"]) $(id).hidden = !shown.has(id);
  for (const id of settingIds.concat(["selfPaced", "preset"])) {
    const label = $(id).closest("label");
    if (label) label.hidden = !shown.has(id === "selfPaced" ? "sp" : id);
  }
}
function toHost(msg) { if (host) host.postMessage(msg, "*"); }
const plainArrays = (o) => JSON.parse(JSON.stringify(o, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));
client.on("snapshot", (m) => toHost({ type: "spmtl:snapshot", snapshot: plainArrays(m.snap), mean: m.eval.mean }));
client.on("results", (m) => toHost({ type: "spmtl:results", results: plainArrays(m.results), settings: app.settings }));
client.on("error", (m) => toHost({ type: "spmtl:error", message: m.message }));
if (host) {
  window.addEventListener("message", async (e) => {
    if (e.source !== host || !e.data || typeof e.data.type !== "string") return;
    const m = e.data;
    try {
      switch (m.type) {
        case "spmtl:load":
          await onLoaded(await loadData({ text: String(m.text), splitText: m.splitText || null }, m.name || "host data"), "custom");
          toHost({ type: "spmtl:loaded", summary: app.data });
          break;
        case "spmtl:set":
          Object.assign(app.settings, m.settings || {});
          applySettingsToForm();
          readForm();
          toHost({ type: "spmtl:settings", settings: app.settings });
          break;
        case "spmtl:run": await startRun(true); break;
        case "spmtl:pause": await client.request("pause"); break;
        case "spmtl:step": await step(); break;
        case "spmtl:reset": resetRun(); break;
        default: throw new Error(`unknown message ${m.type}`);
      }
    } catch (err) {
      showError(err.message);
      toHost({ type: "spmtl:error", message: err.message });
    }
  });
}
let announced = false;
const announce = setInterval(() => {
  if (app.data && !announced) { announced = true; clearInterval(announce); toHost({ type: "spmtl:ready", summary: app.data }); }
}, 50);
