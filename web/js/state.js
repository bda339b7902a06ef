// state.js: every setting lives in the URL hash, so a link reproduces a run.
// A setting the link leaves out takes the value it would have after choosing
// the link's data set in the menu: the page's defaults, the learner's
// defaults from the catalogue, then the data set's preset (ρ, λ0, train,
// maxIter).
import { learnerDefaults, presetSettings, methods } from "./catalog.js";

// The page's own choices: the data set shown first, self-paced on, seed 1,
// the loss picked from the data, and the column and order menus.
const pageDefaults = { data: "landmine", sp: "1", loss: "", seed: "1", order: "name", task: "task", label: "y" };

/** The data set a link that names none shows. */
export function defaultDataSet() { return pageDefaults.data; }

/** The settings of a link that names only its data set. */
export function baseSettings(data) {
  const d = learnerDefaults();
  const s = Object.assign({}, pageDefaults);
  for (const k of ["model", "tau", "variant", "rho", "lambda0", "c", "h", "maxIter"]) if (d[k] !== undefined) s[k] = String(d[k]);
  const withRules = methods().find((m) => m.rules && m.rules.length);
  s.select = withRules ? withRules.rules[0] : "";
  // Data that is not a bundle (a file of your own) keeps the default set's preset.
  const preset = presetSettings(data);
  return Object.assign(s, Object.keys(preset).length ? preset : presetSettings(pageDefaults.data));
}

/** Reads the hash into a settings object (unknown keys are kept). */
export function readHash(hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const s = baseSettings(params.get("data") || pageDefaults.data);
  for (const [k, v] of params) s[k] = v;
  return s;
}

/** Writes the settings to the hash without adding a history entry: the data
 *  set always, every other setting where it differs from baseSettings. */
export function writeHash(s) {
  const base = baseSettings(s.data);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(s)) {
    if (k === "run" || v === undefined || v === null) continue;
    if (base[k] === v && k !== "data") continue;
    params.set(k, v);
  }
  const h = "#" + params.toString();
  if (h !== location.hash) history.replaceState(null, "", h);
}

/** Converts settings to the learner's training options. selfPaced is sent
 *  only for a method with a self-paced version and select only for one with
 *  selection rules (the learner refuses them elsewhere). */
export function trainOptions(s, dataHandle, m) {
  const num = (k) => {
    const v = Number(s[k]);
    if (!Number.isFinite(v)) throw new Error(`setting ${k} is not a number: "${s[k]}"`);
    return v;
  };
  const o = {
    data: dataHandle, model: s.model, selfPaced: s.sp === "1" && !!(m && m.selfPaced), tau: s.tau, variant: s.variant,
    rho: num("rho"), lambda0: num("lambda0"), c: num("c"), h: num("h"), maxIter: num("maxIter"),
    train: num("train"), seed: num("seed"),
  };
  if (m && m.rules && m.rules.length) o.select = s.select;
  if (s.loss) o.loss = s.loss;
  return o;
}
