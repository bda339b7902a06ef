// published.js: a published run (core/publish says what it is). At
// start-up the page looks for one in itself: a manifest payload (the data
// set's name or the author's file with its column roles, and the recorded
// run with its model) and, for the author's file, a data payload. When it
// has one the page loads that data, with those columns and the run's
// settings, instead of its default data set, and shows the recorded run
// at once (run-open.js); nothing is trained until the reader asks.
// "Publish as a page" writes such a file from the run on screen: the
// offline page (fetched from this site, or, in the offline page, its own
// text as it was before the page's scripts changed it) with the run, its
// model and its data packed in (pack.js).
import { spmtlUnpack } from "./unpack.js";
import { MANIFEST_ID, DATA_ID, publishedPage, sha256 } from "./pack.js";
import { download, textBlob } from "./export.js";
import { showSlot } from "./notices.js";
import { bundle } from "./catalog.js";
import { defaultDataSet } from "./state.js";

const $ = (id) => document.getElementById(id);

// The offline page as it was, copied while its scripts start (every
// element is parsed by then, and none is changed yet): a copy of the tree
// shares the text of the payloads and takes ~2 ms, where writing out the
// page's text would take tens (it is written when publishing).
const pristine = window.SPMTL_OFFLINE ? document.documentElement.cloneNode(true) : null;

/** A payload element as unpack.js takes it. */
const packedOf = (el) => ({ codec: el.dataset.codec, gz: Number(el.dataset.gz), text: el.textContent });

// readPublished unpacks this page's manifest and, for the author's file,
// its data, checked against the SHA-256 recorded: {m, bytes}.
async function readPublished() {
  // An unpacking error says what of the page is damaged (a flipped byte
  // in the data once read "Failed to fetch", the decoder's words).
  const unpack = async (el, what) => {
    try { return await spmtlUnpack(packedOf(el)); } catch (e) { throw new Error(`its ${what} is damaged (${e.message})`); }
  };
  const text = await unpack($(MANIFEST_ID), "manifest");
  let m;
  try { m = JSON.parse(text); } catch (e) { throw new Error(`its manifest is damaged (${e.message})`); }
  if (!m || m.format !== "spmtl-published") throw new Error(`its manifest is of format ${m && m.format}, not spmtl-published`);
  if (m.version !== 1) throw new Error(`its manifest is of version ${m.version}, which this page does not read (it reads version 1): publish the run again`);
  const ref = m.data || {};
  if (ref.bundle) return { m, bytes: null };
  const d = $(DATA_ID);
  if (!d) throw new Error("it holds no data");
  const body = await unpack(d, "data");
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : new Uint8Array(body);
  const sum = ref.sha256 ? await sha256(bytes) : "";
  if (sum && sum !== ref.sha256) throw new Error("its data is damaged: their SHA-256 is not the one recorded");
  return { m, bytes };
}

// A published run is read at once, while the learner starts in its worker.
const reading = $(MANIFEST_ID) ? readPublished() : null;
if (reading) reading.catch(() => {}); // open() reports a failure

/** Wires the published run and "Publish as a page"; returns {active,
 *  open}: active says whether this page holds a published run, open()
 *  loads its data and shows it (else the default data set). */
export function wirePublished(app, { data, recorded }) {
  async function open() {
    try {
      const { m, bytes } = await reading;
      const ref = m.data || {};
      if (ref.bundle) {
        if (!bundle(ref.bundle)) throw new Error(`its data set ${ref.bundle} is not in this page`);
        const load = () => data.loadBundle(ref.bundle);
        recorded.present(m.run, { kind: "published", label: ref.bundle, reload: load }, load);
        return;
      }
      const file = new File([bytes], ref.file, { type: "text/plain" });
      const roles = { task: ref.task, label: ref.label, drop: ref.drop || [], text: ref.text || [], missing: ref.missing || "refuse", origin: ref.origin || "auto" };
      const load = () => data.loadOwn({ file }, ref.file, roles).catch(() => {});
      recorded.present(m.run, { kind: "published", label: ref.file, dataBytes: bytes, reload: load }, load);
    } catch (e) {
      // Said after the data set it falls back to has loaded: that load's
      // success clears the page's error, and the refusal was gone in
      // 0.2 s, the page looking like any offline page (hunt10).
      await Promise.resolve(data.loadBundle(defaultDataSet())).catch(() => {});
      app.showError(`This page's published run cannot be opened: ${e.message}. It shows its own data set instead.`);
    }
  }

  // The offline page to publish into: this page's own text, or the one
  // beside the served page.
  async function template() {
    if (pristine) return `<!doctype html>\n${pristine.outerHTML}`;
    const url = new URL("spmtl-offline.html", location.href);
    let resp;
    try { resp = await fetch(url); } catch (e) { throw new Error(`cannot fetch ${url.pathname}: ${e.message}`); }
    if (!resp.ok) throw new Error(`cannot fetch ${url.pathname} (HTTP ${resp.status}): publishing needs the offline page beside this one (./build.sh writes it)`);
    return resp.text();
  }

  // publish writes the run on screen, its model and its data into the offline page.
  async function publish() {
    const run = await recorded.file();
    if (!run || !run.results) throw new Error("train a run to its end, or show a recorded one, to publish it");
    const src = recorded.source();
    let ref, bytes = null;
    if (bundle(run.settings.data)) {
      ref = { bundle: run.settings.data, file: run.settings.data };
    } else {
      if (!src || !src.src) throw new Error("the run's data is no longer at hand: load the file again and train");
      if (src.src.splitText) throw new Error("a file with its own split file cannot be published from the page");
      bytes = src.src.file ? new Uint8Array(await src.src.file.arrayBuffer()) : new TextEncoder().encode(src.src.text);
      const o = src.opts || {};
      ref = { file: src.name, task: o.task, label: o.label, drop: o.drop || [], text: o.text || [], missing: o.missing === "omit" ? "omit" : undefined,
        origin: o.origin && o.origin !== "auto" ? o.origin : undefined };
    }
    ref.rows = run.data.rows;
    ref.tasks = run.data.tasks.length;
    const { html } = await publishedPage(await template(), { data: ref, run }, bytes);
    // No spaces in the saved name ("pasted data" is the paste box's).
    const name = `${String(ref.file).replace(/\.[^.]*$/, "").trim().replace(/\s+/g, "-")}-spmtl.html`;
    const blob = textBlob(html, "text/html");
    download(name, blob);
    return `Saved ${name} (${(blob.size / 1e6).toFixed(1)} MB): this run, its model and its data in one page. Opened from disk, with no network, it shows the run at once and reruns it with one click.`;
  }

  $("publish-page").addEventListener("click", async () => {
    // Disabled while it works, the button drops the keyboard's focus to
    // the page's body; it takes it back when it is offered again.
    const focused = document.activeElement === $("publish-page");
    $("publish-page").disabled = true;
    $("publish-status").textContent = "Publishing…";
    try {
      $("publish-status").textContent = await publish();
      showSlot("publish-error", "");
    } catch (e) {
      $("publish-status").textContent = "";
      showSlot("publish-error", `Cannot publish: ${e.message}`);
    }
    offer();
    const now = document.activeElement;
    if (focused && !$("publish-page").disabled && (!now || now === document.body)) $("publish-page").focus();
  });
  const offer = () => { $("publish-page").disabled = !app.results || app.state !== "done"; };
  for (const ev of ["reset", "results", "state"]) app.on(ev, offer);
  // What was saved is of the run before: a new run or data set takes the
  // status off, as it takes the run off.
  for (const ev of ["reset", "run"]) app.on(ev, () => { $("publish-status").textContent = ""; });
  offer();
  return { active: !!reading, open };
}
