// spmtl.js: the learner without the UI, for pages that want to train in the
// visitor's browser with a few promises.
//
//   import { createLearner } from "./spmtl.js";
//   const learner = await createLearner();
//   const data = await learner.load("task,y,x1\na,1,0.5\n...", { name: "mine.csv" });
//   learner.onSnapshot((s) => console.log(s.iter, s.tau));
//   const { results, snapshots } = await learner.train({ data: data.handle, model: "mtfl", selfPaced: true, train: 0.75 });
//   learner.terminate();
//
// results.main is the run's per-task test score; results.baseline and
// results.itl are the runs the catalogue compares it with (each has a
// label). learner.catalog() lists the methods, bundled data sets, defaults
// and table rows.
//
// A finished run's model can be saved, loaded back and used on new rows:
//
//   const { run } = await learner.train({ data: data.handle, model: "mtfl", selfPaced: true, lambda0: "auto" });
//   const file = await learner.exportModel(run.handle, { file: "mine.csv" });   // the model file's JSON text
//   const model = await learner.importModel(file, "model.json");               // {handle, name, method, kind, tasks, features, trained}
//   const p = await learner.predict(model.handle, newCsvText, "new.csv");      // {header, rows, values, column, meaning, warnings}
//   const ins = await learner.inspect(model.handle);                           // the shared knowledge: {title, explain, charts, order}
//
// load's options: {name, task, label, drop: ["column", ...], splitText, splitColumn}.
//
// Training runs in a Web Worker (js/worker.js next to this file), so the page
// stays responsive; everything stays on this machine.
import { LearnerClient } from "./js/client.js";

/** Starts a learner. options.workerURL overrides the worker's location. */
export async function createLearner(options = {}) {
  const url = options.workerURL || new URL("./js/worker.js", import.meta.url);
  const worker = options.worker || new Worker(url);
  return new Learner(new LearnerClient(worker), worker);
}

/** A learner in its own worker. */
export class Learner {
  constructor(client, worker) {
    this.client = client;
    this.worker = worker;
    this.snapshotFns = [];
    this.pending = null; // {resolve, reject, snapshots}
    client.on("snapshot", (m) => {
      if (this.pending) this.pending.snapshots.push(m.snap);
      for (const fn of this.snapshotFns) fn(m.snap, m.eval);
    });
    client.on("results", (m) => { const p = this.pending; this.pending = null; if (p) p.resolve({ results: m.results, snapshots: p.snapshots, run: p.run }); });
    client.on("error", (m) => { const p = this.pending; this.pending = null; if (p) p.reject(new Error(m.message)); });
  }

  /** Resolves with the catalogue: {methods, bundles, defaults, tables}. */
  catalog() { return this.client.request("catalog"); }

  /** Reads a CSV or sparse text; resolves with its summary (handle, tasks,
   *  features, kind, header, columns and their roles, ...). opts: {name,
   *  task, label, drop, splitText, splitColumn}; the task and label columns
   *  are "task" and "y" unless named (never guessed). */
  load(text, opts = {}) { return this.client.request("load", { text, name: opts.name, opts }); }

  /** Generates syn1 or syn2. */
  generate(name, seed = 1) { return this.client.request("generate", { name, seed }); }

  /** Calls fn(snapshot, evaluation) after every iteration of a training run. */
  onSnapshot(fn) { this.snapshotFns.push(fn); }

  /** Trains to the end; resolves with {results, snapshots, run}: the
   *  per-task test results, every snapshot, and the run's info (its
   *  handle, for exportModel, predict and inspect). */
  train(config) {
    if (this.pending) return Promise.reject(new Error("a training run is already going"));
    return new Promise((resolve, reject) => {
      const pending = { resolve, reject, snapshots: [], run: null };
      this.pending = pending;
      this.client.request("start", { config, play: true }).then((info) => { pending.run = info; })
        .catch((e) => { if (this.pending === pending) this.pending = null; reject(e); });
    });
  }

  /** Resolves with a finished run's model file (JSON text to save).
   *  run: its handle (the last run when omitted); opts: {file, rows, train, seed, all}
   *  describe what it was trained on. */
  exportModel(run, opts = {}) {
    if (typeof run !== "number") { opts = run || {}; run = undefined; }
    return this.client.request("exportModel", { handle: run, opts });
  }

  /** Reads a model file's text; resolves with {handle, name, method, kind, tasks, features, trained}. */
  importModel(text, name = "model") { return this.client.request("importModel", { text: String(text), name }); }

  /** Predicts a file's rows with a model (or finished run) handle: {header,
   *  rows, values, column, meaning, warnings}; rows are the file's rows
   *  each followed by Go's prediction as text. */
  predict(model, text, name = "data") { return this.client.request("predict", { handle: model, text: String(text), name }); }

  /** The shared knowledge of a model (or finished run) handle: {title, explain, charts, order}. */
  inspect(model) { return this.client.request("inspect", { handle: model }); }

  pause() { return this.client.request("pause"); }
  resume() { return this.client.request("resume"); }
  step() { return this.client.request("step"); }
  reset() { return this.client.request("reset"); }
  terminate() { this.worker.terminate(); }
}
