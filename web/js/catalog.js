// catalog.js: the learner's catalogue as the page sees it. The page keeps
// no list of methods or data sets: the worker answers spmtl.catalog() once
// ({methods, bundles, defaults, tables, tauScale}) and every menu, preset,
// table row and the τ heatmap's colour scale is looked up here.

let cat = { methods: [], bundles: [], defaults: {}, tables: {}, tauScale: null };

/** Keeps the catalogue the worker answered. */
export function useCatalog(c) { cat = c; }

/** The methods, in the catalogue's order. */
export function methods() { return cat.methods; }

/** The method with this key, or null. */
export function method(key) { return cat.methods.find((m) => m.key === key) || null; }

/** The bundled data sets, in the catalogue's order. */
export function bundles() { return cat.bundles; }

/** The bundled data set with this name, or null. */
export function bundle(name) { return cat.bundles.find((b) => b.name === name) || null; }

/** The learner's defaults (mtl.Config.Defaults). */
export function learnerDefaults() { return cat.defaults; }

/** The range of a numeric setting of the learner (mtl.Ranges, the one
 *  statement of each): {key, lo, hi, loIncluded, integer}, or null. */
export function range(key) { return (cat.ranges || []).find((r) => r.key === key) || null; }

/** The defaults of a run on a visitor's own file (app.OwnData): a summed
 *  loss, the leave-one-out pace, and iterations to convergence. */
export function ownDefaults() { return cat.ownDefaults || cat.defaults; }

/** The τ heatmap's fixed colour scale (Go's figure.TauScale): {lo, hi,
 *  stops: [hex, ...] evenly spaced over log2(T·τ), ticks: [...]}. */
export function tauScale() { return cat.tauScale; }

/** The rows of the paper's table under a variant ([{name, config, baseline?}]). */
export function tableRows(variant) { return cat.tables[variant] || []; }

/** A bundle's preset (ρ, λ0, train, maxIter) as page settings (strings);
 *  empty for a name that is not a bundle. */
export function presetSettings(name) {
  const b = bundle(name);
  if (!b || !b.preset) return {};
  return Object.fromEntries(Object.entries(b.preset).map(([k, v]) => [k, String(v)]));
}

/** The files of a bundle: [data, splits?] paths relative to data/ (none for generated sets). */
export function bundleFiles(b) { return [b.data, b.splits].filter(Boolean); }
