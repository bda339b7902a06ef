// vtable.js: a table in a scrolling box that builds only the rows in view
// (plus a margin) when it has many: spacer rows stand in for the others,
// so that 8,000 tasks never become 8,000 DOM rows at once. Rows have one
// fixed height (style.css: .vtable). The table keeps aria-rowcount and
// every row its aria-rowindex, so a screen reader knows where it is.
import { escapeXML as esc } from "./export.js";

const ROW_H = 22; // px, as style.css sets .vtable rows

/** A table of head.length columns and count rows, row(i) giving row i's cells (text). */
export class VirtualTable {
  /** box: the scrolling container; all: up to this many rows are all built. */
  constructor(box, { all = 200, label = "" } = {}) {
    this.box = box; this.all = all; this.label = label;
    this.spec = null; this.range = null;
    box.addEventListener("scroll", () => {
      if (!this.spec || this.spec.count <= this.all || this.frame) return;
      this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
    });
  }

  /** Shows a table: {head: [text], count, row(i) → [text], strong(i)?: bold row, caption?}. */
  set(spec) { this.spec = spec; this.range = null; this.box.scrollTop = 0; this.render(true); }

  clear() { this.spec = null; this.range = null; this.box.innerHTML = ""; }

  /** The rows built now: [first, last). */
  built() { return this.range ? this.range.slice() : [0, 0]; }

  render(fresh = false) {
    const s = this.spec;
    if (!s) return;
    let first = 0, last = s.count;
    if (s.count > this.all) {
      const view = this.box.clientHeight || 360;
      first = Math.max(0, Math.floor((this.box.scrollTop - ROW_H) / ROW_H) - 10);
      last = Math.min(s.count, first + Math.ceil(view / ROW_H) + 20);
    }
    if (!fresh && this.range && this.range[0] === first && this.range[1] === last) return;
    this.range = [first, last];
    const cols = s.head.length;
    let html = `<table class="vtable" aria-rowcount="${s.count + 1}">${s.caption ? `<caption class="hint">${esc(s.caption)}</caption>` : ""}`;
    html += `<thead><tr aria-rowindex="1">${s.head.map((h) => `<th scope="col">${esc(h)}</th>`).join("")}</tr></thead><tbody>`;
    if (first > 0) html += `<tr class="spacer" aria-hidden="true" style="height:${first * ROW_H}px"><td colspan="${cols}"></td></tr>`;
    for (let i = first; i < last; i++) {
      const cells = s.row(i), strong = s.strong && s.strong(i);
      // A name too long for its cell (style.css cuts it) keeps its whole text as a title.
      const title = String(cells[0]).length > 24 ? ` title="${esc(cells[0])}"` : "";
      html += `<tr aria-rowindex="${i + 2}"${strong ? ' class="strong"' : ""}><th scope="row"${title}>${esc(cells[0])}</th>`;
      for (let k = 1; k < cells.length; k++) html += `<td>${esc(cells[k])}</td>`;
      html += "</tr>";
    }
    if (last < s.count) html += `<tr class="spacer" aria-hidden="true" style="height:${(s.count - last) * ROW_H}px"><td colspan="${cols}"></td></tr>`;
    const top = this.box.scrollTop;
    this.box.innerHTML = html + "</tbody></table>";
    this.box.scrollTop = top;
  }
}
