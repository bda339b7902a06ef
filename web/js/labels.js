// labels.js: names cut to a width so that names which differ only late
// still read apart (the heatmap's row labels, the tables' task names), and
// names made safe to show among other text (visibleName, isolated).

// The explicit bidirectional controls: embeddings and overrides (U+202A–
// U+202E), isolates (U+2066–U+2069) and the marks (LRM, RLM, ALM). Shown
// as they are, an override in a task's name ("a\u202eevil") mirrors the
// rest of the name and of the sentence around it ("alive"); shown escaped,
// the name reads as what it holds, as Go's messages quote a header's
// invisible "\u200bgroup" (core/data/csv.go printable).
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/** A name as the page shows it: its bidi controls written as escapes
 *  ("\u202e"). Only what is shown changes: the name itself (a task's
 *  identity, what predict matches, what a download writes) stays as is. */
export function visibleName(name) {
  return String(name).replace(BIDI_CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// A character of a right-to-left script (the blocks whose characters
// default to bidi class R or AL: Hebrew, Arabic, Syriac, Thaana, NKo, …).
const RTL = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

/** The names as shown (visibleName): the same array when none holds a
 *  bidi control, as is usual (a map of 200,000 tasks copies none). */
export function visibleNames(names) {
  const one = new RegExp(BIDI_CONTROL.source);
  return names.some((n) => one.test(n)) ? names.map(visibleName) : names;
}

/** A name as a sentence quotes it: shown (visibleName) and, when it holds
 *  right-to-left letters, isolated (U+2068 FIRST STRONG ISOLATE … U+2069
 *  POP DIRECTIONAL ISOLATE), so that an Arabic or Hebrew name keeps its
 *  own direction without taking the numbers and words after it into it
 *  ("القاهرة (25 rows)" would read "(rows 25) القاهرة"). A name of
 *  left-to-right letters, digits and punctuation cannot reorder an English
 *  sentence (its controls are escaped), so it is left bare: what is
 *  copied from the page stays what it shows. For text and canvases;
 *  markup built from elements may use <bdi> instead. */
export function isolated(name) {
  const shown = visibleName(name);
  return RTL.test(shown) ? `\u2068${shown}\u2069` : shown;
}

// Where a name may be cut between words; a cut drops the separators before its "…".
const SEP = /[\s\-_/.,:;|()]/;
const trimSep = (s) => s.replace(/[\s\-_/.,:;|(]+$/, "");

/** A function of i giving name i's label, at most maxW px wide by
 *  measure(text): a name that fits is kept; a longer one is cut with an
 *  ellipsis after as much of its start as fits. Names that share a start
 *  longer than that ("Hospital Northside - ward A", "… ward B") would all
 *  read alike, so then the label keeps the words where the name differs
 *  from the names nearest it, after as much of the start as fits:
 *  "Hospital N…ward A". The caller keeps the full name in view elsewhere
 *  (the heatmap's read-out, a table cell's title and hidden text).
 *
 *  A label is made when it is asked for and kept: a map of 50,000 tasks
 *  draws a few dozen labels, and measuring every name (several
 *  measureText calls each) stalled the page for seconds (7-19 s at 200,000
 *  tasks, issue 34). Sorting the names, which finds where each differs
 *  from its neighbours, measures nothing and stays up front. */
export function labeler(names, maxW, measure) {
  // d[i]: where name i first differs from the names nearest it in sort order.
  const sorted = names.map((_, i) => i).sort((a, b) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0));
  const lcp = (a, b) => { let n = 0; while (n < a.length && n < b.length && a[n] === b[n]) n++; return n; };
  const d = new Array(names.length).fill(0);
  for (let j = 1; j < sorted.length; j++) {
    const n = lcp(names[sorted[j - 1]], names[sorted[j]]);
    d[sorted[j - 1]] = Math.max(d[sorted[j - 1]], n); d[sorted[j]] = Math.max(d[sorted[j]], n);
  }
  // longest(f, lo, hi): the largest n in [lo, hi] whose text f(n) fits, or lo - 1.
  const longest = (f, lo, hi) => {
    let best = lo - 1;
    while (lo <= hi) { const m = (lo + hi) >> 1; if (measure(f(m)) <= maxW) { best = m; lo = m + 1; } else hi = m - 1; }
    return best;
  };
  const made = new Map();
  return (i) => {
    let l = made.get(i);
    if (l === undefined) made.set(i, (l = label(names[i], i)));
    return l;
  };
  function label(name, i) {
    if (measure(name) <= maxW) return name;
    const cut = (k) => `${trimSep(name.slice(0, k))}…`;
    const k = longest(cut, 1, name.length - 1);
    if (k > d[i] || d[i] >= name.length) return k >= 1 ? cut(k) : "…";
    // The tail from the differing word (and the one before it when it is
    // short, as "A" in "ward A"; in a long word, from a few letters before).
    const at = d[i];
    let j = at;
    while (j > 0 && !SEP.test(name[j - 1])) j--;
    if (name.length - j < 6 && j > 0) {
      let w = j - 1;
      while (w > 0 && SEP.test(name[w - 1])) w--;
      while (w > 0 && !SEP.test(name[w - 1])) w--;
      if (at - w <= 12) j = w;
    }
    if (at - j > 8) j = at - 3;
    // As much of the start as fits before the tail…
    const h = longest((n) => `${trimSep(name.slice(0, n))}…${name.slice(j)}`, 1, j);
    if (h >= 1 && trimSep(name.slice(0, h))) return `${trimSep(name.slice(0, h))}…${name.slice(j)}`;
    // …or the tail alone, as much of it as fits that still holds the difference…
    for (let t = j; t <= at; t++) if (measure(`…${name.slice(t)}`) <= maxW) return `…${name.slice(t)}`;
    // …or a window from the difference on.
    const e = longest((n) => `…${trimSep(name.slice(at, n))}…`, at + 1, name.length - 1);
    return e > at ? `…${trimSep(name.slice(at, e))}…` : k >= 1 ? cut(k) : "…";
  }
}
