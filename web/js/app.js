// app.js: the page's shared state (settings, the loaded data set, the run
// and what it reported), the events the panels follow, the top error
// banner (for errors that belong to no panel: see notices.js), and the
// window.spmtlApp read-outs the browser tests use.
//
// Events: "loading" (another data set is on its way), "data" (a data set
// was loaded), "reset" (no run), "run" (a run started: its info),
// "snapshot" (snap, eval), "results" (results), "runerror" (the run failed:
// its message), "state" (the run's state changed: see runMoves), "model"
// (the current model changed: the finished run's, a loaded one, or none),
// "settings" (the Model panel's settings were edited, or set by a link,
// Tune or a reopened run: form.js), "prompt" (a visitor's file waits for
// its task and label columns: its name; data.js).
// Only the current run's snapshots, results and failure become events
// (controller.js). A learner that dies is replaced and given the data set
// again (client.recover, below).

import { visibleErrors } from "./notices.js";

const $ = (id) => document.getElementById(id);

/** The page's one state machine for a run: its states (loading, idle,
 *  running, paused, done, failed) and the moves between them, each with the
 *  states it leaves from ("*": any) and the state it goes to. app.move is
 *  the only way the state changes; the worker trains and reports, and keeps
 *  no state of a run. A move the current state does not list changes
 *  nothing: a pause answered after the run finished, a start answered once
 *  another data set began loading. */
const runMoves = {
  load: { from: "*", to: "loading" }, // another data set is on its way (data.js)
  loadFailed: { from: ["loading"], to: (app) => (app.data ? "idle" : "failed") }, // it was refused
  clear: { from: "*", to: (app) => (app.data ? "idle" : "loading") }, // no run on screen
  play: { from: ["idle"], to: "running" }, // started by Play
  hold: { from: ["idle"], to: "paused" }, // started by Step
  pause: { from: ["running"], to: "paused" },
  resume: { from: ["paused"], to: "running" },
  stepped: { from: ["running", "paused"], to: "paused" }, // a Step answered
  finish: { from: ["running", "paused"], to: "done" }, // the results are in
  fail: { from: "*", to: "failed" },
  recorded: { from: "*", to: "done" }, // a recorded run shown whole, without training (run-open.js)
};

/** Creates the page's state around a LearnerClient. */
export function createApp(client) {
  const listeners = new Map();
  const marked = new Set();
  let state = "loading";
  const app = {
    client,
    settings: {},
    data: null, // summary of the loaded data set
    runInfo: null, // the worker's answer to "start": train's info plus {comparisons}
    /** The run's state (runMoves); read-only: app.move changes it. */
    get state() { return state; },
    runPending: false, // Play was asked for before the data arrived (run=1 in a link)
    // The setting {rho, intercept, data} of the ITL a run on the data set
    // data (state.js dataKey) is compared with: the one tune chose for ITL
    // there (tune.js), or a record's (run-open.js); null, or other data:
    // ITL at the run's own ρ and κ.
    compareITL: null,
    snapshots: [],
    results: null,
    // The model that Save, Predict and the shared-knowledge view use:
    // {handle, from: "run" | "file", name, method, kind, tasks, features, info}
    // (the finished run's, or one loaded from a file), or null.
    model: null,
    // The last model search's result on the loaded data set (tune.js),
    // or null: a model file saved from a run carries it when it chose
    // the run's settings (Go checks that: session.ExportModel).
    tuned: null,
    // The worker's warm-up (controller.js warmUp): null (not asked), "warming", "warm".
    warmth: null,
    warmedModels: [], // the models warmed up so far, in order
    /** Makes m the current model (null: none). */
    setModel(m) { app.model = m; app.emit("model", m); },
    on(event, fn) {
      if (!listeners.has(event)) listeners.set(event, []);
      listeners.get(event).push(fn);
    },
    emit(event, ...args) {
      for (const fn of listeners.get(event) || []) fn(...args);
      // The first data set, snapshot and results on screen: marks that
      // ./build.sh bench reads (performance.getEntriesByType("mark")).
      if (!marked.has(event)) { marked.add(event); performance.mark(`spmtl:${event}`); }
    },
    /** Makes the move named (runMoves) from the current state, if it
     *  leaves from there, and tells the "state" listeners. */
    move(name) {
      const m = runMoves[name];
      if (!m) throw new Error(`no run move ${name}`);
      if (m.from !== "*" && !m.from.includes(state)) return;
      state = typeof m.to === "function" ? m.to(app) : m.to;
      app.emit("state", state);
    },
    /** Shows msg in the error box (an empty msg hides it). */
    showError(msg) {
      const el = $("error");
      el.textContent = msg || "";
      el.hidden = !msg;
    },
    /** Whether the run is a sequential learner's (one task per step, no τ). */
    sequential() { return !!app.runInfo && app.runInfo.kind === "sequential"; },
  };
  // A learner that died was replaced (client.js): the new one reads the
  // data set the page had, from the same source with the same column
  // choices (app.source, set by data.js), and the page's summary takes its
  // handle. A model in the dead learner's memory is gone with it.
  client.recover = async () => {
    const d = app.data, src = app.source;
    if (app.model) app.setModel(null);
    if (!d || !src) return "";
    const again = src.generate ? await client.request("generate", src.generate)
      : await client.request("load", Object.assign({ name: src.name, opts: src.opts }, src.src));
    if (app.data === d) d.handle = again.handle;
    return `your data (${d.name}) is loaded again`;
  };
  window.spmtlApp = {
    state: () => app.state,
    // τ per iteration; a sequential run's steps as the one-hot of the task learned.
    tauHistory: () => app.snapshots.map((s) => (s.seq ? app.runInfo.tasks.map((_, t) => (t === s.seq.task ? 1 : 0)) : Array.from(s.tau))),
    snapshots: () => app.snapshots,
    results: () => app.results,
    summary: () => app.data,
    runInfo: () => app.runInfo,
    // The page's error: the top banner's, or else the data panel's refusal.
    error: () => (!$("error").hidden ? $("error").textContent : $("data-error").hidden ? "" : $("data-error").textContent),
    model: () => app.model,
    warmth: () => app.warmth,
    warmedModels: () => app.warmedModels.slice(),
    // Every error shown now, by where it is: {element id: text}.
    errors: () => visibleErrors(),
    // How many times a learner that died was replaced (client.js).
    restarts: () => client.restarts,
    // How many workers never started and were replaced (client.js START_WAIT).
    unstarted: () => client.unstarted,
    // Whether the learner's WebAssembly kernels loaded (api.js
    // spmtlKernelImports): "loaded with SIMD", "loaded without SIMD (why)",
    // "failed: why", or "" before its start.
    kernels: () => client.request("kernels"),
  };
  return app;
}
