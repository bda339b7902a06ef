// column-hints.js: which of a visitor's columns look like the task and
// which like the label, for the data panel's first step on a file whose
// columns are not named "task" and "y". It reads the first rows of the
// text (the header's names come from Go's intake) and ranks. For the task:
// a column named as groups are (subject, school, district, ...), then
// columns of categories (words, or whole numbers in quotes, as R writes a
// factor) with three values or more that repeat, those in runs (a file
// sorted by its groups) first, then whole numbers so, then a text column
// of one value in the sample (a file sorted by its groups, whose first
// group fills the sample), a column of whole numbers so when the sample
// is not the whole file, and last a column of two values (sex, yes/no),
// which is rarely the groups. A column named as groups are yields to a
// column in runs it is nested in (Site within Wafer). For the label: a column named as labels are
// ("outcome", "target", "score", ...); otherwise a numeric or two-valued
// column only when it is the one that varies within the suggested task's groups (a
// column constant within every group, a child's sex or a school's mean,
// describes the groups, not their rows). Several such columns, and none
// named: no label is suggested, as a wrong one is one click from a
// meaningless model. A column that holds a different whole number in every
// row (an id) is neither. These are suggestions the visitor accepts or
// not: the learner is given only the columns the visitor chose.

// SAMPLE_ROWS rows of data at most are looked at (the first ones).
const SAMPLE_ROWS = 500;

// SAMPLE_BYTES of a file at most are read for the suggestions.
export const SAMPLE_BYTES = 256 * 1024;

const delimiterChars = { comma: ",", semicolon: ";", tab: "\t" };

// labelName matches the names people give a label column. The last numeric
// column was suggested before any of them: "feat3" over "Outcome", one
// click from training on a feature.
const labelName = /^(y|label|target|outcome|response|class|result|score|dv|dependent)(\b|_|$)/i;

// groupName matches the names people give a grouping column.
const groupName = /^(group|grp|g|task|subject|subj|id|school|schoolid|cluster|site|district|state|county|country|region|unit|batch|plate|herd|chick|patient|participant|firm|person|student|class|classroom|team|clinic|hospital|worker|plant|seed|rail|dog|comm|community|village|city|household|family|litter|tree|animal|mouse|rat|shop|store|user|item|lab|center|centre|doctor|practice|ward|farm|field|block|plot)(\b|_|$)/i;

// records splits text into records of fields at delim, with fields in
// double quotes holding delimiters, newlines and doubled quotes; at most
// max records. quoted[r][j] says whether record r's field j was in quotes.
function records(text, delim, max, quoted) {
  const out = [];
  let row = [], qrow = [], field = "", quoted_ = false, wasQuoted = false, i = 0;
  const end = () => { row.push(field); qrow.push(wasQuoted); field = ""; wasQuoted = false; };
  while (i < text.length && out.length < max) {
    const ch = text[i];
    if (quoted_) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i += 2; continue; }
      if (ch === '"') quoted_ = false; else field += ch;
      i++;
      continue;
    }
    if (ch === '"' && field === "") quoted_ = wasQuoted = true;
    else if (ch === delim) end();
    else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      end();
      if (row.length > 1 || row[0] !== "") { out.push(row); quoted.push(qrow); }
      row = []; qrow = [];
    } else field += ch;
    i++;
  }
  if (out.length < max && (field !== "" || row.length)) { end(); out.push(row); quoted.push(qrow); }
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
  // An accountant's negative, "(1.23)" or "$(12)", as Go reads it (core/data accountingNegative).
  const paren = v.match(/^([$€£¥]?)\(\s*([^()]*?)\s*\)$/);
  if (paren) {
    const inner = numberOf(paren[1] + paren[2], decimalComma);
    return Number.isFinite(inner) && !/^[-+]/.test(paren[2]) ? -inner : NaN;
  }
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
// distinct, whether every one is a number and every one a whole number,
// whether a value repeats, and how many times the value changes from one
// row to the next (few: a column in runs, as a file sorted by it).
function profile(values, decimalComma) {
  const seen = new Set();
  let n = 0, numeric = true, whole = true, changes = 0, last;
  for (const raw of values) {
    const v = raw.trim();
    if (v === "" || missingMarkers.has(v)) continue;
    n++;
    if (last !== undefined && v !== last) changes++;
    last = v;
    seen.add(v);
    const x = numberOf(v, decimalComma);
    if (!Number.isFinite(x)) numeric = false;
    else if (!Number.isInteger(x)) whole = false;
  }
  return { n, distinct: seen.size, numeric: numeric && n > 0, whole: numeric && whole && n > 0, changes };
}

// missingMarkers are the texts Go's intake reads as a missing value
// (core/data missingMarkers), NaN too: a column of numbers with NA cells
// is a numeric column.
const missingMarkers = new Set(["NA", "N/A", "n/a", "#N/A", "#N/A N/A", "#NA", "<NA>", "NULL", "null", "?", "NaN"]);

// variesWithin reports whether column j's values differ within some group
// of column g's, over the sampled rows.
function variesWithin(rows, g, j) {
  const first = new Map();
  for (const r of rows) {
    const k = (r[g] ?? "").trim(), v = (r[j] ?? "").trim();
    if (k === "" || v === "" || missingMarkers.has(v)) continue;
    if (!first.has(k)) first.set(k, v);
    else if (first.get(k) !== v) return true;
  }
  return false;
}

// relabelledWithin says whether column j's values are labels within the
// groups of column g, as a nested factor's often are (Wafer's Site 1 to 8
// in every wafer): more than half of j's values are seen under two or
// more of g's values.
function relabelledWithin(rows, g, j) {
  const under = new Map();
  for (const r of rows) {
    const k = (r[g] ?? "").trim(), v = (r[j] ?? "").trim();
    if (k === "" || v === "") continue;
    if (!under.has(v)) under.set(v, new Set());
    under.get(v).add(k);
  }
  let shared = 0;
  for (const ks of under.values()) if (ks.size >= 2) shared++;
  return under.size > 0 && shared > under.size / 2;
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
  const quoted = [];
  const recs = records(String(text).replace(/^\uFEFF/, "").replace(/^sep=.\r?\n/, ""), delim, SAMPLE_ROWS + 1, quoted);
  if (recs.length < 2) return { task: [], label: [] };
  const names = recs[0].map((h) => h.trim());
  const rows = recs.slice(1), qrows = quoted.slice(1);
  // Whether the sample stops before the file's end: its rows are then
  // the first ones, and a column of one value in them may change below.
  const cut = rows.length >= SAMPLE_ROWS || String(text).length >= SAMPLE_BYTES;
  const cols = [];
  const decimalComma = delimiter === "semicolon" || (delim === "," || delim === "\t") && writesDecimalComma(rows);
  for (const [j, name] of names.entries()) {
    if (name === "" || !header.has(name)) continue;
    const p = profile(rows.map((r) => r[j] ?? ""), decimalComma);
    // Words, or whole numbers every one in quotes (R's write.csv quotes a factor's codes, not a number).
    const blank = (v) => v === "" || missingMarkers.has(v);
    const category = !p.numeric || (p.whole && qrows.every((q, r) => q[j] || blank((rows[r][j] ?? "").trim())));
    const repeats = p.distinct >= 2 && p.distinct < p.n;
    const runs = repeats && p.changes <= 2 * p.distinct;
    const id = p.whole && p.distinct === p.n && p.n > 2;
    cols.push(Object.assign(p, { name, j, category, repeats, runs, id, groups: repeats && p.distinct <= p.n / 2 }));
  }
  const pick = (...tests) => {
    const out = [];
    for (const test of tests) for (const c of cols) if (test(c) && !out.includes(c)) out.push(c);
    return out;
  };
  const many = (c) => c.distinct >= 3 && (c.category || c.whole);
  // A column named as groups are, scattered through the file, whose values
  // recur within the runs of another grouping column, is most likely
  // nested in it (Site in Wafer): the column in runs is the groups.
  const nested = (c) => !c.runs && cols.some((o) => o !== c && many(o) && o.groups && o.runs && relabelledWithin(rows, o.j, c.j));
  const task = pick(
    (c) => groupName.test(c.name) && c.repeats && (c.category || c.whole) && !nested(c),
    (c) => many(c) && c.category && c.groups && c.runs,
    (c) => many(c) && c.category && c.groups,
    (c) => many(c) && c.whole && c.groups && c.runs,
    (c) => !c.numeric && c.distinct === 1 && c.n > 1,
    // The same of a column of whole numbers, where the sample is the
    // file's first rows and not all of it: carData's Vocab, sorted by
    // year, has 1974 in all of its first 500 rows, and its label, a
    // score from 0 to 10, was suggested as the task. (In a file the sample
    // holds whole, one value is a constant column, no groups.)
    (c) => cut && c.whole && c.distinct === 1 && c.n > 1,
    (c) => many(c) && c.category && c.repeats,
    (c) => many(c) && c.whole && c.groups,
    (c) => c.distinct === 2 && c.repeats && (c.category || c.whole),
  );
  const t = task[0];
  // A label must vary within the groups of the task suggested (when one is).
  const can = cols.filter((c) => c !== t && !c.id && (c.numeric || c.distinct === 2) && (!t || variesWithin(rows, t.j, c.j)));
  const named = can.filter((c) => labelName.test(c.name)).reverse();
  const label = named.length ? named : can.length === 1 ? can : [];
  return { task: task.map((c) => c.name), label: label.map((c) => c.name) };
}
