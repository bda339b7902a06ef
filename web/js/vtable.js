// vtable.js: a table in a scrolling box that builds only the rows in view
// (plus a margin) when it has many: spacer rows stand in for the others,
// so that 8,000 tasks or 1,000,000 columns never become as many DOM rows
// at once. Rows have one fixed height (style.css: .vtable). The table
// keeps aria-rowcount and every row its aria-rowindex, so a screen reader
// knows where it is; a control focused in a row keeps the focus when the
// rows in view are built again. Past MAX_PX of rows the spacers stand for
// the rows at a reduced scale (a browser caps an element's height): the
// box scrolls through all of them, a pixel of scrolling passing more than
// a pixel of rows.
import { escapeXML as esc, clipText } from "./export.js";
import { labeler, visibleName, visibleNames } from "./labels.js";

const ROW_H = 22; // px, as style.css sets .vtable rows
const MAX_PX = 8e6; // the tallest the rows are drawn (Firefox caps heights near 1.8e7 px)
const TITLE_MAX = 1000; // characters of a cut name kept in its title
// A row's name cell at most, as style.css sets it (.vtable tbody th:
// max-width 18em of the tables' 12 px, padding 10 px each side, border-box).
const NAME_PX = 18 * 12 - 20;
const NAME_FONT = "12px"; // the tables' font size (style.css: table)

/** A table of head.length columns and count rows, row(i) giving row i's cells. */
export class VirtualTable {
  /** box: the scrolling container; all: up to this many rows are all built.
   *  rowHeight: the rows' height in px (style.css must set the same);
   *  id: the table's id; className: classes the table always has;
   *  fixed: false keeps a table whose rows are all built free of the fixed
   *  row height (.vtable), so that its cells may wrap. */
  constructor(box, { all = 200, rowHeight = ROW_H, id = "", className = "", fixed = true } = {}) {
    Object.assign(this, { box, all, rowHeight, id, className, fixed });
    this.spec = null; this.range = null; this.label = this.labelsOf = null;
    box.addEventListener("scroll", () => {
      if (!this.spec || this.spec.count <= this.all || this.frame) return;
      this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
    });
  }

  /** Shows a table: {head: [text], count, row(i) → [cell], strong(i)?: bold
   *  row, attrs(i)?: row i's attributes {name: text}, caption?}. A cell is
   *  text, or {html} for markup the caller has escaped (a control).
   *  names?, nameAt(i)?: the rows' names (tasks) and which of them row i
   *  heads (-1: none): a name too long for its cell is then cut where it
   *  differs from the others (labels.js), not at its end, where names
   *  that differ late ("… ward A", "… ward B") would read alike. */
  set(spec) {
    this.spec = spec; this.range = null; this.box.scrollTop = 0;
    // The labels are kept while the names are the same array (the τ
    // table is set again at every snapshot of a run).
    if (!spec.names || !spec.nameAt) this.label = this.labelsOf = null;
    else if (this.labelsOf !== spec.names) { this.labelsOf = spec.names; this.label = this.labeler(spec.names); }
    this.render(true);
  }

  // labeler measures names at the cells' font (the box's family).
  labeler(names) {
    const g = document.createElement("canvas").getContext("2d");
    if (!g) return null;
    g.font = `400 ${NAME_FONT} ${getComputedStyle(this.box).fontFamily}`;
    // The names as shown (a bidi control escaped, not obeyed: visibleName).
    return labeler(visibleNames(names), NAME_PX, (t) => g.measureText(t).width);
  }

  clear() { this.spec = null; this.range = null; this.box.innerHTML = ""; }

  /** The rows built now: [first, last). */
  built() { return this.range ? this.range.slice() : [0, 0]; }

  // window returns the rows to build and the spacers' heights: all rows
  // when there are few, else those in view and a margin, placed where the
  // scroll position says (scaled past MAX_PX).
  window() {
    const s = this.spec, h = this.rowHeight;
    if (s.count <= this.all) return { first: 0, last: s.count, above: 0, below: 0 };
    const view = this.box.clientHeight || 360;
    const full = s.count * h, drawn = Math.min(full, MAX_PX);
    const ratio = drawn > view ? (full - view) / (drawn - view) : 1;
    const top = Math.min(this.box.scrollTop, Math.max(0, drawn - view)), at = top * ratio;
    const first = Math.max(0, Math.floor(at / h) - 10);
    const last = Math.min(s.count, first + Math.ceil(view / h) + 20);
    const above = Math.max(0, top - at + first * h);
    return { first, last, above, below: Math.max(0, drawn - above - (last - first) * h) };
  }

  render(fresh = false) {
    const s = this.spec;
    if (!s) return;
    const { first, last, above, below } = this.window();
    if (!fresh && this.range && this.range[0] === first && this.range[1] === last) return;
    this.range = [first, last];
    const focus = this.focused();
    const cols = s.head.length;
    const cls = [this.fixed || s.count > this.all ? "vtable" : "", this.className].filter(Boolean).join(" ");
    // The caption names the table for screen readers; what the eye reads
    // is the same text in a line of the box's own width, which a table
    // wider than the box (a phone's) does not cut (style.css .vcaption).
    let html = s.caption ? `<p class="hint vcaption" aria-hidden="true">${esc(s.caption)}</p>` : "";
    html += `<table${this.id ? ` id="${this.id}"` : ""}${cls ? ` class="${cls}"` : ""} aria-rowcount="${s.count + 1}">${s.caption ? `<caption class="visually-hidden">${esc(s.caption)}</caption>` : ""}`;
    html += `<thead><tr aria-rowindex="1">${s.head.map((h) => `<th scope="col">${esc(h)}</th>`).join("")}</tr></thead><tbody>`;
    // The spacers' heights are set through the DOM after: the page's
    // Content-Security-Policy refuses style attributes written in markup.
    const spacer = `<tr class="spacer" aria-hidden="true"><td colspan="${cols}"></td></tr>`;
    if (first > 0) html += spacer;
    for (let i = first; i < last; i++) html += this.rowHTML(i);
    if (last < s.count) html += spacer;
    const top = this.box.scrollTop;
    this.box.innerHTML = html + "</tbody></table>";
    const rows = this.box.querySelector("tbody").rows;
    if (first > 0) rows[0].style.height = `${above.toFixed(1)}px`;
    if (last < s.count) rows[rows.length - 1].style.height = `${below.toFixed(1)}px`;
    this.box.scrollTop = top;
    this.refocus(focus);
  }

  rowHTML(i) {
    const s = this.spec, cells = s.row(i), strong = s.strong && s.strong(i);
    const attrs = s.attrs ? Object.entries(s.attrs(i)).map(([k, v]) => ` ${k}="${esc(v)}"`).join("") : "";
    const cell = (c) => (c && typeof c === "object" ? c.html : esc(c));
    // A name too long for its cell (style.css cuts it) keeps its text as a title.
    // It is shown with its bidi controls escaped: an override in it would
    // mirror the rest of the cell ("a\u202eevil" read "alive").
    const name = visibleName(String(cells[0]));
    const title = name.length > 24 ? ` title="${esc(clipText(name, TITLE_MAX))}"` : "";
    // A cut name shows its label; a screen reader reads the whole name.
    const k = this.label ? s.nameAt(i) : -1;
    const short = k >= 0 ? this.label(k) : name;
    const head = short !== name ? `<span aria-hidden="true">${esc(short)}</span><span class="visually-hidden">${esc(name)}</span>`
      : cells[0] && typeof cells[0] === "object" ? cell(cells[0]) : esc(name);
    let html = `<tr aria-rowindex="${i + 2}"${strong ? ' class="strong"' : ""}${attrs}><th scope="row"${title}>${head}</th>`;
    for (let k = 1; k < cells.length; k++) html += `<td>${cell(cells[k])}</td>`;
    return html + "</tr>";
  }

  // focused returns where the focus is in the table: its row and which of
  // the row's controls (null when the focus is elsewhere).
  focused() {
    const el = document.activeElement;
    if (!el || el === this.box || !this.box.contains(el)) return null;
    const tr = el.closest("tr[aria-rowindex]");
    if (!tr) return null;
    return { row: tr.getAttribute("aria-rowindex"), nth: Array.from(tr.querySelectorAll("select, input, button, a")).indexOf(el) };
  }

  // refocus puts the focus back on the control it was on, when its row is
  // still built, or on the box.
  refocus(f) {
    if (!f) return;
    const tr = this.box.querySelector(`tr[aria-rowindex="${f.row}"]`);
    const el = tr && tr.querySelectorAll("select, input, button, a")[f.nth];
    (el || this.box).focus({ preventScroll: true });
  }
}
