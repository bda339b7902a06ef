// repro.js: the "Reproduce" view. It reruns the paper's protocol (the same
// code as `spmtl reproduce`) in a pool of workers, one run of one data set
// per job, fills the table as runs finish, and joins each data set's runs in
// Go for the final mean (se) and t-test.
import { LearnerClient } from "./client.js";
import { download, toCSV, textBlob } from "./export.js";

const METHODS = ["STL", "ITL", "MMTL", "spMMTL", "MTFL", "spMTFL", "MTASO", "spMTASO"];
const FILES = {
  landmine: ["data.csv"], school: ["data.csv", "splits.csv"], cs: ["data.csv"], sentiment: ["data.svm"],
};

export class Reproduction {
  /** dataSource(d, file) says where a bundled file is: {url} or {text}. */
  constructor(els, makeWorker, dataSource) {
    this.els = els;
    this.makeWorker = makeWorker;
    this.dataSource = dataSource;
    this.pool = [];
    this.state = "idle";
    this.partial = {}; // dataset → run → results
    this.final = {}; // dataset → cells
    this.opts = null;
    els.start.addEventListener("click", () => this.start().catch((e) => this.fail(e)));
    els.cancel.addEventListener("click", () => this.cancel());
    els.exportCSV.addEventListener("click", () => this.exportCSV());
    els.exportJSON.addEventListener("click", () => this.exportJSON());
    els.exportMD.addEventListener("click", () => download("spmtl-table.md", textBlob(this.markdown(), "text/markdown")));
    this.render();
  }

  fail(e) { this.state = "failed"; this.els.status.textContent = `failed: ${e.message}`; this.els.onError(e.message); this.teardown(); }

  teardown() { for (const w of this.pool) w.worker.terminate(); this.pool = []; this.els.start.disabled = false; this.els.cancel.disabled = true; }

  cancel() {
    if (this.state !== "running") return;
    this.state = "cancelled";
    this.teardown();
    this.els.status.textContent += " · cancelled";
  }

  async start() {
    const datasets = this.els.datasets().filter(Boolean);
    if (!datasets.length) throw new Error("choose at least one data set");
    const quick = this.els.quick.checked;
    const runs = Math.max(1, Math.floor(Number(this.els.runs.value) || (quick ? 3 : 10)));
    this.opts = { datasets, runs, quick, folds: 3, variant: this.els.variant.value };
    this.partial = {}; this.final = {};
    this.state = "running";
    this.els.start.disabled = true; this.els.cancel.disabled = false;
    const size = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, 4));
    this.pool = Array.from({ length: size }, () => ({ worker: null, client: null, sources: new Set() }));
    for (const p of this.pool) { p.worker = this.makeWorker(); p.client = new LearnerClient(p.worker); }
    // Each worker reads the files itself (from a URL, or the offline page's copy).
    const sources = {};
    for (const d of datasets) {
      if (!FILES[d]) continue;
      const [data, split] = FILES[d].map((f) => this.dataSource(d, f));
      sources[d] = { name: d, text: data.text, url: data.url, split: split ? split.text : "", splitURL: split ? split.url : undefined };
    }
    const jobs = [];
    for (const d of datasets) for (let r = 1; r <= runs; r++) jobs.push({ d, r });
    const total = jobs.length;
    let done = 0;
    const t0 = performance.now();
    this.progress(0, total, t0);
    const base = { folds: 3, quick, variant: this.opts.variant };
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
        this.progress(done, total, t0);
        if (Object.keys(this.partial[d]).length === runs) {
          const ordered = Array.from({ length: runs }, (_, k) => this.partial[d][k + 1]);
          this.final[d] = await p.client.request("summarize", { opts: Object.assign({ dataset: d, runs: ordered }, base) });
        }
        this.render();
      }
    };
    await Promise.all(this.pool.map(workerLoop));
    if (this.state === "running") {
      this.state = "done";
      this.els.status.textContent += " · done";
      this.teardown();
    }
  }

  progress(done, total, t0) {
    this.els.bar.max = total; this.els.bar.value = done;
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    this.els.status.textContent = `${done} / ${total} runs · ${s} s · ${this.pool.length} workers`;
  }

  /** The cell of a method and data set: final when all runs are in, else partial. */
  cell(d, m) {
    if (this.final[d]) return Object.assign({ final: true }, this.final[d].find((c) => c.method === m));
    const runs = Object.values(this.partial[d] || {});
    const scores = runs.map((rr) => rr.find((x) => x.method === m)).filter((x) => x && x.score !== null).map((x) => x.score);
    if (!scores.length) return null;
    const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
    const sd = scores.length > 1 ? Math.sqrt(scores.reduce((a, b) => a + (b - mean) ** 2, 0) / (scores.length - 1)) : NaN;
    return { final: false, mean, se: sd / Math.sqrt(scores.length), n: scores.length, metric: "" };
  }

  metricOf(d) { return d === "landmine" || d === "sentiment" ? "auc" : "rmse"; }

  render() {
    const ds = this.opts ? this.opts.datasets : [];
    const fmt = (v, k) => (v === null || v === undefined || !Number.isFinite(v) ? "–" : (v * k).toFixed(2));
    let html = `<table><thead><tr><th>method</th>${ds.map((d) => `<th>${d} (${this.metricOf(d).toUpperCase()}${this.metricOf(d) === "auc" ? " ×100" : ""})</th>`).join("")}</tr></thead><tbody>`;
    for (const m of METHODS) {
      html += `<tr><td>${m}</td>`;
      for (const d of ds) {
        const c = this.cell(d, m), k = this.metricOf(d) === "auc" ? 100 : 1;
        if (!c) { html += "<td>…</td>"; continue; }
        const mark = c.final && c.better ? " *" : "";
        const cls = c.final ? "" : ` class="partial" title="${c.n} of ${this.opts.runs} runs"`;
        html += `<td${cls} data-method="${m}" data-dataset="${d}">${fmt(c.mean, k)} (${fmt(c.se, k)})${mark}</td>`;
      }
      html += "</tr>";
    }
    this.els.table.innerHTML = html + "</tbody></table>";
  }

  rows() {
    const rows = [["method", "dataset", "metric", "mean", "se", "std", "p", "better", "scores"]];
    for (const d of Object.keys(this.final)) for (const c of this.final[d]) rows.push([c.method, d, c.metric, c.mean, c.se, c.std, c.p, c.better, c.scores.join(" ")]);
    return rows;
  }
  exportCSV() { download("spmtl-table.csv", textBlob(toCSV(this.rows()), "text/csv")); }
  exportJSON() { download("spmtl-table.json", textBlob(JSON.stringify({ options: this.opts, cells: this.final, partial: this.partial }, null, 1), "application/json")); }
  markdown() {
    const ds = Object.keys(this.final);
    let md = `| method | ${ds.join(" | ")} |\n|---|${ds.map(() => "---|").join("")}\n`;
    for (const m of METHODS) {
      md += `| ${m} | ${ds.map((d) => { const c = this.cell(d, m), k = this.metricOf(d) === "auc" ? 100 : 1; return c ? `${(c.mean * k).toFixed(2)} (${(c.se * k).toFixed(2)})${c.better ? " *" : ""}` : ""; }).join(" | ")} |\n`;
    }
    return md;
  }
}
