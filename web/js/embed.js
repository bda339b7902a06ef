// embed.js: the embedded learner (index.html#embed=1&controls=play,step&...):
// a compact page that shows the heatmap and only the controls named in the
// link, and speaks a postMessage protocol with its parent window only
// (README, "Embedding"). Every message to the host carries the protocol's
// version (PROTOCOL); a host's message may carry the version it speaks.
// The settings spmtl:set applies are the page's (the schema's settings
// with a control in the form, by their link keys, and the task order) and,
// on the host's own data, the column roles (the schema's data group),
// which read the data again; it refuses any other key, naming it, and then
// applies none of the message's settings. spmtl:load takes the host's data
// with its column roles and any of those settings. The results carry the
// scores (per task and the mean, the model's and its comparisons') and the
// run's model file.
import { settingIds } from "./form.js";
import { pageKeys, roleKeys, rolesOf, valueProblem, OWN_DATA, VALUE_CHARS } from "./state.js";
import { runModelText } from "./model.js";

const $ = (id) => document.getElementById(id);

/** The version of the embed protocol this learner speaks. Version 1 had
 *  no version field, no column roles and no scores or model in the
 *  results; a host's message of version 1 or 2 is read alike. */
export const PROTOCOL = 2;

const plainArrays = (o) => JSON.parse(JSON.stringify(o, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));

// The keys named, the first 20 of them (a message may carry many).
const quoted = (keys) => keys.slice(0, 20).map((k) => `"${k.length > 60 ? `${k.slice(0, 60)}…` : k}"`).join(", ") + (keys.length > 20 ? ` and ${keys.length - 20} more` : "");

/** The keys of settings that spmtl:set does not apply (none: []): any but
 *  the page's settings, and the column roles where the data is a bundled
 *  data set (ownData false), which loads as shipped. */
export function unappliedKeys(settings, ownData = false) {
  const applied = pageKeys().concat(ownData ? roleKeys() : []);
  return Object.keys(settings || {}).filter((k) => !applied.includes(k));
}

/** The scores of a run's results, as the host reads them: the metric,
 *  whether there were held-out rows to score (none when the run trained on
 *  all rows), each model's label and mean, and per task each model's
 *  score (null where there is none). */
export function scoresOf(results, info) {
  const roles = ["main", "baseline", "itl"].filter((k) => results[k]);
  const num = (v) => (typeof v === "number" && Number.isFinite(v) ? v : null);
  const main = results.main;
  const heldOut = !!info && info.testRows > 0;
  return {
    metric: main.metric, heldOut, trainRows: info ? info.trainRows : null, testRows: info ? info.testRows : null,
    note: heldOut ? "" : "trained on all rows: no row was held out, so there is no test score",
    labels: Object.fromEntries(roles.map((k) => [k, results[k].label])),
    mean: Object.fromEntries(roles.map((k) => [k, num(results[k].mean)])),
    tasks: main.tasks.map((task, i) => Object.assign({ task }, Object.fromEntries(roles.map((k) => [k, num(results[k].test[i])])))),
  };
}

/** The most keys a message's settings may have: the page has about 30. */
export const MAX_KEYS = 100;

/** Checks the shape and bounds of a host's message m before any of it is
 *  read (issue 34): its settings an object of at most MAX_KEYS keys whose
 *  values are texts, numbers or booleans within state.js's bounds (lists
 *  of column names for a column role), spmtl:load's data and split texts,
 *  and a name of at most VALUE_CHARS characters. Throws what is wrong. A
 *  value nested deep or of megabytes once went on into the form and the
 *  hash (or a recursion) as it was. */
export function checkMessage(m) {
  const bad = (why) => { throw new Error(`${m.type}: ${why}; nothing was applied`); };
  const st = m.settings;
  if (st !== undefined && st !== null) {
    if (typeof st !== "object" || Array.isArray(st)) bad("its settings are not an object of setting: value");
    const keys = Object.keys(st);
    if (keys.length > MAX_KEYS) bad(`its settings have ${keys.length} keys, more than the ${MAX_KEYS} a message may have`);
    for (const k of keys) {
      const why = valueProblem(k, st[k]);
      if (why) bad(`the setting ${why.length > 200 ? `${why.slice(0, 200)}…` : why}`);
    }
  }
  if (m.type !== "spmtl:load") return;
  if (typeof m.text !== "string") bad(`its text is ${m.text === null ? "null" : Array.isArray(m.text) ? "a list" : `a ${typeof m.text}`}, not the data's text`);
  if (m.splitText !== undefined && m.splitText !== null && typeof m.splitText !== "string") bad("its splitText is not a text");
  if (m.name !== undefined && (typeof m.name !== "string" || m.name.length > VALUE_CHARS)) bad(`its name is not a text of at most ${VALUE_CHARS} characters`);
}

// refusal is the error for keys a message does not apply.
function refusal(type, keys, why) {
  return Object.assign(new Error(`${type} does not apply ${quoted(keys)}: ${why}; nothing was set`), { keys });
}

/** Wires embedding when the link asks for it. */
export function wireEmbed(app, form, runs, data) {
  if (app.settings.embed !== "1") return;
  const host = window.parent !== window ? window.parent : null;
  document.body.classList.add("embed");
  const shown = new Set((app.settings.controls || "play,step,reset").split(",").map((c) => c.trim()));
  for (const id of ["play", "step", "reset"]) $(id).hidden = !shown.has(id);
  let settingsShown = 0;
  for (const id of settingIds.concat(["selfPaced", "preset"])) {
    const label = $(id).closest("label");
    if (label) label.hidden = !shown.has(id === "selfPaced" ? "sp" : id);
    if (label && !label.hidden) settingsShown++;
  }
  // No setting among the controls: no empty settings box either.
  $("settings").hidden = settingsShown === 0;
  if (!host) return;

  const toHost = (msg) => host.postMessage(Object.assign({ version: PROTOCOL }, msg), "*");
  // The page's events, not the worker's: only the current run's reach the host.
  app.on("snapshot", (snap, ev) => toHost({ type: "spmtl:snapshot", snapshot: plainArrays(snap), mean: ev.mean }));
  // The results carry the configuration the learner ran (its defaults
  // filled in), beside the page's settings, the scores and the model file
  // of the run (model.js has made it the current model by now).
  app.on("results", async (results) => {
    const info = app.runInfo;
    let model = null;
    try { model = JSON.parse(await runModelText()); } catch (_) { /* a run ended meanwhile: no model to send */ }
    toHost({ type: "spmtl:results", results: plainArrays(results), scores: scoresOf(results, info), model, settings: app.settings,
      config: info ? plainArrays(info.config) : null });
  });
  app.on("runerror", (message) => toHost({ type: "spmtl:error", message }));

  // split parts a message's settings into the page's and the column roles,
  // refusing every other key (and roles where they do not apply).
  function split(type, settings, ownData) {
    const bad = unappliedKeys(settings, true);
    if (bad.length) throw refusal(type, bad, `it applies ${pageKeys().concat(roleKeys()).join(", ")}`);
    const roles = Object.keys(settings || {}).filter((k) => roleKeys().includes(k));
    if (roles.length && !ownData) {
      throw refusal(type, roles, "the data is a bundled data set, which loads as shipped: column roles apply to the host's own data (send them with spmtl:load)");
    }
    const page = Object.fromEntries(Object.entries(settings || {}).filter(([k]) => !roleKeys().includes(k)).map(([k, v]) => [k, String(v)]));
    return { page, roles };
  }
  function applyPage(page) {
    Object.assign(app.settings, page);
    form.apply();
    form.read();
  }

  async function load(m) {
    const { page } = split("spmtl:load", m.settings, true);
    const roles = rolesOf(m.settings || {});
    let summary;
    try {
      summary = await data.loadOwn({ text: String(m.text), splitText: m.splitText || null }, m.name || "host data", roles);
    } catch (e) {
      // The embed has no column menus: say which setting names the column.
      if (e.choose) e.message += ` (name the ${e.choose} column in spmtl:load's settings: {${e.choose}: "column"})`;
      throw e;
    }
    if (!summary) throw superseded("spmtl:load");
    applyPage(page);
    toHost({ type: "spmtl:loaded", summary: app.data, settings: app.settings });
  }
  // superseded is the error for a read that another data set, asked for
  // on the page while it ran, made stale: its data is not the one shown.
  const superseded = (type) => new Error(`${type}: another data set was chosen while this one was read; nothing was applied`);

  async function set(m) {
    const own = app.settings.data === OWN_DATA && data.ownLoaded();
    const { page, roles } = split("spmtl:set", m.settings, own);
    if (roles.length) {
      // The host's data is read again with the new roles (the others kept);
      // a refusal leaves it and every setting as they were.
      if (!(await data.reloadOwn(rolesOf(Object.assign({}, app.settings, m.settings))))) throw superseded("spmtl:set");
      toHost({ type: "spmtl:loaded", summary: app.data, settings: app.settings });
    }
    applyPage(page);
    toHost({ type: "spmtl:settings", settings: app.settings });
  }

  // The host's messages are handled one after another, in the order they
  // came: a host that posts spmtl:load and then spmtl:run without waiting
  // runs on the data it sent, and two loads are answered each with its
  // own data. (Handled as they came, the run started on the data shown at
  // that moment, and a load ended by a later one was answered with the
  // later one's summary.) A handler that throws answers spmtl:error and
  // the next message goes on.
  let queue = Promise.resolve();
  window.addEventListener("message", (e) => {
    if (e.source !== host || !e.data || typeof e.data.type !== "string") return;
    const m = e.data;
    queue = queue.then(() => handle(m));
  });
  async function handle(m) {
    try {
      if (m.version !== undefined && !(Number.isInteger(m.version) && m.version >= 1 && m.version <= PROTOCOL)) {
        throw new Error(`${m.type}: protocol version ${JSON.stringify(m.version)} is not one this learner speaks (1 to ${PROTOCOL})`);
      }
      checkMessage(m);
      if ((m.type === "spmtl:run" || m.type === "spmtl:step") && (!app.data || app.state === "loading")) {
        throw new Error(`${m.type}: no data set is in yet; send it after spmtl:ready (or your spmtl:load's spmtl:loaded)`);
      }
      switch (m.type) {
        case "spmtl:load": await load(m); break;
        case "spmtl:set": await set(m); break;
        case "spmtl:run":
          // A setting the page refuses never reaches the learner: say why.
          if (!(await runs.start(true))) throw new Error(`the run did not start: ${runs.refused()}`);
          break;
        case "spmtl:pause": await runs.pause(); break;
        case "spmtl:step": await runs.step(); break;
        case "spmtl:reset": runs.reset(); break;
        default: throw new Error(`unknown message ${m.type}`);
      }
    } catch (err) {
      app.showError(err.message);
      // A refused key is named in the message and listed in keys.
      toHost(Object.assign({ type: "spmtl:error", message: err.message }, err.keys ? { keys: err.keys } : {}));
    }
  }
  // The host hears "ready" once, when the first data set is in, with the
  // keys spmtl:set and spmtl:load take.
  let announced = false;
  app.on("data", () => {
    if (announced) return;
    announced = true;
    toHost({ type: "spmtl:ready", summary: app.data, accepts: { settings: pageKeys(), roles: roleKeys() } });
  });
}
