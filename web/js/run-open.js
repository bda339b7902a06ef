// run-open.js: recorded runs. The page keeps what a run on screen needs
// to be saved as a run file (its settings, data, snapshots with the test
// score after each, results and model: "Download the run as JSON"), and
// shows a recorded run (a saved run file opened with "Open a saved run…",
// or a published page's run: published.js) in the views without
// training: it feeds the page's events ("run", "snapshot", "results") as
// the run controller does for a run in the worker, and makes the run's
// model, read back by the worker, the current one (shared knowledge). The
// recorded-run panel says what the run holds and reruns it with one
// click ("Reproduce this run"), then says whether every number the page
// prints came out the same.
import { RUN_BOUNDS, checkSize, parseBounded } from "./bounded-json.js";
import { download, textBlob } from "./export.js";
import { showSlot } from "./notices.js";
import { bundle, method } from "./catalog.js";
import { Columns, grouped, plural } from "./columns.js";
import { OWN_DATA, dataKey } from "./state.js";
import { isolated } from "./labels.js";

const $ = (id) => document.getElementById(id);

/** A value as JSON holds it (typed arrays as arrays, NaN as null). */
const plain = (o) => JSON.parse(JSON.stringify(o, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));

const fixed4 = (v) => (typeof v !== "number" || !Number.isFinite(v) ? "n/a" : v.toFixed(4));

/** A setting as the hash holds it, a number cut to 4 significant digits
 *  (a tuned ρ is "2.8117066259517456") and any other word as it is. */
const setting = (v) => {
  const x = Number(v);
  return typeof v === "string" && v.trim() !== "" && Number.isFinite(x) ? String(Number(x.toPrecision(4))) : v;
};

/** Checks that rec is a run file the views can show; throws what is wrong. */
export function checkRunFile(rec) {
  const bad = (why) => { throw new Error(`not a saved spmtl run: ${why}`); };
  if (!rec || typeof rec !== "object") bad("not a JSON object");
  // A file of another kind (a model file: "spmtl-model") says so; a run
  // file written before the format was recorded has none.
  if (rec.format !== undefined && rec.format !== "spmtl-run") bad(`its format is ${JSON.stringify(String(rec.format).slice(0, 40))}, not "spmtl-run"${rec.format === "spmtl-model" ? " (a model file: load it with “Load a saved model…”)" : ""}`);
  const run = rec.run, res = rec.results, snaps = rec.snapshots;
  if (!run || !Array.isArray(run.tasks) || !run.config || typeof run.name !== "string") bad("no run description (run.tasks, run.config)");
  if (!Array.isArray(snaps) || snaps.length === 0) bad("no snapshots");
  const T = run.tasks.length;
  // Every number the views draw and print is checked here: a null τ
  // opened, and crashed the rerun's comparison (hunt10); a negative one
  // was described as uniform.
  const weight = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0;
  snaps.forEach((s, i) => {
    if (!s || typeof s.iter !== "number" || !(s.seq || (Array.isArray(s.tau) && s.tau.length === T))) bad(`snapshot ${i + 1} has no τ for the ${T} tasks`);
    if (s.seq) {
      if (!Number.isInteger(s.seq.task) || s.seq.task < 0 || s.seq.task >= T) bad(`snapshot ${i + 1} learns no task of the ${T}`);
      return;
    }
    if (!weight(s.lambda)) bad(`snapshot ${i + 1}'s λ is not a number of 0 or more`);
    const k = s.tau.findIndex((v) => !weight(v));
    if (k >= 0) bad(`snapshot ${i + 1}'s τ of task ${k + 1} is ${JSON.stringify(s.tau[k])}, not a weight of 0 or more`);
  });
  if (!res || !res.main || !Array.isArray(res.main.tasks) || !Array.isArray(res.main.test)) bad("no results");
  for (const role of ["main", "baseline", "itl"]) {
    const r = res[role];
    if (!r) continue;
    // A score is a finite number of 0 or more (an AUC at most 1), or
    // none (null: a task with no score).
    const score = (v) => v === null || (weight(v) && (r.metric !== "auc" || v <= 1));
    if (!score(r.mean) || !Array.isArray(r.test) || !r.test.every(score)) bad(`the ${role} result's scores are not ${r.metric === "auc" ? "AUCs between 0 and 1" : "numbers of 0 or more"}`);
  }
  if (!rec.settings || typeof rec.settings !== "object") bad("no settings");
}

/** The numbers the page prints of a run ([label, text, value]): each
 *  result of the results table (4 decimals), and per iteration λ and every
 *  task's τ (4 significant digits, as the status line and the τ table
 *  print them; a sequential learner's step: the task it learned). */
export function printedNumbers(r) {
  const out = [];
  for (const role of ["main", "baseline", "itl"]) {
    const res = r.results && r.results[role];
    if (!res) continue;
    out.push([`the mean test ${res.metric.toUpperCase()} of ${res.label}`, fixed4(res.mean), res.mean]);
    res.tasks.forEach((t, i) => out.push([`the test ${res.metric.toUpperCase()} of ${res.label} on ${t}`, fixed4(res.test[i]), res.test[i]]));
  }
  for (const s of r.snapshots) {
    if (s.seq) { out.push([`the task learned at step ${s.iter}`, r.run.tasks[s.seq.task], s.seq.task]); continue; }
    out.push([`λ at iteration ${s.iter}`, s.lambda.toPrecision(4), s.lambda]);
    r.run.tasks.forEach((t, k) => out.push([`τ of ${t} at iteration ${s.iter}`, s.tau[k].toPrecision(4), s.tau[k]]));
  }
  return out;
}

/** Compares a rerun with its record: {same, total, differ: [[label,
 *  recorded, now]], steps: [recorded, now], maxDiff} (maxDiff: the largest
 *  difference between two numbers behind the printed ones). */
export function compareRuns(recorded, now) {
  const a = printedNumbers(recorded), b = printedNumbers(now);
  const byLabel = new Map(b.map((x) => [x[0], x]));
  const differ = [];
  let maxDiff = 0;
  for (const [label, text, v] of a) {
    const o = byLabel.get(label);
    if (!o || o[1] !== text) differ.push([label, text, o ? o[1] : "none"]);
    if (o && typeof v === "number" && typeof o[2] === "number" && Number.isFinite(v) && Number.isFinite(o[2])) maxDiff = Math.max(maxDiff, Math.abs(v - o[2]));
  }
  const steps = [recorded.snapshots.length, now.snapshots.length];
  return { same: differ.length === 0 && a.length === b.length, total: a.length, differ, steps, maxDiff };
}

/** The verdict on a rerun (compareRuns' c) of a noun ("published run"). */
function verdictOf(c, noun) {
  const what = "test scores to 4 decimals, λ and τ to 4 significant digits";
  if (c.same) {
    const bits = c.maxDiff === 0 ? "every number behind them is the same to the last bit" : `the numbers behind them differ by at most ${c.maxDiff.toExponential(1)}`;
    return `Reproduced: all ${c.total} printed numbers match the ${noun} (${what}); ${bits}.`;
  }
  const steps = c.steps[0] !== c.steps[1] ? ` It took ${c.steps[1]} steps, the ${noun} ${c.steps[0]}.` : "";
  const [label, was, is] = c.differ[0] || ["the count of printed numbers", String(c.total), "another"];
  return `Not reproduced: ${c.differ.length} of ${c.total} printed numbers differ (${what}); first ${label}: ${was} recorded, ${is} now.${steps}`;
}

/** Whether the data set loaded is the record's. */
function dataMatches(app, record) {
  const d = app.data, r = record.data || {};
  if (!d) return false;
  if (bundle(record.settings.data)) return app.settings.data === record.settings.data && d.rows === r.rows;
  return d.name === r.name && d.rows === r.rows && d.features === r.features && (d.tasks || []).length === (r.tasks || []).length;
}

/** Fills the recorded-run panel: what the record holds, and from where. */
function describeRecord(record, origin) {
  const d = record.data || {}, r = record.run, s = record.settings, main = record.results.main;
  // The columns as saved: packed (columns.js Columns), or a list of objects in run files saved before.
  const cols = new Columns(d.columns);
  const roleOf = (role) => cols.withRole(role);
  const list = (xs) => xs.join(", ");
  const columns = [d.taskColumn && `task column ${d.taskColumn}`, d.labelColumn && `label column ${d.labelColumn}`,
    roleOf("dropped").length && `left out: ${list(roleOf("dropped"))}`, roleOf("text").length && `read as words: ${list(roleOf("text"))}`].filter(Boolean);
  const tasks = (d.tasks || r.tasks).length;
  $("recorded-title").textContent = origin.kind === "published" ? "Published run" : "Saved run";
  $("recorded-source").textContent = origin.kind === "published" ? `This page holds a recorded run, its data and its model (${origin.label}).`
    : `Opened from ${origin.label}.`;
  $("recorded-data").textContent = `Data: ${d.name || "?"}, ${d.rows ?? "?"} rows, ${tasks} tasks, ${d.features ?? "?"} features, ${d.kind || "?"}${columns.length ? ` (${columns.join("; ")})` : ""}.`;
  const last = record.snapshots[record.snapshots.length - 1];
  const scores = ["main", "baseline", "itl"].filter((k) => record.results[k]).map((k) => `${record.results[k].label} ${fixed4(record.results[k].mean)}`);
  $("recorded-run").textContent = `Run: ${isolated(r.name)}, ${plural(record.snapshots.length, last.seq ? "step" : "iteration")} (${last.stopMessage || "done"}); trained on ${grouped(r.trainRows)} rows, tested on ${grouped(r.testRows)}; mean test ${main.metric.toUpperCase()}: ${scores.join(", ")}.`;
  const sp = s.sp === "1" ? ", self-paced" : "";
  // The selection rule is a sequential model's (CL, ELLA) and h MTASO's:
  // listed for another model they read as settings it used.
  const m = method(s.model);
  const rule = s.select && m && m.kind === "sequential" ? `, selection rule ${s.select}` : "";
  const h = s.model === "mtaso" ? `, h ${s.h}` : "";
  // The pace (the τ rule, λ0, c) is a self-paced run's, likewise.
  const pace = s.sp === "1" ? `, τ rule ${s.tau}` : "";
  const paceNumbers = s.sp === "1" ? `, λ0 ${setting(s.lambda0)}, c ${setting(s.c)}` : "";
  $("recorded-settings").textContent = `Settings: model ${s.model}${sp}${rule}${pace}, variant ${s.variant}, loss ${s.loss || "auto"}, ρ ${setting(s.rho)}, κ ${s.intercept ? setting(s.intercept) : "not set"}${paceNumbers}${h}, max iterations ${s.maxIter}, train rows/task ${s.train}, seed ${s.seed}.`;
  const when = record.made ? `${record.made.replace("T", " ").slice(0, 16)} UTC` : "at an unrecorded time";
  $("recorded-made").textContent = `Made ${when}${record.by ? ` by ${record.by}` : ""}.`;
  $("recorded-panel").hidden = false;
  $("recorded-data-file").hidden = !origin.dataBytes;
  $("recorded-model-file").hidden = !record.model;
}

/** Opens a saved run (the button "Open a saved run…"): its data set is
 *  loaded first when it is a bundled one not on screen; a visitor's file
 *  cannot be, and the run is shown as recorded (its rerun waits for the
 *  file). */
function wireOpenRun(app, data, { present, applySettings }) {
  $("open-run").addEventListener("click", () => $("run-file").click());
  $("run-file").addEventListener("change", async () => {
    const f = $("run-file").files[0];
    $("run-file").value = "";
    if (!f) return;
    try {
      checkSize(f.size, f.name, RUN_BOUNDS);
      const text = await f.text();
      // A published page is opened in the browser, not here (its markup
      // was refused as JSON "nested more than 32 deep": hunt10).
      if (/^\s*</.test(text.slice(0, 512))) throw new Error(`${f.name}: a web page, not a saved run: a page published by spmtl shows its run when it is opened in the browser`);
      const rec = parseBounded(text, f.name, RUN_BOUNDS);
      try { checkRunFile(rec); } catch (e) { throw new Error(`${f.name}: ${e.message}`); }
      if (!app.data) throw new Error("wait for the data set to load, then open the run");
      showSlot("open-run-error", "");
      const b = bundle(rec.settings.data);
      const origin = { kind: "file", label: f.name, reload: b ? () => data.loadBundle(b.name) : null };
      if (b && !dataMatches(app, rec)) present(rec, origin, origin.reload);
      else { if (dataMatches(app, rec)) applySettings(rec); present(rec, origin); }
    } catch (e) { showSlot("open-run-error", e.message); }
  });
}

/** The run on screen (current: wireRecorded's) as a run file (results
 *  null while it runs), or null. */
async function runFileOf(app, current) {
  if (!current || !app.runInfo || !app.snapshots.length) return null;
  const rec = current.recorded;
  const out = {
    format: "spmtl-run", made: current.made, by: rec ? rec.by : "the spmtl page",
    settings: current.settings, data: plain(current.data), run: plain(app.runInfo),
    snapshots: app.snapshots.map(plain), evals: current.evals, results: app.results && plain(app.results),
  };
  const model = rec ? rec.model : app.results && await runModel(app);
  if (model) out.model = model;
  return out;
}

// runModel: the finished run's model file, as the model panel saves it.
async function runModel(app) {
  const m = app.model;
  if (!m || m.from !== "run") return null;
  const opts = { file: m.data, rows: m.trainRows, seed: m.split ? m.split.seed : 0 };
  if (!m.fixedSplit && m.split && Number.isFinite(m.split.train)) opts.train = m.split.train;
  try { return JSON.parse(await app.client.request("exportModel", { handle: m.handle, opts })); } catch (_) { return null; }
}

/** Puts the settings of a record's run in app.settings and the form (its
 *  data set is the one the page loads). */
function applyRecordSettings(app, form, record) {
  const s = Object.assign({}, record.settings);
  for (const k of ["data", "run", "embed", "controls"]) delete s[k];
  Object.assign(app.settings, s);
  // Its ITL is rerun as it was recorded: at a setting of its own (tune's
  // for ITL) when the record says so, else at the run's own ρ and κ (also
  // a record made before comparisons carried their setting).
  const itl = ((record.run && record.run.comparisons) || []).find((c) => c.role === "itl");
  const rc = (record.run && record.run.config) || {};
  const own = itl && itl.config && (itl.config.rho !== rc.rho || (itl.config.intercept || 0) !== (rc.intercept || 0));
  app.compareITL = own && itl.config.rho > 0
    ? { rho: itl.config.rho, intercept: itl.config.intercept || 0, data: dataKey(record.data) } : null;
  form.apply();
  form.read();
}

/** Feeds a record into the views as the run controller feeds a run from
 *  the worker: "run", a "snapshot" per step (with the test score after it;
 *  a run file without them gives the final one's order of entry), "results",
 *  and the state "done". */
function feedRecord(app, record) {
  // No handle: the run is not in the worker.
  app.runInfo = Object.assign({}, record.run, { handle: null });
  app.snapshots = [];
  app.results = null;
  app.emit("run", app.runInfo);
  const main = record.results.main;
  const evs = record.evals || [];
  record.snapshots.forEach((s, i) => {
    app.snapshots.push(s);
    app.emit("snapshot", s, evs[i] || { metric: main.metric, mean: null, enteredAt: main.enteredAt });
  });
  app.results = record.results;
  app.emit("results", record.results);
  app.move("recorded");
}

/** Wires the panel's downloads of the shown record's data (a published
 *  page's file) and model. */
function wireRecordFiles(shown) {
  const baseName = (name) => String(name || "data").replace(/\.[^.]*$/, "");
  $("recorded-data-file").addEventListener("click", () => {
    const s = shown();
    if (s && s.origin.dataBytes) download(s.origin.label, new Blob([s.origin.dataBytes]));
  });
  $("recorded-model-file").addEventListener("click", () => {
    const s = shown();
    if (s && s.record.model) download(`${baseName(s.origin.label)}-model.json`, textBlob(JSON.stringify(s.record.model, null, 1) + "\n", "application/json"));
  });
}

/** Wires recorded runs: the run file of the run on screen, the
 *  recorded-run panel and "Open a saved run…". Returns {file, source,
 *  present}: file() resolves with the run on screen as a run file (null
 *  when there is none); source() is how its data was read (app.source
 *  when it started); present(record, origin, load) shows a recorded run,
 *  after load() (when given) has loaded its data. origin: {kind:
 *  "published" | "file", label, dataBytes?, reload?}. */
export function wireRecorded(app, { form, runs, data }) {
  const client = app.client;
  // current: the run on screen, {settings, source, data, evals, made, recorded?}.
  let current = null;
  let rendering = false; // the events being fed are a recorded run's
  let shown = null; // the recorded run of the panel: {record, origin}
  let pending = null; // what to do when the data set asked for is in
  let rerun = null; // the record a rerun asked for, until its run starts
  let rerunning = null; // the record the run on screen reruns
  let modelHandle = null; // the model read back from a record

  const noun = () => (shown && shown.origin.kind === "published" ? "published run" : "saved run");
  // barText: the run bar's data summary while it names a recorded run's
  // other data instead (markBar), to be put back when a run or a reset
  // takes the views over again.
  // marked is the text markBar wrote; another writer's text is left alone.
  let barText = null, marked = null;
  function markBar(record) {
    const d = record.data || {}, tasks = (d.tasks || record.run.tasks).length;
    if (barText === null) barText = $("bar-summary").textContent;
    const what = [plural(tasks, "task"), Number.isFinite(d.rows) && `${grouped(d.rows)} rows`, Number.isFinite(d.features) && plural(d.features, "feature"), d.kind].filter(Boolean);
    marked = `The ${noun()}'s data, ${d.name || "unnamed"}: ${what.join(", ")} (not the data set loaded)`;
    $("bar-summary").textContent = marked;
  }
  function unmarkBar() {
    if (barText !== null && $("bar-summary").textContent === marked) $("bar-summary").textContent = barText;
    barText = marked = null;
  }
  const verdict = (text) => { $("recorded-verdict").textContent = text; };

  app.on("run", () => {
    if (rendering) return;
    unmarkBar();
    current = { settings: plain(app.settings), source: app.source, data: app.data, evals: [], made: null };
    rerunning = rerun;
    rerun = null;
    if (rerunning) verdict(`Training the ${noun()} again with its settings…`);
    else if (shown) verdict(`Showing a new run with the settings in the form, not the ${noun()}.`);
    offer();
  });
  app.on("snapshot", (s, ev) => {
    if (rendering || !current) return;
    current.evals.push({ metric: ev.metric, mean: typeof ev.mean === "number" ? ev.mean : null, enteredAt: Array.from(ev.enteredAt || []) });
  });
  app.on("results", () => {
    if (rendering || !current) return;
    current.made = new Date().toISOString();
    if (rerunning) judge(rerunning);
    rerunning = null;
  });
  app.on("runerror", (msg) => { if (rerunning) verdict(`The rerun failed: ${msg}`); rerunning = null; });
  app.on("reset", () => { if (!rendering) { current = null; unmarkBar(); forgetModel(); offer(); } });
  app.on("data", () => {
    barText = marked = null; // the bar says the new data set's summary
    const p = pending;
    pending = null;
    if (p) { p(); return; }
    // The shown run's data given since: its verdict no longer asks for it.
    if (shown && dataMatches(app, shown.record)) {
      const stale = $("recorded-verdict").textContent.match(/^(.*?) Its data \(.*\) is not the data set loaded: load it to rerun the run\.(.*)$/);
      if (stale) verdict(`${stale[1]} Its data (${app.data.name}) is loaded now: Reproduce reruns the ${noun()} on it.${stale[2]}`);
    }
  });

  // judge says whether the rerun on screen printed what its record did.
  function judge(record) {
    const c = compareRuns(record, { run: app.runInfo, snapshots: app.snapshots, results: app.results });
    verdict(verdictOf(c, noun()));
    window.spmtlApp.lastComparison = () => c;
  }

  function forgetModel() {
    if (modelHandle === null) return;
    if (app.model && app.model.handle === modelHandle) app.setModel(null);
    client.request("free", { handle: modelHandle }).catch(() => {});
    modelHandle = null;
  }

  const applySettings = (record) => applyRecordSettings(app, form, record);

  // show feeds a record into the views, as the controller feeds a run,
  // then has the worker read its model back (the shared knowledge).
  async function show(record, origin) {
    runs.reset(); // ends any run in the worker: its late events are dropped
    // A round trip after the reset (the worker answers in order: its "idle"
    // for the reset comes first, and does not land on the record's "done").
    await client.request("catalog");
    forgetModel();
    rendering = true;
    try { feedRecord(app, record); } finally { rendering = false; }
    const shownNow = { settings: record.settings, source: app.source, data: record.data, evals: record.evals || [], made: record.made, recorded: record };
    current = shownNow;
    app.setModel(null);
    const matches = dataMatches(app, record);
    if (!matches) markBar(record);
    // A visitor's file it was made on, given now, is read with its roles.
    data.expectOwn(!matches && record.settings.data === OWN_DATA ? record.settings : null, record.data && record.data.name);
    const rerunNote = matches ? "" : ` Its data (${(record.data && record.data.name) || "unnamed"}) is not the data set loaded: load it to rerun the run.`;
    verdict(`Shown as recorded: nothing was trained.${rerunNote}`);
    offer();
    if (!record.model) return;
    let info;
    try {
      info = await client.request("importModel", { text: JSON.stringify(record.model), name: origin.label });
    } catch (e) {
      verdict(`Shown as recorded: nothing was trained. Its model cannot be read here (${e.message}): no shared knowledge to show.${rerunNote}`);
      return;
    }
    if (current !== shownNow) { client.request("free", { handle: info.handle }).catch(() => {}); return; }
    modelHandle = info.handle;
    app.setModel({ from: "file", handle: info.handle, name: info.name, method: info.method, kind: info.kind, tasks: info.tasks,
      features: info.featureCount, file: `the ${noun()} ${origin.label}`, trained: info.trained });
  }

  /** Shows record (from origin), after load() has loaded its data when given. */
  function present(record, origin, load) {
    checkRunFile(record);
    shown = { record, origin };
    describeRecord(record, origin);
    if (!load) { show(record, origin); return; }
    applySettings(record);
    pending = () => { applySettings(record); show(record, origin); };
    verdict(`Reading the ${noun()}'s data…`);
    load();
  }

  // reproduce reruns the panel's record with its settings on its data
  // (read again first when another data set was loaded since).
  function reproduce() {
    if (!shown) return;
    const { record, origin } = shown;
    const go = async () => {
      applySettings(record);
      rerun = record;
      await runs.requestRun();
      // A start refused (a setting marked at its field) is no rerun.
      if (rerun === record && !app.runPending) { rerun = null; verdict("The rerun did not start: see why beside Play or at the marked setting."); }
    };
    if (dataMatches(app, record)) { go(); return; }
    if (!origin.reload) { verdict(`Load its data (${record.data.name}) to rerun the ${noun()}.`); return; }
    pending = go;
    origin.reload();
  }

  function showAgain() {
    if (!shown) return;
    const { record, origin } = shown;
    if (dataMatches(app, record) || !origin.reload) { if (dataMatches(app, record)) applySettings(record); show(record, origin); return; }
    pending = () => { applySettings(record); show(record, origin); };
    origin.reload();
  }

  function offer() {
    $("recorded-show").disabled = !shown || !!(current && current.recorded === shown.record);
  }

  $("recorded-reproduce").addEventListener("click", reproduce);
  $("recorded-show").addEventListener("click", showAgain);
  wireRecordFiles(() => shown);

  wireOpenRun(app, data, { present, applySettings });
  offer();
  window.spmtlApp.recorded = () => ({ kind: shown ? shown.origin.kind : "", showing: !!(current && current.recorded), verdict: $("recorded-verdict").textContent });
  return { file: () => runFileOf(app, current), source: () => (current ? current.source : null), present };
}
