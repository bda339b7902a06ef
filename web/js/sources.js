// sources.js: where a bundled data set's files come from: the offline single
// file's own copy (window.SPMTL_PRESETS, see web/offline) or data/ next to
// the page, and so whether this page can load a bundle at all.
import { bundleFiles } from "./catalog.js";

const embedded = () => window.SPMTL_PRESETS || null;

/** Where a bundled file ("landmine/data.csv") is: {packed} when the page
 *  carries it (the offline file's packed payload, unpacked by a worker:
 *  web/js/unpack.js), else {url} (fetched by a worker, never by the
 *  page's thread). */
export function fileSource(rel) {
  const copy = embedded() && embedded()[rel];
  return copy ? { packed: copy() } : { url: new URL(`data/${rel}`, location.href).href };
}

/** Whether the page can load bundle b: generated, served, or carried in
 *  the offline file. */
export function canLoad(b) {
  if (b.generated || !window.SPMTL_OFFLINE) return true;
  return bundleFiles(b).every((rel) => embedded() && embedded()[rel]);
}

/** A bundle's data and split files as one source: {packed | url, tableURL,
 *  splitPacked | splitURL}. A served CSV has a binary table beside it
 *  (data.packed, written by ./build.sh with spmtl pack), which the worker
 *  reads instead when it can: the same data set without parsing numbers. */
export function bundleSource(b) {
  const src = fileSource(b.data);
  if (src.url && /\.csv$/.test(b.data)) src.tableURL = new URL(`data/${b.data.replace(/\.csv$/, ".packed")}`, location.href).href;
  if (b.splits) {
    const sp = fileSource(b.splits);
    if (sp.packed !== undefined) src.splitPacked = sp.packed; else src.splitURL = sp.url;
  }
  return src;
}
