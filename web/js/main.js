// main.js: starts the page. It starts the learner's worker, takes the
// catalogue (built with the page, else asked of the worker once), wires
// every panel to the shared state, and follows the link in the hash (its
// data set, its settings, run=1) at start and whenever the hash is edited.
// A link's bad values are replaced by their defaults and reported in a
// note under the header (link-check.js).
import { LearnerClient, giveModule, takeModule } from "./client.js";
import { createApp } from "./app.js";
import { useCatalog, bundle } from "./catalog.js";
import { readHash, defaultDataSet, OWN_DATA } from "./state.js";
import { wireForm } from "./form.js";
import { wireController } from "./controller.js";
import { wireData } from "./data.js";
import { wireRunView } from "./run-view.js";
import { wireResults } from "./results.js";
import { wireSweep } from "./sweep.js";
import { wireDownloads } from "./downloads.js";
import { wireEmbed } from "./embed.js";
import { gateOffline } from "./offline.js";
import { wireRepro } from "./repro-panel.js";
import { wireTune } from "./tune.js";
import { wireModel } from "./model.js";
import { wireKnowledge } from "./knowledge.js";
import { checkLink } from "./link-check.js";
import { wireRecorded } from "./run-open.js";
import { wirePublished } from "./published.js";
import { spmtlUnpack } from "./unpack.js";
import { holdCharts, releaseCharts } from "./chart-kit.js";

// The offline single file and embedding hosts may provide their own worker
// factory (see web/offline). index.html starts a worker before the page
// loads, which compiles the learner for every later worker (client.js
// takeModule); the offline file's start script starts one too, from its
// factory, before the parser reaches the wasm, and hands it the wasm
// when it has (each of its workers unpacks its own).
const worker = window.SPMTL_WORKER || (window.SPMTL_MAKE_WORKER ? window.SPMTL_MAKE_WORKER()
  : new Worker(new URL("./worker.js", import.meta.url)));
const first = worker === window.SPMTL_WORKER && !window.SPMTL_OFFLINE;
if (!first) giveModule(worker);
performance.mark("spmtl:worker");
// A learner that dies is replaced by another like it (client.js).
const anotherWorker = () => {
  const w = window.SPMTL_MAKE_WORKER ? window.SPMTL_MAKE_WORKER() : new Worker(new URL("./worker.js", import.meta.url));
  giveModule(w);
  return w;
};
const app = createApp(new LearnerClient(worker, anotherWorker));
if (first) takeModule(app.client);

// showLinkNote reports a link's bad values (none: no note), and that a
// run=1 link was not played: its run would not be the one it names.
function showLinkNote(problems, played = false) {
  const note = document.getElementById("link-note");
  const text = document.getElementById("link-note-text");
  const unplayed = played ? " The link asked to train at once; it did not, as the run would not be the link's: press Play to train with what the page shows." : "";
  text.textContent = problems.length ? `This link had values the page cannot use: ${problems.join("; ")}.${unplayed}` : "";
  note.hidden = problems.length === 0;
}

async function start() {
  // The catalogue never changes for a build: ./build.sh writes the
  // worker's answer as catalog.json, which the head script fetches, so
  // the panels are wired and the data set asked for while the learner
  // compiles; without that file the worker answers it once it has started.
  // The offline file carries it packed (web/offline); one that cannot be
  // unpacked here is asked of the worker, which says what is wrong.
  const built = window.SPMTL_CATALOG ? await window.SPMTL_CATALOG
    : window.SPMTL_CATALOG_PACKED ? await spmtlUnpack(window.SPMTL_CATALOG_PACKED).then(JSON.parse, () => null) : null;
  useCatalog(built || await app.client.request("catalog"));
  performance.mark("spmtl:catalog");
  app.settings = readHash();
  const problems = checkLink(app.settings);
  document.getElementById("link-note-close").addEventListener("click", () => showLinkNote([]));
  const form = wireForm(app);
  // The form shows the link's settings before a run=1 is asked for with
  // the data set (controller.js reads them from the form).
  form.apply();
  const runs = wireController(app, form);
  const data = wireData(app, form);
  const recorded = wireRecorded(app, { form, runs, data });
  const published = wirePublished(app, { data, recorded });
  // The link's data set (readHash made it the default one when the link
  // names none or one that is not bundled), asked for before the other
  // panels are wired, so that the worker reads it meanwhile; its answer is
  // handled after this function, when every panel listens. run=1 plays as
  // soon as the data is in.
  // A link with values the page replaced is not played: its run would not
  // be the one the link names.
  // A page with a published run in it shows that run on its data instead.
  const training = !published.active && app.settings.run === "1" && problems.length === 0;
  if (published.active) published.open();
  else {
    if (training) {
      holdCharts();
      runs.requestRun();
    }
    data.loadBundle(bundle(app.settings.data) ? app.settings.data : defaultDataSet());
  }
  const { heat } = wireRunView(app, form);
  // The page has started (settle) once a link's run has drawn its first τ
  // column (the heatmap's drawing was queued by the same snapshot, before
  // this), failed, stopped or ended without one, or, when the link trains
  // nothing, once the data set is shown: then the charts held back for the
  // run (chart-kit.js holdCharts) are drawn and the page is laid out whole
  // (html.starting, style.css). A start the page refuses (a setting) is no
  // state: three seconds at most, whatever happens.
  let settled = false;
  const settle = () => {
    if (settled) return;
    settled = true;
    setTimeout(() => { document.documentElement.classList.remove("starting"); releaseCharts(); }, 0);
  };
  app.on("snapshot", settle);
  app.on("state", () => { if (["failed", "paused", "done"].includes(app.state)) settle(); });
  app.on("data", () => { if (!training) settle(); });
  setTimeout(settle, 3000);
  const { scBase, scITL } = wireResults(app);
  const sweep = wireSweep(app, form);
  wireTune(app, form);
  wireModel(app);
  wireKnowledge(app);
  wireDownloads(app, { heat, scBase, scITL, sweepObj: sweep.sweepObj, sweepRows: sweep.rows, runFile: recorded.file });
  wireEmbed(app, form, runs, data);
  const offlineProblem = gateOffline();
  if (offlineProblem) app.showError(offlineProblem);
  wireRepro(app);
  form.apply();
  showLinkNote(problems, app.settings.run === "1");
  // The heatmap orders the task names with an Intl.Collator, and the first
  // one a page makes loads the locale's collation data: ~0.1 s of this
  // thread when the first run's views were cleared (a profile of a run=1
  // link, docs/bench.md "Fourth round"). Made now, while this thread waits
  // for the learner, the data set's and the run's views do not wait for it.
  setTimeout(() => new Intl.Collator(undefined, { numeric: true }).compare("task 2", "task 10"), 0);

  // An edited hash is a new link: its settings, its data set when that
  // changed (with the data set's preset for what the link leaves out).
  // Back or Forward to the entry of a file this tab read (its SHA-256 is
  // the one the page still holds) reads that file again with the entry's
  // settings: it is no link from elsewhere.
  window.addEventListener("hashchange", () => {
    const before = app.settings.data;
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const reopen = before !== OWN_DATA && params.get("data") === OWN_DATA && data.holdsOwn(params.get("sha256"));
    const ownNow = before === OWN_DATA || reopen;
    const next = readHash(location.hash, ownNow);
    const problems = checkLink(next, location.hash, ownNow);
    showLinkNote(problems, next.run === "1");
    for (const k of Object.keys(app.settings)) delete app.settings[k];
    Object.assign(app.settings, next);
    form.apply();
    if (reopen) data.reopenOwn(Object.assign({}, next));
    else if (next.data !== before && bundle(next.data)) data.loadBundle(next.data);
    if (next.run === "1" && problems.length === 0) runs.requestRun();
  });
}

start().catch((e) => {
  app.showError(`the learner did not start: ${e.message}`);
  app.move("fail");
  document.getElementById("status").textContent = "failed";
  document.getElementById("status-live").textContent = "failed";
});
