// notices.js: errors shown where they happen. A panel's error line sits
// beside the control that failed (the data panel's, Play's, the sweep's,
// the reproduction's, tuning's, the model panel's); a setting's error sits
// under its field, which gets aria-invalid="true" and the message tied to
// it by aria-describedby. The page's top banner is only for errors that
// belong nowhere else (app.showError). Each is cleared by the next success.

const $ = (id) => document.getElementById(id);

/** Shows msg in the error line with this id (an empty msg hides it). */
export function showSlot(id, msg) {
  const el = $(id);
  if (!el) return;
  el.textContent = msg || "";
  el.hidden = !msg;
}

// Which field a message from the learner is about (first match wins).
const fieldWords = [
  [/lambda0|λ0/, "lambda0"], [/\brho\b|ρ/, "rho"], [/pace c|setting c\b/, "c"], [/\bh must|setting h\b/, "h"],
  [/maxIter|max iterations/, "maxIter"], [/train size|training rows|train rows|split: no task/, "train"],
  [/\bseed\b/, "seed"], [/\btau rule\b|τ rule/, "tau"], [/\bloss\b/, "loss"], [/\bvariant\b/, "variant"],
  [/\bintercept\b|κ/, "intercept"],
];

/** The settings field a message names (its id), or "". */
export function fieldOf(message) {
  for (const [re, id] of fieldWords) if (re.test(message)) return id;
  return "";
}

// describedBy adds or removes an id in an element's aria-describedby.
function describedBy(el, id, on) {
  const ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter((x) => x && x !== id);
  if (on) ids.push(id);
  if (ids.length) el.setAttribute("aria-describedby", ids.join(" ")); else el.removeAttribute("aria-describedby");
}

/** Marks the field with this id invalid and shows msg under it; an empty msg clears it. */
export function fieldError(field, msg) {
  const input = $(field);
  if (!input) return;
  const id = `${field}-error`;
  let note = $(id);
  if (!note && msg) {
    note = document.createElement("span");
    note.id = id;
    note.className = "field-error";
    // Kept out of the label's own name; read as the field's description.
    note.setAttribute("aria-hidden", "true");
    (input.closest("label") || input.parentElement).append(note);
  }
  if (note) { note.textContent = msg || ""; note.hidden = !msg; }
  if (msg) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  describedBy(input, id, !!msg);
}

/** Clears the errors of these fields. */
export function clearFieldErrors(fields) { for (const f of fields) fieldError(f, ""); }

/** Every error the page shows now: {element id: text}. */
export function visibleErrors() {
  const out = {};
  for (const el of document.querySelectorAll(".error, .data-error, .panel-error, .field-error")) {
    if (!el.hidden && el.textContent) out[el.id || el.className] = el.textContent;
  }
  return out;
}
