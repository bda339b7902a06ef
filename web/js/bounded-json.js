// bounded-json.js: JSON.parse behind a size and a depth bound, for JSON
// a visitor hands the page (a saved run). A text past a bound is refused
// with the file's name before it is parsed, so that no hostile file costs
// the page's thread a huge parse or a later walk a deep recursion. The
// learner's own reader of model files has the same bounds in Go
// (wasm/bridge: jsonlite.Reader).

/** The bounds of a saved run: a 2,410-task run is under 1 MB, and no run
 *  nests deeper than 6. */
export const RUN_BOUNDS = { maxBytes: 64 << 20, maxDepth: 32, noun: "a saved run" };

/** The bound of a model file's size, the learner's (wasm/bridge: models):
 *  the page refuses a larger file before the worker reads it into memory
 *  and copies it into Go (a 200 MB file cost the learner 400 MB before
 *  Go refused it). */
export const MODEL_BOUNDS = { maxBytes: 128 << 20, maxDepth: 32, noun: "a model file" };

/** Refuses a file of size bytes over the bound before it is read. */
export function checkSize(size, name, { maxBytes, noun }) {
  if (size > maxBytes) throw new Error(`${name}: ${(size / 1048576).toFixed(1)} MB, more than the ${maxBytes / 1048576} MB ${noun} may have`);
}

/** Parses text as JSON within the bounds, naming name in a refusal. */
export function parseBounded(text, name, bounds) {
  checkSize(text.length, name, bounds);
  // One pass over the text outside strings; brackets inside a string do
  // not nest.
  let depth = 0, inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // a backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > bounds.maxDepth) throw new Error(`${name}: arrays and objects nested more than ${bounds.maxDepth} deep`);
    } else if (c === 93 || c === 125) depth--;
  }
  try { return JSON.parse(text); } catch (e) { throw new Error(`${name} is not JSON: ${e.message}`); }
}
