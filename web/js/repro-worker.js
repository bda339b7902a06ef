// repro-worker.js: one worker of the pool that reproduces the paper's table.
// It runs spmtl-repro.wasm, the same protocol code as `spmtl reproduce`.
//   {id, type: "source", name, text | url, split | splitURL}
//                                             registers a real data set (a URL is
//                                             fetched here, off the page's thread)
//   {id, type: "run", opts}                   one run of one data set → results
//   {id, type: "summarize", opts}             joins the runs of a data set → cells
"use strict";

let ready = null;
function boot() {
  if (!ready) {
    if (typeof self.Go === "undefined") importScripts(self.SPMTL_EXEC_URL || "../wasm_exec.js");
    if (typeof self.startSpmtl === "undefined") importScripts(self.SPMTL_API_URL || "api.js");
    ready = startSpmtl(self.SPMTL_REPRO_WASM_BYTES || self.SPMTL_REPRO_WASM_URL || "../spmtl-repro.wasm");
  }
  return ready;
}

async function fetchText(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`cannot load ${url}: HTTP ${r.status}`);
  return r.text();
}

const handlers = {
  async source(m) {
    await boot();
    const text = m.url ? await fetchText(m.url) : m.text;
    const split = m.splitURL ? await fetchText(m.splitURL) : (m.split || "");
    return spmtl.addSource(m.name, text, split);
  },
  async run(m) { await boot(); return spmtl.reproduceRun(m.opts); },
  async summarize(m) {
    await boot();
    const cells = spmtl.summarize(m.opts);
    return cells.map((c) => Object.assign({}, c, { scores: Array.from(c.scores), rho: Array.from(c.rho), lambda0: Array.from(c.lambda0) }));
  },
};

self.onmessage = async (e) => {
  const m = e.data;
  try {
    const h = handlers[m.type];
    if (!h) throw new Error(`unknown request ${m.type}`);
    self.postMessage({ id: m.id, ok: true, result: await h(m) });
  } catch (err) {
    self.postMessage({ id: m.id, ok: false, error: err && err.message ? err.message : String(err) });
  }
};
