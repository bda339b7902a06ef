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

const csvCell = (v) => {
  const s = typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : String(v ?? "");
  // Quoted when a reader could split or trim it otherwise (RFC 4180).
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** A CSV file's text: one line per row, each cell quoted where needed
 *  (numbers as JavaScript writes them, the shortest text that reads back
 *  as the same number; strings as they are). */
export function toCSV(rows) {
  return rows.map((r) => r.map(csvCell).join(",")).join("\n") + "\n";
}

export function textBlob(text, type) { return new Blob([text], { type }); }

/** Escapes text for HTML or XML (SVG) markup. */
export function escapeXML(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}
