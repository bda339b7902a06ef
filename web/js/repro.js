// repro.js: the "Reproduce" view. It reruns the paper's protocol (the same
// code as `spmtl reproduce`) in a pool of workers, one run of one data set
// per job, and fills the table as runs finish. The table's rows are the
// catalogue's (its rows for the chosen variant), the data files are the
// catalogue's bundles, and every cell, partial or final, is Go's summary of
// the runs so far (mean, se, the paired t-test). A cancelled reproduction
// keeps only the columns whose runs had all finished: the others are
// emptied and marked "cancelled", never left as numbers that look current.
// A new reproduction shows its own (empty) columns the moment it starts,
// never the last table's, and its clock runs from then until it ends: a
// data set's first run can take a minute, and a table and a clock that
// stand still meanwhile read as a hang. The exports are enabled only while
// there is a finished column to export; the Markdown keeps the units shown
// on screen.
import { LearnerClient } from "./client.js";
import { download, toCSV, textBlob, escapeXML } from "./export.js";
import { bundle, tableRows } from "./catalog.js";
import { fileSource } from "./sources.js";

/** The worker's "source" message for a bundle with files, or null for a generated one. */
function reproSource(b) {
  if (!b || b.generated) return null;
  const data = fileSource(b.data), split = b.splits ? fileSource(b.splits) : null;
  return { name: b.name, packed: data.packed, url: data.url, splitPacked: split ? split.packed : undefined, splitURL: split ? split.url : undefined };
}

// fmt writes a score scaled by k with two decimals ("–" when there is none).
const fmt = (v, k) => (v === null || v === undefined || !Number.isFinite(v) ? "–" : (v * k).toFixed(2));

export class Reproduction {
  /** els: the view's controls; makeWorker() starts one reproduction worker. */
  constructor(els, makeWorker) {
    this.els = els;
    this.makeWorker = makeWorker;
    this.pool = [];
    this.state = "idle";
    this.partial = {}; // dataset → run → results
    this.cells = {}; // dataset → Go's cells of the runs so far
    this.final = {}; // dataset → cells of all runs
    // dataset → its metric, once Go has summarized a run of it: a later
    // reproduction's column has its unit before its first run is in.
    this.metrics = {};
    this.opts = null;
    this.t0 = 0; // when the reproduction started (performance.now())
    this.clock = 0; // the interval that shows the elapsed time
    els.start.addEventListener("click", () => this.start().catch((e) => this.fail(e)));
    els.cancel.addEventListener("click", () => this.cancel());
    els.exportCSV.addEventListener("click", () => this.exportCSV());
    els.exportJSON.addEventListener("click", () => this.exportJSON());
    els.exportMD.addEventListener("click", () => download("spmtl-table.md", textBlob(this.markdown(), "text/markdown")));
    this.render();
    this.offerExports();
  }

  fail(e) {
    if (this.state !== "running") return; // cancelled: the pool's requests were dropped
    this.state = "failed";
    this.els.status.textContent = `failed: ${e.message}`;
    this.els.onError(e.message);
    this.teardown();
    this.dropPartial();
  }

  teardown() {
    clearInterval(this.clock);
    this.clock = 0;
    this.els.clock.textContent = "";
    for (const p of this.pool) p.client.close("the reproduction was cancelled");
    this.pool = [];
    this.els.start.disabled = false; this.els.cancel.disabled = true;
    this.offerExports();
  }

  /** Enables the exports when there is a finished column to export. */
  offerExports() {
    const none = Object.keys(this.final).length === 0 || this.state === "running";
    for (const b of [this.els.exportCSV, this.els.exportJSON, this.els.exportMD]) b.disabled = none;
  }

  // dropPartial empties the columns whose runs had not all finished.
  dropPartial() {
    for (const d of Object.keys(this.cells)) if (!this.final[d]) delete this.cells[d];
    this.partial = Object.fromEntries(Object.entries(this.partial).filter(([d]) => this.final[d]));
    this.render();
  }

  cancel() {
    if (this.state !== "running") return;
    this.state = "cancelled";
    const took = this.elapsed();
    this.teardown();
    this.dropPartial();
    const kept = Object.keys(this.final);
    this.els.status.textContent += ` · cancelled after ${took} s: ${kept.length ? `kept the finished column${kept.length > 1 ? "s" : ""} ${kept.join(", ")}; ` : ""}the unfinished ones were cleared`;
  }

  /** The seconds since the start, as shown. */
  elapsed() { return ((performance.now() - this.t0) / 1000).toFixed(1); }

  /** The method rows of the table being run (or about to be). */
  methods() { return tableRows(this.opts ? this.opts.variant : this.els.variant.value).map((r) => r.name); }

  async start() {
    const datasets = this.els.datasets().filter(Boolean);
    if (!datasets.length) { this.els.onError("Choose at least one data set to reproduce."); return; }
    const quick = this.els.quick.checked;
    const runs = Number(this.els.runs.value);
    if (!Number.isInteger(runs) || runs < 1 || runs > 50) { this.els.onError(`The number of runs must be a whole number from 1 to 50, not "${this.els.runs.value}".`); return; }
    this.opts = { datasets, runs, quick, folds: 3, variant: this.els.variant.value };
    this.partial = {}; this.cells = {}; this.final = {};
    this.state = "running";
    this.els.onError("");
    this.els.start.disabled = true; this.els.cancel.disabled = false;
    this.offerExports();
    this.render(); // the new columns, empty, before any worker starts
    this.t0 = performance.now();
    // The status (a live region) changes when a run finishes; the clock,
    // beside it and not announced, every tenth of a second.
    const tick = () => { this.els.clock.textContent = `· ${this.elapsed()} s`; };
    tick();
    this.clock = setInterval(tick, 100);
    const size = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 4));
    this.pool = Array.from({ length: size }, () => ({ worker: null, client: null, sources: new Set() }));
    for (const p of this.pool) { p.worker = this.makeWorker(); p.client = new LearnerClient(p.worker); }
    // Each worker reads the files itself (from a URL, or the offline page's copy).
    const sources = Object.fromEntries(datasets.map((d) => [d, reproSource(bundle(d))]));
    // The longest runs first (longest-processing-time scheduling): a sparse
    // data set's run takes many times another's (sentiment: 117 s of the
    // 171 s native table), so its runs start on every worker at once
    // instead of keeping one worker busy after the others have finished.
    const heavy = (d) => (bundle(d) && /\.svm$/.test(bundle(d).data || "") ? 1 : 0);
    const order = datasets.slice().sort((a, b) => heavy(b) - heavy(a));
    const jobs = [];
    for (const d of order) for (let r = 1; r <= runs; r++) jobs.push({ d, r });
    const total = jobs.length;
    let done = 0;
    this.progress(0, total);
    const base = { folds: 3, quick, variant: this.opts.variant, table: "paper" };
    const workerLoop = async (p) => {
      while (jobs.length && this.state === "running") {
        const { d, r } = jobs.shift();
        if (sources[d] && !p.sources.has(d)) {
          await p.client.request("source", sources[d]);
          p.sources.add(d);
        }
        const res = await p.client.request("run", { opts: Object.assign({ dataset: d, run: r }, base) });
        if (this.state !== "running") return;
        (this.partial[d] ||= {})[r] = res.results;
        done++;
        this.progress(done, total);
        // Go summarizes the runs in so far (this worker has the data set).
        const have = Object.keys(this.partial[d]).map(Number).sort((a, b) => a - b);
        const cells = await p.client.request("summarize", { opts: Object.assign({ dataset: d, runs: have.map((k) => this.partial[d][k]) }, base) });
        if (this.state !== "running") return;
        if (Object.keys(this.partial[d]).length > have.length) continue; // a later summary is on its way
        this.cells[d] = cells;
        if (cells.length) this.metrics[d] = cells[0].metric;
        if (have.length === runs) this.final[d] = cells;
        this.render();
      }
    };
    await Promise.all(this.pool.map(workerLoop));
    if (this.state === "running") {
      this.state = "done";
      this.els.status.textContent += ` · done in ${this.elapsed()} s`;
      this.teardown();
    }
    this.offerExports();
  }

  progress(done, total) {
    this.els.bar.max = total; this.els.bar.value = done;
    this.els.status.textContent = `${done} / ${total} runs · ${this.pool.length} workers`;
  }

  /** The cell of a method and data set (final when all runs are in), or null. */
  cell(d, m) {
    const c = (this.cells[d] || []).find((x) => x.method === m);
    return c ? Object.assign({ final: !!this.final[d], n: c.scores.length }, c) : null;
  }

  /** The metric of a data set's column, once Go has summarized a run of it
   *  (in this reproduction or an earlier one). */
  metricOf(d) { const c = (this.cells[d] || [])[0]; return c ? c.metric : this.metrics[d] || ""; }
  scaleOf(d) { return this.metricOf(d) === "auc" ? 100 : 1; }

  /** A column's header: the data set and its unit, as the numbers under it are written. */
  head(d) { const m = this.metricOf(d); return m ? `${d} (${m.toUpperCase()}${m === "auc" ? " ×100" : ""})` : d; }

  /** The mark of a final cell: * better than its baseline, † worse. */
  mark(c) { return c.final && c.better ? " *" : c.final && c.worse ? " †" : ""; }

  render() {
    const ds = this.opts ? this.opts.datasets : [];
    let html = `<table><thead><tr><th>method</th>${ds.map((d) => `<th>${escapeXML(this.head(d))}</th>`).join("")}</tr></thead><tbody>`;
    for (const m of this.methods()) {
      html += `<tr><td>${escapeXML(m)}</td>`;
      for (const d of ds) {
        const c = this.cell(d, m), k = this.scaleOf(d);
        if (!c) { html += this.state === "cancelled" || this.state === "failed" ? `<td class="partial">${this.state}</td>` : "<td>…</td>"; continue; }
        const cls = c.final ? "" : ` class="partial" title="${c.n} of ${this.opts.runs} runs"`;
        html += `<td${cls} data-method="${escapeXML(m)}" data-dataset="${escapeXML(d)}">${fmt(c.mean, k)} (${fmt(c.se, k)})${this.mark(c)}</td>`;
      }
      html += "</tr>";
    }
    this.els.table.innerHTML = html + "</tbody></table>";
  }

  rows() {
    const rows = [["method", "dataset", "metric", "mean", "se", "std", "p", "better", "worse", "scores"]];
    for (const d of Object.keys(this.final)) for (const c of this.final[d]) rows.push([c.method, d, c.metric, c.mean, c.se, c.std, c.p, c.better, c.worse, c.scores.join(" ")]);
    return rows;
  }
  exportCSV() { download("spmtl-table.csv", textBlob(toCSV(this.rows()), "text/csv")); }
  exportJSON() { download("spmtl-table.json", textBlob(JSON.stringify({ options: this.opts, cells: this.final, partial: this.partial }, null, 1), "application/json")); }
  markdown() {
    const ds = Object.keys(this.final);
    // The units as on screen: landmine's "73.58" is AUC ×100.
    let md = `| method | ${ds.map((d) => this.head(d)).join(" | ")} |\n|---|${ds.map(() => "---|").join("")}\n`;
    for (const m of this.methods()) {
      md += `| ${m} | ${ds.map((d) => { const c = this.cell(d, m), k = this.scaleOf(d); return c ? `${fmt(c.mean, k)} (${fmt(c.se, k)})${this.mark(c)}` : ""; }).join(" | ")} |\n`;
    }
    return md;
  }
}
