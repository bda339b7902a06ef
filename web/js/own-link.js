// own-link.js: a link made on a visitor's own file. Such a link carries the
// file's name, its SHA-256, its column roles and the run's settings, never
// the file. A page opened on it shows, in a notice at the top, what the
// link holds and waits for the file (meanwhile the default data set shows,
// with its own settings: no mix of the link's and a preset's). Given a
// file, the page says whether it is the one the link was made with (the
// SHA-256 of its bytes, from the browser's Web Crypto) and reads it with
// the link's column roles; the link's settings then apply as a whole
// (data.js).
import { settingName } from "./checks.js";
import { baseSettings, roleKeys, OWN_DATA } from "./state.js";
import { clipText } from "./export.js";
import { visibleName } from "./labels.js";

// shown is a value the link gives, as the note quotes it: cut to 60
// characters and its bidi controls escaped. A link's task column of 2
// million characters made the page 16 million pixels wide.
const shown = (v) => visibleName(clipText(String(v), 60));

const $ = (id) => document.getElementById(id);

let held = null; // the link waiting for its file (state.js ownLink)
let wired = false;

/** The first hex digits of a SHA-256, as the notices show it. */
export const shortSHA = (hex) => `${hex.slice(0, 16)}…`;

/** Keeps link (state.js ownLink's answer; null: none) until a file is
 *  given, and shows what it holds. */
export function holdOwnLink(link) {
  held = link;
  wire();
  if (link) showOwnNote(heldText(link), true);
  else hideOwnNote();
}

/** Takes the link waiting for a file (null when none). */
export function takeOwnLink() {
  const l = held;
  held = null;
  return l;
}

/** The SHA-256 of a visitor's data (src: {file} or {text}; text as its
 *  UTF-8 bytes) as hex, or null where the browser offers no Web Crypto
 *  (a page served over plain http from another machine). */
export async function fileDigest(src) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) return null;
  const bytes = src.file ? await src.file.arrayBuffer() : new TextEncoder().encode(String(src.text ?? ""));
  const d = await subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Says whether the data named name, whose SHA-256 is sha (null: not
 *  computed), is the file link was made with; the settings apply either way. */
export function verdict(link, name, sha) {
  const made = link.file ? `, ${link.file}` : "";
  if (!link.sha256) return `The link carries no SHA-256 of the file it was made with${made}, so the page cannot tell whether ${name} is that file; the link's settings are applied anyway.`;
  if (!sha) return `This page cannot compute a SHA-256 (the browser's Web Crypto needs https, localhost or a file opened from disk), so it cannot tell whether ${name} is the file the link was made with${made}; the link's settings are applied anyway.`;
  if (sha === link.sha256) return `${name}: this is the file the link was made with (SHA-256 ${shortSHA(sha)}); it is read with the link's column roles and settings. Press Play to train.`;
  return `${name}: this file differs from the one the link was made with${made} (its SHA-256 is ${shortSHA(sha)}, the link's ${shortSHA(link.sha256)}); the link's column roles and settings are applied anyway.`;
}

/** Shows text in the own-file link's notice; asking offers the file picker. */
export function showOwnNote(text, asking = false) {
  wire();
  $("own-link-text").textContent = text;
  $("own-link-file").hidden = !asking;
  $("own-link").hidden = false;
}

/** Hides the own-file link's notice. */
export function hideOwnNote() { $("own-link").hidden = true; }

// heldText: what a link waiting for its file holds, in words.
function heldText(link) {
  const base = baseSettings(OWN_DATA), s = link.settings;
  const named = (k) => `${settingName(k).replace(/^the /, "")} ${shown(s[k])}`;
  const roles = roleKeys().filter((k) => s[k] !== "" && (s[k] !== base[k] || k === "task" || k === "label")).map(named);
  const changed = Object.keys(s).filter((k) => k !== "data" && !roleKeys().includes(k) && s[k] !== base[k]).map(named);
  const file = (link.file ? `${shown(link.file)}, a file of your own` : "a file of your own") + (link.sha256 ? ` (SHA-256 ${shortSHA(link.sha256)})` : "");
  return `This link was made with ${file}, which it does not carry: your data never leaves your machine. Choose that file and the page reads it with the link's ${roles.join(", ")}`
    + (changed.length ? `, and trains with its ${changed.join(", ")}` : ", and trains with the settings a file of your own starts from")
    + ". Until then the page shows a bundled data set with that data set's own settings.";
}

// wire connects the notice's buttons, once.
function wire() {
  if (wired) return;
  wired = true;
  $("own-link-file").addEventListener("click", () => $("file").click());
  $("own-link-close").addEventListener("click", () => { held = null; hideOwnNote(); });
}
