// api.js: brings the wasm learner up inside a worker (classic script, shared
// by worker.js and repro-worker.js). The wasm bridge registers `spmtlRaw`,
// whose functions return {__error: message} on failure (with the remedy the
// page can offer: drop, a column to leave out, or choose, "task" or "label");
// this wraps each of them as `spmtl.NAME` that throws an Error instead (its
// drop and choose copied onto it), and parses the answers
// the bridge gives as JSON text (jsonAnswers). Model files are JSON: the
// bridge reads them as JSON.parse gives them (importModel parses the text
// here, so a file that is not JSON is refused with the parser's message),
// and exportModel's compact text is indented here into the file to save,
// as the command line writes it.
//
//   const ds  = spmtl.load(text, {name, format, task, label, splitText, splitColumn});
//   const run = spmtl.train({data: ds.handle, model: "mtfl", selfPaced: true, ...});
//   const s   = spmtl.step(run.handle);     // {iter, lambda, tau: Float64Array, seq, ...}
//   const ev  = spmtl.evaluate(run.handle); // {metric, tasks, test: Float64Array, mean, enteredAt}
//
// A worker calls bootSpmtl(wasm) before anything else: it loads
// wasm_exec.js when the worker has no Go yet and starts the wasm once.
"use strict";

// The bridge functions that answer JSON text.
const jsonAnswers = new Set(["catalog", "importModel", "predict", "inspect", "tuneStart", "tuneFeed"]);

/** Copies the remedy a failure carries (core/data Remedy: {drop: COLUMN},
 *  {text: COLUMN} or {choose: "task"|"label"}) from `from` onto `to`, and returns `to`. */
function withRemedy(to, from) {
  if (from && typeof from.drop === "string") to.drop = from.drop;
  if (from && typeof from.text === "string") to.text = from.text;
  if (from && typeof from.choose === "string") to.choose = from.choose;
  return to;
}

/** Fetches url and resolves with its Response; a failed request or an HTTP
 *  error status rejects with a message naming the URL. */
async function fetchChecked(url) {
  let resp;
  try { resp = await fetch(url); } catch (e) { throw new Error(`cannot load ${url}: ${e.message}`); }
  if (!resp.ok) throw new Error(`cannot load ${url}: HTTP ${resp.status}`);
  return resp;
}

/** Fetches url as text (see fetchChecked). */
async function fetchText(url) { return (await fetchChecked(url)).text(); }

/** Starts the wasm module (bytes or a URL) and resolves once `spmtl` is ready. */
async function startSpmtl(source) {
  const go = new Go();
  let instance;
  if (source instanceof WebAssembly.Module) {
    instance = await WebAssembly.instantiate(source, go.importObject); // compiled by the page
  } else {
    const bytes = source instanceof ArrayBuffer || ArrayBuffer.isView(source) ? source : await (await fetchChecked(source)).arrayBuffer();
    ({ instance } = await WebAssembly.instantiate(bytes, go.importObject));
  }
  go.run(instance); // registers spmtlRaw synchronously, then parks
  if (typeof self.spmtlRaw !== "object") throw new Error("the wasm module did not register its API");
  const api = { version: self.spmtlRaw.version };
  for (const name of Object.keys(self.spmtlRaw)) {
    if (typeof self.spmtlRaw[name] !== "function") continue;
    api[name] = (...args) => {
      const r = self.spmtlRaw[name](...args);
      if (r && typeof r === "object" && typeof r.__error === "string") throw withRemedy(new Error(r.__error), r);
      return jsonAnswers.has(name) && typeof r === "string" ? JSON.parse(r) : r;
    };
  }
  const importRaw = api.importModel, exportRaw = api.exportModel;
  api.importModel = (text, name = "model") => {
    let file;
    try { file = JSON.parse(text); } catch (e) { throw new Error(`read model ${name}: not a model file (it is not JSON: ${e.message})`); }
    return importRaw(file, name);
  };
  api.exportModel = (...args) => JSON.stringify(JSON.parse(exportRaw(...args)), null, 1) + "\n";
  self.spmtl = api;
  return api;
}

let spmtlReady = null;

/** The one boot of a worker: loads wasm_exec.js (next to the page's js/
 *  folder, or self.SPMTL_EXEC_URL) unless Go is already defined, then
 *  starts the wasm (bytes or a URL). Later calls share the first promise. */
function bootSpmtl(wasm) {
  if (!spmtlReady) {
    spmtlReady = (async () => {
      if (typeof self.Go === "undefined") importScripts(self.SPMTL_EXEC_URL || "../wasm_exec.js");
      return startSpmtl(await wasm); // the offline workers' wasm is a promise of its bytes
    })();
  }
  return spmtlReady;
}

/** Answers a worker's requests {id, type, ...} with handlers[type](m):
 *  {id, ok: true, result} or {id, ok: false, error, drop?, choose?} (the
 *  error's remedy, see withRemedy). */
function serveRequests(handlers) {
  // The page may hand over the module it compiled (client.js giveModule):
  // "expectModule" comes first, so boot() waits for "module" instead of
  // fetching spmtl.wasm; a failed compile falls back to the URL.
  let moduleArrived = null;
  const given = {
    expectModule() { self.SPMTL_WASM_BYTES = new Promise((resolve) => { moduleArrived = resolve; }); return true; },
    module(m) { if (moduleArrived) moduleArrived(m.module || self.SPMTL_WASM_URL || "../spmtl.wasm"); return true; },
    // The offline page sends its packed wasm first (it cannot be fetched
    // there; unpack.js is joined into its workers); boot() waits for it.
    wasm(m) { self.SPMTL_WASM_BYTES = spmtlUnpack(m.packed); return true; },
  };
  self.onmessage = async (e) => {
    const m = e.data;
    try {
      const h = handlers[m.type] || given[m.type];
      if (!h) throw new Error(`unknown request ${m.type}`);
      self.postMessage({ id: m.id, ok: true, result: await h(m) });
    } catch (err) {
      self.postMessage(withRemedy({ id: m.id, ok: false, error: err && err.message ? err.message : String(err) }, err));
    }
  };
}
