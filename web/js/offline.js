// offline.js: what the single offline file (web/offline) must say about
// itself. It carries every bundle and the Reproduce view; a bundle it does
// not carry (none today) is greyed out with the reason, and a browser that
// cannot unpack the file is told so at once instead of failing later.
import { bundles } from "./catalog.js";
import { canLoad } from "./sources.js";

const $ = (id) => document.getElementById(id);

/** Gates the page when it runs from the offline file; returns the reason
 *  the page cannot work here, or "". */
export function gateOffline() {
  if (!window.SPMTL_OFFLINE) return "";
  for (const b of bundles()) {
    const o = $("preset").querySelector(`option[value="${CSS.escape(b.name)}"]`);
    if (o && !canLoad(b)) {
      o.disabled = true;
      o.textContent += " (not in this file: use the served site)";
    }
  }
  return window.SPMTL_OFFLINE_PROBLEM || "";
}
