// state.js: every setting lives in the URL hash, so a link reproduces a run.
// A setting the link leaves out takes the value it would have after choosing
// the link's data set in the menu: the page's defaults, the learner's
// defaults from the catalogue, then the data set's preset (ρ, λ0, train,
// maxIter). A visitor's own file has no preset: it takes the learner's
// defaults with a train fraction of 0.75 and the automatic λ0. The columns
// of a visitor's file are never settings: a link names a bundled data set,
// which always loads as shipped.
import { learnerDefaults, ownDefaults, presetSettings, methods, bundle } from "./catalog.js";

// The page's own choices: the data set shown first, self-paced on, seed 1,
// the loss picked from the data, and the order menu.
// The shared intercept κ is not set (""): the learner then uses its own
// default (free intercepts; 0.1 for a classifier on a visitor's file).
const pageDefaults = { data: "landmine", sp: "1", loss: "", seed: "1", order: "name", intercept: "" };

/** The data name of a visitor's own file (in app.settings.data). */
export const OWN_DATA = "custom";

// What a visitor's own file starts from, for the settings a preset sets:
// a fraction (never a preset's count of rows), the automatic λ0, κ not
// set, and the own-data profile's iteration cap (a fit runs until it
// converges, docs/algorithms.md §14), not the paper's 10.
const ownData = () => ({ train: "0.75", lambda0: "auto", intercept: "", maxIter: String(ownDefaults().maxIter) });

/** The settings a preset sets (and a visitor's own file resets); κ
 *  (intercept) is empty in every preset. */
export const presetKeys = ["rho", "lambda0", "train", "maxIter", "intercept"];

// Keys that never go in the settings or a link: a file's column choices.
const notSettings = ["task", "label", "drop", "text"];

/** The data set a link that names none shows. */
export function defaultDataSet() { return pageDefaults.data; }

/** The settings of a link that names only its data set (a bundle, or
 *  OWN_DATA for a visitor's own file). */
export function baseSettings(data) {
  const d = learnerDefaults();
  const s = Object.assign({}, pageDefaults, { data });
  for (const k of ["model", "tau", "variant", "rho", "lambda0", "c", "h", "maxIter"]) if (d[k] !== undefined) s[k] = String(d[k]);
  const withRules = methods().find((m) => m.rules && m.rules.length);
  s.select = withRules ? withRules.rules[0] : "";
  return Object.assign(s, bundle(data) ? presetSettings(data) : ownData());
}

/** The preset settings of data (a bundle's preset, or a visitor's file's
 *  starting point): {rho, lambda0, train, maxIter}. */
export function startingPoint(data) {
  const base = baseSettings(data);
  return Object.fromEntries(presetKeys.map((k) => [k, base[k]]));
}

/** Reads the hash into a settings object (unknown keys are kept). A link
 *  names a bundled data set (a visitor's file is not in it): another name
 *  shows the default one, with its preset; OWN_DATA stays when ownLoaded
 *  (the hash of a page that shows the visitor's file, edited). */
export function readHash(hash = location.hash, ownLoaded = false) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const named = params.get("data");
  const data = named && (bundle(named) || (ownLoaded && named === OWN_DATA)) ? named : pageDefaults.data;
  const s = baseSettings(data);
  for (const [k, v] of params) if (!notSettings.includes(k)) s[k] = v;
  s.data = data;
  return s;
}

/** Writes the settings to the hash without adding a history entry: the data
 *  set always, every other setting where it differs from baseSettings. */
export function writeHash(s) {
  const base = baseSettings(s.data);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(s)) {
    if (k === "run" || v === undefined || v === null || notSettings.includes(k)) continue;
    if (base[k] === v && k !== "data") continue;
    params.set(k, v);
  }
  const h = "#" + params.toString();
  if (h !== location.hash) history.replaceState(null, "", h);
}

/** Converts settings to the learner's training options. selfPaced is sent
 *  only for a method with a self-paced version and select only for one with
 *  selection rules (the learner refuses them elsewhere); intercept only
 *  when it is set. */
export function trainOptions(s, dataHandle, m) {
  const num = (k) => {
    const v = Number(s[k]);
    if (!Number.isFinite(v)) throw new Error(`setting ${k} is not a number: "${s[k]}"`);
    return v;
  };
  const o = Object.assign({
    data: dataHandle, model: s.model, selfPaced: s.sp === "1" && !!(m && m.selfPaced), tau: s.tau, variant: s.variant,
    rho: num("rho"), c: num("c"), h: num("h"), maxIter: num("maxIter"), train: num("train"), seed: num("seed"),
  }, lambda0Option(s.lambda0));
  if (m && m.rules && m.rules.length) o.select = s.select;
  if (s.loss) o.loss = s.loss;
  // κ, the shared intercept: empty is "not set" (the learner's default).
  if (s.intercept !== undefined && String(s.intercept).trim() !== "") o.intercept = num("intercept");
  return o;
}

/** The learner's option for a λ0 setting: a number ({lambda0: 2}),
 *  "auto" ({lambda0: "auto"}: the scale-free λ0 Go computes) or "auto*K"
 *  ({autoLambda0: K}: K times it), as the command line's -lambda0 reads. */
export function lambda0Option(v) {
  const s = String(v ?? "").trim();
  if (s === "auto") return { lambda0: "auto" };
  const m = /^auto\s*\*\s*(\S+)$/.exec(s);
  if (m) {
    const k = Number(m[1]);
    if (Number.isFinite(k) && k > 0) return k === 1 ? { lambda0: "auto" } : { autoLambda0: k };
  } else if (s !== "" && Number.isFinite(Number(s))) {
    return { lambda0: Number(s) };
  }
  throw new Error(`setting λ0 must be a number, auto or auto*K (K > 0), got "${s}"`);
}

/** The λ0 setting for a multiple K of the automatic λ0: "auto" or "auto*K". */
export function lambda0Auto(k) { return k === 1 ? "auto" : `auto*${k}`; }
