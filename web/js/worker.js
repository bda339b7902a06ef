// worker.js: runs the wasm learner off the page's thread. The page speaks to
// it in messages only (see client.js):
//   requests  {id, type, ...} → {id, ok, result | error}
//     catalog                          the catalogue (menus, presets, defaults)
//     compiled                         {module, compiled, fetched, began} the first worker compiled, or null
//     load {url|file|text|packed, tableURL, splitURL|splitText|splitPacked, name, opts: {task, label, drop, text, missing, origin}}
//                                      reads a data set with the columns asked for
//                                      (Go's "task" and "y" when none; never guessed);
//                                      tableURL: a bundled CSV's binary table (spmtl pack),
//                                      read instead of the CSV when it loads
//     reload {opts}                    re-parses the kept text with other columns or drops
//     header                           the kept CSV text's header {names, delimiter} (names packed: packStrings),
//                                      for the column menus after a refusal
//     generate {name, seed}            syn1, syn2
//     start {config, play, tag, onLoad}, step, pause, resume, reset, cancel
//     sweep {config, param, values}, cancelSweep
//     exportModel {handle?, opts}      the finished run's model file (JSON text); opts.tuned, the
//                                      page's last model search, goes in it if it chose the run's settings
//     importModel {file|text, name}    a saved model → {handle, name, method, ...}
//     predict {handle?, file|text, name, missing?, newTasks?, tuned?}  a file's rows
//                                      predicted by a model or the finished run →
//                                      {header, rows, values, ...}; missing "omit"
//                                      predicts only the rows that have every value,
//                                      newTasks "omit" those of the tasks it knows
//     inspect {handle?}                a model's shared knowledge
//     tuneStart {config, folds, newTasks}, tuneFeed {search, results}, tuneEnd {search}
//                                      (search: the id tuneStart gave; a request's own id is its message id)
//                                      the model search (every model, or config's), held by one worker:
//                                      {id, batch: [configs], done, total, result?}
//     tuneScore {data, folds, seed, newTasks, config}  one configuration of a batch, scored by a
//                                      pool worker: {scores: Float64Array(12), metric, losses, failure}
//     free {handle}
//     warm {config, kind}              trains config briefly on a tiny made-up data set
//                                      of the loaded one's kind (see warmUp)
//   events    {event: "snapshot" | "results" | "error" | "sweep", tag, ...}
// A run's events carry the tag its start named, so that the page can drop
// the events of a run it has left that were still on their way. The run's
// state (running, paused, done, ...) is the page's (app.js runMoves): it
// follows this worker's answers and events; the worker keeps only what it
// needs to step, which is whether its loop is scheduled and whether the run
// has finished or failed.
// A run is the chosen model plus the runs the catalogue compares it with
// (spmtl.compare: its baseline and ITL, on the same split); this worker
// does not decide which.
"use strict";

// The page's first worker (index.html names it "spmtl-first") fetches and
// compiles the learner at once, before its own scripts load: on this
// thread, not the page's, which wires the page meanwhile (there, the
// compiler's share of the work waited behind the page's). The page asks
// for the module ("compiled") and hands it to every later worker
// (client.js takeModule), with when it was fetched and compiled.
let firstCompile = null; // {module, compiled, fetched, began} (times from the epoch; began: this worker's start), module null if it failed
if (self.name === "spmtl-first" && typeof WebAssembly.compileStreaming === "function") {
  const url = new URL("../spmtl.wasm", self.location.href).href;
  const at = (t) => performance.timeOrigin + t;
  const compiling = WebAssembly.compileStreaming(fetch(url));
  firstCompile = compiling.then((module) => {
    const r = performance.getEntriesByName(url)[0];
    return { module, compiled: at(performance.now()), fetched: r ? at(r.responseEnd) : undefined, began: performance.timeOrigin };
  }, () => ({ module: null }));
  // A failure is fetched and compiled again by boot, which reports it.
  self.SPMTL_WASM_BYTES = compiling.catch(() => url);
}

// wasm_exec.js and api.js in one call: the browser fetches them together.
if (typeof self.bootSpmtl === "undefined") {
  importScripts(...(typeof self.Go === "undefined" ? [self.SPMTL_EXEC_URL || "../wasm_exec.js"] : []), self.SPMTL_API_URL || "api.js");
}
const boot = () => bootSpmtl(self.SPMTL_WASM_BYTES || self.SPMTL_WASM_URL || "../spmtl.wasm");

let catalog = null; // spmtl.catalog(), asked once
let source = null; // {text, url, name, splitText}: the last data set loaded (text: a string, a file's bytes, or null until needed when its binary table was read)
let run = null; // {main, info, comparisons: [{role, label, handle}], timer (the token of the loop scheduled, or null), finished, failed, tag}
let sweepToken = 0; // bumped to cancel a running sweep
let loading = null; // the last load's promise of its summary (start onLoad waits for it)

// readSource returns a data set's text, or a file's bytes: Go decodes
// those as it does for the command line (data.DecodeText: UTF-8, UTF-16
// with its byte order mark, Windows-1252), so that a file reads the same
// in both and the summary can say how it was read.
async function readSource(url, file, text) {
  if (url) return fetchText(url);
  if (file) {
    try { return new Uint8Array(await file.arrayBuffer()); } catch (e) { throw new Error(`cannot read ${file.name}: ${e.message}`); }
  }
  if (typeof text !== "string") throw new Error("no data given");
  return text;
}

/** The header of a CSV text (its names packed: packStrings) and its
 *  delimiter, as the Go intake reads them (spmtl.header), for the column menus only: after a refusal there is no
 *  summary to take them from. Empty for the sparse format. Which columns
 *  are the task and the label is never decided here. */
function csvHeader(text) {
  const h = spmtl.header(text, source ? source.name : "data");
  return { names: packStrings(h.header || []), delimiter: h.delimiter };
}

// packStrings puts a list of strings in one string, with where each ends
// (an Int32Array): two values for the structured clone to copy, where a
// list is one value per string (core/session Packed, as the page reads it).
function packStrings(list) {
  const ends = new Int32Array(list.length);
  let at = 0;
  for (let i = 0; i < list.length; i++) { at += list[i].length; ends[i] = at; }
  return { text: list.join(""), ends };
}

// packColumns readies a summary's columns (core/session ColumnTable: the
// names packed in one text, one letter per column for its role, menu and
// marks, the notes by column) for the page: its lists of numbers become
// Int32Arrays, so that the message to the page holds a handful of values
// whatever the file's width. One object per column made the page's
// thread stop for seconds while a file of 1,000,000 columns arrived
// (docs/architecture.md, "Wide files"); the loop here is the worker's.
function packColumns(s) {
  const ints = (a) => Int32Array.from(a || []);
  const c = s.columns || {}, n = c.notes || {};
  if (c.names) c.names.ends = ints(c.names.ends);
  for (const k of ["index", "distinct", "count", "kept"]) n[k] = ints(n[k]);
  for (const k of ["values", "reasons"]) if (n[k]) n[k].ends = ints(n[k].ends);
  delete s.header; // empty: the names are in columns
  return s;
}

// parseSource parses the kept text with the options asked for: the task
// and label columns (Go uses "task" and "y" when none are given, and
// refuses a header without them, naming its columns), the columns to leave
// out and to read as words, what to do with rows that miss a value, the
// split file. Nothing is guessed here.
function parseSource(opts, table) {
  const o = { name: source.name };
  for (const k of ["task", "label", "missing", "origin", "format", "splitColumn", "splitText"]) {
    if (typeof opts[k] === "string" && opts[k] !== "") o[k] = opts[k];
  }
  if (Array.isArray(opts.drop) && opts.drop.length) o.drop = opts.drop.map(String);
  if (Array.isArray(opts.text) && opts.text.length) o.text = opts.text.map(String);
  if (source.splitText && !o.splitText) o.splitText = source.splitText;
  if (o.splitText) o.splitColumn = o.splitColumn || "split1";
  // A bundled data set (fetched by URL, or packed into the offline file)
  // keeps the paper's settings; a visitor's file or text takes the
  // own-data profile (docs/algorithms.md §14).
  if (source.bundled) o.bundled = true;
  return packColumns(spmtl.load(table || source.text, o));
}

/** The kept data set's text, fetched now if only its binary table was read. */
async function sourceText() {
  if (source.text === null) source.text = await fetchText(source.url);
  return source.text;
}

/** The bytes of a bundled CSV's binary table, or null when there is none
 *  to fetch (the CSV is read instead). */
async function fetchTable(url) {
  if (!url) return null;
  try { return new Uint8Array(await (await fetchChecked(url)).arrayBuffer()); } catch (_) { return null; }
}

// readData reads a data set (the load request, see serveRequests below).
async function readData(m) {
  // The table is fetched, and the offline file's copy unpacked, while the
  // learner starts: the page asks for its first data set before that.
  const fetching = fetchTable(m.tableURL);
  const unpacking = m.packed ? spmtlUnpack(m.packed) : null;
  if (unpacking) unpacking.catch(() => { /* awaited below */ });
  await boot();
  source = null; // a file that cannot be read leaves no text behind to re-parse
  const splitText = m.splitPacked ? await spmtlUnpack(m.splitPacked) : m.splitURL ? await readSource(m.splitURL) : (m.splitText || null);
  const name = m.name || (m.opts && m.opts.name) || (m.file && m.file.name) || "data";
  const table = await fetching;
  if (table && m.url) {
    source = { text: null, url: m.url, name, splitText, bundled: true };
    try { return parseSource(m.opts || {}, table); } catch (_) { /* read the CSV below */ }
  }
  const text = unpacking ? await unpacking : await readSource(m.url, m.file, m.text);
  source = { text, url: m.url, name, splitText, bundled: !!(m.url || m.packed) };
  return parseSource(m.opts || {});
}

// runModel returns the handle of the model to use: a handle other than the
// current run's as it is (a loaded model; Go refuses an unknown one), else
// the current run's, which must be finished (its model is the last step's).
function runModel(handle, what) {
  if (typeof handle === "number" && (!run || handle !== run.main)) return handle;
  if (!run) throw new Error(`no model to ${what}: train one to the end or load a saved model`);
  if (!run.finished) throw new Error(`cannot ${what} the run yet: it is not finished`);
  return run.main;
}

// post sends an event of the current run (tagged with its start's tag).
function post(msg) { self.postMessage(Object.assign({ tag: run ? run.tag : undefined }, msg)); }

// nextTask calls fn in a task of its own, after the messages already
// queued (a pause, a step, a reset). Not setTimeout(fn, 0): HTML holds a
// timer set from a timer's callback at least 4 ms once such timers nest
// five deep, and a run or a sweep of short steps paid that at every step
// after its fifth (docs/bench.md, "Sixth round").
const nextTask = (() => {
  const ch = new MessageChannel(), queued = [];
  ch.port1.onmessage = () => queued.shift()();
  return (fn) => { queued.push(fn); ch.port2.postMessage(null); };
})();

// play schedules the run's loop; hold stops it between two steps (a step
// already scheduled finds its run no longer playing with this token).
function play() {
  const token = {};
  run.timer = token;
  nextTask(() => { if (run && run.timer === token) loop(); });
}
function hold() { run.timer = null; }

function freeRun() {
  if (!run) return;
  for (const h of [run.main, ...run.comparisons.map((c) => c.handle)]) try { spmtl.free(h); } catch (_) { /* already gone */ }
  run = null;
}

// startRun trains cfg and the runs Go compares it with; the answer is the
// main run's info with the comparisons' roles and labels.
function startRun(cfg, tag) {
  freeRun();
  const info = spmtl.train(cfg);
  let comparisons = [];
  try {
    comparisons = spmtl.compare(info.handle).map((c) => ({ role: c.role, label: c.label, handle: c.run.handle, config: c.run.config }));
  } catch (e) {
    spmtl.free(info.handle);
    throw e;
  }
  run = { main: info.handle, info, comparisons, timer: null, finished: false, failed: false, tag };
  return Object.assign({}, info, { comparisons: comparisons.map(({ role, label, config }) => ({ role, label, config })) });
}

// stepOnce advances the main run one step and posts the snapshot with the
// current test score; at the end it finishes the comparison runs and posts
// every score, keyed by role ({main, baseline?, itl?}, each with its label).
// A failure marks the run failed (stepping it again would only repeat the
// error: the page starts a new run instead).
function stepOnce() {
  try {
    const snap = spmtl.step(run.main);
    const ev = spmtl.evaluate(run.main);
    post({ event: "snapshot", snap, eval: ev });
    if (snap.done) {
      const results = { main: Object.assign(ev, { label: run.info.name }) };
      for (const c of run.comparisons) {
        spmtl.finish(c.handle);
        results[c.role] = Object.assign(spmtl.evaluate(c.handle), { label: c.label, config: c.config });
      }
      run.finished = true;
      post({ event: "results", results });
    }
    return snap.done;
  } catch (e) {
    run.failed = true;
    throw e;
  }
}

// warmUp trains cfg for two iterations, with the runs it is compared
// with, on a tiny made-up data set ("classification": 0/1 labels, else
// real ones), and frees everything. Chrome compiles a wasm function on its
// first call, on this thread: measured in Chrome, that made a visitor's
// first Play take ~0.3 s to the first τ column against ~0.18 s with every
// function compiled up front. The page asks for this once, while the
// visitor looks at the loaded data (docs/architecture.md, "Warming up").
// The made-up data never reaches a chart, and a failure here is no
// failure of the page: the real run reports its own.
function warmUp(cfg, kind) {
  let seed = 7;
  const rand = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const lines = ["task,y,x1,x2,x3"];
  for (let t = 0; t < 3; t++) {
    for (let i = 0; i < 12; i++) {
      const x = [rand(), rand(), rand()];
      const y = kind === "classification" ? (x[0] + x[1] > 1 ? 1 : 0) : x[0] - 2 * x[2] + 0.1 * rand();
      lines.push(`w${t},${y},${x.join(",")}`);
    }
  }
  const handles = [];
  try {
    const d = spmtl.load(lines.join("\n"), { name: "warm-up" });
    handles.push(d.handle);
    const info = spmtl.train(Object.assign({}, cfg, { data: d.handle, train: 0.5, maxIter: 2 }));
    handles.push(info.handle);
    const comparisons = spmtl.compare(info.handle).map((c) => c.run.handle);
    handles.push(...comparisons);
    for (let i = 0; i < 3 && !spmtl.step(info.handle).done; i++) spmtl.evaluate(info.handle);
    spmtl.evaluate(info.handle);
    for (const h of comparisons) { spmtl.finish(h); spmtl.evaluate(h); }
  } catch (_) { /* best effort: see above */ }
  for (const h of handles.reverse()) try { spmtl.free(h); } catch (_) { /* already gone */ }
}

// loop steps the run while it plays, yielding between steps so that
// pause, step and reset messages are handled.
function loop() {
  if (!run || run.timer === null) return;
  try {
    if (stepOnce()) { run.timer = null; return; }
  } catch (e) {
    run.timer = null;
    // A learner that died has told the page so (api.js spmtlDied).
    if (!e.died) post({ event: "error", message: e.message });
    return;
  }
  play();
}

// The first worker starts the learner as soon as its module is compiled,
// not when the first request arrives (the page's own start-up runs meanwhile).
if (firstCompile) firstCompile.then(() => boot()).catch(() => { /* each request's boot reports it */ });

serveRequests({
  // compiled: the module this worker compiled first thing (see its
  // start), for the page's later workers; null when it did not.
  async compiled() { return firstCompile ? firstCompile : null; },
  // catalog: the methods, bundled data sets, defaults and table rows that
  // the page fills its menus with.
  async catalog() {
    await boot();
    if (!catalog) catalog = spmtl.catalog();
    return catalog;
  },
  // load reads a data set from {url}, {file} (a File from the picker) or
  // {text}, with its split file from {splitURL} or {splitText}. Reading and
  // decoding happen here, not on the page's thread (the sentiment preset is
  // 9.5 MB of text); the text stays here so "reload" can re-parse it. A
  // bundled CSV comes with {tableURL}, its binary table (the same data set,
  // read without parsing a number: docs/architecture.md, "Packed
  // presets"); its text is fetched only if a reload or the column menus
  // need it, and a table that is missing or unreadable falls back to the CSV.
  // The offline file's {packed} copy of a CSV may be its table (web/offline).
  load(m) {
    loading = readData(m);
    return loading;
  },
  // reload re-parses the last data set with other column choices (or
  // other columns left out).
  async reload(m) {
    await boot();
    if (!source) throw new Error("no data set loaded");
    await sourceText();
    return parseSource(m.opts || {});
  },
  async generate(m) { await boot(); return packColumns(spmtl.generate(m.name, m.seed || 1)); },
  async free(m) { await boot(); spmtl.free(m.handle); return true; },
  async warm(m) { await boot(); warmUp(m.config || {}, m.kind); return true; },
  // start {onLoad: true} trains on the data set the load before it reads
  // (the page asks for a link's run=1 right behind its data set): once
  // that is read, after its answer has gone to the page; a failed load
  // fails it with the load's message.
  async start(m) {
    await boot();
    let config = m.config;
    if (m.onLoad) {
      if (!loading) throw new Error("no data set is being read");
      const data = await loading;
      await new Promise((resolve) => setTimeout(resolve, 0)); // the load's answer first
      config = Object.assign({}, config, { data: data.handle });
    }
    const info = startRun(config, m.tag);
    if (m.play) play();
    return info;
  },
  // step: one step of the run (a playing run stops playing first); true
  // when it was the last.
  async step() {
    if (!run || run.finished) throw new Error("no run to step");
    hold();
    return stepOnce();
  },
  // A sweep trains the configuration once per value of one parameter and
  // posts every iteration ({event: "sweep"}); it yields between steps.
  async sweep(m) {
    await boot();
    sweepToken++;
    const token = sweepToken;
    for (let i = 0; i < m.values.length; i++) {
      const h = spmtl.train(Object.assign({}, m.config, { [m.param]: m.values[i] })).handle;
      try {
        let s;
        do {
          if (token !== sweepToken) return false;
          s = spmtl.step(h);
          const ev = spmtl.evaluate(h);
          post({ event: "sweep", index: i, value: m.values[i], iter: s.iter, objective: s.objective, score: ev.mean });
          await new Promise((r) => nextTask(r));
        } while (!s.done);
      } finally { spmtl.free(h); }
    }
    return true;
  },
  async cancelSweep() { sweepToken++; return true; },
  // header: the kept CSV's header, for the column menus (a load that was
  // refused has no summary to take them from).
  async header() {
    await boot();
    if (!source) throw new Error("no data set loaded");
    return csvHeader(await sourceText());
  },
  // exportModel: the finished run's model file, as JSON text to save.
  async exportModel(m) {
    await boot();
    return spmtl.exportModel(runModel(m.handle, "save"), m.opts || {});
  },
  async importModel(m) {
    await boot();
    const src = await readSource(undefined, m.file, m.text);
    // A model file is JSON, which is UTF-8.
    const text = typeof src === "string" ? src : new TextDecoder().decode(src);
    return spmtl.importModel(text, m.name || (m.file && m.file.name) || "model");
  },
  // predict: a file's rows with a loaded model (its handle) or the finished run.
  async predict(m) {
    await boot();
    const handle = runModel(m.handle, "predict with");
    const text = await readSource(undefined, m.file, m.text);
    return spmtl.predict(handle, text, m.name || (m.file && m.file.name) || "data", m.missing, m.newTasks, m.tuned);
  },
  async inspect(m) { await boot(); return spmtl.inspect(runModel(m.handle, "inspect")); },
  async tuneStart(m) { await boot(); return spmtl.tuneStart(Object.assign({}, m.config, { folds: m.folds || 3, newTasks: !!m.newTasks })); },
  async tuneFeed(m) { await boot(); return spmtl.tuneFeed(m.search, m.results); },
  async tuneScore(m) {
    await boot();
    return spmtl.tuneScore({ data: m.data, folds: m.folds || 3, seed: m.seed, newTasks: !!m.newTasks }, m.config);
  },
  async tuneEnd(m) { await boot(); spmtl.tuneEnd(m.search); return true; },
  async pause() { if (run) hold(); return true; },
  async resume() { if (run && run.timer === null && !run.finished && !run.failed) play(); return true; },
  async reset() { freeRun(); return true; },
  async cancel() { freeRun(); return true; },
});
