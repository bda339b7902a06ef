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
import { visibleName } from "./labels.js";

const NAME_SHOWN = 120; // characters of a column's name shown
const MENU_ALL = 1000; // a header of up to this many named columns is offered whole
const MENU_SHOWN = 200; // past it, a menu holds at most this many columns (and the chosen one)
const TABLE_ALL = 200; // up to this many columns the table builds every row (and its cells wrap)
const ROW_H = 30; // px, a row of the table past TABLE_ALL (style.css: .vtable.columns)
const VALUE_SHOWN = 40; // characters of a text column's value in its role
const REASON_SHOWN = 1000; // characters of a refusal's reason

/** grouped writes a count with commas between thousands ("14,820"). Not
 *  toLocaleString: its first call loads the locale data, about 0.1 s of
 *  the page's thread while the first data set arrives (measured in Chrome). */
export const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** A count and its noun, the count grouped: "1 feature", "5,000 features". */
export const plural = (n, noun) => `${grouped(n)} ${noun}${n === 1 ? "" : "s"}`;

/** A column's name as the page shows it: cut to NAME_SHOWN characters, its
 *  bidi controls escaped (labels.js visibleName); the name itself, the
 *  column's value, is unchanged. */
export const shownName = (name) => visibleName(clipText(name, NAME_SHOWN));

// The letters of a column's role (core/session RoleLetters).
const roleOfLetter = { t: "task", l: "label", n: "numeric", w: "text", d: "dropped", r: "refused" };

/** A file's columns as Go sends them (core/session ColumnTable, its lists
 *  of numbers made Int32Arrays by worker.js packColumns: the names in one
 *  string with their ends, one letter per column for its role, menu and
 *  marks, the notes of the columns with words by index), read in place:
 *  nothing here loops over every column unless asked for all of them
 *  (list, for tests and small files). Also takes a header alone ({names})
 *  and, from run files saved before, a list of column objects. */
export class Columns {
  constructor(c) {
    // A run file is a visitor's: whatever is not of its type is taken as empty.
    const str = (x) => (typeof x === "string" ? x : "");
    if (Array.isArray(c)) {
      const list = c.filter((x) => x && typeof x === "object");
      c = { names: packed(list.map((x) => String(x.name || ""))), list };
    }
    c = c && typeof c === "object" ? c : {};
    const names = c.names && typeof c.names === "object" && typeof c.names.text === "string" && c.names.ends && typeof c.names.ends.length === "number" ? c.names : { text: "", ends: [] };
    const notes = c.notes && typeof c.notes === "object" && c.notes.index && c.notes.kept && c.notes.values && c.notes.reasons ? c.notes : null;
    Object.assign(this, { text: names.text, ends: names.ends, roles: str(c.roles), menus: str(c.menus), menu: Array.isArray(c.menu) ? c.menu : [], marks: str(c.marks), notes, old: c.list || null });
    /** How many names the header has. */
    this.count = this.ends.length;
    /** How many columns have a role (0 for the sparse format). */
    this.size = this.old ? this.old.length : this.roles.length;
    this.lower = undefined; // the names in lower case, when first needed (find)
    this.namedCount = -1;
  }

  start(i) { return i > 0 ? this.ends[i - 1] : 0; }

  /** Column i's name. */
  name(i) { return this.text.slice(this.start(i), this.ends[i]); }

  /** The column whose name holds position p of the text (binary search). */
  at(p) {
    let lo = 0, hi = this.count;
    while (lo < hi) { const m = (lo + hi) >> 1; if (this.ends[m] > p) hi = m; else lo = m + 1; }
    return lo;
  }

  /** The index of the first column named name, or -1 ("" is no name). */
  indexOf(name) {
    if (name === "" || typeof name !== "string") return -1;
    for (let p = this.text.indexOf(name); p >= 0; p = this.text.indexOf(name, p + 1)) {
      const j = this.at(p);
      if (this.start(j) === p && this.ends[j] === p + name.length) return j;
    }
    return -1;
  }

  has(name) { return this.indexOf(name) >= 0; }

  /** How many columns are named (an unnamed column's name is ""). */
  named() {
    if (this.namedCount < 0) {
      let n = 0;
      for (let i = 0, at = 0; i < this.count; i++) { if (this.ends[i] !== at) n++; at = this.ends[i]; }
      this.namedCount = n;
    }
    return this.namedCount;
  }

  /** The first max named columns' names. */
  firstNamed(max) {
    const out = [];
    for (let i = 0; i < this.count && out.length < max; i++) if (this.ends[i] !== this.start(i)) out.push(this.name(i));
    return out;
  }

  /** Column i as Go describes it (core/data ColumnInfo): {name, role,
   *  roles, values, distinct, reason, thousands, decimalComma, percent, id}, values cut to the
   *  first few (core/session NoteValues) with count saying how many. */
  column(i) {
    if (this.old) { const c = this.old[i]; return Object.assign({ count: (c.values || []).length }, c); }
    const bits = this.marks.charCodeAt(i) - 48;
    const c = { name: this.name(i), role: roleOfLetter[this.roles[i]] || "", roles: this.menu[this.menus.charCodeAt(i) - 97] || [],
      values: [], count: 0, distinct: 0, reason: "", thousands: (bits & 1) !== 0, id: (bits & 2) !== 0,
      decimalComma: (bits & 4) !== 0, percent: (bits & 8) !== 0, money: (bits & 16) !== 0 };
    const n = this.note(i);
    if (n) Object.assign(c, { values: n.values || [], count: n.count || 0, distinct: n.distinct || 0, reason: n.reason || "" });
    return c;
  }

  // note is column i's note (core/session ColumnNotes: its words), or null.
  note(i) {
    const ns = this.notes;
    if (!ns) return null;
    let lo = 0, hi = ns.index.length;
    while (lo < hi) { const m = (lo + hi) >> 1; if (ns.index[m] < i) lo = m + 1; else hi = m; }
    if (lo >= ns.index.length || ns.index[lo] !== i) return null;
    const cut = (p, k) => (typeof p.text === "string" && p.ends ? p.text.slice(k > 0 ? p.ends[k - 1] : 0, p.ends[k]) : "");
    const values = [];
    for (let v = lo > 0 ? ns.kept[lo - 1] : 0; v < ns.kept[lo]; v++) values.push(cut(ns.values, v));
    return { values, count: ns.count ? ns.count[lo] : values.length, distinct: ns.distinct ? ns.distinct[lo] : 0, reason: cut(ns.reasons, lo) };
  }

  /** Every column (column(i) for each): for tests and small files. */
  list() { return Array.from({ length: this.size }, (_, i) => this.column(i)); }

  /** The names of the columns with role role. */
  withRole(role) {
    const out = [];
    for (let i = 0; i < this.size; i++) if ((this.old ? this.old[i].role : roleOfLetter[this.roles[i]]) === role) out.push(this.name(i));
    return out;
  }

  /** The named columns whose names hold text (any case; "" holds all):
   *  {matches: how many, others: how many of them are not named skip,
   *  names: the first max of those others}. Searches the packed names, so
   *  that it costs the matches, not the columns. */
  find(text, max, skip = null) {
    const names = [];
    let matches = 0, others = 0;
    const take = (j) => {
      matches++;
      const a = this.start(j), b = this.ends[j];
      if (skip !== null && b - a === skip.length && this.text.slice(a, b) === skip) return;
      others++;
      if (names.length < max) names.push(this.text.slice(a, b));
    };
    if (text === "") {
      for (let i = 0; i < this.count && names.length < max; i++) if (this.ends[i] !== this.start(i) && this.name(i) !== skip) names.push(this.name(i));
      const n = this.named();
      return { matches: n, others: n - (skip !== null && this.has(skip) ? 1 : 0), names };
    }
    const needle = text.toLowerCase();
    if (this.lower === undefined) {
      const l = this.text.toLowerCase();
      this.lower = l.length === this.text.length ? l : null; // a change of length would move the ends
    }
    if (this.lower === null) {
      for (let i = 0; i < this.count; i++) if (this.name(i).toLowerCase().includes(needle)) take(i);
      return { matches, others, names };
    }
    // The matches come in order: the column of each is found by walking
    // the ends forward from the last one's (at most one pass over them).
    let j = 0;
    for (let p = this.lower.indexOf(needle); p >= 0;) {
      while (this.ends[j] <= p) j++;
      if (p + needle.length <= this.ends[j]) { take(j); p = this.lower.indexOf(needle, this.ends[j]); } else p = this.lower.indexOf(needle, p + 1);
    }
    return { matches, others, names };
  }
}

// packed is a list of strings as worker.js packStrings makes it.
function packed(list) {
  const ends = new Int32Array(list.length);
  let at = 0;
  for (let i = 0; i < list.length; i++) { at += list[i].length; ends[i] = at; }
  return { text: list.join(""), ends };
}

const views = new WeakMap();

/** The columns of a summary (its columns member: see Columns), read once per summary. */
export function columnsOf(s) {
  if (!s) return new Columns(null);
  let v = views.get(s);
  if (!v) { v = new Columns(s.columns); views.set(s, v); }
  return v;
}

/** A column menu (task or label) with its Find box and note: select, find
 *  (an input in a label), note (a live text). */
export class ColumnMenu {
  constructor(select, find, note) {
    Object.assign(this, { select, find, note, header: null, named: 0, want: null });
    let timer = 0;
    find.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.refill(this.select.selectedIndex >= 0 ? this.select.value : this.want), 150);
    });
  }

  /** Offers the named columns of header (a Columns), want chosen when the
   *  header has it (else none); enabled: whether the visitor may choose. */
  fill(header, want, enabled) {
    // An unnamed column is no choice; one the file does not have, none.
    const named = header.named();
    const has = want !== "" && header.indexOf(want) >= 0;
    const same = (a, b) => a.count === b.count && (a.count === 0 || (a.name(0) === b.name(0) && a.name(a.count - 1) === b.name(b.count - 1)));
    if (!this.header || !same(header, this.header)) this.find.value = "";
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
  // the text (any case), found in the packed names (Columns.find).
  refill(chosen) {
    const sel = this.select, header = this.header;
    let shown;
    if (!header) shown = [];
    else if (this.named <= MENU_ALL) shown = header.firstNamed(MENU_ALL);
    else {
      const text = this.find.value.trim();
      const found = header.find(text, MENU_SHOWN, chosen);
      shown = chosen !== null ? [chosen, ...found.names] : found.names;
      const listed = found.names.length, others = found.others;
      this.note.textContent = text
        ? `${grouped(found.matches)} of the ${grouped(this.named)} columns hold "${clipText(text, 40)}"${others > listed ? `; the menu lists the first ${grouped(listed)}` : ""}.`
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

// written says how a column's numbers were written, when not plainly
// (core/data ColumnInfo: Thousands, DecimalComma, Percent, Money).
function written(c) {
  const w = [];
  if (c.thousands) w.push("with thousands separators");
  if (c.decimalComma) w.push("with a decimal comma");
  if (c.percent) w.push("as percentages");
  if (c.money) w.push("as amounts of money");
  return w.length ? `, written ${w.join(" and ")}` : "";
}

// roleText says what the intake did with a column.
function roleText(c) {
  switch (c.role) {
    case "task": return "task";
    case "label": return "label" + written(c);
    case "numeric": return "numeric" + written(c) +
      (c.id ? "; a different whole number in every row, like an id: leave it out unless its numbers measure something" : "");
    case "text": {
      const v = c.values || [], n = c.count || v.length;
      const some = v.slice(0, 6).map((x) => clipText(x, VALUE_SHOWN)).join(", ");
      return `text, one-hot (${grouped(n)} value${n === 1 ? "" : "s"}: ${some}${n > 6 ? ", …" : ""})`;
    }
    case "dropped": return "left out";
    // Left out by the reading, not by the visitor: the file itself was read.
    case "refused": return `left out: ${clipText(c.reason, REASON_SHOWN)}`;
    default: return c.role;
  }
}

/** The Columns table in box (a scrolling element): every column of a
 *  summary with its role and, for a feature column, its role menu. */
export class ColumnsTable {
  constructor(box) {
    this.table = new VirtualTable(box, { all: TABLE_ALL, rowHeight: ROW_H, id: "columns", className: "columns", fixed: false });
  }

  /** Lists s's columns (columnsOf); editable: the roles' menus may be used (a visitor's
   *  file; a preset's columns are shown as shipped). Each menu offers the
   *  roles Go says the column may take (core/data ColumnInfo.Roles). Only
   *  the rows in view are read from the packed columns. */
  show(s, editable) {
    const cols = columnsOf(s);
    this.table.set({
      head: ["column", "role", "read as"], count: cols.size,
      // A column the header leaves unnamed goes by its position, as Go's messages name it.
      row: (i) => {
        const c = cols.column(i), shown = shownName(c.name || `column ${i + 1}`);
        return [shown, roleText(c), c.role === "task" || c.role === "label" ? "—" : { html: roleMenu(c, shown, editable) }];
      },
      attrs: (i) => ({ "data-column": cols.name(i), "data-role": cols.column(i).role }),
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

// SMALL_TASKS rows or fewer in a typical task leave a classifier's tasks
// no split whose test rows hold both classes: said in the data's notes
// before Play and in the results' note after it.
export const SMALL_TASKS = 6;

/** The rows of a typical task (the median over tasks, {rows} each); 0
 *  for none. */
export function typicalRows(tasks) {
  const sizes = (tasks || []).map((t) => t.rows).sort((a, b) => a - b);
  return sizes.length ? sizes[sizes.length >> 1] : 0;
}
