// repro-panel.js: wires the Reproduce view: one box per bundled data set
// of the catalogue (the page's default one ticked), its controls, the
// worker factory for the pool, its error line (beside its buttons), and the
// window.spmtlApp.repro read-out.
import { Reproduction } from "./repro.js";
import { giveModule } from "./client.js";
import { bundles } from "./catalog.js";
import { defaultDataSet } from "./state.js";
import { showSlot } from "./notices.js";

const $ = (id) => document.getElementById(id);

/** Wires the Reproduce view. */
export function wireRepro(app) {
  const sets = $("repro-sets");
  const ticked = defaultDataSet();
  for (const b of bundles()) {
    const label = document.createElement("label");
    label.className = "check";
    label.title = b.title;
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = b.name;
    box.checked = b.name === ticked;
    label.append(box, ` ${b.name}`);
    sets.append(label);
  }
  const makeWorker = () => {
    if (window.SPMTL_MAKE_REPRO_WORKER) return window.SPMTL_MAKE_REPRO_WORKER();
    const w = new Worker(new URL("./repro-worker.js", import.meta.url));
    giveModule(w);
    return w;
  };
  const repro = new Reproduction({
    datasets: () => Array.from(sets.querySelectorAll("input:checked")).map((i) => i.value),
    runs: $("repro-runs"), quick: $("repro-quick"), variant: $("repro-variant"),
    start: $("repro-start"), cancel: $("repro-cancel"), bar: $("repro-bar"), status: $("repro-status"), clock: $("repro-clock"), table: $("repro-table"),
    exportCSV: $("repro-csv"), exportJSON: $("repro-json"), exportMD: $("repro-md"), onError: (msg) => showSlot("repro-error", msg),
  }, makeWorker);
  // "quick" suggests its run count (3, or 10 without it) only while the
  // field still holds the count the page put there: a count the visitor
  // typed is theirs to keep.
  let suggested = $("repro-runs").value;
  $("repro-quick").addEventListener("change", () => {
    if ($("repro-runs").value !== suggested) return;
    suggested = $("repro-runs").value = $("repro-quick").checked ? "3" : "10";
  });
  // Before a start, the table's rows follow the variant menu.
  $("repro-variant").addEventListener("change", () => { if (repro.state === "idle") repro.render(); });
  window.spmtlApp.repro = () => ({ state: repro.state, final: repro.final, partial: repro.partial });
}
