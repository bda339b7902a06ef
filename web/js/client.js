// client.js: the page's side of the worker protocol (see worker.js).
// request() returns a promise per request; on() subscribes to events.

/** Hands the learner that the page's first worker compiled (takeModule:
 *  window.SPMTL_MODULE, a promise of a WebAssembly.Module) to a new
 *  worker, which then neither fetches nor compiles its own; without one the
 *  worker fetches spmtl.wasm itself. */
export function giveModule(worker) {
  const mod = window.SPMTL_MODULE;
  if (!mod) return;
  worker.postMessage({ type: "expectModule" }); // before any request that boots it
  mod.then((m) => worker.postMessage({ type: "module", module: m }));
}

/** Asks the page's first worker (index.html starts it; worker.js compiles
 *  the learner first thing there) for its module, as window.SPMTL_MODULE
 *  for every later worker (giveModule), and marks when it was fetched and
 *  compiled ("spmtl:worker-began", the worker's first line; "spmtl:wasm-fetched",
 *  "spmtl:compiled": ./build.sh bench reads them). */
export function takeModule(client) {
  window.SPMTL_MODULE = client.request("compiled").then((m) => {
    const mark = (name, t) => { if (typeof t === "number") performance.mark(name, { startTime: t - performance.timeOrigin }); };
    mark("spmtl:worker-began", m && m.began);
    mark("spmtl:wasm-fetched", m && m.fetched);
    mark("spmtl:compiled", m && m.compiled);
    return (m && m.module) || null;
  }, () => null);
}

/** The Error a failed request rejects with: the core's message, and the
 *  remedy the page can offer (core/data Remedy, as api.js posts it): drop,
 *  a column to leave out; text, a column to read as words; choose, "task"
 *  or "label", the column to choose; omit, leaving out the rows with a
 *  missing value; skip, predicting only the rows of the tasks the model
 *  knows. */
function failure(m) {
  const e = new Error(m.error);
  if (typeof m.drop === "string") e.drop = m.drop;
  if (typeof m.text === "string") e.text = m.text;
  if (typeof m.choose === "string") e.choose = m.choose;
  if (m.omit === true) e.omit = true;
  if (m.skip === true) e.skip = true;
  return e;
}

// doing: what a request was doing when the learner died, by its type.
const doing = {
  start: "fitting this model", step: "fitting this model", warm: "fitting this model",
  load: "reading the data set", reload: "reading the data set", generate: "making the data set", header: "reading the data set",
  importModel: "reading the model file", exportModel: "writing the model file", predict: "predicting", inspect: "reading the model",
  tuneStart: "tuning", tuneFeed: "tuning", tuneEnd: "tuning", tuneScore: "tuning", sweep: "running the sweep",
  source: "reproducing the table", run: "reproducing the table", summarize: "reproducing the table",
};

// causes: how a learner died (api.js spmtlDied), and what helps.
const causes = {
  memory: ["ran out of memory", "Remedy: fewer features or tasks (number a sparse file's features from 1 without gaps, or leave columns out), or the command line (spmtl train), which may use more memory."],
  stack: ["overflowed its stack", "Remedy: a file nested less deeply."],
  fatal: ["stopped with a fatal error", "If it happens again, please report it with the data that caused it."],
};

// START_WAIT is how long a new worker may take to answer its first
// message ("ping", answered before anything else) before it is taken for
// one that never started. Chromium sometimes never runs the script of a
// worker that an embedded page starts while it loads (the page stayed
// "loading" for good in about 1 of 15 loads of the embed tests, on this
// round's code and the last's: the worker's first line never ran); what
// was asked of it is then asked of another.
const START_WAIT = 8000;

/** A connection to the learner's Web Worker. A worker whose Go program
 *  dies (api.js: out of memory, a stack overflow, a fatal error) is
 *  replaced by a new one from makeWorker, and recover (set by the page:
 *  app.js) reads the data set into it again; then the requests the dead
 *  one had not answered reject with what happened, and "died" is emitted
 *  ({message}: a run that was playing ends with it). Without makeWorker
 *  (a tuning or reproduction pool, whose batch fails and whose workers
 *  are started afresh for the next one) the requests reject and the
 *  worker is stopped. */
export class LearnerClient {
  /** @param {Worker} worker
   *  @param {() => Worker} [makeWorker] starts another worker like it */
  constructor(worker, makeWorker) {
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Map();
    this.makeWorker = makeWorker || null;
    /** Reads the page's data into a new worker; resolves with the words
     *  that say so ("your data (landmine) is loaded again"). */
    this.recover = null;
    this.restarts = 0; // workers replaced so far
    this.unstarted = 0; // workers that never started, replaced (START_WAIT)
    this.replacing = false;
    this.attach(worker);
  }

  attach(worker) {
    this.worker = worker;
    worker.onmessage = (e) => { if (this.worker === worker) this.receive(e.data); };
    worker.onerror = (e) => { if (this.worker === worker) this.emit("error", { message: `worker failed: ${e.message || "unknown error"}` }); };
    // Until the worker answers its ping, what is posted to it is kept
    // (early), to be posted again to another if it never starts.
    clearTimeout(this.startTimer);
    this.early = null;
    if (!this.makeWorker) return;
    const early = (this.early = []);
    this.request("ping").then(() => { if (this.early === early) this.early = null; clearTimeout(this.startTimer); }, () => {});
    this.startTimer = setTimeout(() => { if (this.worker === worker && this.early === early) this.neverStarted(); }, START_WAIT);
  }

  /** The worker never answered its ping: another takes its place and is
   *  asked what it was asked (it ran none of it). */
  neverStarted() {
    const again = this.early;
    this.worker.terminate();
    this.unstarted++;
    this.attach(this.makeWorker());
    for (const m of again) {
      if (m.type === "ping") { this.pending.delete(m.id); continue; }
      this.early.push(m);
      this.worker.postMessage(m);
    }
  }

  receive(m) {
    if (m.event === "died" || m.died) { this.died(m.cause || m.died, m.detail || m.error); return; }
    if (m.id !== undefined) {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.result); else p.reject(failure(m));
      return;
    }
    this.emit(m.event, m);
  }

  /** Sends a request and resolves with its result (rejects with the core's message, see failure). */
  request(type, fields = {}) {
    if (this.dead) return Promise.reject(new Error(this.dead));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { type, resolve, reject });
      const m = Object.assign({ id, type }, fields);
      if (this.early) this.early.push(m);
      this.worker.postMessage(m);
    });
  }

  /** The worker's Go program died (cause: api.js spmtlDied): the worker
   *  goes, a new one takes its place and gets the data again (see the
   *  class), and what it was doing fails with what happened. A death
   *  while the data is read again (the same data killed the new worker)
   *  is not followed by another reading. */
  async died(cause, detail) {
    const lost = [...this.pending.values()].filter((p) => p.type !== "ping");
    this.pending.clear();
    this.worker.terminate();
    const [what, remedy] = causes[cause] || causes.fatal;
    const task = (lost.find((p) => doing[p.type]) || {}).type;
    const head = `The learner ${what}${cause === "fatal" && detail ? ` (${detail})` : ""} ${doing[task] || "fitting this model"}`;
    const fail = (message) => {
      for (const p of lost) p.reject(Object.assign(new Error(message), { died: cause }));
      this.emit("died", { message, cause });
    };
    if (!this.makeWorker || this.replacing) {
      if (this.makeWorker) this.attach(this.makeWorker());
      else this.dead = `${head}; it was stopped. ${remedy}`;
      fail(`${head}; it was stopped. ${remedy}`);
      return;
    }
    this.replacing = true;
    this.attach(this.makeWorker());
    this.restarts++;
    let after = "";
    try {
      after = this.recover ? await this.recover() : "";
    } catch (e) {
      after = `your data could not be loaded again (${e.message})`;
    }
    this.replacing = false;
    fail(`${head} and was restarted${after ? `; ${after}` : ""}. ${remedy}`);
  }

  /** Stops the worker; the requests it has not answered reject with message. */
  close(message = "the worker was stopped") {
    clearTimeout(this.startTimer);
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new Error(message));
    this.pending.clear();
  }

  /** Subscribes fn to an event ("snapshot", "results", "error", "sweep"). */
  on(event, fn) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(fn);
  }

  emit(event, m) {
    for (const fn of this.listeners.get(event) || []) fn(m);
  }
}
