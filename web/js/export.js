// export.js: downloads of figures (PNG) and numbers (CSV, JSON), made in the
// page from what it already holds; nothing is sent anywhere.

export function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

export function canvasPNG(canvas, name) {
  canvas.toBlob((b) => b && download(name, b), "image/png");
}

// A number as a spreadsheet reads one: a sign, digits with a decimal
// point, an exponent ("-1.5", "+2", "3e-7").
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A text cell made inert for a spreadsheet: one beginning with = + - @, a
 *  tab, a carriage return or a line feed, which a spreadsheet would run as
 *  a formula, gets a single quote before it, which the spreadsheet shows
 *  as text (OWASP's advice on CSV injection); a number stays as it is
 *  ("-1.5"). The one place the page's CSV files are made inert. */
export function inertCell(s) {
  return /^[=+\-@\t\r\n]/.test(s) && !NUMBER.test(s) ? `'${s}` : s;
}

const csvCell = (v, echo, delimiter) => {
  let s = typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : String(v ?? "");
  if (!echo && typeof v !== "number") s = inertCell(s);
  // Quoted when a reader could split or trim it otherwise (RFC 4180).
  return /["\r\n]|^\s|\s$/.test(s) || s.includes(delimiter) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** A CSV file's text: one line per row, each cell quoted where needed
 *  (numbers as JavaScript writes them, the shortest text that reads back
 *  as the same number; text made inert, inertCell). echo: the cells are
 *  the visitor's own, repeated as they are (a predictions file), and
 *  delimiter theirs (";" for a file that was so). */
export function toCSV(rows, { echo = false, delimiter = "," } = {}) {
  return rows.map((r) => r.map((v) => csvCell(v, echo, delimiter)).join(delimiter)).join("\n") + "\n";
}

export function textBlob(text, type) { return new Blob([text], { type }); }

// Characters XML 1.0 does not allow in a document (the C0 controls but
// tab, line feed and carriage return; U+FFFE, U+FFFF; a lone surrogate).
const NOT_XML = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes text for HTML or XML (SVG) markup. A control character becomes
 *  its visible picture (U+0001 as ␁), any other character XML does not
 *  allow U+FFFD, so that an exported SVG is well-formed whatever a name
 *  holds. */
export function escapeXML(s) {
  return String(s)
    .replace(NOT_XML, (c) => (c < " " ? String.fromCharCode(0x2400 + c.charCodeAt(0)) : "\uFFFD"))
    .replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

/** Text cut to at most n characters (the last one "…") for showing. */
export function clipText(s, n) {
  s = String(s);
  if (s.length <= n) return s;
  let end = n - 1;
  if (/[\uD800-\uDBFF]/.test(s[end - 1])) end--; // not half a character
  return s.slice(0, end) + "…";
}
