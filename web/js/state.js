// state.js: every setting lives in the URL hash, so a link reproduces a run.
// The settings and their link keys are the catalogue's schema (app.Settings);
// those the page applies are the ones with a control in its settings form.
// A setting the link leaves out takes the value it would have after choosing
// the link's data set in the menu: the page's own choices below, then the
// settings the data set starts from (app.StartOf: the learner's defaults
// with the data set's preset merged in Go; a visitor's own file starts from
// the own-data profile with the automatic λ0). A link made on a visitor's
// own file (data=custom) also carries the file's column roles (the
// schema's data group: task, label, drop, text, missing), its name and its SHA-256;
// the file itself never leaves the visitor's machine, so a page opened on
// such a link waits for it (ownLink, own-link.js). A bundled data set
// always loads as shipped: its links carry no column roles.
import { settings, setting, pageKey, startSettings, presetPart, bundle } from "./catalog.js";

// The page's own choices: the data set shown first, self-paced on, and the
// order menu (a view of the heatmap, not a setting of the learner).
const pageDefaults = { data: "landmine", sp: "1", order: "name" };

/** The bounds of a setting's value from outside the page (a link, an
 *  embedding host's message; issue 34): a column role (a list of column
 *  names) may be up to ROLE_CHARS characters, any other setting (a number,
 *  a method's key, a file's SHA-256) up to VALUE_CHARS. A value past its
 *  bound is refused, not read: a link or message of megabytes once put its
 *  value in the hash, the form and the link's note as it was. */
export const VALUE_CHARS = 1000, ROLE_CHARS = 1 << 20;

/** What is wrong with v as the value of setting key from outside the
 *  page ("" when nothing): a value that is not a text, a number or a
 *  boolean (a list of texts for a column role), or one past its bound. */
export function valueProblem(key, v) {
  const st = settings().find((x) => pageKey(x) === key);
  const role = !!st && st.group === "data";
  const bound = role ? ROLE_CHARS : VALUE_CHARS;
  let n = 0;
  if (role && st.kind === "columns" && Array.isArray(v)) {
    for (const c of v) {
      if (typeof c !== "string") return `"${key}" lists a${Array.isArray(c) ? " list" : ` ${typeof c}`}, not a column's name`;
      n += c.length + 1;
      if (n > bound) break;
    }
  } else if (typeof v === "string") n = v.length;
  else if (typeof v === "number" || typeof v === "boolean") n = String(v).length;
  else return `"${key}" is ${v === null ? "null" : Array.isArray(v) ? "a list" : `a${typeof v === "object" ? "n" : ""} ${typeof v}`}, not a text or a number`;
  return n > bound ? `"${key}" is ${n >= 1e6 ? `${(n / 1e6).toFixed(1)} million` : n} characters long, more than the ${bound} a${role ? " column role" : " setting"} may have` : "";
}

/** The data name of a visitor's own file (in app.settings.data). */
export const OWN_DATA = "custom";

/** The keys a link made on a visitor's own file adds to its settings: the
 *  file's name and its SHA-256 (hex), by which the page, given a file,
 *  tells whether it is the one the link was made with. */
export const OWN_FILE_KEYS = ["file", "sha256"];

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

/** The page keys of a file's column roles (the schema's data group: the
 *  task and label columns, the columns left out and those read as words). */
export function roleKeys() { return settings().filter((s) => s.group === "data").map(pageKey); }

/** The column roles in settings s, as the learner reads a file with them:
 *  {task, label, drop: [...], text: [...], missing} (a list setting is its text
 *  split at commas). */
export function rolesOf(s) {
  const out = {};
  for (const st of settings().filter((x) => x.group === "data")) {
    const v = s[pageKey(st)];
    out[st.key] = st.kind === "columns"
      ? (Array.isArray(v) ? v.map(String) : String(v ?? "").split(",")).map((c) => c.trim()).filter(Boolean)
      : String(v ?? "").trim() || st.own;
  }
  return out;
}

/** Column roles ({task, label, drop: [...], text: [...], missing}) as settings,
 *  by page key (a list as its text, joined with commas). */
export function roleSettings(roles) {
  const out = {};
  for (const st of settings().filter((x) => x.group === "data")) {
    const v = roles[st.key];
    out[pageKey(st)] = Array.isArray(v) ? v.join(",") : String(v ?? "");
  }
  return out;
}

/** Takes a visitor's file's keys (its column roles, name and SHA-256) out
 *  of settings s: a bundled data set has none. */
export function dropOwnKeys(s) {
  for (const k of roleKeys().concat(OWN_FILE_KEYS)) delete s[k];
}

/** The settings of a link that names only its data set (a bundle, or
 *  OWN_DATA for a visitor's own file, which adds its column roles). */
export function baseSettings(data) {
  const start = startSettings(data);
  const s = { data };
  for (const k of pageKeys()) s[k] = k in pageDefaults ? pageDefaults[k] : start[k];
  if (data === OWN_DATA) for (const k of roleKeys()) s[k] = start[k];
  return s;
}

/** The preset settings of data (a bundle's preset, or a visitor's file's
 *  starting point): {rho, intercept, lambda0, maxIter, train}. */
export function startingPoint(data) { return presetPart(data); }

/** Reads the hash into a settings object (unknown keys are kept). A link
 *  names a bundled data set, or a visitor's file (OWN_DATA): another name
 *  shows the default one, with its preset. A link on a visitor's file
 *  keeps its data set, settings and column roles where the file is loaded
 *  (ownLoaded: the hash of a page that shows it, edited); elsewhere the
 *  page shows the default data set with its own settings, and the link's
 *  wait for the file (ownLink). */
export function readHash(hash = location.hash, ownLoaded = false) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const named = params.get("data");
  const data = named && (bundle(named) || (ownLoaded && named === OWN_DATA)) ? named : pageDefaults.data;
  const s = baseSettings(data);
  const waiting = named === OWN_DATA && !ownLoaded;
  const fileKeys = roleKeys().concat(OWN_FILE_KEYS);
  const skip = waiting ? fileKeys.concat(pageKeys()) : data === OWN_DATA ? [] : fileKeys;
  // A key the page knows not, with a value past the bound, is dropped
  // (kept, it would be written back into the hash); a known one is kept
  // for checkLink, which reports it and puts the default in its place.
  const known = new Set(Object.keys(s).concat(pageKeys(), roleKeys(), OWN_FILE_KEYS));
  for (const [k, v] of params) if (!skip.includes(k) && (known.has(k) || !valueProblem(k, v))) s[k] = v;
  s.data = data;
  return s;
}

/** The link in hash made on a visitor's own file, or null when it names
 *  none: {settings (its data set's base with the link's settings and
 *  column roles), file (the file's name, or ""), sha256 (hex, or "")}. */
export function ownLink(hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  if (params.get("data") !== OWN_DATA) return null;
  const s = baseSettings(OWN_DATA);
  for (const [k, v] of params) if (k in s && k !== "data") s[k] = v;
  return { settings: s, file: params.get("file") || "", sha256: (params.get("sha256") || "").toLowerCase() };
}

/** Writes the settings to the hash without adding a history entry: the data
 *  set always, every other setting where it differs from baseSettings. A
 *  visitor's file's column roles, name and SHA-256 go with OWN_DATA only. */
export function writeHash(s) {
  const base = baseSettings(s.data);
  const skip = s.data === OWN_DATA ? [] : roleKeys().concat(OWN_FILE_KEYS);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(s)) {
    if (k === "run" || v === undefined || v === null || skip.includes(k)) continue;
    if (base[k] === v && k !== "data") continue;
    if (v === "" && !(k in base)) continue;
    params.set(k, v);
  }
  const h = "#" + params.toString();
  if (h !== location.hash) history.replaceState(null, "", h);
}

/** The origin setting (Go's app.ParseOrigin) in words, after "moved to"
 *  or "at": "their means", "0.3 × their means", "age = −3.046". */
export function originWords(v) {
  const s = String(v || "");
  const i = s.lastIndexOf("=");
  if (i > 0) return `${s.slice(0, i)} = ${s.slice(i + 1).replace(/^-/, "−")}`;
  return s === "means" ? "their means" : `${s} × their means`;
}

/** The flag settings written as a word in the text of setting st (every
 *  row: "all" in the training share's field): [{key, word}]. */
export function wordsIn(st) {
  return settings().filter((x) => x.in === st.key && x.word).map((x) => ({ key: x.key, word: x.word }));
}

/** Converts settings to the learner's training options, one for each
 *  setting of the form (by its kind: numbers as numbers, λ0 as its text,
 *  which the learner reads). A word that stands for a flag (train "all")
 *  sends that flag instead. selfPaced is sent only for a method with a
 *  self-paced version and select only for one with selection rules (the
 *  learner refuses them elsewhere); an optional setting left empty is not
 *  sent (the learner chooses). */
export function trainOptions(s, dataHandle, m) {
  const o = { data: dataHandle };
  for (const st of formSettings()) {
    const k = pageKey(st), text = String(s[k] ?? "").trim();
    if (st.optional && text === "") continue;
    const word = wordsIn(st).find((w) => w.word === text);
    if (word) o[word.key] = true;
    else if (st.key === "selfPaced") o.selfPaced = text === "1" && !!(m && m.selfPaced);
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

/** The data set a setting found on it belongs to (app.compareITL): its
 *  name, rows and features, as a data summary and a run file's data give
 *  them; the features' origin aside, which a search may move after it has
 *  scored ITL at the moved one. */
export const dataKey = (d) => (d ? `${d.name}|${d.rows}|${d.features}` : "");

/** Training options as a key that compares two runs' settings (the data
 *  set's handle aside): the run on screen against the form's settings. */
export const optionsKey = (o) => JSON.stringify(Object.assign({}, o, { data: undefined }));

/** The λ0 setting for a multiple K of the automatic λ0 ("auto", "auto*K"),
 *  written from the schema's forms of λ0 (app.Lambda0Text writes the same). */
export function lambda0Auto(k) {
  const forms = setting("lambda0").forms;
  const word = forms.find((f) => f.option === "autoLambda0" && !f.range && f.value === k);
  if (word) return word.words.join(" ");
  const f = forms.find((x) => x.option === "autoLambda0" && x.range);
  return f.words.join("") + String(k);
}
