// column-hints.js: which of a visitor's columns look like the task and
// which like the label, for the data panel's first step on a file whose
// columns are not named "task" and "y". It reads the first rows of the
// text (the header's names come from Go's intake) and ranks: for the task,
// text columns whose values repeat, leftmost first, then text columns of
// one value in the sample (a file sorted by its groups), then
// whole-number columns whose values repeat; for the label, numeric or two-valued
// columns, those named as labels are ("outcome", "target", "score", ...)
// first, then the last first. A column that holds a different whole number
// in every row (an id) is neither. These are suggestions the visitor accepts
// or not: the learner is given only the columns the visitor chose.

// SAMPLE_ROWS rows of data at most are looked at (the first ones).
const SAMPLE_ROWS = 500;

// SAMPLE_BYTES of a file at most are read for the suggestions.
export const SAMPLE_BYTES = 256 * 1024;

const delimiterChars = { comma: ",", semicolon: ";", tab: "\t" };

// labelName matches the names people give a label column. The last numeric
// column was suggested before any of them: "feat3" over "Outcome", one
// click from training on a feature.
const labelName = /^(y|label|target|outcome|response|class|result|score|dv|dependent)(\b|_|$)/i;

// records splits text into records of fields at delim, with fields in
// double quotes holding delimiters, newlines and doubled quotes; at most
// max records.
function records(text, delim, max) {
  const out = [];
  let row = [], field = "", quoted = false, i = 0;
  const end = () => { row.push(field); field = ""; };
  while (i < text.length && out.length < max) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (ch === '"') quoted = false; else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === "") quoted = true;
    else if (ch === delim) end();
    else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      end();
      if (row.length > 1 || row[0] !== "") out.push(row);
      row = [];
    } else field += ch;
    i++;
  }
  if (out.length < max && (field !== "" || row.length)) { end(); out.push(row); }
  return out;
}

// grouped matches a number with thousands separators sep: a first group
// of one to three digits not starting with 0, then groups of three.
const grouped = (sep, mark) => new RegExp(`^[-+]?[1-9]\\d{0,2}(${sep}\\d{3})+(${mark}\\d+)?$`);
const commaGroups = grouped(",", "\\."), dotGroups = grouped("\\.", ",");

// numberOf reads a sampled cell as Go's intake reads a number (numberText
// in core/data/numbers.go), so far as a suggestion needs: a typeset minus
// is a minus; a percent or currency sign is read past; no-break spaces and
// apostrophes between groups of three digits, and a comma between them
// outside a decimal-comma file, separate thousands; in a decimal-comma
// file a point between groups of three does, and a comma is the decimal
// mark. A price column ("$95") was a column of words before, and so the
// task suggested. NaN when it is no number.
function numberOf(raw, decimalComma) {
  let v = raw.replace(/^\u2212/, "-");
  const unit = v.match(/^([-+]?)\s*[$€£¥]\s*(.+)$/) || v.match(/^([-+]?)(.+?)\s*[$€£¥%]$/);
  if (unit) v = unit[1] + unit[2];
  if (/^[-+]?\d{1,3}([\u00a0\u202f']\d{3})+([.,]\d+)?$/.test(v)) v = v.replace(/[\u00a0\u202f']/g, "");
  if (decimalComma) {
    if (dotGroups.test(v)) v = v.replace(/\./g, "");
    else if (v.includes(".") && v.includes(",")) return NaN;
    v = v.replace(",", ".");
  } else if (commaGroups.test(v)) v = v.replace(/,/g, "");
  // Number reads "0x10", "" and " " too; Go's intake reads none as a number.
  return /^[-+]?(\d|\.\d)/.test(v) ? Number(v) : NaN;
}

// writesDecimalComma reports whether a comma-separated sample writes its
// numbers with a decimal comma, as Go's intake decides it: a quoted field
// that only a decimal comma reads as a number ("0,5", "30,4").
function writesDecimalComma(rows) {
  return rows.some((r) => r.some((f) => /^[-+]?\d+,\d+$/.test(f.trim()) && !commaGroups.test(f.trim())));
}

// profile describes one column's sampled values: how many, how many
// distinct, whether every one is a number and every one a whole number.
function profile(values, decimalComma) {
  const seen = new Set();
  let n = 0, numeric = true, whole = true;
  for (const raw of values) {
    const v = raw.trim();
    if (v === "") continue;
    n++;
    seen.add(v);
    const x = numberOf(v, decimalComma);
    if (!Number.isFinite(x)) numeric = false;
    else if (!Number.isInteger(x)) whole = false;
  }
  return { n, distinct: seen.size, numeric: numeric && n > 0, whole: numeric && whole && n > 0 };
}

/** Ranks the columns of a CSV sample as task and label suggestions:
 *  {task: [names], label: [names]}, best first, each a column of header
 *  (Go's reading of the header: anything with has(name), columns.js
 *  Columns, so that a header of a million names is not searched name by
 *  name). delimiter is Go's name for it ("comma",
 *  "semicolon", "tab"). */
export function suggestColumns(text, delimiter, header) {
  const delim = delimiterChars[delimiter] || ",";
  // Excel's first line "sep=;" names the delimiter (Go's intake reads it
  // so): it is no header.
  const recs = records(String(text).replace(/^\uFEFF/, "").replace(/^sep=.\r?\n/, ""), delim, SAMPLE_ROWS + 1);
  if (recs.length < 2) return { task: [], label: [] };
  const names = recs[0].map((h) => h.trim());
  const rows = recs.slice(1);
  const cols = [];
  const decimalComma = delimiter === "semicolon" || delim === "," && writesDecimalComma(rows);
  for (const [j, name] of names.entries()) {
    if (name === "" || !header.has(name)) continue;
    const p = profile(rows.map((r) => r[j] ?? ""), decimalComma);
    const repeats = p.distinct >= 2 && p.distinct <= p.n / 2;
    const id = p.whole && p.distinct === p.n && p.n > 2;
    cols.push(Object.assign(p, { name, repeats, id }));
  }
  // A text column of one value in the sample comes next: a file sorted by
  // its groups, whose first group has more rows than the sample (a 20 MB
  // file of 5,400 rows a group had no task suggested); names are likelier
  // groups than whole numbers.
  const task = [
    ...cols.filter((c) => !c.numeric && c.repeats),
    ...cols.filter((c) => !c.numeric && c.distinct === 1 && c.n > 1),
    ...cols.filter((c) => c.whole && c.repeats),
  ].map((c) => c.name);
  const can = cols.filter((c) => !c.id && (c.numeric || c.distinct === 2)).reverse();
  const label = [...can.filter((c) => labelName.test(c.name)), ...can.filter((c) => !labelName.test(c.name))].map((c) => c.name);
  return { task, label };
}
