// Package boundary holds no code: its test enforces the layering of the
// repository (docs/architecture.md, "Boundaries"). core/ is pure Go that
// builds natively and under js/wasm without JavaScript bindings, and only
// the WebAssembly builds under wasm/ may use the bridge.
package boundary
