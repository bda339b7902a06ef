// unpack.js: undoes the packing of the offline file's payloads and of a
// published run's (core/publish/pack.go says how they are packed): base-122
// text to bytes, gunzip with the browser's DecompressionStream, then the
// file's codec. An ES module for the page's thread, which reads a
// published run (published.js); web/offline joins it, its exports made
// plain functions, into the offline workers' sources, which unpack the
// wasm and the bundled data sets. The tests run it in node.
"use strict";

/** The 7-bit groups base-122 writes as two-byte characters (pack.go). */
const SPMTL_B122_ILLEGAL = [0, 13, 60];

/** Base-122 text → the n bytes it holds. */
export function spmtlB122(text, n) {
  const d = spmtlB122Reader(text, n);
  const out = d.next(text.length);
  d.done();
  return out;
}

/** Reads base-122 text that holds n bytes a slice at a time: next(k)
 *  returns the bytes the next k characters hold; done() says whether it
 *  has read them all, and throws if the text ended before the n bytes. */
function spmtlB122Reader(text, n) {
  let acc = 0, bits = 0, o = 0, i = 0;
  return {
    next(k) {
      const end = Math.min(text.length, i + k);
      const out = new Uint8Array(Math.min(n - o, 2 * (end - i))); // a character holds at most 14 bits
      let w = 0;
      // By hand, one loop: 1.5 M characters for the wasm, before the learner can start.
      for (; i < end && o < n; i++) {
        const c = text.charCodeAt(i);
        let g = c, low = -1;
        if (c >= 0x80) {
          const v = c - 0x80, x = v >> 7;
          if (x >= SPMTL_B122_ILLEGAL.length) throw new Error(`offline file: a damaged payload (character U+${c.toString(16)} at ${i})`);
          g = SPMTL_B122_ILLEGAL[x];
          low = v & 0x7f;
        }
        acc = ((acc << 7) | g) & 0x7fff;
        bits += 7;
        if (bits >= 8) { bits -= 8; out[w++] = (acc >> bits) & 0xff; o++; }
        if (low >= 0 && o < n) {
          acc = ((acc << 7) | low) & 0x7fff;
          bits += 7;
          if (bits >= 8) { bits -= 8; out[w++] = (acc >> bits) & 0xff; o++; }
        }
      }
      return w === out.length ? out : out.subarray(0, w);
    },
    done() {
      if (o >= n) return true;
      if (i >= text.length) throw new Error(`offline file: a payload ends after ${o} of ${n} bytes`);
      return false;
    },
  };
}

/** A packed payload's bytes as a stream, unpacked 64 K characters at a
 *  time, so that what reads it (the wasm's WebAssembly.compileStreaming)
 *  works while the rest is still being unpacked. */
export function spmtlUnpackStream(p) {
  spmtlCanGunzip();
  const d = spmtlB122Reader(p.text, p.gz);
  const gz = new ReadableStream({
    pull(c) {
      try {
        const b = d.next(1 << 16);
        if (b.length) c.enqueue(b);
        if (d.done()) c.close();
      } catch (e) {
        c.error(e);
      }
    },
  });
  return gz.pipeThrough(new DecompressionStream("gzip"));
}

/** Throws, saying what to do, when this browser has no DecompressionStream. */
function spmtlCanGunzip() {
  if (typeof DecompressionStream === "undefined") {
    throw new Error("this browser cannot unpack the offline file (it has no DecompressionStream): open it in a current Chrome, Edge, Firefox or Safari, or use the served site");
  }
}

/** Gunzips bytes (a Uint8Array) with DecompressionStream. */
export async function spmtlGunzip(bytes) {
  spmtlCanGunzip();
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A codec's container: uvarint length, JSON description, byte streams. */
function spmtlContainer(bytes) {
  const r = spmtlVarints(bytes);
  const n = r.next();
  const meta = JSON.parse(new TextDecoder().decode(bytes.subarray(r.pos, r.pos + n)));
  let p = r.pos + n;
  const streams = meta.streams.map((len) => { const s = bytes.subarray(p, p + len); p += len; return s; });
  return { meta, streams };
}

/** A reader of LEB128 unsigned varints (Go's binary.AppendUvarint). */
function spmtlVarints(bytes) {
  const r = {
    pos: 0,
    next() {
      let x = 0, mul = 1;
      for (;;) {
        const b = bytes[r.pos++];
        if (b === undefined) throw new Error("offline file: a varint stream ends early");
        x += (b & 0x7f) * mul;
        if (b < 0x80) return x;
        mul *= 128;
      }
    },
  };
  return r;
}

/** float64 values stored byte plane by byte plane (little-endian). */
function spmtlPlanes(bytes) {
  const n = bytes.length / 8, out = new Float64Array(n), dv = new DataView(new ArrayBuffer(8));
  for (let i = 0; i < n; i++) {
    for (let p = 0; p < 8; p++) dv.setUint8(p, bytes[p * n + i]);
    out[i] = dv.getFloat64(0, true);
  }
  return out;
}

/** csv-f64: the header, the text columns, the numbers (shortest form, or
 *  as the file wrote them where the packer kept an exception). */
function spmtlCSVF64(c) {
  const { header, kinds, rows, exceptions = 0 } = c.meta;
  const texts = new TextDecoder().decode(c.streams[0]).split("\n"), nums = spmtlPlanes(c.streams[1]);
  const exc = new Map();
  if (exceptions) {
    const gaps = spmtlVarints(c.streams[2]), toks = new TextDecoder().decode(c.streams[3]).split("\n");
    for (let i = 0, pos = 0; i < exceptions; i++) { pos += gaps.next(); exc.set(pos, toks[i]); }
  }
  const out = [header];
  let t = 0, f = 0;
  const cells = new Array(kinds.length);
  for (let r = 0; r < rows; r++) {
    for (let k = 0; k < kinds.length; k++) {
      if (kinds[k] === "t") { cells[k] = texts[t++]; continue; }
      cells[k] = exc.has(f) ? exc.get(f) : String(nums[f]);
      f++;
    }
    out.push(cells.join(","));
  }
  return out.join("\n") + "\n";
}

/** svm-tfidf: every value recomputed as pack.go's tfidfValues does. */
function spmtlTFIDF(c) {
  const m = c.meta, [rowMeta, gaps, counts, dfs, idfs, exc, excText] = c.streams;
  const rm = spmtlVarints(rowMeta), gp = spmtlVarints(gaps), ct = spmtlVarints(counts);
  // Indices first: the document frequencies come from the data itself.
  const tasks = new Int32Array(m.rows), labels = new Int32Array(m.rows), nnz = new Int32Array(m.rows);
  const idx = new Int32Array(m.values), cnt = new Float64Array(m.values);
  const df = new Map();
  let pos = 0;
  for (let r = 0; r < m.rows; r++) {
    tasks[r] = rm.next(); labels[r] = rm.next(); nnz[r] = rm.next();
    let j = 0;
    for (let k = 0; k < nnz[r]; k++, pos++) {
      j += gp.next();
      idx[pos] = j;
      cnt[pos] = ct.next();
      df.set(j, (df.get(j) || 0) + 1);
    }
  }
  const idfOf = new Map(), dv = spmtlVarints(dfs), iv = spmtlPlanes(idfs);
  for (let i = 0; i < iv.length; i++) idfOf.set(dv.next(), iv[i]);
  const ex = spmtlVarints(exc), exTok = m.exceptions ? new TextDecoder().decode(excText).split("\n") : [];
  let nextExc = m.exceptions ? ex.next() : -1, ei = 0;
  const out = [];
  pos = 0;
  for (let r = 0; r < m.rows; r++) {
    let s = 0;
    for (let k = 0; k < nnz[r]; k++) { const w = cnt[pos + k] * idfOf.get(df.get(idx[pos + k])); s += w * w; }
    const norm = Math.sqrt(s);
    const parts = [m.tasks[tasks[r]], m.labels[labels[r]]];
    for (let k = 0; k < nnz[r]; k++, pos++) {
      let tok;
      if (pos === nextExc) {
        tok = exTok[ei++];
        nextExc = ei < m.exceptions ? nextExc + ex.next() : -1;
      } else {
        const v = (cnt[pos] * idfOf.get(df.get(idx[pos]))) / norm;
        tok = String(Number(v.toPrecision(6)));
      }
      parts.push(idx[pos] + ":" + tok);
    }
    out.push(parts.join(" "));
  }
  return out.join("\n") + "\n";
}

/** csv-codes: the row numbers, and each column's words by their codes
 *  (one byte per row, column after column), as pack.go's unpackCSVCodes. */
function spmtlCSVCodes(c) {
  const { header, rows, words } = c.meta, codes = c.streams[0];
  const out = [header];
  for (let r = 0; r < rows; r++) {
    let line = String(r);
    for (let j = 0; j < words.length; j++) line += "," + words[j][codes[j * rows + r]];
    out.push(line);
  }
  return out.join("\n") + "\n";
}

/** Unpacks a payload {codec, text, gz}: an ArrayBuffer for "bin" (the
 *  wasm), a Uint8Array for "packed" (a packed table), else the file's text. */
export async function spmtlUnpack(p) {
  const bytes = await spmtlGunzip(spmtlB122(p.text, p.gz));
  switch (p.codec) {
    case "bin": return bytes.buffer;
    case "packed": return bytes; // a packed table (app.Pack), which the learner reads as a data set
    case "gz": return new TextDecoder().decode(bytes);
    case "csv-f64": return spmtlCSVF64(spmtlContainer(bytes));
    case "svm-tfidf": return spmtlTFIDF(spmtlContainer(bytes));
    case "csv-codes": return spmtlCSVCodes(spmtlContainer(bytes));
    default: throw new Error(`offline file: unknown payload codec ${p.codec}`);
  }
}
