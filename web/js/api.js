// api.js: brings the wasm learner up inside a worker (classic script, shared
// by worker.js and repro-worker.js), and is the JavaScript side of the
// bridge's codec (wasm/bridge). Each function of `spmtlRaw`, the bridge's
// registration, takes a request as JSON text and a payload that crosses as
// it is (a data text, a file's bytes, a packed table), and answers JSON
// text; this wraps each of them as `spmtl.NAME`, which takes the arguments
// below, writes the request (requests), reads the answer (answers) and
// throws an Error for a failure ({__error: message}, with the remedy the
// page can offer copied onto the Error: drop, a column to leave out; text,
// a column to read as words; choose, "task" or "label"). Model files are
// JSON, read in Go within bounds of size and depth (a hostile file is
// refused with a message naming it); exportModel's compact text is
// indented here into the file to save, as the command line writes it.
//
//   const ds  = spmtl.load(text, {name, format, task, label, splitText, splitColumn});
//   const run = spmtl.train({data: ds.handle, model: "mtfl", selfPaced: true, ...});
//   const s   = spmtl.step(run.handle);     // {iter, lambda, tau: Float64Array, seq, ...}
//   const ev  = spmtl.evaluate(run.handle); // {metric, tasks, test: Float64Array, mean, enteredAt}
//
// A worker calls bootSpmtl(wasm) before anything else: it loads
// wasm_exec.js when the worker has no Go yet and starts the wasm once.
"use strict";

// spmtlCodec: the requests and answers of each function (one name in the
// worker's global scope, which api.js shares with the worker's script).
const spmtlCodec = (() => {
  // requests: how each function's arguments become its request (an object,
  // sent as JSON) and its payload. A function not named here takes a
  // handle: compare, step, finish, evaluate, free, inspect.
  const requests = {
    catalog: () => [{}],
    load: (data, opts) => [opts, data],
    header: (text, name) => [{ name }, text],
    generate: (name, seed) => [{ name, seed }],
    train: (opts) => [opts],
    exportModel: (handle, opts) => [Object.assign({}, opts, { handle })],
    importModel: (text, name) => [{ name }, text],
    predict: (handle, text, name, missing, newTasks, tuned) => [Object.assign({ handle, name }, missing ? { missing } : {}, newTasks ? { newTasks } : {}, tuned ? { tuned } : {}), text],
    tuneStart: (opts) => [opts],
    tuneFeed: feedRequest,
    tuneEnd: (id) => [{ id }],
    tuneScore: (opts, config) => [Object.assign({}, opts, { config })],
    addSource: (name, text, split) => [{ name, split }, text],
    reproduceRun: (opts) => [opts],
    summarize: (opts) => [opts],
  };

  // answers: the members of an answer that arrive as Float64Arrays (a path;
  // "*" is every element of a list), in which JSON's null (Go's NaN) is NaN
  // again; the numbers whose null is NaN; the member that takes the
  // Float64Array the bridge answers beside the JSON (bulk).
  const stepAnswer = { floats: ["tau", "cost", "loss", "penalty", "seq.scores"], nan: ["objective", "spObjective"] };
  const answers = {
    step: stepAnswer,
    finish: stepAnswer,
    evaluate: { floats: ["test"] },
    summarize: { floats: ["*.scores", "*.rho", "*.lambda0"] },
    tuneScore: { floats: ["scores"], bulk: "losses" },
  };

  /** The request as JSON: a member given as null or undefined is not given
   *  (Go's default applies), a typed array goes as a list, and a number
   *  that is not finite as null. */
  function requestJSON(req) {
    const top = req || {};
    return JSON.stringify(top, function (_, v) {
      if (v === null && this === top) return undefined;
      return ArrayBuffer.isView(v) ? Array.from(v) : v;
    });
  }

  /** tuneFeed's request: every point's row losses (Float64Arrays) cross as
   *  the bytes of one, each point's JSON saying how many are its own. */
  function feedRequest(id, results) {
    const has = (r) => r && r.losses && typeof r.losses.length === "number";
    const all = new Float64Array(results.reduce((n, r) => n + (has(r) ? r.losses.length : 0), 0));
    let at = 0;
    const points = results.map((r) => {
      const p = Object.assign({}, r, { losses: undefined });
      if (has(r)) { all.set(r.losses, at); at += r.losses.length; p.losses = r.losses.length; }
      return p;
    });
    return [{ id, results: points }, new Uint8Array(all.buffer)];
  }

  /** Applies fix to the member of v at keys (see answers), where it is. */
  function atPath(v, keys, fix) {
    if (v === null || typeof v !== "object") return;
    const [k, ...rest] = keys;
    if (k === "*") { for (const x of v) atPath(x, rest, fix); return; }
    if (!(k in v)) return;
    if (rest.length) atPath(v[k], rest, fix); else v[k] = fix(v[k]);
  }

  const orNaN = (x) => (x === null ? NaN : x);
  const toFloats = (a) => (Array.isArray(a) ? Float64Array.from(a, orNaN) : a);

  /** Reads an answer of function name: JSON text, or [text, Float64Array]. */
  function readAnswer(name, r) {
    const [text, floats] = typeof r === "string" ? [r] : r;
    const out = JSON.parse(text);
    if (out && typeof out === "object" && typeof out.__error === "string") throw withRemedy(new Error(out.__error), out);
    const shape = answers[name];
    if (!shape) return out;
    for (const p of shape.floats || []) atPath(out, p.split("."), toFloats);
    for (const p of shape.nan || []) atPath(out, p.split("."), orNaN);
    if (floats) out[shape.bulk] = floats;
    return out;
  }

  return { requests, readAnswer, requestJSON };
})();

/** Copies the remedy a failure carries (core/data Remedy: {drop: COLUMN},
 *  {text: COLUMN}, {choose: "task"|"label"}, {omit: true}, {skip: true}) from `from` onto `to`, and returns `to`. */
function withRemedy(to, from) {
  if (from && typeof from.drop === "string") to.drop = from.drop;
  if (from && typeof from.text === "string") to.text = from.text;
  if (from && typeof from.choose === "string") to.choose = from.choose;
  if (from && from.omit === true) to.omit = true;
  if (from && from.skip === true) to.skip = true;
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

/** How the Go program ended, once it has ({cause: "memory" | "stack" |
 *  "fatal", detail: its fatal error's line}), else null. A Go program
 *  that has exited (a fatal error: out of memory, a stack overflow, an
 *  unrecovered panic) answers nothing again, and a JavaScript error thrown
 *  through its frames (the call stack exhausted, a trap) leaves its state
 *  unknown: every later call fails with the same Error, and the first
 *  failure posts {event: "died", cause, detail} to the page (client.js),
 *  which replaces this worker. */
let spmtlDeath = null;
// What Go wrote last (a line may come in pieces), and the first line of a
// fatal error or panic it wrote: a goroutine dump follows it.
let spmtlOutput = "", spmtlFatal = "";

/** Keeps what Go writes to its standard output and error (see spmtlFatal). */
function spmtlHeard(text) {
  spmtlOutput = (spmtlOutput + text).slice(-4096);
  if (!spmtlFatal) {
    const m = /(?:^|\n)((?:fatal error|panic|runtime): [^\n]*)\n/.exec(spmtlOutput);
    if (m) spmtlFatal = m[1];
  }
  if (/^runtime: /.test(spmtlFatal)) { // "runtime: out of memory: cannot allocate…" comes before "fatal error: out of memory"
    const m = /(?:^|\n)((?:fatal error|panic): [^\n]*)\n/.exec(spmtlOutput);
    if (m) spmtlFatal = `${m[1]} (${spmtlFatal})`;
  }
}

/** Records that the Go program is gone (see spmtlDeath), once, and returns
 *  the Error every call now throws. */
function spmtlDied(thrown) {
  if (!spmtlDeath) {
    const said = spmtlFatal, why = thrown ? thrown.message : "";
    let cause = "fatal";
    if (/out of memory/.test(said) || thrown instanceof RangeError && /memory|allocation/i.test(why)) cause = "memory";
    else if (/stack overflow|stack exceeds/.test(said) || thrown instanceof RangeError && /call stack/i.test(why)) cause = "stack";
    spmtlDeath = { cause, detail: said || why || "the Go program exited" };
    self.postMessage({ event: "died", cause: spmtlDeath.cause, detail: spmtlDeath.detail });
  }
  const e = new Error(`the learner stopped: ${spmtlDeath.detail}`);
  e.died = spmtlDeath.cause;
  return e;
}

/** The "spmtl" imports of the learner's WebAssembly kernels
 *  (core/internal/linalg/kernels_js.go): the learner hands over the
 *  kernels' module bytes (load; simd says which of its two forms), compiled
 *  and instantiated here at once against the learner's own memory
 *  (memory(): its instance's exports.mem), in place of any loaded before;
 *  each other import forwards to the export of its name. A module that
 *  fails to load answers 0: the learner then offers the form without SIMD,
 *  and failing that keeps its Go loops.
 *  wasm/testexec runs the Go tests with these imports too. */
let spmtlKernels = ""; // "loaded with SIMD", "loaded without SIMD (why)", or "failed: why" (a worker's "kernels" request)
function spmtlKernelImports(memory) {
  let k = null;
  let refused = "";
  return {
    load(p, n, simd) {
      try {
        const mem = memory();
        const bytes = new Uint8Array(mem.buffer, p, n).slice();
        k = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { mem } }).exports;
        spmtlKernels = simd ? "loaded with SIMD" : `loaded without SIMD${refused ? ` (${refused})` : ""}`;
        return 1;
      } catch (e) {
        const why = e && e.message ? e.message : String(e);
        if (simd) refused = why;
        spmtlKernels = `failed: ${why}`;
        return 0;
      }
    },
    dot: (p, q, n) => k.dot(p, q, n),
    axpy: (dst, a, x, n) => k.axpy(dst, a, x, n),
    chol: (a, n) => k.chol(a, n),
    lowersolve: (l, n, b) => k.lowersolve(l, n, b),
    cholsolve: (l, n, b) => k.cholsolve(l, n, b),
    quadform: (c, w, d) => k.quadform(c, w, d),
    combine: (c, u, r, w, d) => k.combine(c, u, r, w, d),
    dots: (x, rows, stride, n, count, out) => k.dots(x, rows, stride, n, count, out),
    lowersystem: (l, c, m, d, rho, x, eta) => k.lowersystem(l, c, m, d, rho, x, eta),
    rankonelower: (a, d, w, s) => k.rankonelower(a, d, w, s),
    tdproduct: (a, stride, m, v, p) => k.tdproduct(a, stride, m, v, p),
    tdupdate: (a, stride, m, v, w) => k.tdupdate(a, stride, m, v, w),
    reflect: (z, stride, count, v, n) => k.reflect(z, stride, count, v, n),
    rotate: (vt, n, lo, hi, cs) => k.rotate(vt, n, lo, hi, cs),
  };
}

/** Starts the wasm module (a compiled Module, bytes, a stream of bytes or
 *  a URL) and resolves once `spmtl` is ready. */
async function startSpmtl(source) {
  const go = new Go();
  // Go writes a fatal error to its standard error before it exits: its
  // last lines say why (spmtlDied).
  const fs = globalThis.fs;
  if (fs && typeof fs.writeSync === "function" && !fs.spmtlKept) {
    const write = fs.writeSync;
    fs.writeSync = function (fd, buf) {
      spmtlHeard(new TextDecoder().decode(buf));
      return write.call(this, fd, buf);
    };
    fs.spmtlKept = true;
  }
  let instance;
  go.importObject.spmtl = spmtlKernelImports(() => instance.exports.mem);
  if (source instanceof WebAssembly.Module) {
    instance = await WebAssembly.instantiate(source, go.importObject); // compiled by the page
  } else if (typeof ReadableStream !== "undefined" && source instanceof ReadableStream) {
    // The offline file's wasm, compiled while it is unpacked.
    const wasm = new Response(source, { headers: { "Content-Type": "application/wasm" } });
    const module = typeof WebAssembly.compileStreaming === "function" ? await WebAssembly.compileStreaming(wasm)
      : await WebAssembly.compile(await wasm.arrayBuffer());
    instance = await WebAssembly.instantiate(module, go.importObject);
  } else {
    const bytes = source instanceof ArrayBuffer || ArrayBuffer.isView(source) ? source : await (await fetchChecked(source)).arrayBuffer();
    ({ instance } = await WebAssembly.instantiate(bytes, go.importObject));
  }
  go.run(instance); // registers spmtlRaw synchronously, then parks
  if (typeof self.spmtlRaw !== "object") throw new Error("the wasm module did not register its API");
  const api = { version: self.spmtlRaw.version };
  for (const name of Object.keys(self.spmtlRaw)) {
    const raw = self.spmtlRaw[name];
    if (typeof raw !== "function") continue;
    const request = spmtlCodec.requests[name] || ((handle) => [{ handle }]);
    api[name] = (...args) => {
      if (spmtlDeath) throw spmtlDied();
      const [req, payload] = request(...args);
      let answer;
      try {
        answer = raw(spmtlCodec.requestJSON(req), payload);
      } catch (e) {
        // An error thrown through Go's frames: its state is unknown.
        if (go.exited || e instanceof RangeError || e instanceof WebAssembly.RuntimeError) throw spmtlDied(e);
        throw e;
      }
      if (go.exited) throw spmtlDied();
      return spmtlCodec.readAnswer(name, answer);
    };
  }
  const exportRaw = api.exportModel;
  api.exportModel = (...args) => JSON.stringify(exportRaw(...args), null, 1) + "\n";
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
    // ping: answered at once, before any other request (client.js START_WAIT).
    ping() { return true; },
    // kernels: whether the learner's WebAssembly kernels loaded (once it started).
    async kernels() { await bootSpmtl(self.SPMTL_WASM_BYTES || self.SPMTL_WASM_URL || "../spmtl.wasm"); return spmtlKernels; },
    expectModule() { self.SPMTL_WASM_BYTES = new Promise((resolve) => { moduleArrived = resolve; }); return true; },
    module(m) { if (moduleArrived) moduleArrived(m.module || self.SPMTL_WASM_URL || "../spmtl.wasm"); return true; },
    // The offline page sends its packed wasm first (it cannot be fetched
    // there; unpack.js is joined into its workers): it is unpacked,
    // compiled and started now, not at the first request that needs it
    // (a failure is reported to that request).
    wasm(m) {
      self.SPMTL_WASM_BYTES = Promise.resolve().then(() => spmtlUnpackStream(m.packed));
      bootSpmtl(self.SPMTL_WASM_BYTES).catch(() => { /* see above */ });
      return true;
    },
  };
  self.onmessage = async (e) => {
    const m = e.data;
    try {
      const h = handlers[m.type] || given[m.type];
      if (!h) throw new Error(`unknown request ${m.type}`);
      self.postMessage({ id: m.id, ok: true, result: await h(m) });
    } catch (err) {
      const reply = withRemedy({ id: m.id, ok: false, error: err && err.message ? err.message : String(err) }, err);
      if (err && err.died) reply.died = err.died;
      self.postMessage(reply);
    }
  };
}
