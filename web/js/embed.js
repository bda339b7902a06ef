// embed.js: the embedded learner (index.html#embed=1&controls=play,step&...):
// a compact page that shows the heatmap and only the controls named in the
// link, and speaks a postMessage protocol with its parent window only
// (README, "Embedding"). The settings spmtl:set applies are the page's (the
// schema's settings with a control in the form, by their link keys, and
// the task order); it refuses any other key, naming it.
import { settingIds } from "./form.js";
import { pageKeys } from "./state.js";

const $ = (id) => document.getElementById(id);

const plainArrays = (o) => JSON.parse(JSON.stringify(o, (k, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v)));

/** The keys of settings that spmtl:set does not apply (none: []). */
export function unappliedKeys(settings) {
  const applied = pageKeys();
  return Object.keys(settings || {}).filter((k) => !applied.includes(k));
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

  const toHost = (msg) => host.postMessage(msg, "*");
  // The page's events, not the worker's: only the current run's reach the host.
  app.on("snapshot", (snap, ev) => toHost({ type: "spmtl:snapshot", snapshot: plainArrays(snap), mean: ev.mean }));
  // The results carry the configuration the learner ran (its defaults
  // filled in), beside the page's settings.
  app.on("results", (results) => toHost({ type: "spmtl:results", results: plainArrays(results), settings: app.settings,
    config: app.runInfo ? plainArrays(app.runInfo.config) : null }));
  app.on("runerror", (message) => toHost({ type: "spmtl:error", message }));
  window.addEventListener("message", async (e) => {
    if (e.source !== host || !e.data || typeof e.data.type !== "string") return;
    const m = e.data;
    try {
      switch (m.type) {
        case "spmtl:load":
          // The host's text is read like a visitor's file: columns "task" and "y".
          await data.loadOwn({ text: String(m.text), splitText: m.splitText || null }, m.name || "host data");
          toHost({ type: "spmtl:loaded", summary: app.data });
          break;
        case "spmtl:set": {
          // A key the page would not apply is refused, with none of the
          // message's settings applied: never echoed back as if it were.
          const bad = unappliedKeys(m.settings);
          if (bad.length) {
            throw Object.assign(new Error(`spmtl:set does not apply ${bad.map((k) => `"${k}"`).join(", ")}: nothing was set (it applies ${pageKeys().join(", ")})`), { keys: bad });
          }
          Object.assign(app.settings, m.settings || {});
          form.apply();
          form.read();
          toHost({ type: "spmtl:settings", settings: app.settings });
          break;
        }
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
  });
  // The host hears "ready" once, when the first data set is in.
  let announced = false;
  app.on("data", () => {
    if (announced) return;
    announced = true;
    toHost({ type: "spmtl:ready", summary: app.data });
  });
}
