// repro-worker.js: one worker of the pool that reproduces the paper's table.
// It runs spmtl.wasm (the learner's build, which also carries the
// reproduction), the same protocol code as `spmtl reproduce`.
//   {id, type: "source", name, text | url | packed, split | splitURL | splitPacked}
//                                             registers a bundled data set (a URL is
//                                             fetched here, off the page's thread)
//   {id, type: "run", opts}                   one run of one data set → results
//   {id, type: "summarize", opts}             joins runs of a data set → cells
"use strict";

// wasm_exec.js and api.js in one call: the browser fetches them together.
if (typeof self.bootSpmtl === "undefined") {
  importScripts(...(typeof self.Go === "undefined" ? [self.SPMTL_EXEC_URL || "../wasm_exec.js"] : []), self.SPMTL_API_URL || "api.js");
}
const boot = () => bootSpmtl(self.SPMTL_WASM_BYTES || self.SPMTL_WASM_URL || "../spmtl.wasm");

serveRequests({
  async source(m) {
    await boot();
    const text = m.packed ? await spmtlUnpack(m.packed) : m.url ? await fetchText(m.url) : m.text;
    const split = m.splitPacked ? await spmtlUnpack(m.splitPacked) : m.splitURL ? await fetchText(m.splitURL) : (m.split || "");
    return spmtl.addSource(m.name, text, split);
  },
  async run(m) { await boot(); return spmtl.reproduceRun(m.opts); },
  async summarize(m) {
    await boot();
    const cells = spmtl.summarize(m.opts);
    return cells.map((c) => Object.assign({}, c, { scores: Array.from(c.scores), rho: Array.from(c.rho), lambda0: Array.from(c.lambda0) }));
  },
});
