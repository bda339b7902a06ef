// controller.js: run control. Play, Step and Reset start, pause, step and
// clear a run in the worker, and move the page's run state (app.js
// runMoves) as the worker answers; the worker's snapshots and results go
// into the page's state (and out as app events); the status line says where the run
// is (a sequential learner: the step and the task it chose) and, at the
// end, that it is done: why it ended is said once, in plain words, by the
// run bar's outcome line (results.js plainStop); the note under it says which λ0 the automatic
// choice made and which tasks were too small to test. Before the first run
// a one-line hint says what Play will do. The settings are checked before
// a run starts: a bad one is marked at its field (as is a learner's refusal
// that names a field); any other failure is shown beside Play.
import { trainOptions, optionsKey, dataKey } from "./state.js";
import { method, bundle } from "./catalog.js";
import { checkedFields, settingProblem } from "./checks.js";
import { showSlot, fieldError, fieldOf, clearFieldErrors } from "./notices.js";
import { settingIds } from "./form.js";
import { isolated } from "./labels.js";

const $ = (id) => document.getElementById(id);

/** What an automatic λ0 chose: "λ0 auto chose λ0 = 0.4321.", or for a
 *  multiple of it "λ0 = 1.344: 8 × the automatic choice (0.1680)." (empty
 *  when the run's λ0 was a number, or before its first iteration). */
export function chosenLambda0(info, first) {
  if (!info || !info.config.selfPaced || !(info.config.autoLambda0 > 0) || !first || typeof first.lambda !== "number") return "";
  const k = info.config.autoLambda0;
  if (k === 1) return `λ0 auto chose λ0 = ${first.lambda.toPrecision(4)}.`;
  return `λ0 = ${first.lambda.toPrecision(4)}: ${k} × the automatic choice (${(first.lambda / k).toPrecision(4)}).`;
}

const words = { idle: "ready", running: "running", paused: "paused", done: "done", failed: "failed", loading: "loading data…" };

/** Wires the run controls; returns {play, step, start, requestRun, reset,
 *  pause, refused}: refused() is why the last start was refused before it
 *  reached the learner (a setting's problem), or "". */
export function wireController(app, form) {
  const client = app.client;
  // tag names the run whose events the page takes. Every start and reset
  // takes a new one, so that a snapshot still on its way from a run the
  // page has left (another data set loaded, Reset pressed) is dropped
  // instead of drawn over what came after it.
  // An event without a tag is the worker's own failure, which always counts.
  let tag = 0;
  const current = (m) => !("tag" in m) || m.tag === tag;

  // announce copies the status line into its live twin (see below).
  function announce() { $("status-live").textContent = $("status").textContent; }

  function setStatus() {
    const last = app.snapshots[app.snapshots.length - 1];
    let where;
    if (last && last.seq) {
      // A sequential learner has no pace: it learns one task per step.
      where = `step ${last.iter} of ${app.runInfo.tasks.length}: learned ${isolated(app.runInfo.tasks[last.seq.task])}`;
    } else if (last) {
      // The pace λ means something only when τ is re-weighted.
      const pace = app.runInfo.config.selfPaced ? `   λ = ${last.lambda.toPrecision(4)}` : "";
      where = `iteration ${last.iter} / ${app.runInfo.config.maxIter}${pace}`;
    } else {
      where = app.sequential() ? "step 0" : "iteration 0";
    }
    // Why a finished run ended is the outcome line's to say (one statement
    // in plain words, with the score), not the stopping rule's terms here.
    $("status").textContent = `${where}   · ${words[app.state] || app.state}`;
    showRunNote();
    showHint();
    $("play").textContent = app.state === "running" ? "❚❚ Pause" : "▶ Play";
    $("play").disabled = !app.data || app.state === "loading";
    $("step").disabled = !app.data || app.state === "running" || app.state === "done" || app.state === "loading";
  }

  // showRunNote: the λ0 an automatic setting chose (the first iteration's
  // λ), the tasks too small to test, and whether the settings shown are no
  // longer the run's.
  function showRunNote() {
    const notes = [];
    const info = app.runInfo, first = app.snapshots[0];
    const chosen = chosenLambda0(info, first);
    if (chosen) notes.push(chosen);
    if (info && info.roundedText) notes.push(`${info.roundedText}.`);
    if (info && info.untestedText) notes.push(`${info.untestedText}.`);
    // Go says when the settings leave the method nothing to share (core/app Run.IdleText).
    if (info && info.idleText) notes.push(`${info.idleText}.`);
    const idle = hardRuleIdle(info, first);
    if (idle) notes.push(idle);
    if (settingsChanged() && app.state !== "failed") {
      notes.push(app.state === "running" ? "The settings shown are not this run's: it goes on with its own; pause it, then Play trains a new run with them."
        : "The settings shown are not this run's: Play trains a new run with them.");
    }
    $("run-note").textContent = notes.join(" ");
    $("run-note").hidden = notes.length === 0;
  }

  // hardRuleIdle: under the hard τ rule a task is in while its cost is below
  // λ; a λ0 above every first cost lets every task in at once, and as λ
  // only grows the run is its baseline with τ uniform throughout. The map
  // shows that honestly (grey); this says why and what to change.
  function hardRuleIdle(info, first) {
    if (!info || !info.config.selfPaced || info.config.tau !== "hard" || !first || !first.cost || !(first.lambda > 0)) return "";
    if (!first.cost.every((c) => c < first.lambda)) return "";
    // A loop, not Math.max(...first.cost): a spread passes every task's
    // cost as an argument, and a run of many tasks has more than a call takes.
    let top = -Infinity;
    for (const c of first.cost) if (c > top) top = c;
    return `Every task's first cost (at most ${top.toPrecision(3)}) was below λ0 = ${first.lambda.toPrecision(3)}, so the hard rule let all of them in at once `
      + "and τ stays uniform: this run is its baseline. To pace the tasks, give λ0 a value among their costs.";
  }

  // showHint: before the first run, what Play will do with the loaded data.
  function showHint() {
    const hint = $("first-hint");
    const d = app.data;
    // A visitor's file whose columns are still to choose (data.js) is
    // what Play waits for, not the data set loaded before it.
    if (app.columnPrompt) {
      hint.textContent = `Choose the columns of ${app.columnPrompt} in the Data panel; then Play trains on it.`;
      hint.hidden = false;
      return;
    }
    if (app.refusedFile) {
      hint.textContent = `${app.refusedFile} is not read: correct it as the Data panel says, or choose a data set in Preset; then Play trains on it.`;
      hint.hidden = false;
      return;
    }
    // A run that failed has its reason beside Play: the hint does not
    // invite the same Play again ("Press Play to train ..." under
    // "failed").
    if (!d || app.runInfo || app.snapshots.length || app.state === "failed") { hint.hidden = true; return; }
    const n = d.tasks.length, s = n === 1 ? "" : "s";
    // "19 landmine tasks" for a bundled data set; a file's name reads
    // better after its tasks ("the 4 tasks in ward doses.csv").
    const which = bundle(app.settings.data) ? `${n} ${app.settings.data} task${s}` : `the ${n} task${s} in ${d.name}`;
    const m = method(app.settings.model);
    const what = m && m.kind === "sequential" ? `the map shows the order in which ${m.label} learns them`
      : "the map shows which tasks the learner trusts first";
    hint.textContent = `Press Play to train ${which}; ${what}.`;
    hint.hidden = false;
  }

  // runFailed shows why a run could not start or went on: at the field it
  // names (which takes the focus, as a setting refused before Play does:
  // on a phone it may be a screen away), or beside Play. A run that failed
  // at a step says so, not that it did not start.
  const learnerMarked = new Set(); // fields marked by the learner's refusal of a run
  function runFailed(e) {
    const field = fieldOf(e.message);
    const atStep = /^step: (iteration \d+): /.exec(e.message);
    if (field && settingIds.includes(field)) {
      learnerMarked.add(field);
      fieldError(field, atStep ? e.message.slice("step: ".length) : e.message);
      showSlot("run-error", atStep ? `The run stopped at ${atStep[1]}: see the marked setting.` : "The run did not start: see the marked setting.");
      $(field).focus();
    } else showSlot("run-error", e.message);
  }

  // checkSettings marks every bad setting at its field; false when any is
  // (refused then says why, for an embedding host that cannot see the field).
  let refused = "";
  function checkSettings() {
    let first = "";
    refused = "";
    for (const f of checkedFields) {
      const why = settingProblem(f, $(f).value);
      fieldError(f, why);
      if (why && !first) { first = f; refused = why; }
    }
    if (!first) return true;
    showSlot("run-error", "Fix the marked setting to train.");
    $(first).focus();
    return false;
  }

  function reset() {
    tag++; // what the run on its way still posts is not drawn
    client.request("reset").catch(() => {});
    resetViews();
  }

  // runSettings: the training options the run on screen started with
  // (without the data handle), to tell whether the form still shows them.
  let runSettings = "";

  // settingsChanged: whether a run is on screen and the form's settings are
  // not the ones it started with (Play and Step then start a new run).
  function settingsChanged() {
    if (!app.runInfo || !app.data || !runSettings || app.state === "idle") return false;
    try {
      return optionsKey(trainOptions(app.settings, app.data.handle, method(app.settings.model))) !== runSettings;
    } catch (_) { return true; } // a setting that is not a number is not the run's
  }

  // resetViews clears the run from the page: the panels' reset may lay
  // out the whole page (~0.1 s on a first run).
  // forgetRefusal: the learner's refusal of a run that is gone (not a typed
  // value the form's own checks still find wrong) goes with it; after
  // another data set it would describe data no longer loaded.
  function forgetRefusal() {
    for (const f of learnerMarked) fieldError(f, "");
    learnerMarked.clear();
    showSlot("run-error", "");
  }

  function resetViews() {
    forgetRefusal();
    app.runInfo = null; app.snapshots = []; app.results = null;
    app.move("clear");
    app.emit("reset");
    setStatus();
  }

  async function start(play) {
    form.read();
    if (!checkSettings()) return false;
    const opts = trainOptions(app.settings, app.data.handle, method(app.settings.model));
    // The worker starts first (its start ends any run it had) and trains
    // while the page clears its views; its answer and snapshots come after.
    return started(opts, play, client.request("start", { config: withVersus(opts), play, tag: ++tag }));
  }

  // withVersus adds to a run's options the setting of the ITL it is
  // compared with (app.compareITL), which is not one of the form's: the
  // ITL at a multitask model's ρ is no comparison (tune's REML ρ of 5·10⁷
  // for MMTL leaves ITL's tasks no slope), and whether the form still
  // shows the run's settings (settingsChanged) does not depend on it.
  const withVersus = (opts) => (app.compareITL && app.compareITL.data === dataKey(app.data)
    ? Object.assign({}, opts, { itlRho: app.compareITL.rho, itlIntercept: app.compareITL.intercept }) : opts);

  // started takes the run the worker was asked to start (opts, its
  // answer on its way) as the page's run.
  async function started(opts, play, starting) {
    runSettings = optionsKey(opts);
    warmed.add(warmKey(opts, app.data.kind)); // the run compiles its method
    resetViews();
    app.runInfo = await starting;
    // Started: whatever was wrong before is not any more.
    clearFieldErrors(settingIds);
    showSlot("run-error", "");
    app.emit("run", app.runInfo);
    app.move(play ? "play" : "hold");
    setStatus();
    return true;
  }

  async function play() {
    if (!app.data || app.state === "loading") { app.runPending = true; return; }
    try {
      if (app.state === "running") {
        await client.request("pause");
        app.move("pause");
      } else if (app.state === "paused" && app.runInfo && !settingsChanged()) {
        await client.request("resume");
        app.move("resume");
      } else await start(true);
    } catch (e) { runFailed(e); app.move("fail"); }
  }

  // requestRun starts a new run now, or as soon as the data is in (run=1
  // in a link).
  async function requestRun() {
    if (!app.data || app.state === "loading") { app.runPending = true; return; }
    try { await start(true); } catch (e) { runFailed(e); app.move("fail"); }
  }

  // A run waiting for its data set (run=1 in a link) is asked of the
  // worker right behind the data set's load (data.js "loadsent", with the
  // load's promise): the worker starts it the moment the data set is read,
  // so that it trains while the page shows the data set, instead of after
  // the data set's answer has crossed to the page, been shown, and a start
  // crossed back (docs/bench.md, "Fourth round"). Settings the form would
  // refuse are left to the start after the data, which marks them.
  let early = null; // {loading, opts, tag, answer}
  app.on("loadsent", (loading) => {
    early = null;
    // A run compared with an ITL of its own setting (a record's rerun)
    // starts once the data set is in, when withVersus can tell whether
    // that setting is the data set's.
    if (!app.runPending || app.compareITL) return;
    form.read();
    if (checkedFields.some((f) => settingProblem(f, $(f).value))) return;
    let opts;
    try { opts = trainOptions(app.settings, undefined, method(app.settings.model)); } catch (_) { return; }
    const answer = client.request("start", { config: withVersus(opts), play: true, tag: ++tag, onLoad: true });
    answer.catch(() => {}); // a load that fails fails it too: data.js reports the load
    early = { loading, opts, tag, answer };
  });
  // takeEarly: whether the early run (above) is the one to show on the
  // data set summary, and then takes it.
  async function takeEarly(summary) {
    const e = early;
    early = null;
    if (!e || e.tag !== tag || (await e.loading.catch(() => null)) !== summary) return false;
    try {
      await started(Object.assign({}, e.opts, { data: summary.handle }), true, e.answer);
    } catch (err) { runFailed(err); app.move("fail"); }
    return true;
  }

  async function step() {
    try {
      if (!app.runInfo || app.state === "done" || app.state === "idle" || app.state === "failed" || settingsChanged()) {
        if (!(await start(false))) return;
      }
      await client.request("step");
      app.move("stepped"); // (the last step's results have moved the run to done)
    } catch (e) {
      // A run that failed is not resumed: Play or Step starts a new one,
      // with the settings as they are then.
      runFailed(e);
      app.move("fail");
    }
  }

  client.on("error", (m) => {
    if (!current(m)) return;
    runFailed({ message: m.message });
    app.move("fail");
    app.emit("runerror", m.message);
  });
  // A learner that died (client.js) took its run with it: a run going on
  // ends failed, with what happened and that the learner was restarted.
  client.on("died", (m) => {
    if (app.state !== "running" && app.state !== "paused") return;
    runFailed({ message: m.message });
    app.move("fail");
  });
  client.on("snapshot", (m) => {
    if (!current(m)) return;
    app.snapshots.push(m.snap);
    app.emit("snapshot", m.snap, m.eval);
    setStatus();
    // An iteration that comes while the run is paused is a Step's: the
    // visitor asked for it, so where the run now is is said.
    if (app.state === "paused") announce();
  });
  // The results come once the run and its comparisons are finished.
  client.on("results", (m) => {
    if (!current(m)) return;
    app.move("finish");
    app.results = m.results;
    app.emit("results", m.results);
  });
  // Another data set is on its way: the run on the one before ends now
  // (its views are cleared), rather than training on while the new one is
  // read and then drawing over it.
  // clearedRun names the data set whose run that cleared: when the same
  // file comes back (read again for a choice in the Data panel: a column's
  // role, the rows missing a value, the features' origin), the run bar
  // says why the run is gone.
  let clearedRun = null;
  app.on("loading", () => {
    if (app.runInfo || app.snapshots.length || app.results) {
      clearedRun = app.data ? app.data.name : null;
      reset();
    } else forgetRefusal();
  });
  app.on("state", setStatus);
  // The status line changes at every iteration (a run of 1,000 iterations
  // changed it 1,000 times in under a second), so it is no live region: a
  // screen reader would be asked to read each one. Its visually hidden twin
  // is, and takes its text only when the run's state moves (started,
  // paused, a Step answered, done, failed, loading): why a run ended is
  // the outcome line's to say, and a failure the run error's (an alert).
  app.on("state", announce);
  // A newly loaded data set clears the run; a Play asked for while it
  // loaded (run=1 in the link) starts once every panel has taken the data
  // (a microtask: after this event), before the page lays them out, so
  // that the worker trains while the page draws (start clears the run).
  app.on("data", async (summary) => {
    if (app.runPending) {
      app.runPending = false;
      // start clears the views once the worker has its request; clearing
      // them here as well would lay out the page before that (~0.1 s on a
      // first run). A run still on screen from the data set before is
      // cleared now, so that a start refused for its settings leaves none.
      if (app.runInfo || app.snapshots.length || app.results) reset();
      else app.move("clear");
      await Promise.resolve();
      if (!(await takeEarly(summary))) await requestRun();
    } else {
      reset();
      if (clearedRun !== null && summary && summary.name === clearedRun) {
        $("run-outcome").textContent = `The run was cleared: ${summary.name} was read again with the Data panel's choices. Play trains on it as read now.`;
        $("run-outcome").hidden = false;
      }
      whenIdle(warmUp);
    }
    clearedRun = null;
  });

  // whenIdle runs f once the page has drawn what it was given and is idle
  // (after the next frame where requestIdleCallback is missing, as in
  // Safari). The warm-up waits for it: begun with the "data" event, it
  // took the cores from the page's first drawing of the data set, which
  // then showed ~0.25 s later (docs/architecture.md "Warming up").
  function whenIdle(f) {
    if (window.requestIdleCallback) window.requestIdleCallback(f, { timeout: 2000 });
    else requestAnimationFrame(() => setTimeout(f, 0));
  }

  // warmUp has the worker train the current settings briefly on made-up
  // data, so that the browser compiles the training code before Play
  // (worker.js warmUp): once per method (warmKey), when the data set is in
  // and when another model, loss or selection rule is chosen, while no run
  // is going (idle, or one finished). Settings that cannot train are left
  // to Play to report. A run begun before the page was idle needs no
  // warm-up for its method (start marks it), and would only wait behind it.
  const warmed = new Set();
  function warmKey(config, kind) {
    return JSON.stringify([config.model, config.selfPaced, config.loss || "", config.select || "", kind]);
  }
  function warmUp() {
    if (app.warmth === "warming" || !app.data || (app.state !== "idle" && app.state !== "done")) return;
    let config;
    try { config = trainOptions(app.settings, 0, method(app.settings.model)); } catch (_) { return; }
    const key = warmKey(config, app.data.kind);
    if (warmed.has(key)) return;
    warmed.add(key);
    app.warmth = "warming";
    client.request("warm", { config, kind: app.data.kind }).catch(() => {}).then(() => {
      app.warmth = "warm";
      app.warmedModels.push(config.model);
      whenIdle(warmUp); // a method chosen meanwhile
    });
  }

  // A field corrected by hand loses its mark at once.
  for (const f of checkedFields) {
    $(f).addEventListener("change", () => { if ($(f).getAttribute("aria-invalid") && !settingProblem(f, $(f).value)) fieldError(f, ""); });
  }
  // A changed setting may make the run on screen no longer the form's:
  // an edit, or Tune's choice (form.js says so once app.settings holds it).
  app.on("settings", showRunNote);
  $("model").addEventListener("change", showHint);
  // Another method compiles other code: warm it while the visitor looks.
  for (const id of ["model", "selfPaced", "loss", "select"]) $(id).addEventListener("change", () => whenIdle(warmUp));
  $("play").addEventListener("click", play);
  $("step").addEventListener("click", step);
  $("reset").addEventListener("click", reset);
  setStatus();
  async function pause() {
    await client.request("pause");
    app.move("pause");
  }

  return { play, step, start, requestRun, reset, pause, refused: () => refused };
}
