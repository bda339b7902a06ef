// catalog.js: the learner's catalogue as the page sees it. The page keeps
// no list of methods, data sets or settings: the learner's answer to
// spmtl.catalog() ({methods, bundles, settings, ownStart, tables,
// tauScale, metricNames, newTaskModels, tuneFolds}; written as catalog.json by ./build.sh, else asked of the
// worker once) is kept here, and every menu, preset, check, table row and
// the τ heatmap's colour scale is looked up here.

let cat = { methods: [], bundles: [], settings: [], ownStart: {}, defaults: {}, tables: {}, tauScale: null, metricNames: {}, newTaskModels: [], tuneFolds: { default: 0, choices: [] } };

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

/** The schema of a run's settings (app.Settings), in the order of the
 *  form: [{key, link?, flag?, name, group, kind, range?, choices?, forms?,
 *  optional?, unset?, default, own, preset?}]. */
export function settings() { return cat.settings; }

/** The setting whose key in links and page settings is key (its link
 *  name, else its key), or null. */
export function setting(key) { return cat.settings.find((s) => pageKey(s) === key) || null; }

/** A setting's key in links and the page's settings. */
export function pageKey(s) { return s.link || s.key; }

/** The settings a run on data starts from (app.StartOf: a bundle's preset
 *  merged over the learner's defaults, or a visitor's own file's start),
 *  by page key, as text. */
export function startSettings(data) {
  const b = bundle(data);
  const start = (b && b.start) || cat.ownStart || {};
  return Object.fromEntries(cat.settings.map((s) => [pageKey(s), start[s.key] ?? ""]));
}

/** The τ heatmap's fixed colour scale (Go's figure.TauScale): {lo, hi,
 *  stops: [hex, ...] evenly spaced over log2(T·τ), ticks: [...]}. */
export function tauScale() { return cat.tauScale; }

/** A score's name as sentences write it (Go's eval.Metric.Name: "RMSE",
 *  "log-loss", "Brier score", "AUC"); an unknown key in capitals. */
export function metricName(m) { return (cat.metricNames || {})[m] || String(m || "").toUpperCase(); }

/** The Tune panel's menu of folds (Go's app.TuneFoldChoices and
 *  app.DefaultTuneFolds, the command line's -folds default):
 *  {default, choices: [k, ...]}. */
export function tuneFolds() { return cat.tuneFolds || { default: 0, choices: [] }; }

/** The models a search for new tasks chooses among, named as prose
 *  ("STL, MMTL and MTFL-mean", Go's method.NewTaskLabels); "" when the
 *  catalogue names none. */
export function newTaskModels() {
  // Joined here, not by Intl.ListFormat: its first use loads the locale's
  // list data, 17-25 ms of the page's thread at start (wireTune asks for
  // this phrase before the first run's τ; docs/bench.md, "Twenty-fifth round").
  const names = cat.newTaskModels || [];
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** The rows of the paper's table under a variant ([{name, config, baseline?}]). */
export function tableRows(variant) { return cat.tables[variant] || []; }

/** The settings a preset sets (the schema's preset settings: ρ, κ, λ0,
 *  max iterations, train), as a run on data starts with them: a bundle's
 *  preset, or a visitor's own file's starting point. */
export function presetPart(data) {
  const start = startSettings(data);
  return Object.fromEntries(cat.settings.filter((s) => s.preset).map((s) => [pageKey(s), start[pageKey(s)]]));
}

/** A bundle's preset as page settings (presetPart); empty for a name that
 *  is not a bundle. */
export function presetSettings(name) { return bundle(name) ? presetPart(name) : {}; }

/** The files of a bundle: [data, splits?] paths relative to data/ (none for generated sets). */
export function bundleFiles(b) { return [b.data, b.splits].filter(Boolean); }
