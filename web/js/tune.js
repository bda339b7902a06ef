// tune.js: the Tune panel. It asks the learner for the tuning grid of the
// chosen model on the loaded data (ρ, and for a self-paced model λ0 as
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
import { trainOptions, writeHash, lambda0Auto } from "./state.js";
import { method } from "./catalog.js";
import { download, toCSV, textBlob } from "./export.js";
import { showSlot } from "./notices.js";

const $ = (id) => document.getElementById(id);

const FOLDS = 3;

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
  let last = null; // {grid, scores, failures, result}

  function offer() {
    const m = method($("model").value);
    const running = state === "running";
    $("tune").disabled = running || !app.data || !m || m.fixed;
    $("tune").title = m && m.fixed ? `${m.label} keeps the authors' fixed settings: there is nothing to tune` : "";
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
    map.set(null, [], null);
    $("tune-bar").value = 0;
  }

  async function start() {
    const my = ++token;
    forget();
    if (!app.data || !app.source) throw new Error("load a data set first");
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
      const data = source.generate ? await p.client.request("generate", source.generate)
        : await p.client.request("load", Object.assign({ name: source.name, opts: source.opts }, source.src));
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

  function cancel() {
    if (state !== "running") return;
    token++;
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
      teardown();
      state = "failed";
      setStatus("failed");
      showSlot("tune-error", e.message);
      offer();
    });
  });
  $("tune-cancel").addEventListener("click", cancel);
  $("model").addEventListener("change", offer);
  // Other data: a tuning of the old data would fill the form with its
  // choice, and its map would describe data no longer loaded.
  app.on("data", () => {
    if (state === "running") cancel();
    else setStatus("");
    forget();
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
  window.spmtlApp.tune = () => ({ state, grid: last && last.grid, scores: last && last.scores, result: last && last.result, workers: last ? last.workers : 0 });
  offer();
  return { map };
}
