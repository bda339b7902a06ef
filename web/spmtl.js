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
    client.on("results", (m) => { const p = this.pending; this.pending = null; if (p) p.resolve({ results: m.results, snapshots: p.snapshots }); });
    client.on("error", (m) => { const p = this.pending; this.pending = null; if (p) p.reject(new Error(m.message)); });
  }

  /** Resolves with the catalogue: {methods, bundles, defaults, tables}. */
  catalog() { return this.client.request("catalog"); }

  /** Reads a CSV or sparse text; resolves with its summary (handle, tasks, features, kind, ...). */
  load(text, opts = {}) { return this.client.request("load", { text, opts }); }

  /** Generates syn1 or syn2. */
  generate(name, seed = 1) { return this.client.request("generate", { name, seed }); }

  /** Calls fn(snapshot, evaluation) after every iteration of a training run. */
  onSnapshot(fn) { this.snapshotFns.push(fn); }

  /** Trains to the end; resolves with the per-task test results and every snapshot. */
  train(config) {
    if (this.pending) return Promise.reject(new Error("a training run is already going"));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject, snapshots: [] };
      this.client.request("start", { config, play: true }).catch((e) => { this.pending = null; reject(e); });
    });
  }

  pause() { return this.client.request("pause"); }
  resume() { return this.client.request("resume"); }
  step() { return this.client.request("step"); }
  reset() { return this.client.request("reset"); }
  terminate() { this.worker.terminate(); }
}
