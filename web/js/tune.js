// tune.js: the Tune panel, in two scopes (the radio group "Tune"):
//
// "every model" runs the model search (docs/algorithms.md §14): the page's
// learner (app.client) holds the search (tuneStart with no model), a pool
// of learner workers (each with the same data) scores each batch of
// configurations (tuneScore), and the page feeds the results back in batch
// order (tuneFeed) until the search gives its result: a table of the
// candidate models (best pooled CV score ± SE, the chosen ρ, κ and λ0, or
// why one failed or was not tried), the reason for the choice, and the
// chosen configuration copied into the settings (model, self-paced, ρ, κ,
// λ0). Cancel ends the search (tuneEnd). It is the default for a
// visitor's own file.
//
// "this model's ρ and λ0" (the default for a bundled data set) runs the
// same search restricted to the chosen model (spmtl tune -model): ρ and κ
// for a baseline, then λ0 as multiples of the automatic λ0 for a
// self-paced model; the map draws the chosen model's own points (ρ at its
// κ, or the multiples of λ0 at its ρ), and the winner fills the settings
// form: ρ, κ, and λ0 as "auto" or "auto*K". A λ0 grid whose every
// multiple ties with the best (Go's ModelScore.flat) is said to be flat,
// in the status, under the table and on the map. Errors show beside the
// buttons (when no point could be scored, with the first point's reason);
// the exports are enabled once a point is scored. A new start, refused or
// not, and other data clear the last results: the map only ever shows the
// tuning the status speaks of.
import { LearnerClient, giveModule } from "./client.js";
import { TuneMap } from "./tune-map.js";
import { trainOptions, writeHash, lambda0Auto, OWN_DATA, originWords, dataKey } from "./state.js";
import { method, metricName, newTaskModels, tuneFolds } from "./catalog.js";
import { download, toCSV, textBlob } from "./export.js";
import { showSlot } from "./notices.js";

const $ = (id) => document.getElementById(id);

// The pooled metrics' names (app.TuneResult.metric).

// A setting or an SE to digits significant digits; beyond 10⁵ or below
// 10⁻³ in e-notation (κ 1.155e8, not 115500000; ρ 1.778e-6, not
// 0.000001778), which a reader can count.
const num = (v, digits = 4) => {
  if (typeof v !== "number" || !Number.isFinite(v)) return "n/a";
  const r = Number(v.toPrecision(digits)), a = Math.abs(r);
  return a !== 0 && (a >= 1e5 || a < 1e-3) ? r.toExponential().replace("e+", "e") : String(r);
};
// A score keeps its four significant digits with their zeros (0.05340,
// not 0.0534), as Go's reason sentence writes it beside the table.
const score4 = (v) => (typeof v === "number" && Number.isFinite(v) ? v.toPrecision(4) : "n/a");
// A standard error to two significant digits with their zeros (± 0.020,
// not ± 0.02, which reads as known to one), in e-notation where num uses it.
const se2 = (v) => {
  if (typeof v !== "number" || !Number.isFinite(v)) return "n/a";
  const a = Math.abs(Number(v.toPrecision(2)));
  return a !== 0 && (a >= 1e5 || a < 1e-3) ? v.toExponential(1).replace("e+", "e") : v.toPrecision(2);
};

// Milliseconds as a reader counts them: "4 s", "2 min 05 s".
const elapsedWords = (ms) => {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
};

/** The pool's size: 2 to 4 workers. */
const poolSize = () => Math.max(2, Math.min(4, navigator.hardwareConcurrency || 2));

const makeWorker = () => {
  if (window.SPMTL_MAKE_WORKER) return window.SPMTL_MAKE_WORKER();
  const w = new Worker(new URL("./worker.js", import.meta.url));
  giveModule(w);
  return w;
};

/** Wires the Tune panel; returns {map}. */
export function wireTune(app, form) {
  const map = new TuneMap($("tune-map"));
  const named = newTaskModels();
  if (named) $("tune-new-models").textContent = named;
  // The menu of folds and the one it starts at are the catalogue's (Go's
  // app.TuneFoldChoices and DefaultTuneFolds, the command line's default).
  const folds = tuneFolds();
  $("tune-folds").replaceChildren(...folds.choices.map((k) => new Option(String(k), String(k), k === folds.default, k === folds.default)));
  let pool = [];
  let token = 0; // bumped by a new start or a cancel: older work stops
  let state = "idle"; // idle | running | done | cancelled | failed
  let last = null; // {grid, scores, failures, result}: this model's grid
  let search = null; // {id, done, total, workers, result}: every model's search
  let lastOwn = null; // whether the data that set the default scope was a visitor's file
  let searchedName = null; // the data set the last search began on

  const scope = () => ($("tune-scope-all").checked ? "all" : "one");
  function setScope(v) {
    $("tune-scope-all").checked = v === "all";
    $("tune-scope-one").checked = v !== "all";
    showScope();
  }
  // showScope shows this model's heatmap only when tuning this model.
  function showScope() {
    const was = $("tune-grid-box").hidden;
    $("tune-grid-box").hidden = scope() === "all";
    if (was && !$("tune-grid-box").hidden) map.draw();
  }

  function offer() {
    const had = document.activeElement;
    const m = method($("model").value);
    const running = state === "running";
    const all = scope() === "all";
    $("tune").disabled = running || !app.data || (!all && (!m || m.fixed));
    $("tune").title = !all && m && m.fixed ? `${m.label} keeps the authors' fixed settings: there is nothing to tune` : "";
    for (const id of ["tune-scope-all", "tune-scope-one", "tune-new-tasks", "tune-folds"]) $(id).disabled = running;
    $("tune-cancel").disabled = !running;
    const scored = !!last && last.scores.some((row) => row.some((v) => v !== undefined));
    for (const id of ["tune-png", "tune-svg", "tune-csv"]) $(id).disabled = !scored;
    // A focused button that disables itself drops the keyboard's focus to
    // the page's body: Tune hands it to Cancel while the search runs, and
    // Cancel back to Tune when the search ends.
    if (had === $("tune") && $("tune").disabled && !$("tune-cancel").disabled) $("tune-cancel").focus();
    else if (had === $("tune-cancel") && $("tune-cancel").disabled && !$("tune").disabled) $("tune").focus();
  }

  function teardown() {
    for (const p of pool) p.client.close("tuning cancelled");
    pool = [];
  }

  // setStatus writes the status line, a live region; busy (a search's
  // progress, one line per point scored) holds it from screen readers
  // until the search says how it ended.
  function setStatus(text, busy = false) {
    $("tune-status").setAttribute("aria-busy", String(busy));
    $("tune-status").textContent = text;
  }

  // forget drops the last tuning's grid from the map, the progress bar
  // and the exports.
  function forget() {
    last = null;
    search = null;
    app.tuned = null;
    map.set(null, [], null);
    $("tune-bar").value = 0;
    $("tune-found").hidden = true;
    $("tune-models").tBodies[0].replaceChildren();
    for (const id of ["tune-reason", "tune-leftout", "tune-search", "tune-origin"]) $(id).replaceChildren();
  }

  // endSearch forgets the search the page's learner holds (a cancelled or
  // failed one); a finished search is forgotten by Go itself.
  function endSearch() {
    if (search && search.id && !search.result) app.client.request("tuneEnd", { search: search.id }).catch(() => {});
  }

  // loadInto has a pool worker read the loaded data set as the page's
  // learner did (the same source and options).
  const loadInto = (client, source) => (source.generate ? client.request("generate", source.generate)
    : client.request("load", Object.assign({ name: source.name, opts: source.opts }, source.src)));

  async function start() {
    const my = ++token;
    forget();
    if (!app.data || !app.source) throw new Error("load a data set first");
    searchedName = app.data.name;
    if (scope() === "all") return startAll(my);
    form.read();
    const m = method(app.settings.model);
    const selfPaced = app.settings.sp === "1" && !!(m && m.selfPaced);
    if (selfPaced && app.settings.tau === "hard") throw new Error("tuning λ0 takes multiples of the automatic λ0, which applies to the softmax τ rule: choose softmax to tune");
    // The search's own grids set ρ, κ and λ0 (as multiples of the
    // automatic λ0 for a self-paced model): the same search as every
    // model's, restricted to this one (spmtl tune -model).
    const config = trainOptions(Object.assign({}, app.settings, { lambda0: selfPaced ? "auto" : "1", intercept: "" }), app.data.handle, m);
    let result;
    try {
      result = await runSearch(my, config, m ? m.label : app.settings.model);
    } catch (e) {
      // A search refused before any point leaves the map empty.
      if (my === token && search && search.tried.length) drawTried(search.tried, selfPaced);
      throw e;
    }
    if (!result) return;
    const ms = result.models[result.chosen];
    // The chosen model's own points, for the map: ρ at its chosen κ (a
    // baseline), or the multiples of λ0 at its ρ (a self-paced model).
    const grid = { rho: result.rho, kappa: result.kappa || [], metric: result.metric };
    const scores = result.scores.map((row) => row.map((v) => (typeof v === "number" ? v : undefined)));
    last = { grid, scores, failures: [], result: { best: result.best, config: result.config }, config, workers: search.workers };
    const sc = ms.score && typeof ms.score.value === "number" ? ms.score : ms.best;
    const cfg = result.config;
    // The map is the search's last stage: said, since the status names a
    // ρ (and κ) the map shows no search for.
    // … and, for a search for new tasks, what its scores are of.
    const stage = [selfPaced ? `λ0 at the ρ${cfg.intercept ? " and κ" : ""} chosen first` : grid.rho.length > 1 && cfg.intercept ? "ρ at the κ chosen" : "",
      result.newTasks ? "scored on new tasks" : ""].filter(Boolean).join("; ");
    map.set(grid, scores, result.best, { se: sc.se, flat: !!ms.flat, stage });
    app.settings.rho = String(cfg.rho);
    app.settings.intercept = cfg.intercept ? String(cfg.intercept) : "";
    let chosen = `ρ = ${num(cfg.rho)}`;
    if (cfg.intercept) chosen += `, κ = ${num(cfg.intercept)}`;
    if (selfPaced) {
      app.settings.lambda0 = lambda0Auto(cfg.autoLambda0 || 1);
      chosen += `, λ0 = ${app.settings.lambda0}`;
    }
    form.apply();
    writeHash(app.settings);
    state = "done";
    // A flat λ0 grid says λ0's value does not matter; only a tie with the
    // baseline too (Go's baselineTies) says pacing itself does not.
    const flat = !ms.flat ? "" : ms.baselineTies ? " Every λ0 tied, and so did the model without self-pacing: self-pacing makes no difference here (below)."
      : " Every λ0 tied: the pace's strength makes no difference here (below).";
    setStatus(`chose ${chosen} (CV ${metricName(result.metric)} ${score4(sc.value)} ± ${se2(sc.se)}); the settings now use it.${flat}${movedText(result)} Press Play to train with it.`);
    offer();
  }

  // drawTried draws the points a search of this model tried (for one whose
  // every point failed: the map then shows what failed): ρ down, and for a
  // self-paced model the multiples of λ0 across.
  function drawTried(all, selfPaced) {
    // The self-paced stage's points when it ran, else the baseline's.
    const sp = selfPaced && all.some((p) => p.config.selfPaced);
    const tried = all.filter((p) => !!p.config.selfPaced === sp);
    selfPaced = sp;
    const rho = [...new Set(tried.map((p) => p.config.rho))].sort((a, b) => a - b);
    const kappa = selfPaced ? [...new Set(tried.map((p) => p.config.autoLambda0))].filter((k) => k > 0).sort((a, b) => a - b) : [];
    const grid = { rho, kappa, metric: "rmse" };
    const scores = rho.map(() => new Array(Math.max(1, kappa.length)).fill(undefined));
    for (const p of tried) {
      const i = rho.indexOf(p.config.rho), j = kappa.length ? kappa.indexOf(p.config.autoLambda0) : 0;
      if (i >= 0 && j >= 0) scores[i][j] = typeof p.score === "number" && Number.isFinite(p.score) ? p.score : null;
    }
    last = { grid, scores, failures: [], result: null, workers: search ? search.workers : 0 };
    map.set(grid, scores, null);
  }

  // runSearch runs a model search (tuneStart with config; no model: every
  // model): the page's learner plans it and chooses, the pool scores each
  // batch, and the results go back in the batch's order. It returns the
  // search's result, or null when it was cancelled or superseded; a search
  // whose every point failed is an error with the first point's reason.
  async function runSearch(my, config, label) {
    const seed = config.seed;
    const source = app.source;
    // For tasks the file does not hold: each fold holds out whole tasks
    // (Go's TuneOptions.NewTasks), in the plan and in every worker's folds.
    const newTasks = $("tune-new-tasks").checked;
    // The folds the visitor chose (the menu starts at the catalogue's
    // default, the command line's); a file of pairs needs 2.
    const folds = Number($("tune-folds").value);
    teardown();
    showSlot("tune-error", "");
    state = "running"; offer();
    const size = poolSize();
    pool = Array.from({ length: size }, () => new LearnerClient(makeWorker())).map((client) => ({ client }));
    // The pool reads the data while the search is planned.
    for (const p of pool) { p.ready = loadInto(p.client, source); p.ready.catch(() => {}); }
    // A search refused before it starts (tasks too small for the folds)
    // tried nothing: no search's points to draw.
    search = null;
    let step;
    try {
      step = await app.client.request("tuneStart", { config, folds, newTasks });
    } catch (e) {
      teardown();
      throw e;
    }
    // tried keeps every point scored, {config, score} (score null where it
    // failed), so that a search none of whose points scored can still be
    // drawn.
    search = { id: step.id, done: step.done, total: step.total, workers: size, result: null, tried: [] };
    if (my !== token) { endSearch(); return null; }
    if (step.origin) movedOrigin(step.origin);
    // The total is Go's plan (app.TuneSearch.plan), an estimate: a grid
    // extended past an edge raises it, a stage with less to do lowers it,
    // so the status says "about"; within a batch the count never passes it.
    // The time so far, as the command line's progress says it: a large
    // file's search takes minutes, and the count alone does not say how
    // fast it goes (the self-paced points, last, cost the most).
    const began = performance.now();
    const progress = (done) => {
      search.done = done;
      const total = Math.max(step.total, done);
      $("tune-bar").max = Math.max(1, total); $("tune-bar").value = done;
      setStatus(`${done} of about ${total} points after ${elapsedWords(performance.now() - began)} · ${size} workers · ${folds}-fold CV${newTasks ? " of whole tasks" : ""}, ${label}`, true);
    };
    progress(step.done);
    while (!step.result) {
      const batch = step.batch;
      const results = new Array(batch.length);
      let next = 0, scored = 0;
      const from = step.done;
      await Promise.all(pool.map(async (p) => {
        const data = await p.ready;
        while (next < batch.length && my === token) {
          const i = next++;
          const r = await p.client.request("tuneScore", { data: data.handle, folds, seed, newTasks, config: batch[i] });
          if (my !== token) return;
          results[i] = r;
          search.tried.push({ config: batch[i], score: r.failure ? null : r.scores[{ rmse: 0, logloss: 3, brier: 6, auc: 9 }[r.metric] ?? 0] });
          scored++;
          progress(from + scored);
        }
      }));
      if (my !== token) return null;
      step = await app.client.request("tuneFeed", { search: step.id, results });
      if (my !== token) return null;
      search.total = step.total;
      progress(step.done);
    }
    teardown();
    search.result = step.result;
    app.tuned = step.result;
    // Runs on this data set are compared with ITL at the setting this
    // search chose for it, not at their own model's ρ.
    const itl = (step.result.models || []).find((m) => m.key === "itl" && !m.selfPaced && !m.failure && m.config && m.config.rho > 0);
    app.compareITL = itl ? { rho: itl.config.rho, intercept: itl.config.intercept || 0, data: dataKey(app.data) } : null;
    $("tune-bar").value = $("tune-bar").max;
    showFound(step.result);
    return step.result;
  }

  // movedText is the status's sentence on a moved origin (showFound says why).
  const movedText = (result) => (!result.origin ? ""
    : result.origin.includes("=") ? ` The origin of ${originWords(result.origin)} (below).`.replace(" = ", " was moved to ")
      : ` The numeric features' origin was moved to ${originWords(result.origin)} (below).`);

  // movedOrigin: the search moved the loaded data set's features' origin
  // (along one feature, or toward their means) before scoring anything (Go's TuneSearch.Origin). The pool read
  // it as it was, so each worker reads it again so, and frees the copy
  // read before (a large file would otherwise sit twice in its memory).
  function movedOrigin(origin) {
    app.originMoved(origin); // data.js: the file's choice, app.source, the link
    for (const p of pool) {
      p.ready = p.ready.catch(() => null).then((old) => {
        if (old && old.handle) p.client.request("free", { handle: old.handle }).catch(() => {});
        return loadInto(p.client, app.source);
      });
      p.ready.catch(() => {});
    }
  }

  // startAll runs the model search over every model and copies the
  // chosen model and its setting into the settings.
  async function startAll(my) {
    form.read();
    // The search's own grids set ρ, κ and λ0; every candidate is tried
    // without self-pacing and with it (selfPaced false), with softmax τ.
    const config = trainOptions(Object.assign({}, app.settings, { model: "", sp: "0", tau: "softmax", lambda0: "auto", intercept: "" }), app.data.handle, null);
    const result = await runSearch(my, config, "every model");
    if (!result) return;
    const ms = result.models[result.chosen];
    const cfg = ms.config;
    // The choice fills the form (and so the link).
    app.settings.model = ms.key;
    app.settings.sp = ms.selfPaced ? "1" : "0";
    app.settings.rho = String(cfg.rho);
    app.settings.intercept = String(cfg.intercept || 0);
    let chosen = `ρ = ${num(cfg.rho)}, κ = ${num(cfg.intercept || 0)}`;
    if (ms.selfPaced) {
      app.settings.lambda0 = lambda0Auto(cfg.autoLambda0 || 1);
      app.settings.tau = "softmax";
      chosen += `, λ0 = ${app.settings.lambda0}`;
    }
    form.apply();
    writeHash(app.settings);
    state = "done";
    const sc = ms.score && typeof ms.score.value === "number" ? ms.score : ms.best;
    // The CV score pools every held-out row; Results' mean is over tasks,
    // each alike: with tasks of few rows the two differ (grouseticks: 6.1
    // against 2.9), which the status says rather than leave as a puzzle.
    const over = result.newTasks ? "pooled over every row of the tasks held out, each predicted as a new task" : "pooled over every held-out row, where Results averages over tasks";
    setStatus(`chose ${ms.name} with ${chosen} (CV ${metricName(result.metric)} ${num(sc.value)} ± ${se2(sc.se)}, ${over}); the settings now use it.${movedText(result)} Press Play to train with it.`);
    offer();
    performance.mark("spmtl:tune-done"); // ./build.sh bench: the result is shown
  }

  // showFound fills the table of candidate models, the reason for the
  // choice and the notes on the models left out.
  function showFound(result) {
    const body = $("tune-models").tBodies[0];
    body.replaceChildren();
    $("tune-models-metric").textContent = `CV ${metricName(result.metric)} ± SE at its setting`;
    // One model tuned alone is no choice among candidates.
    // A search for new tasks scored whole tasks held out: said where the
    // scores are, in words that fit a phone's width.
    const by = result.newTasks ? "scored on new tasks" : "by cross-validation";
    $("tune-models-caption").textContent = result.models.length === 1 ? `${result.models[0].name} ${by}` : `Candidate models ${by}`;
    const notes = [];
    result.models.forEach((ms, i) => {
      const tr = document.createElement("tr");
      const chosen = i === result.chosen;
      const ok = !!ms.best && typeof ms.best.value === "number";
      const notTried = !ok && /^not tried/.test(ms.failure || "");
      tr.dataset.key = ms.key;
      tr.dataset.selfPaced = ms.selfPaced ? "1" : "0";
      tr.dataset.outcome = ok ? "scored" : notTried ? "not-tried" : "failed";
      if (chosen) tr.className = "chosen";
      const th = document.createElement("th");
      th.scope = "row";
      th.textContent = ms.name;
      if (chosen) {
        const mark = document.createElement("span");
        mark.className = "chosen-mark";
        mark.textContent = " ✓ chosen";
        th.append(mark);
      }
      tr.append(th);
      const cell = (text, cls) => {
        const td = document.createElement("td");
        td.textContent = text;
        if (cls) td.className = cls;
        tr.append(td);
      };
      const cfg = ms.config || {};
      // The score of the setting shown (the one-SE rule's choice, which
      // the reason sentence quotes), not the model's best point.
      const sc = ok && ms.score && typeof ms.score.value === "number" ? ms.score : ms.best;
      cell(ok ? `${score4(sc.value)} ± ${se2(sc.se)}` : notTried ? "not tried" : "failed", "num score");
      cell(ok ? num(cfg.rho) : "—", "num");
      cell(ok ? num(cfg.intercept || 0) : "—", "num");
      cell(ok && ms.selfPaced ? lambda0Auto(cfg.autoLambda0 || 1) : "—", "num");
      cell(ms.failed ? `${ms.points} (${ms.failed} failed)` : String(ms.points), "num");
      // A long reason goes below the table, where it can wrap.
      if (notTried) notes.push(`${ms.name} was not tried: ${ms.failure.replace(/^not tried: /, "")}`);
      if (ms.flat) notes.push(`${ms.name}: ${ms.flat}.`);
      // Go's words on the points that failed beside others that scored (app.ModelScore.FailedNote).
      if (ok && ms.failedNote) notes.push(`${ms.name}: ${ms.failedNote}.`);
      // … and when its chosen setting's fits stopped at the iteration cap (app.ModelScore.CappedNote).
      if (ok && ms.cappedNote) notes.push(`${ms.name}: ${ms.cappedNote}.`);
      // Go's words for a setting chosen otherwise than by the one-SE rule
      // (REML) go below the table, where they wrap; in its narrow note
      // column they made the row a dozen lines tall on a phone.
      const how = ms.settingNote ? `${ms.setting === "reml" ? "REML estimate" : "see"} (below)` : "";
      if (ms.settingNote) notes.push(`${ms.name}: ${ms.settingNote}.`);
      cell(notTried ? "baseline behind (below)" : ms.failure || (ms.flat ? `flat in λ0${ms.baselineTies ? ": self-pacing makes no difference" : ""} (below)` : how), "note");
      body.append(tr);
    });
    $("tune-reason").textContent = result.reason || "";
    $("tune-leftout").replaceChildren(...(result.leftOut || []).map((t) => `Left out: ${t}`).concat(notes).map((t) => {
      const li = document.createElement("li");
      li.textContent = t;
      return li;
    }));
    // Go's words, which the command line prints with its flags' names
    // (rho, lambda0): in the symbols of the rest of the page.
    $("tune-search").textContent = result.search ? `Searched: ${result.search.replace(/\blambda0\b/g, "λ0").replace(/\brho\b/g, "ρ")}` : "";
    // Go's words on why the features' origin moved (app.TuneResult.OriginNote).
    $("tune-origin").textContent = result.originNote ? `${result.originNote[0].toUpperCase()}${result.originNote.slice(1)}.` : "";
    $("tune-origin").hidden = !result.originNote;
    $("tune-found").hidden = false;
  }

  // cancel ends a running search; why, when given, says what ended it.
  function cancel(why) {
    if (state !== "running") return;
    token++;
    endSearch();
    teardown();
    state = "cancelled";
    setStatus(`${$("tune-status").textContent} · cancelled${why ? `: ${why}` : ""}`);
    offer();
  }

  $("tune").addEventListener("click", () => {
    const my = token + 1; // start's token
    start().catch((e) => {
      if (token !== my) return; // cancelled (or superseded): the pool's requests were dropped
      token++;
      endSearch();
      teardown();
      state = "failed";
      setStatus("failed");
      showSlot("tune-error", e.message);
      offer();
    });
  });
  // Not the handler itself: the click's event would be read as why.
  $("tune-cancel").addEventListener("click", () => cancel());
  $("model").addEventListener("change", offer);
  for (const id of ["tune-scope-all", "tune-scope-one"]) $(id).addEventListener("change", () => { showScope(); offer(); });
  // Other data: a tuning of the old data would fill the form with its
  // choice, and its map would describe data no longer loaded. A visitor's
  // file is tuned over every model by default, a bundled data set (the
  // paper's model) over this model's ρ and λ0: the default follows the
  // kind of data, and a choice stays while the kind does.
  app.on("data", (summary) => {
    if (state === "running") cancel(summary && summary.name === searchedName ? `${summary.name} was read again (the Data panel's choices); Tune searches it as read now` : "other data was loaded");
    else setStatus("");
    forget();
    const own = app.settings.data === OWN_DATA;
    if (own !== lastOwn) { lastOwn = own; setScope(own ? "all" : "one"); }
    offer();
  });
  app.on("state", offer);
  $("tune-svg").addEventListener("click", () => download("spmtl-tune.svg", textBlob(map.svg(), "image/svg+xml")));
  $("tune-csv").addEventListener("click", () => {
    if (!last) return;
    const { grid, scores } = last, nk = Math.max(1, grid.kappa.length);
    const rows = [["rho", "lambda0_multiple_of_auto", `cv_${grid.metric}`, "chosen"]];
    grid.rho.forEach((rho, i) => { for (let j = 0; j < nk; j++) rows.push([rho, grid.kappa.length ? grid.kappa[j] : "", scores[i][j] ?? "", last.result && last.result.best[0] === i && last.result.best[1] === j ? "yes" : ""]); });
    download("spmtl-tune.csv", textBlob(toCSV(rows), "text/csv"));
  });
  window.addEventListener("resize", () => map.draw());
  window.spmtlApp.tune = () => ({
    state, scope: scope(), grid: last && last.grid, scores: last && last.scores, result: last && last.result,
    workers: last ? last.workers : search ? search.workers : 0,
    search: search && { done: search.done, total: search.total, result: search.result },
  });
  window.spmtlApp.metricNames = () => Object.fromEntries(["rmse", "auc", "logloss", "brier"].map((m) => [m, metricName(m)]));
  offer();
  return { map };
}
