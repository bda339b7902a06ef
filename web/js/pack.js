// pack.js: the page's side of packing a published run (the encoder
// unpack.js undoes; core/publish writes the same from the command line):
// gzip with the browser's CompressionStream, base-122 text, and the
// offline page with the run's manifest and data file put in as two
// <script type="application/octet-stream"> elements, which the page reads
// at start-up (published.js) and never executes.

/** The published payloads' element ids (core/publish ManifestID, DataID). */
export const MANIFEST_ID = "spmtl-publish";
export const DATA_ID = "spmtl-publish-data";

// The 7-bit groups base-122 writes as two-byte characters: NUL, CR and '<'
// (core/publish/pack.go b122Illegal; unpack.js reads them back).
const ILLEGAL = [0, 13, 60];

/** Base-122 text of bytes: 7 bits a character, an illegal group and the
 *  one after it as one character U+0080 + (index << 7 | next). */
export function b122(bytes) {
  const groups = new Uint8Array(Math.ceil((bytes.length * 8) / 7));
  let acc = 0, bits = 0, g = 0;
  for (let i = 0; i < bytes.length; i++) {
    acc = ((acc << 8) | bytes[i]) & 0x7fff;
    bits += 8;
    while (bits >= 7) { bits -= 7; groups[g++] = (acc >> bits) & 0x7f; }
  }
  if (bits > 0) groups[g++] = (acc << (7 - bits)) & 0x7f;
  const codes = new Uint16Array(g);
  let n = 0;
  for (let i = 0; i < g; i++) {
    const ill = ILLEGAL.indexOf(groups[i]);
    if (ill < 0) { codes[n++] = groups[i]; continue; }
    const next = i + 1 < g ? groups[++i] : 0;
    codes[n++] = 0x80 + ((ill << 7) | next);
  }
  let text = "";
  for (let i = 0; i < n; i += 8192) text += String.fromCharCode.apply(null, codes.subarray(i, Math.min(n, i + 8192)));
  return text;
}

/** Gzips bytes (a Uint8Array) with CompressionStream. */
export async function gzip(bytes) {
  if (typeof CompressionStream === "undefined") throw new Error("this browser cannot compress (it has no CompressionStream): publish from a current Chrome, Edge, Firefox or Safari");
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Packs bytes as a payload {codec, gz, raw, text}: "bin" for a data file
 *  (given back byte for byte), "gz" for the manifest (given back as text). */
export async function packPayload(codec, bytes) {
  const gz = await gzip(bytes);
  return { codec, gz: gz.length, raw: bytes.length, text: b122(gz) };
}

/** A payload's element, as core/publish writes it. */
export function payloadElement(id, p) {
  return `<script type="application/octet-stream" id="${id}" data-codec="${p.codec}" data-gz="${p.gz}" data-bytes="${p.raw}">${p.text}</script>\n`;
}

/** The SHA-256 of bytes in hex, or "" where the browser offers none (a
 *  page served over plain HTTP from another machine). */
export async function sha256(bytes) {
  if (!(globalThis.crypto && crypto.subtle)) return "";
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The offline page's first payload, at the start of a line: the published
// ones go just before it. (Written with escapes, so that this script's own
// text, inlined in the offline page, is not taken for it.)
const WASM_MARK = "\n<script type=\"application/octet-stream\" id=\"spmtl-wasm\"";
// A published payload already in the page (base-122 holds no '<').
const PUBLISHED_RE = /<script type="application\/octet-stream" id="spmtl-publish(?:-data)?"[^>]*>[^<]*<\/script>\n?/g;

/** The offline page's text (template) with a published run in it, in
 *  place of any it held: the manifest, and the data file's bytes (null for
 *  a bundled data set, which the page carries). Fills in the manifest's
 *  data size and SHA-256. Resolves with {html, sizes}. */
export async function publishedPage(template, manifest, bytes) {
  if (template.split(WASM_MARK).length !== 2) throw new Error("the page to publish into is not the offline page (spmtl-offline.html): it holds no packed learner");
  const page = template.replace(PUBLISHED_RE, "");
  let els = "";
  const sizes = { template: page.length, data: 0, manifest: 0 };
  const m = Object.assign({}, manifest, { format: "spmtl-published", version: 1 });
  if (bytes) {
    m.data = Object.assign({}, m.data, { bytes: bytes.length, sha256: await sha256(bytes) });
    const p = await packPayload("bin", bytes);
    els += payloadElement(DATA_ID, p);
    sizes.data = p.text.length;
  }
  const p = await packPayload("gz", new TextEncoder().encode(JSON.stringify(m)));
  sizes.manifest = p.text.length;
  const html = page.replace(WASM_MARK, () => "\n" + payloadElement(MANIFEST_ID, p) + els + WASM_MARK.slice(1));
  return { html, sizes };
}
