// data.js: the data panel. It loads a bundled data set (the preset menu,
// the seed of a generated one) or your own file, pasted or dropped text
// (intake.js) in the worker, fills the task and label column menus from
// the file's header, re-parses on a column change, and writes the summary.
import { bundle, presetSettings } from "./catalog.js";
import { bundleSource } from "./sources.js";
import { writeHash } from "./state.js";
import { wireIntake } from "./intake.js";

const $ = (id) => document.getElementById(id);

// yieldToPage lets the browser handle input and paint before more work.
const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Wires the data panel; returns {loadBundle, loadData, loaded}. */
export function wireData(app, form) {
  const client = app.client;
  let reloadable = false; // the worker keeps a CSV that a column change re-parses
  let header = [], columns = null; // that CSV's header and the columns last parsed

  /** Loads the bundled data set name (generated or read from its files). */
  async function loadBundle(name) {
    app.setState("loading");
    try {
      const b = bundle(name);
      if (!b) throw new Error(`no bundled data set ${name}`);
      let summary;
      if (b.generated) {
        summary = await client.request("generate", { name, seed: Number(app.settings.seed) || 1 });
        reloadable = false;
        fillColumns([]);
      } else {
        summary = await loadData(bundleSource(b), b.data);
      }
      await loaded(summary, name);
    } catch (e) {
      app.setState(app.data ? "idle" : "failed");
      app.showError(e.message);
    }
  }

  /** Loads data in the worker: src is {url}, {file} or {text} (and a split). */
  async function loadData(src, name) {
    const opts = { task: app.settings.task, label: app.settings.label };
    return takeColumns(await client.request("load", Object.assign({ name, opts }, src)));
  }

  // takeColumns fills the column menus from a load's answer and returns the
  // data set's summary without them.
  function takeColumns(answer) {
    const { header: h, task, label, ...summary } = answer;
    reloadable = h.length > 0;
    header = h;
    if (task) app.settings.task = task;
    if (label) app.settings.label = label;
    columns = { task: app.settings.task, label: app.settings.label };
    fillColumns(header);
    return summary;
  }

  function fillColumns(h) {
    for (const [id, key] of [["task-col", "task"], ["label-col", "label"]]) {
      const sel = $(id);
      sel.innerHTML = "";
      for (const c of h) sel.add(new Option(c, c));
      sel.disabled = h.length === 0;
      if (h.includes(app.settings[key])) sel.value = app.settings[key];
    }
  }

  // loaded shows a newly loaded data set. The first drawing of the charts
  // costs tens of milliseconds on a slow machine, so the form and summary
  // and the charts (on "data") go in separate turns of the event loop.
  async function loaded(summary, name) {
    // Play and Step stay disabled until the charts are reset for the new data.
    app.setState("loading");
    app.settings.data = name;
    writeHash(app.settings);
    form.apply();
    app.showError("");
    const rows = summary.tasks.map((t) => t.rows);
    const pos = summary.kind === "classification" ? `, ${summary.tasks.reduce((a, t) => a + t.positives, 0)} positive (${summary.positive})` : "";
    $("summary").textContent = `${summary.name}: ${summary.tasks.length} tasks, ${summary.rows} rows (${Math.min(...rows)}–${Math.max(...rows)} per task${pos}), ${summary.features} features, ${summary.kind}${summary.fixedSplit ? "; fixed train/test split" : ""}.`;
    await yieldToPage();
    if (app.data) client.request("free", { handle: app.data.handle }).catch(() => {});
    app.data = summary;
    app.emit("data", summary);
  }

  // The preset menu: the data set with its preset settings, as a link naming it would get.
  $("preset").addEventListener("change", () => {
    const name = $("preset").value;
    Object.assign(app.settings, presetSettings(name));
    form.apply();
    loadBundle(name);
  });
  // A generated data set depends on the seed.
  $("seed").addEventListener("change", () => {
    const b = bundle(app.settings.data);
    if (b && b.generated) loadBundle(b.name);
  });

  let columnChanges = 0; // counts column menu changes; the latest one decides
  for (const [id, key] of [["task-col", "task"], ["label-col", "label"]]) {
    $(id).addEventListener("change", async () => {
      app.settings[key] = $(id).value;
      writeHash(app.settings);
      if (!reloadable) return;
      const gen = ++columnChanges;
      try {
        await loaded(takeColumns(await client.request("reload", { opts: { task: app.settings.task, label: app.settings.label } })), app.settings.data);
      } catch (e) {
        // The worker answers in order, so the latest change decides. If it
        // failed, the loaded data set is still the one parsed with the last
        // good columns: the menus say so again, the error says why.
        if (gen !== columnChanges) return;
        Object.assign(app.settings, columns);
        fillColumns(header);
        writeHash(app.settings);
        app.showError(e.message);
      }
    });
  }

  wireIntake({ drop: $("drop"), file: $("file"), pasteBtn: $("paste-btn"), pasteBox: $("paste-box"), paste: $("paste"), pasteLoad: $("paste-load") },
    async (src, name, err) => {
      if (err) { app.showError(err.message); return; }
      // A new file's columns: "task" and "y" when it has them, else its first two.
      app.settings.task = "task"; app.settings.label = "y";
      try {
        await loaded(await loadData(src, name), "custom");
      } catch (e) { app.showError(e.message); app.setState(app.data ? "idle" : "loading"); }
    });

  return { loadBundle, loadData, loaded };
}
