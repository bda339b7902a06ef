// heatmap.js: the tasks × steps heatmap on a canvas. A self-paced run shows
// each task's weight relative to uniform, T·τ, on the fixed diverging
// scale of tau-scale.js (1 = uniform is neutral; "stretch" narrows it to the
// run); a sequential run (CL, ELLA) the task learned at each step and the
// ones learned before it. Rows are at least 4 px high: with many tasks the
// map scrolls inside its panel and only the visible rows are drawn (the
// canvas is the viewport, sticky in a scrolling box, over a spacer as tall
// as every row); "fit" shows every row in the panel, averaging groups of
// tasks when there are more tasks than pixels. The pointer and the arrow
// keys (on the focused scroll box) read a cell out: the task, its rows,
// the iteration, τ, T·τ and the cost; the row read out is outlined and its
// label drawn at it, so that each label is read against its own row. A
// notch left of a row marks a small task (fewer than SMALL_TASK rows),
// whose weight rests on few rows. It also renders itself as SVG, with the
// fixed scale and the same colours as Go's figure.Heatmap.
import { escapeXML as esc, clipText } from "./export.js";
import { labeler, visibleNames, isolated } from "./labels.js";
import { drawSoon, wrapText } from "./chart-kit.js";
import { TauScale, relEnds, relRange } from "./tau-scale.js";

// Viridis, sampled at nine stops: the sequential view's three states.
const STOPS = [[68, 1, 84], [71, 44, 122], [59, 81, 139], [44, 113, 142], [33, 144, 141],
  [39, 173, 129], [92, 200, 99], [170, 220, 50], [253, 231, 37]];

/** Returns the viridis colour of t in [0, 1] as [r, g, b]. */
export function viridis(t) {
  t = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0));
  const x = t * (STOPS.length - 1);
  const i = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - i;
  return STOPS[i].map((a, k) => Math.round(a + f * (STOPS[i + 1][k] - a)));
}

// A sequential run's cells: the task learned at this step, one learned
// before, one not learned yet.
const LEARNED_NOW = 1, LEARNED_BEFORE = 0.45, NOT_YET = 0;
export const SEQUENTIAL_KEY = [[LEARNED_NOW, "learned at this step"], [LEARNED_BEFORE, "learned before"], [NOT_YET, "not yet learned"]];

/** A task of fewer rows than this is small: its scores and its weight rest on few rows. */
export const SMALL_TASK = 10;

/** The rows of each of the named tasks in the loaded data set (its
 *  summary's tasks), 0 where a name is not found. */
export function taskRows(data, names) {
  const by = new Map(((data && data.tasks) || []).map((t) => [t.name, t.rows]));
  return names.map((n) => by.get(n) || 0);
}

/** "2 rows (a small task)", "103 rows", or "" when unknown; inside
 *  brackets (nested) the mark reads "2 rows, a small task". */
export function rowsText(n, nested = false) {
  if (!(n > 0)) return "";
  const small = n < SMALL_TASK ? (nested ? ", a small task" : " (a small task)") : "";
  return `${n.toLocaleString("en-US")} row${n === 1 ? "" : "s"}${small}`;
}

const MIN_ROW = 4; // px: the shortest row drawn for one task
const UNIFORM = 1e-9; // a column whose T·τ spans less than this is uniform
// A run whose every T·τ lies within a factor NEAR of 1 kept τ near uniform:
// its cells lie within about a tenth of the scale's half-width of grey.
const NEAR = 1.25;
// Two T·τ this close (relative) are the same weight: the tasks that share
// the run's largest or smallest weight are named together.
const same = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
// "a", "a and b", "a, b and c".
const andList = (xs) => (xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);
const TOP = 8, BOTTOM = 30, RIGHT = 10;
// ends returns the n of tasks 0..T-1 that come first by before(a, b)
// ("a comes before b"; a task before another it does not beat keeps its
// place), in that order, in one pass.
function ends(T, n, before) {
  const out = [];
  for (let t = 0; t < T; t++) {
    let i = out.length;
    while (i > 0 && before(t, out[i - 1])) i--;
    if (i < n) { out.splice(i, 0, t); if (out.length > n) out.pop(); }
  }
  return out;
}

// Up to this many tasks the map measures every row label for its margin
// (2,000 labels: tens of ms); past it the margin is the labels' bound.
const MEASURED_LABELS = 2000;
const rgbText = ([r, g, b]) => `rgb(${r},${g},${b})`;
const num = (v, p = 4) => (Number.isFinite(v) ? v.toPrecision(p) : "n/a");
// The task names' order ("task 2" before "task 10"), made once: a new
// Intl.Collator cost 0.1-0.3 ms on every draw.
let collator = null;
const byName = () => collator || (collator = new Intl.Collator(undefined, { numeric: true }));

// focusFromKeyboard tells whether el was focused by the keyboard (or a
// script) rather than by a pointer; a browser without :focus-visible
// counts as the keyboard, as before.
function focusFromKeyboard(el) {
  try { return el.matches(":focus-visible"); } catch { return true; }
}

/** The columns whose step is written under a map of K columns colW px
 *  wide: one every gap px or more, and always the last, for which the one
 *  before it gives way when they would be closer than gap (at 650
 *  iterations "640" and "650" ran into "6450"). */
export function axisColumns(K, colW, gap) {
  const every = Math.max(1, Math.ceil(gap / colW)), ks = [];
  for (let k = 0; k < K; k += every) ks.push(k);
  if (K && ks[ks.length - 1] !== K - 1) {
    if ((K - 1 - ks[ks.length - 1]) * colW < gap) ks.pop();
    ks.push(K - 1);
  }
  return ks;
}

/** The run's heatmap. els: {wrap, canvas, spacer, tooltip, readout}; spec: the catalogue's tauScale. */
export class Heatmap {
  constructor(els, spec) {
    Object.assign(this, els);
    this.leads = true; // drawn while the other charts are held (chart-kit.js holdCharts)
    this.fixed = new TauScale(spec);
    this.tasks = [];
    this.kind = "parallel";
    this.selfPaced = true;
    this.history = []; // snapshots
    this.entered = []; // per task, when the learner let it in (evaluate's enteredAt; 0: not yet)
    this.rows = []; // per task, its rows in the data (0: unknown)
    this.hoverRow = -1; // the drawn row under the pointer
    this.order = "name";
    this.zoom = "auto"; // auto (≥ 4 px a row, scrolling) | fit | a row height in px
    this.stretch = false;
    this.runLo = Infinity; this.runHi = -Infinity; // T·τ over the run
    this.loAt = null; this.hiAt = null; // where the run had them first: {k, tasks}
    this.uniformFrom = -1; // the first column of the run's uniform end (-1: its last column is not uniform)
    this.described = null; // describe()'s text for {K, tasks}
    this.layout = null;
    this.cursor = null; // the keyboard's cell {r, k}
    this.tipAt = null; // where the canvas was when the tooltip was placed
    this.onChange = null; // called after each draw (aria-label, legend)
    const c = this.canvas;
    c.addEventListener("mousemove", (e) => this.hover(e));
    c.addEventListener("mouseleave", () => { this.tooltip.hidden = true; this.setHover(-1); });
    this.wrap.addEventListener("scroll", () => {
      if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.draw(); });
    });
    this.wrap.addEventListener("keydown", (e) => this.key(e));
    // A click or a tap reads out the cell under it, as the keys do (a
    // touch screen has no hover). The same press focuses the scroll box:
    // that focus must not read out the first row's last iteration, where
    // only the keyboard starts (Tab gives :focus-visible, a pointer not).
    c.addEventListener("click", (e) => { const cell = this.cellAt(e); if (cell) this.moveTo(cell.r, cell.k); });
    this.wrap.addEventListener("focus", () => {
      if (this.history.length && !this.cursor && focusFromKeyboard(this.wrap)) this.moveTo(0, this.history.length - 1);
    });
    this.wrap.addEventListener("blur", () => { this.tooltip.hidden = true; this.cursor = null; this.draw(); });
    // The tooltip is fixed to the viewport, placed for where its cell was:
    // a scroll of the page or of the map's box leaves it over whatever
    // comes there, so it goes. Not when nothing moved since it was placed,
    // as after moveTo's own scrolling of the box to the keyboard's cell.
    // (Capture: an element's scroll event does not bubble.)
    window.addEventListener("scroll", () => { if (!this.tooltip.hidden && this.tipAt && !this.tipStill()) this.tooltip.hidden = true; },
      { capture: true, passive: true });
  }

  // tipStill tells whether the map is where it was when the tooltip was placed.
  tipStill() {
    const r = this.canvas.getBoundingClientRect(), a = this.tipAt;
    return r.left === a.left && r.top === a.top && this.wrap.scrollTop === a.scroll;
  }

  /** Clears the map for a run over tasks; kind is "parallel" or "sequential". */
  // emptyText is drawn inside the map while it has no column (run-view.js).
  reset(tasks, kind = "parallel", selfPaced = true, rows = []) {
    Object.assign(this, { tasks, kind, selfPaced, rows, history: [], entered: [], cursor: null, runLo: Infinity, runHi: -Infinity,
      loAt: null, hiAt: null, uniformFrom: -1, described: null, hoverRow: -1 });
    this.wrap.scrollTop = 0;
    drawSoon(this);
  }

  /** Adds a snapshot and the run's enteredAt after it. */
  push(snap, enteredAt) {
    this.history.push(snap);
    if (enteredAt) this.entered = enteredAt;
    if (!snap.seq) this.track(snap, this.history.length - 1);
    drawSoon(this);
  }

  // track adds column k to what the legend and the text alternative tell
  // of the whole run: its smallest and largest T·τ, the first column with
  // each and the tasks with it there, and where its uniform end begins.
  track(snap, k) {
    const T = this.tasks.length;
    let lo = Infinity, hi = -Infinity;
    for (const v of snap.tau) { const r = T * v; if (r < lo) lo = r; if (r > hi) hi = r; }
    const at = (v) => { const ts = []; for (let t = 0; t < T; t++) if (same(T * snap.tau[t], v)) ts.push(t); return { k, tasks: ts }; };
    if (!this.loAt || (lo < this.runLo && !same(lo, this.runLo))) this.loAt = at(lo);
    if (!this.hiAt || (hi > this.runHi && !same(hi, this.runHi))) this.hiAt = at(hi);
    this.runLo = Math.min(this.runLo, lo); this.runHi = Math.max(this.runHi, hi);
    if (hi - lo >= UNIFORM) this.uniformFrom = -1;
    else if (this.uniformFrom < 0) this.uniformFrom = k;
  }

  setOrder(order) { this.order = order; drawSoon(this); }
  setZoom(zoom) { this.zoom = zoom; this.wrap.scrollTop = 0; drawSoon(this); }
  setStretch(on) { this.stretch = on; drawSoon(this); }
  get sequential() { return this.kind === "sequential"; }
  get stepWord() { return this.sequential ? "step" : "iteration"; }

  /** The scale the canvas uses: fixed, or stretched to this run. */
  get scale() {
    return this.stretch && this.runHi >= this.runLo ? this.fixed.stretchTo(this.runLo, this.runHi) : this.fixed;
  }

  /** The colour the canvas gives T·τ = rel ("#rrggbb"). */
  colourOf(rel) { return this.scale.colour(rel); }

  /** When the learner let task t in (1-based), or Infinity. */
  enteredAt(t) { return this.entered[t] > 0 ? this.entered[t] : Infinity; }

  // rowOrder gives the tasks in the order of the map's rows. It is kept
  // until the tasks, the order or (ordered by entry) the entries change:
  // sorting 50,000 names with the collator on every draw took a few
  // hundred ms each time. Callers read it and do not change it.
  rowOrder() {
    const c = this.orderKept;
    if (c && c.tasks === this.tasks && c.order === this.order && (this.order !== "easy" || c.entered === this.entered)) return c.idx;
    const idx = this.sortedRows();
    this.orderKept = { tasks: this.tasks, order: this.order, entered: this.entered, idx };
    return idx;
  }

  sortedRows() {
    const idx = this.tasks.map((_, i) => i);
    if (this.order === "easy") {
      const at = idx.map((t) => this.enteredAt(t));
      idx.sort((a, b) => at[a] - at[b] || this.tasks[a].localeCompare(this.tasks[b]));
    } else {
      const coll = byName();
      idx.sort((a, b) => coll.compare(this.tasks[a], this.tasks[b]));
    }
    return idx;
  }

  /** Whether task t is small (fewer than SMALL_TASK rows). */
  small(t) { return this.rows[t] > 0 && this.rows[t] < SMALL_TASK; }

  /** T·τ of task t in snapshot s. */
  rel(s, t) { return this.tasks.length * s.tau[t]; }

  /** The value of a sequential cell (a viridis position). */
  seqValue(s, t) {
    if (s.seq.task === t) return LEARNED_NOW;
    return s.seq.order.includes(t) ? LEARNED_BEFORE : NOT_YET;
  }

  /** The colour of drawn row r (tasks order[a..b)) in snapshot s. */
  cellRGB(s, a, b, order, scale) {
    if (s.seq) return viridis(this.seqValue(s, order[a]));
    if (b - a === 1) return scale.rgb(this.rel(s, order[a]));
    let sum = 0; // a group: the geometric mean of its T·τ
    for (let i = a; i < b; i++) sum += Math.log2(Math.max(this.rel(s, order[i]), 1e-300));
    return scale.rgb(2 ** (sum / (b - a)));
  }

  /** The rows' geometry for a canvas width w: label column, row height,
   *  tasks per drawn row, and how far the rows scroll. */
  geometry(w) {
    const T = this.tasks.length;
    const baseH = document.body.classList.contains("embed") ? 240 : w < 500 ? 300 : 380;
    const ph = baseH - TOP - BOTTOM;
    let rowH, group = 1;
    if (this.zoom === "fit") {
      if (T > ph) group = Math.ceil(T / ph);
      rowH = ph / Math.max(1, Math.ceil(T / group));
    } else {
      const want = this.zoom === "auto" ? MIN_ROW : Number(this.zoom) || MIN_ROW;
      rowH = Math.max(want, ph / Math.max(T, 1));
    }
    const rows = Math.ceil(T / group);
    return { baseH, ph, rowH, group, drawnRows: rows, content: rows * rowH };
  }

  // rowLabels gives each task's label at most maxW px wide, at(task),
  // made when a row is drawn (cached: the names change only with the run),
  // and widest, the widest label, which sets the left margin. Up to
  // MEASURED_LABELS tasks every label is measured for it; past that the
  // margin is maxW, which no label exceeds, so that a run of 50,000 tasks
  // measures only the labels in view (measuring all of them stalled the
  // page for seconds). The labels are measured in the map's 11px font,
  // which the canvas has whenever draw asks for one.
  rowLabels(g, maxW) {
    if (!this.labels || this.labels.maxW !== maxW || this.labels.tasks !== this.tasks) {
      const measure = (t) => g.measureText(t).width;
      // Labels of the names as shown: a bidi control escaped, not obeyed.
      const at = labeler(visibleNames(this.tasks), maxW, measure);
      let widest = 30;
      if (this.tasks.length > MEASURED_LABELS) widest = maxW;
      else for (let i = 0; i < this.tasks.length; i++) widest = Math.max(widest, measure(at(i)));
      this.labels = { maxW, tasks: this.tasks, at, widest };
    }
    return this.labels;
  }

  // drawEmpty writes emptyText in the middle of a map with no column yet.
  drawEmpty(g, left, pw, G) {
    if (this.history.length || !this.emptyText) return;
    g.textAlign = "center"; g.textBaseline = "middle"; g.fillStyle = "#4a5263";
    const lines = wrapText(g, this.emptyText, pw - 16), mid = TOP + Math.min(G.ph, 120) / 2;
    lines.forEach((line, i) => g.fillText(line, left + pw / 2, mid + (i - (lines.length - 1) / 2) * 15));
    this.layout.empty = lines.join(" ");
  }

  draw() {
    const c = this.canvas, wrap = this.wrap;
    const dpr = window.devicePixelRatio || 1;
    const w = wrap.clientWidth || 900;
    const G = this.geometry(w);
    // The canvas is the viewport; the spacer makes the box as tall as every row.
    if (c.style.height !== `${G.baseH}px`) c.style.height = `${G.baseH}px`;
    wrap.style.maxHeight = `${G.baseH}px`;
    this.spacer.style.height = `${Math.max(0, Math.round(G.content - G.ph))}px`;
    c.width = Math.round(w * dpr); c.height = Math.round(G.baseH * dpr);
    const g = c.getContext("2d");
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = "#ffffff";
    g.fillRect(0, 0, w, G.baseH);
    g.font = "11px system-ui, sans-serif";
    const T = this.tasks.length;
    // Labels up to 128 px, or 30% of a narrow canvas; a grouped row's has
    // room for the "…" that says the row holds more tasks.
    const ellipsis = g.measureText("…").width;
    const maxW = Math.max(48, Math.min(128, Math.floor(w * 0.3))) - (G.group > 1 ? Math.ceil(ellipsis) : 0);
    const labels = this.rowLabels(g, maxW);
    const left = Math.ceil(Math.min(maxW, labels.widest) + (G.group > 1 ? ellipsis : 0)) + 12;
    const pw = Math.max(10, w - left - RIGHT);
    const cols = Math.max(this.history.length, 1);
    const colW = pw / cols;
    const scroll = Math.min(wrap.scrollTop, Math.max(0, G.content - G.ph));
    const order = this.rowOrder();
    this.order_ = order;
    this.layout = { left, top: TOP, width: pw, height: G.ph, rowH: G.rowH, colW, rows: G.drawnRows, tasks: T, group: G.group,
      cols: this.history.length, dpr, order, scroll, content: G.content, canvasHeight: G.baseH };
    if (!T) {
      // No rows: a file waits for its columns or was refused (run-view.js,
      // "prompt"); the map says so where its rows would be.
      this.drawEmpty(g, left, pw, G);
      this.changed();
      return;
    }
    const scale = this.scale;
    const r0 = Math.max(0, Math.floor(scroll / G.rowH)), r1 = Math.min(G.drawnRows, Math.ceil((scroll + G.ph) / G.rowH));
    this.layout.firstRow = r0; this.layout.lastRow = r1;
    g.save();
    g.beginPath(); g.rect(0, TOP, w, G.ph); g.clip();
    const every = Math.max(1, Math.ceil(12 / G.rowH));
    const gap = G.rowH > 6 ? 1 : 0;
    for (let r = r0; r < r1; r++) {
      const y = TOP + r * G.rowH - scroll;
      const a = r * G.group, b = Math.min(T, a + G.group);
      for (let k = 0; k < this.history.length; k++) {
        g.fillStyle = rgbText(this.cellRGB(this.history[k], a, b, order, scale));
        // Overlap by a pixel fraction to avoid hairline gaps between columns.
        g.fillRect(left + k * colW, y, Math.ceil(colW + 0.5), Math.max(G.rowH - gap, 0.75));
      }
    }
    // The row read out (pointed at, or the keyboard's): outlined across the map.
    const marked = this.cursor && this.cursor.k < this.history.length ? this.cursor.r : this.hoverRow;
    if (marked >= r0 && marked < r1) {
      g.strokeStyle = "#1d2330"; g.lineWidth = 1;
      g.strokeRect(left + 0.5, TOP + marked * G.rowH - scroll - 0.5, pw - 1, G.rowH + 1);
    }
    if (this.cursor && this.cursor.k < this.history.length) {
      const y = TOP + this.cursor.r * G.rowH - scroll;
      g.strokeStyle = "#1d2330"; g.lineWidth = 2;
      g.strokeRect(left + this.cursor.k * colW + 1, y + 1, Math.max(colW - 2, 2), Math.max(G.rowH - 2, 2));
      g.lineWidth = 1;
    }
    g.restore();
    // Small tasks: a notch in the margin beside their rows (every row, labelled or not).
    g.fillStyle = "#1d2330";
    for (let r = r0; r < r1; r++) {
      const a = r * G.group, b = Math.min(T, a + G.group);
      let small = false;
      for (let i = a; i < b && !small; i++) small = this.small(order[i]);
      if (!small) continue;
      const y = Math.max(TOP, TOP + r * G.rowH - scroll), y1 = Math.min(TOP + G.ph, TOP + (r + 1) * G.rowH - scroll);
      if (y1 > y) g.fillRect(left - 4, y, 3, Math.max(1, y1 - y - (G.rowH > 6 ? 1 : 0)));
    }
    // The row labels, outside the cells' clip: a label is taller than a
    // 4 px row, and the top row's was cut at the map's top edge. A row has
    // one when its middle is in view.
    g.fillStyle = "#1d2330"; g.textAlign = "right"; g.textBaseline = "middle";
    this.layout.labels = [];
    // The rows the verdict names (the tasks trusted most and least) are
    // labelled wherever they fall, in place of the thinned labels near
    // them: the sentence beside the map names them, and the visitor looks
    // for them on it. Only where a row is one task.
    const pinned = [];
    if (this.selfPaced && G.group === 1 && every > 1) {
      for (const at of [this.hiAt, this.loAt]) {
        const r = at ? order.indexOf(at.tasks[0]) : -1;
        if (r >= 0 && !pinned.some((p) => Math.abs(p - r) < every)) pinned.push(r);
      }
    }
    const rows = [];
    for (let r = r0 - (r0 % every); r < r1; r += every) if (!pinned.some((p) => Math.abs(p - r) < every)) rows.push(r);
    for (const r of pinned) if (r >= r0 && r < r1) rows.push(r);
    for (const r of rows) {
      const mid = TOP + (r + 0.5) * G.rowH - scroll;
      if (mid < TOP || mid > TOP + G.ph) continue;
      const a = r * G.group, b = Math.min(T, a + G.group);
      const text = labels.at(order[a]) + (b - a > 1 ? "…" : "");
      g.fillText(text, left - 6, mid);
      // A tick from the label to its own row's middle.
      if (!this.small(order[a])) { g.fillStyle = "#9aa3b2"; g.fillRect(left - 4, Math.round(mid) - 0.5, 3, 1); g.fillStyle = "#1d2330"; }
      const m = g.measureText(text);
      this.layout.labels.push({ text, task: order[a], left: left - 6 - m.actualBoundingBoxLeft, right: left - 6 + m.actualBoundingBoxRight,
        top: mid - m.actualBoundingBoxAscent, bottom: mid + m.actualBoundingBoxDescent });
    }
    // The marked row's label, at the row itself, over whatever label is there.
    if (marked >= r0 && marked < r1) {
      const a = marked * G.group, b = Math.min(T, a + G.group);
      const text = labels.at(order[a]) + (b - a > 1 ? "…" : "");
      const mid = Math.min(TOP + G.ph - 6, Math.max(TOP + 6, TOP + (marked + 0.5) * G.rowH - scroll));
      g.font = "bold 11px system-ui, sans-serif";
      const wText = g.measureText(text).width;
      g.fillStyle = "#ffffff"; g.fillRect(left - 8 - wText, mid - 7, wText + 4, 14);
      g.fillStyle = "#1d2330"; g.fillText(text, left - 6, mid);
      g.font = "11px system-ui, sans-serif";
      this.layout.marked = { row: marked, task: order[a], text, y: mid };
    } else this.layout.marked = null;
    // A frame, so that cells near the neutral colour still show the map's extent.
    g.strokeStyle = "#9aa3b2";
    g.strokeRect(left - 0.5, TOP - 0.5, pw + 1, G.ph + 1);
    // An empty map says so, and of which data set, or which file waits to
    // be read (run-view.js, "prompt").
    this.drawEmpty(g, left, pw, G);
    g.fillStyle = "#5b6475"; g.textAlign = "center"; g.textBaseline = "top";
    // The steps under the map, as far apart as the widest (the last) needs;
    // the last kept inside the canvas.
    this.layout.xLabels = [];
    if (this.history.length) {
      const K = this.history.length, gap = Math.max(28, g.measureText(String(this.history[K - 1].iter)).width + 10);
      for (const k of axisColumns(K, colW, gap)) {
        const text = String(this.history[k].iter), half = g.measureText(text).width / 2;
        const x = Math.min(left + (k + 0.5) * colW, w - 1 - half);
        g.fillText(text, x, TOP + G.ph + 3);
        this.layout.xLabels.push({ text, left: x - half, right: x + half });
      }
    }
    g.textAlign = "left";
    const stepText = `${this.stepWord} →`;
    g.fillText(stepText, left, TOP + G.ph + 16);
    // The captions under the map, as drawn (left and right edges).
    this.layout.captions = [{ text: stepText, left, right: left + g.measureText(stepText).width }];
    if (G.content > G.ph + 0.5 || G.group > 1) {
      g.textAlign = "right";
      // The longest that fits beside the step word on the same line (on a
      // phone the two ran into each other: "2500iteration, 10→per row").
      const a = Math.min(T, Math.floor(scroll / G.rowH) + 1), b = Math.min(T, Math.ceil((scroll + G.ph) / G.rowH));
      const forms = G.group > 1 ? [`${T} tasks, ${G.group} per row (geometric mean)`, `${G.group} per row (geometric mean)`, `${G.group} per row`]
        : [`tasks ${a}–${b} of ${T} · scroll`, `tasks ${a}–${b} of ${T}`, `${a}–${b} of ${T}`];
      const room = pw - g.measureText(stepText).width - 12;
      const shown = forms.find((f) => g.measureText(f).width <= room) || forms[forms.length - 1];
      g.fillText(shown, left + pw, TOP + G.ph + 16);
      this.layout.captions.push({ text: shown, left: left + pw - g.measureText(shown).width, right: left + pw });
    }
    this.changed();
  }

  changed() { if (this.onChange) this.onChange(this); }

  /** The tasks of drawn row r: [a, b) in the row order. */
  rowTasks(r) {
    const L = this.layout, a = r * L.group;
    return [a, Math.min(this.tasks.length, a + L.group)];
  }

  /** What a cell says, one line per fact. */
  cellLines(r, k) {
    const s = this.history[k], order = this.order_ || this.rowOrder();
    const [a, b] = this.rowTasks(r);
    if (s.seq) {
      const t = order[a];
      return [isolated(this.tasks[t]), `step ${s.iter}: learned ${isolated(this.tasks[s.seq.task])}`, rowsText(this.rows[t]), this.seqText(s, t)].filter(Boolean);
    }
    const pace = this.selfPaced && typeof s.lambda === "number" ? `   λ = ${num(s.lambda)}` : "";
    if (b - a === 1) {
      const t = order[a];
      const cost = s.cost ? `cost = ${num(s.cost[t])}` : "";
      const loss = s.loss ? `${cost ? "   " : ""}loss = ${num(s.loss[t])}` : "";
      // The name leads a line that the read-out joins with the next: isolated,
      // an Arabic name does not take the numbers after it into its run.
      return [isolated(this.tasks[t]), `iteration ${s.iter}${pace}`, rowsText(this.rows[t]), `τ = ${num(s.tau[t])}   T·τ = ${num(this.rel(s, t), 3)}`, cost + loss].filter(Boolean);
    }
    let lo = Infinity, hi = -Infinity;
    for (let i = a; i < b; i++) { const v = this.rel(s, order[i]); lo = Math.min(lo, v); hi = Math.max(hi, v); }
    return [`${isolated(this.tasks[order[a]])} … ${isolated(this.tasks[order[b - 1]])} (${b - a} tasks)`, `iteration ${s.iter}${pace}`,
      `T·τ ${num(lo, 3)} – ${num(hi, 3)}`, "zoom in (rows ≥ 4 px) to read single tasks"];
  }

  /** What a sequential cell says about task t at step s. */
  seqText(s, t) {
    if (s.seq.task === t) return "learned at this step";
    const j = s.seq.order.indexOf(t);
    if (j >= 0) return `learned at step ${j + 1}`;
    const score = s.seq.scores[t];
    return Number.isFinite(score) ? `not yet learned (selection score ${score.toPrecision(4)})` : "not yet learned";
  }

  cellAt(e) {
    const L = this.layout;
    if (!L || !this.history.length || L.tasks !== this.tasks.length) return null; // not drawn yet
    const rect = this.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left, y = e.clientY - rect.top;
    if (y < L.top || y >= L.top + L.height) return null;
    const k = Math.floor((x - L.left) / L.colW), r = Math.floor((y - L.top + L.scroll) / L.rowH);
    if (k < 0 || k >= L.cols || r < 0 || r >= L.rows) return null;
    return { r, k, task: this.order_[r * L.group] };
  }

  showTip(lines, x, y) {
    this.tooltip.textContent = lines.join("\n");
    this.tooltip.style.left = `${Math.min(x, window.innerWidth - 220)}px`;
    this.tooltip.style.top = `${y}px`;
    this.tooltip.hidden = false;
    const r = this.canvas.getBoundingClientRect();
    this.tipAt = { left: r.left, top: r.top, scroll: this.wrap.scrollTop };
  }

  hover(e) {
    const cell = this.cellAt(e);
    this.setHover(cell ? cell.r : -1);
    if (!cell) { this.tooltip.hidden = true; return; }
    this.showTip(this.cellLines(cell.r, cell.k), e.clientX + 14, e.clientY + 10);
  }

  // setHover marks drawn row r as the one pointed at (-1: none), redrawing when it changes.
  setHover(r) {
    if (r === this.hoverRow) return;
    this.hoverRow = r;
    drawSoon(this);
  }

  // moveTo puts the keyboard's cell at drawn row r, column k, scrolls it
  // into view, and reads it out (tooltip and the live read-out line).
  moveTo(r, k) {
    const L = this.layout;
    if (!L || !this.history.length || !L.rows) return;
    r = Math.max(0, Math.min(L.rows - 1, r)); k = Math.max(0, Math.min(this.history.length - 1, k));
    this.cursor = { r, k };
    const top = r * L.rowH, bottom = top + L.rowH;
    if (top < this.wrap.scrollTop) this.wrap.scrollTop = top;
    else if (bottom > this.wrap.scrollTop + L.height) this.wrap.scrollTop = Math.ceil(bottom - L.height);
    this.draw();
    const lines = this.cellLines(r, k);
    const rect = this.canvas.getBoundingClientRect(), M = this.layout;
    this.showTip(lines, rect.left + M.left + (k + 1) * M.colW + 6, rect.top + M.top + r * M.rowH - M.scroll);
    if (this.readout) this.readout.textContent = lines.join(" · ");
  }

  key(e) {
    if (!this.history.length || !this.layout) return;
    const c = this.cursor || { r: 0, k: this.history.length - 1 };
    const page = Math.max(1, Math.floor(this.layout.height / this.layout.rowH) - 1);
    const moves = {
      ArrowUp: [c.r - 1, c.k], ArrowDown: [c.r + 1, c.k], ArrowLeft: [c.r, c.k - 1], ArrowRight: [c.r, c.k + 1],
      PageUp: [c.r - page, c.k], PageDown: [c.r + page, c.k], Home: [c.r, 0], End: [c.r, this.history.length - 1],
    };
    if (e.key === "Escape") { this.tooltip.hidden = true; return; }
    if (!moves[e.key]) return;
    e.preventDefault();
    this.moveTo(...moves[e.key]);
  }

  /** The text alternative: what the map shows of the whole run (T·τ's
   *  range, which tasks weighed least and most and when, from when τ was
   *  uniform), then after its last step. Cached per step: it is asked for
   *  after every drawing, scrolling included. */
  describe() {
    const K = this.history.length, T = this.tasks.length;
    if (!T) return `Heatmap of the task weights τ: ${this.emptyText || "no data loaded yet."}`;
    if (!K && this.sequential) return `The task learned at each step, of ${T} tasks: no step yet.`;
    if (!K) return `Heatmap of the task weights τ of ${T} tasks${this.emptyText ? ` of ${this.emptyText}` : ": no run yet."} Press Play; each row will be a task, each column an iteration.`;
    if (this.described && this.described.K === K && this.described.tasks === this.tasks) return this.described.text;
    const text = this.describeRun();
    this.described = { K, tasks: this.tasks, text };
    return text;
  }

  /** Task t's name as a sentence quotes it: at most 40 characters (a
   *  300-character name filled a phone's screen in each sentence), its
   *  bidi controls escaped and the whole isolated (labels.js isolated). */
  named(t) { return isolated(clipText(this.tasks[t], 40)); }

  describeRun() {
    const K = this.history.length, T = this.tasks.length;
    const last = this.history[K - 1];
    const names = (idx) => idx.map((t) => this.named(t)).join(", ");
    if (this.sequential) {
      const order = last.seq.order;
      return `Task learned at each of ${K} steps (of ${T} tasks): first ${names(order.slice(0, 2))}; latest ${names(order.slice(-1))}.`;
    }
    // The whole run, unless τ was uniform throughout (or there is one column).
    let run = "";
    if (K > 1 && this.uniformFrom !== 0 && this.loAt && this.hiAt) {
      const ends = relEnds(this.runLo, this.runHi);
      // The tasks that share an extreme: up to four by name, or three and how many more.
      const tied = ({ k, tasks }) => {
        const n = tasks.map((t) => this.named(t));
        return `${andList(n.length <= 4 ? n : [...n.slice(0, 3), `${n.length - 3} more`])} at iteration ${this.history[k].iter}`;
      };
      run = `Over ${K} iterations T·τ (1 = uniform) ranged from ${ends[0]} (${tied(this.loAt)}) to ${ends[ends.length - 1]} (${tied(this.hiAt)})`;
      run += this.uniformFrom > 0 ? `; uniform from iteration ${this.history[this.uniformFrom].iter} on. ` : ". ";
    }
    const what = `τ after ${K} iteration${K === 1 ? "" : "s"}`;
    let lo = Infinity, hi = -Infinity;
    for (let t = 0; t < T; t++) { const v = this.rel(last, t); lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (hi - lo < UNIFORM) {
      const throughout = K > 1 && this.uniformFrom === 0 ? " throughout" : "";
      return `${run}${what}: uniform${throughout}, every task weighs 1/${T}${this.selfPaced ? "" : " (not self-paced)"}.`;
    }
    // The n heaviest and n lightest in one pass, as a stable sort by τ,
    // heaviest first, has them at its ends (an earlier task first among
    // equals; the lightest listed from the end): sorting every task at
    // each step took a few hundred ms of the page's thread at 50,000.
    const n = T >= 4 ? 2 : 1;
    const heaviest = ends(T, n, (a, b) => last.tau[a] > last.tau[b]);
    const lightest = ends(T, n, (a, b) => last.tau[a] < last.tau[b] || (last.tau[a] === last.tau[b] && a > b));
    return `${run}${what}: easiest ${names(heaviest)}; hardest ${names(lightest)}; spread T·τ ${relRange(lo, hi)} (1 = uniform).`;
  }

  /** One sentence beside the map on what τ did over the whole run: that it
   *  stayed near uniform (every T·τ within NEAR of 1: the map is near grey
   *  because the learner trusted the tasks about equally), or which tasks it
   *  trusted most and least, with their sizes; "" before a run's first
   *  step, and for a sequential run. */
  verdict() {
    const K = this.history.length, T = this.tasks.length;
    if (!K || !T || this.sequential) return "";
    if (!this.selfPaced) return "Without self-pacing every task weighs the same at every iteration: the map is uniform grey by design.";
    // One task holds all the weight there is: nothing to trust more or less.
    if (T === 1) return "With one task, τ is 1 at every iteration: self-pacing has no other task to weigh it against, and the map is grey for that reason.";
    const range = relRange(this.runLo, this.runHi);
    const who = ({ tasks }) => {
      const t = tasks[0], size = rowsText(this.rows[t], true);
      return `${this.named(t)}${tasks.length > 1 ? ` and ${tasks.length - 1} more` : ""}${size ? ` (${size})` : ""}`;
    };
    if (this.runLo >= 1 / NEAR && this.runHi <= NEAR) {
      return `Here τ stayed near uniform (T·τ ${range} over ${K} iteration${K === 1 ? "" : "s"}): the learner trusted every task about equally, `
        + `so self-pacing changed little, and the map is near grey for that reason (most trusted: ${who(this.hiAt)}; least: ${who(this.loAt)}).`;
    }
    const [lo, hi] = relEnds(this.runLo, this.runHi);
    // When: over many iterations an extreme in the first columns is a
    // sliver of the map, which the sentence would otherwise seem to
    // contradict (a map grey over 1,000 columns).
    const when = ({ k }) => (K > 1 ? `, at iteration ${k + 1}` : "");
    return `Over ${K} iteration${K === 1 ? "" : "s"} the learner trusted ${who(this.hiAt)} most (T·τ up to ${hi ?? lo}${when(this.hiAt)}) `
      + `and ${who(this.loAt)} least (down to ${lo}${when(this.loAt)}).`;
  }

  /** The heatmap as a standalone SVG document on the fixed scale (Go's
   *  figure.Heatmap's colours), a read-out per cell and the legend. */
  svg() {
    const T = this.tasks.length, K = this.history.length, scale = this.fixed;
    const left = 110, top = 24, cw = Math.max(8, Math.min(40, 600 / Math.max(K, 1))), rh = Math.max(4, Math.min(18, 500 / Math.max(T, 1)));
    const pw = K * cw, w = Math.max(left + pw + 20, left + 540), h = top + T * rh + 96;
    const title = this.sequential ? "Task learned at each step" : "Task weight relative to uniform, T·τ, per iteration";
    let out = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="11"><rect width="100%" height="100%" fill="#fff"/>`;
    out += `<text x="${left}" y="14" font-size="13">${esc(title)}</text>`;
    // The row labels fit the 110 px margin as the page's do (measured in
    // the SVG's font); each keeps its full name as its title.
    const g = document.createElement("canvas").getContext("2d");
    g.font = "11px sans-serif";
    // Only the labels written are made (every ninth row's on a map of many tasks).
    const labels = labeler(this.tasks, left - 10, (s) => g.measureText(s).width);
    this.rowOrder().forEach((t, r) => {
      if (rh >= 9 || r % Math.ceil(9 / rh) === 0) {
        out += `<text x="${left - 4}" y="${(top + r * rh + rh * 0.75).toFixed(1)}" text-anchor="end"><title>${esc(this.tasks[t])}</title>${esc(labels(t))}</text>`;
      }
      this.history.forEach((s, k) => {
        const fill = s.seq ? rgbText(viridis(this.seqValue(s, t))) : scale.colour(this.rel(s, t));
        const text = s.seq ? this.seqText(s, t) : `τ ${num(s.tau[t])}, T·τ ${num(this.rel(s, t), 3)}`;
        out += `<rect class="cell" data-task="${t}" data-step="${k}" x="${(left + k * cw).toFixed(2)}" y="${(top + r * rh).toFixed(2)}" width="${(cw + 0.3).toFixed(2)}" height="${(rh + 0.3).toFixed(2)}" fill="${fill}"><title>${esc(this.tasks[t])}, ${this.stepWord} ${s.iter}: ${esc(text)}</title></rect>`;
      });
    });
    const y0 = top + T * rh;
    if (K) {
      for (const k of axisColumns(K, cw, Math.max(24, g.measureText(String(this.history[K - 1].iter)).width + 10))) {
        out += `<text x="${(left + (k + 0.5) * cw).toFixed(1)}" y="${y0 + 14}" text-anchor="middle" fill="#555">${this.history[k].iter}</text>`;
      }
    }
    out += `<text x="${left}" y="${y0 + 28}">${this.stepWord} →</text>`;
    if (this.sequential) {
      let x = left;
      for (const [v, label] of SEQUENTIAL_KEY) {
        out += `<rect x="${x}" y="${y0 + 44}" width="12" height="12" fill="${rgbText(viridis(v))}"/><text x="${x + 16}" y="${y0 + 54}">${esc(label)}</text>`;
        x += 24 + label.length * 6;
      }
      return out + "</svg>\n";
    }
    // The legend: the fixed scale (a gradient through the stops, which is
    // the scale's own piecewise-linear interpolation), its ticks, and this
    // run's range.
    const lx = left, lw = 360, ly = y0 + 50;
    const at = (v) => lx + scale.position(v) * lw;
    out += `<defs><linearGradient id="tau-scale">${scale.stopHex.map((c, i) => `<stop offset="${(i / (scale.stopHex.length - 1)).toFixed(4)}" stop-color="${c}"/>`).join("")}</linearGradient></defs>`;
    out += `<text x="${lx}" y="${ly - 8}">colour: T·τ (1 = uniform), log scale; beyond the ends clipped</text>`;
    out += `<rect x="${lx}" y="${ly}" width="${lw}" height="12" fill="url(#tau-scale)" stroke="#9aa3b2" stroke-width="0.5"/>`;
    for (const tk of scale.ticks()) out += `<line x1="${at(tk.value)}" x2="${at(tk.value)}" y1="${ly + 12}" y2="${ly + 16}" stroke="#333"/><text x="${at(tk.value)}" y="${ly + 27}" text-anchor="middle">${esc(tk.label)}</text>`;
    if (this.runHi >= this.runLo) {
      out += `<path d="M${at(this.runLo).toFixed(1)} ${ly - 1}v-5M${at(this.runHi).toFixed(1)} ${ly - 1}v-5M${at(this.runLo).toFixed(1)} ${ly - 4}H${at(this.runHi).toFixed(1)}" stroke="#000" stroke-width="2"/>`;
      out += `<text x="${lx + lw + 6}" y="${ly + 10}" font-size="10">this run: ${relRange(this.runLo, this.runHi, " – ")}</text>`;
    }
    return out + "</svg>\n";
  }
}
