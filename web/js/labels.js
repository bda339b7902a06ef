// labels.js: names cut to a width so that names which differ only late
// still read apart (the heatmap's row labels, the tables' task names).

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
