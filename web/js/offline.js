// offline.js: what the single offline file (web/offline) cannot do: it
// carries only some bundles and no reproduction workers, so the preset menu
// greys out the others and the Reproduce view is hidden (README, "Offline").
import { bundles } from "./catalog.js";
import { canLoad } from "./sources.js";

const $ = (id) => document.getElementById(id);

/** Gates the page when it runs from the offline file. */
export function gateOffline() {
  if (!window.SPMTL_OFFLINE) return;
  $("repro-panel").hidden = true;
  for (const b of bundles()) {
    const o = $("preset").querySelector(`option[value="${CSS.escape(b.name)}"]`);
    if (o && !canLoad(b)) {
      o.disabled = true;
      o.textContent += " (needs the served site)";
    }
  }
}
