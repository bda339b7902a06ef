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
// "this model's ρ and λ0" (the default for a bundled data set) asks the
// learner for the tuning grid of the chosen model on the loaded data (ρ, and for a self-paced model λ0 as
// multiples κ of the automatic λ0), scores every grid point by 3-fold
// cross-validation in a pool of learner workers (each reads the same data
// with the same options; the folds depend only on the data and the seed),
// draws the scores as they come, asks Go to choose, and fills the settings
// form with the winner: ρ, and λ0 as "auto" or "auto*K". Its errors show
// beside its buttons (when no point could be scored, with the first
// point's reason); its exports are enabled once a point is scored. A new
// start, refused or not, and other data clear the last grid: the map
// only ever shows the tuning the status speaks of.
import { LearnerClient, giveModule } from "./client.js";
import { TuneMap } from "./tune-map.js";
import { trainOptions, writeHash, lambda0Auto, OWN_DATA } from "./state.js";
import { method } from "./catalog.js";
import { download, toCSV, textBlob } from "./export.js";
import { showSlot } from "./notices.js";

const $ = (id) => document.getElementById(id);

const FOLDS = 3;

// The pooled metrics' names (app.TuneResult.metric).
const metricNames = { rmse: "RMSE", logloss: "log-loss", brier: "Brier", auc: "AUC" };
const metricName = (m) => metricNames[m] || String(m || "").toUpperCase();

const num = (v, digits = 4) => (typeof v === "number" && Number.isFinite(v) ? String(Number(v.toPrecision(digits))) : "n/a");

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
  let pool = [];
  let token = 0; // bumped by a new start or a cancel: older work stops
  let state = "idle"; // idle | running | done | cancelled | failed
  let last = null; // {grid, scores, failures, result}: this model's grid
  let search = null; // {id, done, total, workers, result}: every model's search
  let lastOwn = null; // whether the data that set the default scope was a visitor's file

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
    const m = method($("model").value);
    const running = state === "running";
    const all = scope() === "all";
    $("tune").disabled = running || !app.data || (!all && (!m || m.fixed));
    $("tune").title = !all && m && m.fixed ? `${m.label} keeps the authors' fixed settings: there is nothing to tune` : "";
    for (const id of ["tune-scope-all", "tune-scope-one"]) $(id).disabled = running;
    $("tune-cancel").disabled = !running;
    const scored = !!last && last.scores.some((row) => row.some((v) => v !== undefined));
    for (const id of ["tune-png", "tune-svg", "tune-csv"]) $(id).disabled = !scored;
  }

  function teardown() {
    for (const p of pool) p.client.close("tuning cancelled");
    pool = [];
  }

  function setStatus(text) { $("tune-status").textContent = text; }

  // forget drops the last tuning's grid from the map, the progress bar
  // and the exports.
  function forget() {
    last = null;
    search = null;
    map.set(null, [], null);
    $("tune-bar").value = 0;
    $("tune-found").hidden = true;
    $("tune-models").tBodies[0].replaceChildren();
    for (const id of ["tune-reason", "tune-leftout", "tune-search"]) $(id).replaceChildren();
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
    if (scope() === "all") return startAll(my);
    form.read();
    const m = method(app.settings.model);
    const selfPaced = app.settings.sp === "1" && !!(m && m.selfPaced);
    if (selfPaced && app.settings.tau === "hard") throw new Error("tuning λ0 takes multiples of the automatic λ0, which applies to the softmax τ rule: choose softmax to tune");
    // λ0 is the grid's: the automatic λ0 times κ for a self-paced model,
    // and no λ0 at all for a baseline (the number sent is not used).
    const config = trainOptions(Object.assign({}, app.settings, { lambda0: selfPaced ? "auto" : "1" }), app.data.handle, m);
    const seed = config.seed;
    const source = app.source;
    teardown();
    showSlot("tune-error", "");
    state = "running"; offer();
    const grid = await app.client.request("tuneGrid", { config });
    grid.kappa = grid.kappa || []; // a baseline's grid has no λ0
    const nk = Math.max(1, grid.kappa.length);
    const scores = grid.rho.map(() => new Array(nk).fill(undefined));
    // Why a point could not be scored (Go's reason), kept for the message
    // when none could.
    const failures = grid.rho.map(() => new Array(nk).fill(""));
    last = { grid, scores, failures, result: null, config };
    map.set(grid, scores, null);
    const jobs = [];
    for (let i = 0; i < grid.rho.length; i++) for (let j = 0; j < nk; j++) jobs.push([i, j]);
    const total = jobs.length;
    let done = 0;
    const size = Math.min(total, Math.max(2, Math.min(4, navigator.hardwareConcurrency || 2)));
    pool = Array.from({ length: size }, () => new LearnerClient(makeWorker())).map((client) => ({ client }));
    last.workers = size;
    const progress = () => {
      $("tune-bar").max = total; $("tune-bar").value = done;
      setStatus(`${done} / ${total} grid points · ${size} workers · ${FOLDS}-fold CV ${grid.metric.toUpperCase()}`);
    };
    progress();
    // Each worker reads the same data with the same options, then scores
    // grid points until there are none left.
    const work = async (p) => {
      const data = await loadInto(p.client, source);
      const cfg = Object.assign({}, config, { data: data.handle });
      while (jobs.length && my === token) {
        const [i, j] = jobs.shift();
        const v = await p.client.request("tunePoint", { config: cfg, rho: grid.rho[i], kappa: grid.kappa.length ? grid.kappa[j] : 0, folds: FOLDS, seed });
        if (my !== token) return;
        scores[i][j] = v.score; // null when the point could not be scored
        failures[i][j] = v.failure || "";
        if (done === 0) offer();
        done++;
        progress();
        map.set(grid, scores, null);
      }
    };
    await Promise.all(pool.map(work));
    if (my !== token) return;
    teardown();
    if (!scores.flat().some((v) => typeof v === "number")) {
      map.set(grid, scores, null);
      // The first point in grid order: its reason usually holds for all
      // (too few tasks or rows), and it is what the visitor can change.
      const at = failures.flat().findIndex(Boolean);
      const [i, j] = at < 0 ? [0, 0] : [Math.floor(at / nk), at % nk];
      const point = `ρ = ${grid.rho[i]}${grid.kappa.length ? `, λ0 = ${lambda0Auto(grid.kappa[j])}` : ""}`;
      throw new Error(`no grid point could be scored, so there is nothing to choose and the settings are unchanged. At ${point}: ${at < 0 ? "the learner gave no reason" : failures[i][j]}`);
    }
    // Go chooses (the first best in grid order). JSON has no NaN: a point
    // whose fits all failed is sent as null, which Go reads as the worst.
    const sent = scores.map((row) => row.map((v) => (typeof v === "number" ? v : null)));
    const result = await app.client.request("tuneChoose", { config, grid: { metric: grid.metric, rho: grid.rho, kappa: grid.kappa, scores: sent } });
    if (my !== token) return;
    last.result = result;
    map.set(grid, scores, result.best);
    // The winner fills the form (and so the link).
    app.settings.rho = String(result.config.rho);
    let chosen = `ρ = ${result.config.rho}`;
    if (selfPaced) {
      app.settings.lambda0 = lambda0Auto(result.config.autoLambda0);
      chosen += `, λ0 = ${app.settings.lambda0}`;
    }
    form.apply();
    writeHash(app.settings);
    const v = scores[result.best[0]][result.best[1]];
    state = "done";
    setStatus(`chose ${chosen} (CV ${grid.metric.toUpperCase()} ${typeof v === "number" ? v.toFixed(4) : "n/a"}); the settings now use it. Press Play to train with it.`);
    offer();
  }

  // startAll runs the model search over every model: the page's learner
  // plans it and chooses, the pool scores each batch; the results go back
  // in the batch's order.
  async function startAll(my) {
    form.read();
    // The search's own grids set ρ, κ and λ0; every candidate is tried
    // without self-pacing and with it (selfPaced false), with softmax τ.
    const config = trainOptions(Object.assign({}, app.settings, { model: "", sp: "0", tau: "softmax", lambda0: "auto", intercept: "" }), app.data.handle, null);
    const seed = config.seed;
    const source = app.source;
    teardown();
    showSlot("tune-error", "");
    state = "running"; offer();
    const size = poolSize();
    pool = Array.from({ length: size }, () => new LearnerClient(makeWorker())).map((client) => ({ client }));
    // The pool reads the data while the search is planned.
    for (const p of pool) { p.ready = loadInto(p.client, source); p.ready.catch(() => {}); }
    let step = await app.client.request("tuneStart", { config, folds: FOLDS });
    search = { id: step.id, done: step.done, total: step.total, workers: size, result: null };
    if (my !== token) { endSearch(); return; }
    const progress = (done) => {
      search.done = done;
      $("tune-bar").max = Math.max(1, step.total); $("tune-bar").value = Math.min(done, step.total);
      setStatus(`${done} / ${step.total} points · ${size} workers · ${FOLDS}-fold CV, every model`);
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
          const r = await p.client.request("tuneScore", { data: data.handle, folds: FOLDS, seed, config: batch[i] });
          if (my !== token) return;
          results[i] = r;
          scored++;
          progress(from + scored);
        }
      }));
      if (my !== token) return;
      step = await app.client.request("tuneFeed", { search: step.id, results });
      if (my !== token) return;
      search.total = step.total;
      progress(step.done);
    }
    teardown();
    const result = step.result;
    search.result = result;
    $("tune-bar").value = $("tune-bar").max;
    showFound(result);
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
    setStatus(`chose ${ms.name} with ${chosen} (CV ${metricName(result.metric)} ${num(sc.value)} ± ${num(sc.se, 2)}); the settings now use it. Press Play to train with it.`);
    offer();
    performance.mark("spmtl:tune-done"); // ./build.sh bench: the result is shown
  }

  // showFound fills the table of candidate models, the reason for the
  // choice and the notes on the models left out.
  function showFound(result) {
    const body = $("tune-models").tBodies[0];
    body.replaceChildren();
    $("tune-models-metric").textContent = `best CV ${metricName(result.metric)} ± SE`;
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
      cell(ok ? `${num(ms.best.value)} ± ${num(ms.best.se, 2)}` : notTried ? "not tried" : "failed", "num score");
      cell(ok ? num(cfg.rho) : "—", "num");
      cell(ok ? num(cfg.intercept || 0) : "—", "num");
      cell(ok && ms.selfPaced ? lambda0Auto(cfg.autoLambda0 || 1) : "—", "num");
      cell(ms.failed ? `${ms.points} (${ms.failed} failed)` : String(ms.points), "num");
      cell(notTried ? ms.failure.replace(/^not tried: /, "") : ms.failure || "", "note");
      body.append(tr);
    });
    $("tune-reason").textContent = result.reason || "";
    $("tune-leftout").replaceChildren(...(result.leftOut || []).map((t) => {
      const li = document.createElement("li");
      li.textContent = `Left out: ${t}`;
      return li;
    }));
    $("tune-search").textContent = result.search ? `Searched: ${result.search}` : "";
    $("tune-found").hidden = false;
  }

  function cancel() {
    if (state !== "running") return;
    token++;
    endSearch();
    teardown();
    state = "cancelled";
    setStatus(`${$("tune-status").textContent} · cancelled`);
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
  $("tune-cancel").addEventListener("click", cancel);
  $("model").addEventListener("change", offer);
  for (const id of ["tune-scope-all", "tune-scope-one"]) $(id).addEventListener("change", () => { showScope(); offer(); });
  // Other data: a tuning of the old data would fill the form with its
  // choice, and its map would describe data no longer loaded. A visitor's
  // file is tuned over every model by default, a bundled data set (the
  // paper's model) over this model's ρ and λ0: the default follows the
  // kind of data, and a choice stays while the kind does.
  app.on("data", () => {
    if (state === "running") cancel();
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
  offer();
  return { map };
}
