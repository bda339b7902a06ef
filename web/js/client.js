// client.js: the page's side of the worker protocol (see worker.js).
// request() returns a promise per request; on() subscribes to events.

/** Hands the learner that index.html compiles first thing
 *  (window.SPMTL_MODULE, a promise of a WebAssembly.Module) to a new
 *  worker, which then neither fetches nor compiles its own; without one the
 *  worker fetches spmtl.wasm itself. */
export function giveModule(worker) {
  const mod = window.SPMTL_MODULE;
  if (!mod) return;
  worker.postMessage({ type: "expectModule" }); // before any request that boots it
  mod.then((m) => worker.postMessage({ type: "module", module: m }));
}

/** The Error a failed request rejects with: the core's message, and the
 *  remedy the page can offer (core/data Remedy, as api.js posts it): drop,
 *  a column to leave out; text, a column to read as words; choose, "task"
 *  or "label", the column to choose. */
function failure(m) {
  const e = new Error(m.error);
  if (typeof m.drop === "string") e.drop = m.drop;
  if (typeof m.text === "string") e.text = m.text;
  if (typeof m.choose === "string") e.choose = m.choose;
  return e;
}

/** A connection to the learner's Web Worker. */
export class LearnerClient {
  /** @param {Worker} worker */
  constructor(worker) {
    this.worker = worker;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Map();
    worker.onmessage = (e) => this.receive(e.data);
    worker.onerror = (e) => this.emit("error", { message: `worker failed: ${e.message || "unknown error"}` });
  }

  receive(m) {
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
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(Object.assign({ id, type }, fields));
    });
  }

  /** Stops the worker; the requests it has not answered reject with message. */
  close(message = "the worker was stopped") {
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
