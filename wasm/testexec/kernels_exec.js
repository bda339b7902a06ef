// kernels_exec.js: Go's wasm_exec_node.js, with the "spmtl" imports of the
// learner's WebAssembly kernels from web/js/api.js (spmtlKernelImports),
// as the page's workers provide them.
"use strict";

const [wasmDir, binary, ...args] = process.argv.slice(2);
globalThis.require = require;
globalThis.fs = require("fs");
globalThis.path = require("path");
globalThis.TextEncoder = require("util").TextEncoder;
globalThis.TextDecoder = require("util").TextDecoder;
globalThis.performance ??= require("performance");
globalThis.crypto ??= require("crypto");
require(path.join(wasmDir, "wasm_exec"));
// api.js is a worker's classic script: run in this global scope, its
// functions become globals, as in a worker.
globalThis.self = globalThis;
require("vm").runInThisContext(fs.readFileSync(path.join(__dirname, "../../web/js/api.js"), "utf8"), { filename: "api.js" });

const go = new Go();
go.argv = [binary, ...args];
go.env = Object.assign({ TMPDIR: require("os").tmpdir() }, process.env);
go.exit = process.exit;
let instance;
go.importObject.spmtl = spmtlKernelImports(() => instance.exports.mem);
WebAssembly.instantiate(fs.readFileSync(binary), go.importObject).then((result) => {
  instance = result.instance;
  process.on("exit", (code) => {
    if (code === 0 && !go.exited) {
      go._pendingEvent = { id: 0 };
      go._resume();
    }
  });
  return go.run(instance);
}).catch((err) => {
  console.error(err);
  process.exit(1);
});
