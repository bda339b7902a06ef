// worker.js: runs the wasm learner off the page's thread. The page speaks to
// it in messages only (see client.js):
//   requests  {id, type: "catalog" | "load" | "reload" | "generate" | "start" | "step" |
//              "pause" | "resume" | "reset" | "cancel" | "free" | "sweep" | "cancelSweep", ...}
//             → {id, ok, result | error}
//   events    {event: "snapshot" | "state" | "results" | "error" | "sweep", ...}
// A run is the chosen model plus the runs the catalogue compares it with
// (spmtl.compare: its baseline and ITL, on the same split); this worker
// does not decide which.
"use strict";

if (typeof self.bootSpmtl === "undefined") importScripts(self.SPMTL_API_URL || "api.js");
const boot = () => bootSpmtl(self.SPMTL_WASM_BYTES || self.SPMTL_WASM_URL || "../spmtl.wasm");

let catalog = null; // spmtl.catalog(), asked once
let source = null; // {text, name, splitText}: the last data set loaded
let run = null; // {main, info, comparisons: [{role, label, handle}], state, timer}
let sweepToken = 0; // bumped to cancel a running sweep

async function readSource(url, file, text) {
  if (url) return fetchText(url);
  if (file) {
    try { return await file.text(); } catch (e) { throw new Error(`cannot read ${file.name}: ${e.message}`); }
  }
  if (typeof text !== "string") throw new Error("no data given");
  return text;
}

/** The column names of a CSV text's first line (empty for the sparse format). */
function csvHeader(text) {
  const nl = text.indexOf("\n");
  let first = nl < 0 ? text : text.slice(0, nl);
  first = first.replace(/^\uFEFF/, "").replace(/\r$/, "");
  if (!first.includes(",")) return [];
  return first.split(",").map((s) => s.trim().replace(/^"(.*)"$/, "$1"));
}

// parseSource parses the kept text. A CSV's task and label columns are the
// ones asked for when the header has them, else "task" and "y", else the
// first and second columns; the answer says which were used.
function parseSource(opts) {
  const header = csvHeader(source.text);
  const o = Object.assign({ name: source.name }, opts);
  if (header.length) {
    if (!header.includes(o.task)) o.task = header.includes("task") ? "task" : header[0];
    if (!header.includes(o.label)) o.label = header.includes("y") ? "y" : (header[1] || header[0]);
  } else {
    delete o.task; delete o.label;
  }
  if (source.splitText) { o.splitText = source.splitText; o.splitColumn = o.splitColumn || "split1"; }
  const summary = spmtl.load(source.text, o);
  return Object.assign({}, summary, { header, task: o.task || null, label: o.label || null });
}

function post(msg) { self.postMessage(msg); }
function setState(state) { if (run) run.state = state; post({ event: "state", state }); }

function freeRun() {
  if (!run) return;
  for (const h of [run.main, ...run.comparisons.map((c) => c.handle)]) try { spmtl.free(h); } catch (_) { /* already gone */ }
  clearTimeout(run.timer);
  run = null;
}

// startRun trains cfg and the runs Go compares it with; the answer is the
// main run's info with the comparisons' roles and labels.
function startRun(cfg) {
  freeRun();
  const info = spmtl.train(cfg);
  let comparisons = [];
  try {
    comparisons = spmtl.compare(info.handle).map((c) => ({ role: c.role, label: c.label, handle: c.run.handle }));
  } catch (e) {
    spmtl.free(info.handle);
    throw e;
  }
  run = { main: info.handle, info, comparisons, state: "paused" };
  return Object.assign({}, info, { comparisons: comparisons.map(({ role, label }) => ({ role, label })) });
}

// stepOnce advances the main run one step and posts the snapshot with the
// current test score; at the end it finishes the comparison runs and posts
// every score, keyed by role ({main, baseline?, itl?}, each with its label).
function stepOnce() {
  const snap = spmtl.step(run.main);
  const ev = spmtl.evaluate(run.main);
  post({ event: "snapshot", snap, eval: ev });
  if (snap.done) {
    const results = { main: Object.assign(ev, { label: run.info.name }) };
    for (const c of run.comparisons) {
      spmtl.finish(c.handle);
      results[c.role] = Object.assign(spmtl.evaluate(c.handle), { label: c.label });
    }
    setState("done");
    post({ event: "results", results });
  }
  return snap.done;
}

function loop() {
  if (!run || run.state !== "running") return;
  try {
    if (stepOnce()) return;
  } catch (e) {
    setState("failed");
    post({ event: "error", message: e.message });
    return;
  }
  // Yield between iterations so pause/cancel messages are handled.
  run.timer = setTimeout(loop, 0);
}

serveRequests({
  // The offline page sends the wasm bytes first (it cannot be fetched there).
  async wasm(m) { self.SPMTL_WASM_BYTES = m.bytes; return true; },
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
  // 9.5 MB of text); the text stays here so "reload" can re-parse it.
  async load(m) {
    await boot();
    const text = await readSource(m.url, m.file, m.text);
    const splitText = m.splitURL ? await readSource(m.splitURL) : (m.splitText || null);
    source = { text, name: m.name || "data", splitText };
    return parseSource(m.opts || {});
  },
  // reload re-parses the last data set with other column choices.
  async reload(m) {
    await boot();
    if (!source) throw new Error("no data set loaded");
    return parseSource(m.opts || {});
  },
  async generate(m) { await boot(); return spmtl.generate(m.name, m.seed || 1); },
  async free(m) { await boot(); spmtl.free(m.handle); return true; },
  async start(m) {
    await boot();
    const info = startRun(m.config);
    if (m.play) { setState("running"); run.timer = setTimeout(loop, 0); } else setState("paused");
    return info;
  },
  async step() {
    if (!run || run.state === "done") throw new Error("no run to step");
    if (run.state === "running") { run.state = "paused"; clearTimeout(run.timer); }
    const done = stepOnce();
    if (!done) setState("paused");
    return done;
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
          await new Promise((r) => setTimeout(r, 0));
        } while (!s.done);
      } finally { spmtl.free(h); }
    }
    return true;
  },
  async cancelSweep() { sweepToken++; return true; },
  async pause() { if (run && run.state === "running") { clearTimeout(run.timer); setState("paused"); } return true; },
  async resume() { if (run && run.state === "paused") { setState("running"); run.timer = setTimeout(loop, 0); } return true; },
  async reset() { freeRun(); post({ event: "state", state: "idle" }); return true; },
  async cancel() { freeRun(); post({ event: "state", state: "idle" }); return true; },
});
