// columns.js: the data panel's views of a file's columns, which cost the
// same whatever the file's width. The Columns table lists every column
// with its role and, for a feature column, a menu of the roles it may
// take; past a few hundred columns it builds only the rows in view
// (vtable.js). The task and label menus offer every named column of a
// header of up to MENU_ALL; past that, a Find box beside each menu
// narrows it, and the menu holds the chosen column and the first
// MENU_SHOWN whose names hold the text found, with a note saying how many
// there are. Names are shown cut to NAME_SHOWN characters: the menus'
// values and the rows' attributes keep them whole.
import { VirtualTable } from "./vtable.js";
import { escapeXML as esc, clipText } from "./export.js";

const NAME_SHOWN = 120; // characters of a column's name shown
const MENU_ALL = 1000; // a header of up to this many named columns is offered whole
const MENU_SHOWN = 200; // past it, a menu holds at most this many columns (and the chosen one)
const TABLE_ALL = 200; // up to this many columns the table builds every row (and its cells wrap)
const ROW_H = 30; // px, a row of the table past TABLE_ALL (style.css: .vtable.columns)
const VALUE_SHOWN = 40; // characters of a text column's value in its role
const REASON_SHOWN = 1000; // characters of a refusal's reason

// grouped writes a count with commas between thousands ("14,820").
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** A column's name as the page shows it: cut to NAME_SHOWN characters. */
export const shownName = (name) => clipText(name, NAME_SHOWN);

/** A column menu (task or label) with its Find box and note: select, find
 *  (an input in a label), note (a live text). */
export class ColumnMenu {
  constructor(select, find, note) {
    Object.assign(this, { select, find, note, header: [], named: 0, want: null });
    let timer = 0;
    find.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.refill(this.select.selectedIndex >= 0 ? this.select.value : this.want), 150);
    });
  }

  /** Offers header's named columns, want chosen when the header has it
   *  (else none); enabled: whether the visitor may choose. */
  fill(header, want, enabled) {
    // An unnamed column is no choice; one the file does not have, none.
    let named = header.length;
    for (let i = 0; i < header.length; i++) if (header[i] === "") named--;
    const has = want !== "" && header.indexOf(want) >= 0;
    const last = (h) => h[h.length - 1];
    if (header.length !== this.header.length || header[0] !== this.header[0] || last(header) !== last(this.header)) this.find.value = "";
    Object.assign(this, { header, named, want: has ? want : null });
    const big = named > MENU_ALL;
    this.find.closest("label").hidden = !big;
    this.note.hidden = !big;
    this.select.disabled = !enabled;
    this.find.disabled = !enabled;
    this.refill(this.want);
  }

  // refill puts the columns the Find box lets through in the menu, chosen
  // (a name, or null) chosen: all of a small header; of a big one the
  // chosen column first, then the first MENU_SHOWN others whose names hold
  // the text (any case).
  refill(chosen) {
    const sel = this.select, header = this.header;
    let shown;
    if (this.named <= MENU_ALL) shown = header.filter((c) => c !== "");
    else {
      const text = this.find.value.trim();
      const re = text ? new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i") : null;
      shown = chosen !== null ? [chosen] : [];
      const base = shown.length;
      let matches = 0, others = 0;
      for (const c of header) {
        if (c === "" || (re && !re.test(c))) continue;
        matches++;
        if (c === chosen) continue;
        others++;
        if (shown.length - base < MENU_SHOWN) shown.push(c);
      }
      const listed = shown.length - base;
      this.note.textContent = text
        ? `${grouped(matches)} of the ${grouped(this.named)} columns hold "${clipText(text, 40)}"${others > listed ? `; the menu lists the first ${grouped(listed)}` : ""}.`
        : `The file has ${grouped(this.named)} columns: the menu lists the first ${grouped(listed)}${chosen !== null ? " and the one chosen" : ""}; type in Find to list others.`;
    }
    const frag = document.createDocumentFragment();
    for (const c of shown) frag.append(new Option(shownName(c), c));
    sel.replaceChildren(frag);
    if (chosen !== null && shown.includes(chosen)) sel.value = chosen; else sel.selectedIndex = -1;
  }
}

// roleWords names the roles a visitor may give a feature column in its menu.
const roleWords = { numeric: "number", text: "words", dropped: "leave out" };

// roleText says what the intake did with a column.
function roleText(c) {
  switch (c.role) {
    case "task": return "task";
    case "label": return c.thousands ? "label, written with thousands separators" : "label";
    case "numeric": return (c.thousands ? "numeric, written with thousands separators" : "numeric") +
      (c.id ? "; a different whole number in every row, like an id: leave it out unless its numbers measure something" : "");
    case "text": {
      const v = c.values || [];
      const some = v.slice(0, 6).map((x) => clipText(x, VALUE_SHOWN)).join(", ");
      return `text, one-hot (${grouped(v.length)} value${v.length === 1 ? "" : "s"}: ${some}${v.length > 6 ? ", …" : ""})`;
    }
    case "dropped": return "left out";
    case "refused": return `refused: ${clipText(c.reason, REASON_SHOWN)}`;
    default: return c.role;
  }
}

/** The Columns table in box (a scrolling element): every column of a
 *  summary with its role and, for a feature column, its role menu. */
export class ColumnsTable {
  constructor(box) {
    this.table = new VirtualTable(box, { all: TABLE_ALL, rowHeight: ROW_H, id: "columns", className: "columns", fixed: false });
  }

  /** Lists s.columns; editable: the roles' menus may be used (a visitor's
   *  file; a preset's columns are shown as shipped). Each menu offers the
   *  roles Go says the column may take (core/data ColumnInfo.Roles). */
  show(s, editable) {
    const cols = s.columns || [];
    this.table.set({
      head: ["column", "role", "read as"], count: cols.length,
      // A column the header leaves unnamed goes by its position, as Go's messages name it.
      row: (i) => {
        const c = cols[i], shown = shownName(c.name || `column ${i + 1}`);
        return [shown, roleText(c), c.role === "task" || c.role === "label" ? "—" : { html: roleMenu(c, shown, editable) }];
      },
      attrs: (i) => ({ "data-column": cols[i].name, "data-role": cols[i].role }),
    });
  }
}

// roleMenu is the markup of a feature column's role menu.
function roleMenu(c, shown, editable) {
  const now = c.role === "refused" ? "dropped" : c.role;
  const roles = c.roles && c.roles.length ? c.roles.slice() : [];
  if (!roles.includes(now)) roles.push(now);
  const disabled = !editable || roles.length < 2 || c.name === "";
  const title = c.role === "refused" ? clipText(c.reason, REASON_SHOWN) : !editable ? "a preset loads as shipped" : "";
  const options = roles.map((r) => `<option value="${esc(r)}"${r === now ? " selected" : ""}>${esc(roleWords[r] || r)}</option>`).join("");
  return `<select name="${esc(c.name)}" aria-label="${esc(`read ${shown} as`)}"${disabled ? " disabled" : ""}${title ? ` title="${esc(title)}"` : ""}>${options}</select>`;
}
