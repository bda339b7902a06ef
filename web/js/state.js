// state.js: every setting lives in the URL hash, so a link reproduces a run.
// The settings and their link keys are the catalogue's schema (app.Settings);
// those the page applies are the ones with a control in its settings form.
// A setting the link leaves out takes the value it would have after choosing
// the link's data set in the menu: the page's own choices below, then the
// settings the data set starts from (app.StartOf: the learner's defaults
// with the data set's preset merged in Go; a visitor's own file starts from
// the own-data profile with the automatic λ0). The column roles of a
// visitor's file are not settings of a link yet: a link names a bundled
// data set, which always loads as shipped.
import { settings, setting, pageKey, startSettings, presetPart, bundle } from "./catalog.js";

// The page's own choices: the data set shown first, self-paced on, and the
// order menu (a view of the heatmap, not a setting of the learner).
const pageDefaults = { data: "landmine", sp: "1", order: "name" };

/** The data name of a visitor's own file (in app.settings.data). */
export const OWN_DATA = "custom";

/** The data set a link that names none shows. */
export function defaultDataSet() { return pageDefaults.data; }

let formSettingsCache = null;
/** The schema's settings the page applies: those with a control in its
 *  settings form (the control's id is the setting's key). */
export function formSettings() {
  if (formSettingsCache && formSettingsCache.length) return formSettingsCache;
  const form = document.getElementById("settings");
  formSettingsCache = settings().filter((s) => form && form.querySelector(`#${CSS.escape(s.key)}`));
  return formSettingsCache;
}

/** The keys a link and an embedding host may set: the form's settings
 *  (by their link keys) and the page's own choices. */
export function pageKeys() {
  const keys = formSettings().map(pageKey);
  return keys.concat(Object.keys(pageDefaults).filter((k) => k !== "data" && !keys.includes(k)));
}

/** The column roles of a file: not settings of a link yet. */
const notSettings = () => settings().filter((s) => s.kind === "column" || s.kind === "columns").map((s) => s.key);

/** The settings of a link that names only its data set (a bundle, or
 *  OWN_DATA for a visitor's own file). */
export function baseSettings(data) {
  const start = startSettings(data);
  const s = { data };
  for (const k of pageKeys()) s[k] = k in pageDefaults ? pageDefaults[k] : start[k];
  return s;
}

/** The preset settings of data (a bundle's preset, or a visitor's file's
 *  starting point): {rho, intercept, lambda0, maxIter, train}. */
export function startingPoint(data) { return presetPart(data); }

/** Reads the hash into a settings object (unknown keys are kept). A link
 *  names a bundled data set (a visitor's file is not in it): another name
 *  shows the default one, with its preset; OWN_DATA stays when ownLoaded
 *  (the hash of a page that shows the visitor's file, edited). */
export function readHash(hash = location.hash, ownLoaded = false) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const named = params.get("data");
  const data = named && (bundle(named) || (ownLoaded && named === OWN_DATA)) ? named : pageDefaults.data;
  const s = baseSettings(data);
  const skip = notSettings();
  for (const [k, v] of params) if (!skip.includes(k)) s[k] = v;
  s.data = data;
  return s;
}

/** Writes the settings to the hash without adding a history entry: the data
 *  set always, every other setting where it differs from baseSettings. */
export function writeHash(s) {
  const base = baseSettings(s.data);
  const skip = notSettings();
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(s)) {
    if (k === "run" || v === undefined || v === null || skip.includes(k)) continue;
    if (base[k] === v && k !== "data") continue;
    params.set(k, v);
  }
  const h = "#" + params.toString();
  if (h !== location.hash) history.replaceState(null, "", h);
}

/** Converts settings to the learner's training options, one for each
 *  setting of the form (by its kind: numbers as numbers, λ0 as its text,
 *  which the learner reads). selfPaced is sent only for a method with a
 *  self-paced version and select only for one with selection rules (the
 *  learner refuses them elsewhere); an optional setting left empty is not
 *  sent (the learner chooses). */
export function trainOptions(s, dataHandle, m) {
  const o = { data: dataHandle };
  for (const st of formSettings()) {
    const k = pageKey(st), text = String(s[k] ?? "").trim();
    if (st.optional && text === "") continue;
    if (st.key === "selfPaced") o.selfPaced = text === "1" && !!(m && m.selfPaced);
    else if (st.key === "select") { if (m && m.rules && m.rules.length) o.select = text; }
    else if (st.kind === "number" || st.kind === "integer" || st.kind === "share") {
      const v = Number(text);
      if (text === "" || !Number.isFinite(v)) throw new Error(`setting ${k} is not a number: "${s[k]}"`);
      o[st.key] = v;
    } else if (st.kind === "bool") o[st.key] = text === "1";
    else o[st.key] = text;
  }
  return o;
}

/** The λ0 setting for a multiple K of the automatic λ0 ("auto", "auto*K"),
 *  written from the schema's forms of λ0 (app.Lambda0Text writes the same). */
export function lambda0Auto(k) {
  const forms = setting("lambda0").forms;
  const word = forms.find((f) => f.option === "autoLambda0" && !f.range && f.value === k);
  if (word) return word.words.join(" ");
  const f = forms.find((x) => x.option === "autoLambda0" && x.range);
  return f.words.join("") + String(k);
}
