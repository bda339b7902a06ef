// api.js: the learner's JavaScript surface inside a worker (classic script,
// loaded with importScripts after wasm_exec.js). The wasm bridge registers
// `spmtlRaw`, whose functions return {__error: message} on failure; this
// wraps each of them as `spmtl.NAME` that throws an Error instead.
//
//   const ds  = spmtl.load(text, {name, format, task, label, splitText, splitColumn});
//   const run = spmtl.train({data: ds.handle, model: "mtfl", selfPaced: true, ...});
//   const s   = spmtl.step(run.handle);     // {iter, lambda, tau: Float64Array, ...}
//   const ev  = spmtl.evaluate(run.handle); // {metric, tasks, test: Float64Array, mean}
"use strict";

/** Starts the wasm module (bytes or a URL) and resolves once `spmtl` is ready. */
async function startSpmtl(source) {
  const go = new Go();
  let instance;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    ({ instance } = await WebAssembly.instantiate(source, go.importObject));
  } else {
    const resp = await fetch(source);
    if (!resp.ok) throw new Error(`cannot load ${source}: HTTP ${resp.status}`);
    const bytes = await resp.arrayBuffer();
    ({ instance } = await WebAssembly.instantiate(bytes, go.importObject));
  }
  go.run(instance); // registers spmtlRaw synchronously, then parks
  if (typeof self.spmtlRaw !== "object") throw new Error("spmtl.wasm did not register its API");
  const api = { version: self.spmtlRaw.version };
  for (const name of Object.keys(self.spmtlRaw)) {
    if (typeof self.spmtlRaw[name] !== "function") continue;
    api[name] = (...args) => {
      const r = self.spmtlRaw[name](...args);
      if (r && typeof r === "object" && typeof r.__error === "string") throw new Error(r.__error);
      return r;
    };
  }
  self.spmtl = api;
  return api;
}
