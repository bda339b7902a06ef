// multiline.js: several series against the iteration (the Figures sweeps),
// with a legend (beside the plot, or under it on a narrow screen), a hover
// read-out, a sentence for screen readers and an SVG copy. Series that
// draw the same line (within a pixel, so that one hides the others) are
// said to coincide in a note under the title and in the sentence; a series
// that never ran (a cancelled sweep) is marked so in the legend. The y
// axis spans only the values reached, and the caption under the plot says
// so ("y zoomed"). Past the palette's 8 colours the curves differ by dash
// too (the key then shows a stretch of line), and a key with more curves
// than it has room for lists those that fit and says how many it leaves
// out ("and 45 more"): the hover read-out and the text alternative name
// every one.
import { escapeXML as esc } from "./export.js";
import { setup, extent, fmt, drawSoon } from "./chart-kit.js";

const PALETTE = ["#2a6df4", "#d0562b", "#2a9d5c", "#8e44ad", "#c49a00", "#16a3b5", "#7f8c8d", "#e84393"];
// A dash for each pass through the palette: 32 curves differ in colour or
// dash; after that the styles repeat, and the hover names a curve.
const DASHES = [[], [7, 3], [2, 3], [9, 3, 2, 3]];
const styleOf = (i) => ({ col: PALETTE[i % PALETTE.length], dash: DASHES[Math.floor(i / PALETTE.length) % DASHES.length] });
const KEY_ROW = 16; // px between the key's entries
const MIN_PLOT = 100; // px of plot height that a key under it leaves at least
const MAX_NOTE_LINES = 3; // lines of the note on coinciding curves that list their values
const INK = "#1d2330", MUTED = "#5b6475";
const NOTE_LINE = 14; // px between the note's lines

// wrap breaks text into lines no wider than width, between words; width
// of a string is measured by measure.
function wrap(measure, text, width) {
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (line && measure(next) > width) { lines.push(line); line = word; } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

// together names the series of a group in one phrase: "λ0 = 1, 10, 25"
// when they share their "name = " part, else the names in full.
function together(names) {
  const m = names.map((n) => /^(.*? = )(.*)$/.exec(n));
  if (m.every((x) => x && x[1] === m[0][1])) return m[0][1] + m.map((x) => x[2]).join(", ");
  return names.join(", ");
}

/** Several series against the iteration, with a legend and hover read-out;
 *  it can also render itself as SVG. */
export class MultiLine {
  constructor(canvas, tooltip, title, ylabel) {
    this.canvas = canvas; this.tooltip = tooltip; this.title = title; this.ylabel = ylabel;
    this.series = []; // {name, points: [[iter, y], ...], notRun}
    this.note = ""; // what the last drawing said of coinciding series
    this.idle = ""; // why no sweep can run ("ITL has no self-paced version"), or ""
    canvas.addEventListener("mousemove", (e) => this.hover(e));
    canvas.addEventListener("mouseleave", () => { tooltip.hidden = true; });
    // Drawn at once with its title and "no sweep yet": a canvas never drawn
    // is an empty box in the panel.
    drawSoon(this);
  }
  reset(names) { this.series = names.map((name) => ({ name, points: [], notRun: false })); drawSoon(this); }

  /** Says why no sweep can run (empty: one can), on the empty chart and in
   *  its text alternative, in place of "press Run sweep". */
  idleText(why) { if (why !== this.idle) { this.idle = why; drawSoon(this); } }

  /** Sets the title (and the hover's name of the value), e.g. once the metric is known. */
  retitle(title, ylabel) { this.title = title; this.ylabel = ylabel; drawSoon(this); }

  /** Marks the series that never ran (ran: the indices that did), after a
   *  sweep that stopped early: their legend entries say "not run". */
  markNotRun(ran) { this.series.forEach((s, i) => { s.notRun = !ran.has(i); }); drawSoon(this); }

  // legendName is a series' legend entry.
  legendName(s) { return s.notRun ? `${s.name} (not run)` : s.name; }

  /** The groups of two or more series that draw one line in geometry L:
   *  the same iterations, and values within a pixel of each other. */
  coinciding(L) {
    const same = (a, b) => a.points.length > 0 && a.points.length === b.points.length
      && a.points.every(([x, y], k) => x === b.points[k][0] && Math.abs(L.Y(y) - L.Y(b.points[k][1])) < 1);
    const groups = [];
    for (const s of this.series) {
      const g = groups.find((grp) => same(grp[0], s));
      if (g) g.push(s); else groups.push([s]);
    }
    return groups.filter((g) => g.length > 1);
  }

  /** Whether every series that ran (two or more) draws one line, as the
   *  chart is drawn now. */
  allCoincide() {
    this.draw();
    const ran = this.series.filter((s) => s.points.length).length;
    const groups = this.coinciding(this.L);
    return ran > 1 && groups.length === 1 && groups[0].length === ran;
  }

  /** The note on coinciding series in geometry L ("" when none coincide). */
  noteText(L) {
    const groups = this.coinciding(L);
    if (!groups.length) return "";
    const ran = this.series.filter((s) => s.points.length).length;
    if (groups.length === 1 && groups[0].length === ran) {
      return `All ${ran} curves coincide (within a pixel): one line shows ${together(groups[0].map((s) => s.name))}.`;
    }
    return `${groups.map((g) => `${together(g.map((s) => s.name))} coincide`).join("; ")} (within a pixel): one line shows ${groups.length > 1 ? "each group" : "them all"}.`;
  }

  /** A sentence for screen readers: the series, where each ended, and which coincide. */
  describe(note = "") {
    if (!this.series.length) return `${this.title}: no sweep run yet${this.idle ? `; ${this.idle}, so Run sweep is off` : ""}.`;
    const ends = this.series.map((s) => `${s.name}: ${s.points.length ? `${fmt(s.points[s.points.length - 1][1])} after ${s.points.length} iteration${s.points.length === 1 ? "" : "s"}` : s.notRun ? "not run" : "not started"}`);
    const n = this.series.length;
    return `${this.title}, ${n} run${n === 1 ? "" : "s"}, the y axis zoomed to the values reached; ${ends.join("; ")}.${note ? ` ${note}` : ""}`;
  }

  // legendAt places series i's key: beside the plot, or under it in one
  // or two columns (as its entries fit).
  legendAt(L, i) {
    if (!L.narrow) return [L.w - L.right + 10, L.top + i * KEY_ROW];
    return [4 + (i % L.legendCols) * ((L.w - 8) / L.legendCols), L.h - L.bottom + 30 + Math.floor(i / L.legendCols) * KEY_ROW];
  }

  // keyEntries: the key's entries in geometry L, as many as it has room for
  // ({i, name}); when some series do not fit, the last slot says how many
  // ({more: n}) rather than the key stopping unsaid at the canvas's edge.
  keyEntries(L) {
    const n = this.series.length;
    const room = L.narrow ? L.keyRows * L.legendCols : Math.max(1, Math.floor((L.h - 14 - L.top) / KEY_ROW) + 1);
    const shown = n <= room ? n : Math.max(0, room - 1);
    const out = this.series.slice(0, shown).map((s, i) => ({ i, name: this.legendName(s) }));
    if (shown < n) out.push({ more: n - shown, name: `and ${n - shown} more` });
    return out;
  }
  add(i, iter, y) { if (Number.isFinite(y)) { this.series[i].points.push([iter, y]); drawSoon(this); } }

  // geometry places the plot in a w × h chart; measure(s) is a string's
  // width, for the note's lines under the title (which push the plot down).
  geometry(w, h, measure) {
    const all = this.series.flatMap((s) => s.points);
    const [xlo, xhi] = [1, all.reduce((m, p) => Math.max(m, p[0]), 2)]; // no spread: a long sweep has many points
    const [ylo, yhi] = extent(all.map((p) => p[1]));
    const narrow = w < 480;
    // The legend's room: its widest entry (key and name) beside the plot,
    // or under it in two columns when two fit, else one.
    const key = (this.series.length > PALETTE.length ? 20 : 14) + this.series.reduce((m, s) => Math.max(m, measure(this.legendName(s))), 0);
    const legendCols = narrow && 2 * (key + 8) <= w - 8 ? 2 : 1;
    // Under the plot, the key takes the rows it needs but leaves the plot MIN_PLOT px.
    const keyRows = Math.max(1, Math.min(Math.ceil(this.series.length / legendCols), Math.floor((h - 22 - MIN_PLOT - 34) / KEY_ROW)));
    const L = {
      left: 58, right: narrow ? 12 : Math.min(Math.max(120, key + 16), w * 0.45), top: 22,
      bottom: narrow ? 34 + KEY_ROW * keyRows : 30, narrow, legendCols, keyRows,
    };
    Object.assign(L, { xlo, xhi, ylo, yhi, w, h, note: [] });
    const place = () => {
      L.X = (x) => L.left + ((x - xlo) / (xhi - xlo)) * (w - L.left - L.right);
      L.Y = (y) => h - L.bottom - ((y - ylo) / (yhi - ylo)) * (h - L.top - L.bottom);
    };
    place();
    // Whether series coincide depends on the pixels, so it is judged on
    // the plot as it would be without the note, whose few pixels of
    // height change no verdict that matters.
    const note = this.noteText(L);
    if (note) {
      L.note = wrap(measure, note, w - 8);
      L.noteText = note;
      // Many groups (a sweep of 60 values) list more values than the plot
      // has room for: the chart counts them (the text alternative keeps
      // the list).
      if (L.note.length > MAX_NOTE_LINES) {
        const groups = this.coinciding(L), ran = this.series.filter((s) => s.points.length).length;
        const n = groups.reduce((a, g) => a + g.length, 0);
        L.note = wrap(measure, `${n} of the ${ran} curves coincide (within a pixel) in ${groups.length} group${groups.length === 1 ? "" : "s"}: one line shows each group.`, w - 8);
      }
      L.top += L.note.length * NOTE_LINE + 2;
      // A key under the plot gives up rows rather than the plot its height.
      if (narrow && h - L.top - L.bottom < MIN_PLOT && L.keyRows > 1) {
        L.keyRows = Math.max(1, Math.floor((h - L.top - MIN_PLOT - 34) / KEY_ROW));
        L.bottom = 34 + KEY_ROW * L.keyRows;
      }
      place();
    }
    return L;
  }

  draw() {
    const { g, w, h } = setup(this.canvas);
    const L = this.geometry(w, h, (s) => g.measureText(s).width);
    this.L = L;
    this.note = L.noteText || "";
    this.canvas.setAttribute("aria-label", this.describe(this.note));
    g.fillStyle = INK; g.textAlign = "left"; g.textBaseline = "bottom"; g.fillText(this.title, L.left, 18);
    g.fillStyle = MUTED; g.textBaseline = "top";
    L.note.forEach((line, k) => g.fillText(line, 4, 22 + k * NOTE_LINE));
    g.strokeStyle = "#d9dde5"; g.strokeRect(L.left, L.top, w - L.left - L.right, h - L.top - L.bottom);
    if (!this.series.some((s) => s.points.length)) {
      // No numbers yet: no axis to read numbers off.
      g.fillStyle = MUTED; g.textBaseline = "middle";
      const say = this.series.length ? "waiting for the first iteration…" : this.idle ? `no sweep: ${this.idle}` : "no sweep yet: press “Run sweep”";
      const lines = wrap((s) => g.measureText(s).width, say, w - L.left - L.right - 20);
      lines.forEach((line, k) => g.fillText(line, L.left + 10, (L.top + h - L.bottom) / 2 + (k - (lines.length - 1) / 2) * NOTE_LINE));
      return;
    }
    g.fillStyle = MUTED; g.textAlign = "right"; g.textBaseline = "middle";
    g.fillText(fmt(L.yhi), L.left - 4, L.top + 6); g.fillText(fmt(L.ylo), L.left - 4, h - L.bottom - 6);
    g.textAlign = "center"; g.textBaseline = "top";
    const caption = [`iteration ${L.xlo} … ${L.xhi} · y axis zoomed to the values`, `iteration ${L.xlo} … ${L.xhi} · y zoomed`]
      .find((c) => g.measureText(c).width <= Math.min(w - L.left - L.right, 2 * Math.min((L.left + w - L.right) / 2, w - (L.left + w - L.right) / 2)) - 4)
      || `iteration ${L.xlo} … ${L.xhi}`;
    g.fillText(caption, (L.left + w - L.right) / 2, h - L.bottom + 6);
    const dashed = this.series.length > PALETTE.length;
    this.series.forEach((s, i) => {
      const { col, dash } = styleOf(i);
      g.strokeStyle = col; g.lineWidth = 2; g.setLineDash(dash); g.beginPath();
      s.points.forEach(([x, y], k) => (k ? g.lineTo(L.X(x), L.Y(y)) : g.moveTo(L.X(x), L.Y(y))));
      g.stroke(); g.lineWidth = 1; g.setLineDash([]);
    });
    g.textAlign = "left"; g.textBaseline = "top";
    this.keyEntries(L).forEach((e, slot) => {
      const [kx, ky] = this.legendAt(L, slot);
      if (e.more) { g.fillStyle = MUTED; g.fillText(e.name, kx, ky); return; }
      const s = this.series[e.i], { col, dash } = styleOf(e.i);
      // A value that never ran has an empty key and grey text: no line of its colour is drawn.
      // Past the palette the key is a stretch of the curve's line, dash and all.
      if (s.notRun) { g.strokeStyle = col; g.strokeRect(kx + 0.5, ky + 0.5, 9, 9); } else if (dashed) {
        g.strokeStyle = col; g.lineWidth = 3; g.setLineDash(dash); g.beginPath(); g.moveTo(kx, ky + 5.5); g.lineTo(kx + 16, ky + 5.5); g.stroke();
        g.lineWidth = 1; g.setLineDash([]);
      } else { g.fillStyle = col; g.fillRect(kx, ky, 10, 10); }
      g.fillStyle = s.notRun ? MUTED : INK; g.fillText(e.name, kx + (dashed ? 20 : 14), ky);
    });
  }

  hover(e) {
    if (!this.L) return;
    const r = this.canvas.getBoundingClientRect();
    const x = e.clientX - r.left, y = e.clientY - r.top;
    let best = null, bd = 100;
    this.series.forEach((s) => s.points.forEach(([px, py]) => {
      const d = (this.L.X(px) - x) ** 2 + (this.L.Y(py) - y) ** 2;
      if (d < bd) { bd = d; best = { s: s.name, px, py }; }
    }));
    if (!best) { this.tooltip.hidden = true; return; }
    this.tooltip.textContent = `${best.s}\niteration ${best.px}\n${this.ylabel} = ${best.py.toPrecision(5)}`;
    this.tooltip.style.left = `${e.clientX + 14}px`; this.tooltip.style.top = `${e.clientY + 10}px`;
    this.tooltip.hidden = false;
  }

  /** The chart as a standalone SVG document. */
  svg() {
    // No canvas to measure with: 12 px sans-serif is about 6.6 px a character.
    const w = 640, h = 360, L = this.geometry(w, h, (s) => s.length * 6.6);
    let out = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" font-family="sans-serif" font-size="12"><rect width="100%" height="100%" fill="#fff"/>`;
    out += `<text x="${L.left}" y="16">${esc(this.title)}</text>`;
    L.note.forEach((line, k) => { out += `<text x="4" y="${32 + k * NOTE_LINE}" fill="${MUTED}">${esc(line)}</text>`; });
    out += `<rect x="${L.left}" y="${L.top}" width="${w - L.left - L.right}" height="${h - L.top - L.bottom}" fill="none" stroke="#999"/>`;
    out += `<text x="${L.left - 4}" y="${L.top + 10}" text-anchor="end">${esc(fmt(L.yhi))}</text><text x="${L.left - 4}" y="${h - L.bottom}" text-anchor="end">${esc(fmt(L.ylo))}</text>`;
    out += `<text x="${(L.left + w - L.right) / 2}" y="${h - 8}" text-anchor="middle">iteration ${L.xlo} … ${L.xhi} · y axis zoomed to the values</text>`;
    const dashed = this.series.length > PALETTE.length;
    const dashAttr = (dash) => (dash.length ? ` stroke-dasharray="${dash.join(" ")}"` : "");
    this.series.forEach((s, i) => {
      const { col, dash } = styleOf(i);
      const d = s.points.map(([x, y], k) => `${k ? "L" : "M"}${L.X(x).toFixed(1)} ${L.Y(y).toFixed(1)}`).join(" ");
      out += `<path d="${d}" fill="none" stroke="${col}" stroke-width="2"${dashAttr(dash)}><title>${esc(s.name)}</title></path>`;
    });
    const entries = this.keyEntries(L);
    entries.forEach((e, slot) => {
      const x = w - L.right + 10, y = L.top + slot * KEY_ROW;
      if (e.more) { out += `<text x="${x}" y="${y + 10}" fill="${MUTED}">${esc(e.name)}</text>`; return; }
      const s = this.series[e.i], { col, dash } = styleOf(e.i);
      out += s.notRun ? `<rect x="${x}" y="${y}" width="10" height="10" fill="none" stroke="${col}"/>`
        : dashed ? `<line x1="${x}" y1="${y + 5.5}" x2="${x + 16}" y2="${y + 5.5}" stroke="${col}" stroke-width="3"${dashAttr(dash)}/>`
          : `<rect x="${x}" y="${y}" width="10" height="10" fill="${col}"/>`;
      out += `<text x="${x + (dashed ? 20 : 14)}" y="${y + 10}"${s.notRun ? ` fill="${MUTED}"` : ""}>${esc(e.name)}</text>`;
    });
    return out + "</svg>\n";
  }
}
