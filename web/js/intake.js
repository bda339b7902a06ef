// intake.js: data from a file picker, drag-and-drop or paste. It only reads
// the text locally and hands it on; parsing happens in the learner.

/** Reads the header of a CSV text (empty for the sparse format). */
export function csvHeader(text) {
  const first = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] || "";
  if (!first.includes(",")) return [];
  return first.split(",").map((s) => s.trim().replace(/^"(.*)"$/, "$1"));
}

/** Wires the inputs; onText(text, name) is called with each data text. */
export function wireIntake({ drop, file, pasteBtn, pasteBox, paste, pasteLoad }, onText) {
  const readFile = (f) => {
    if (!f) return;
    const r = new FileReader();
    r.onload = () => onText(String(r.result), f.name);
    r.onerror = () => onText(null, f.name, new Error(`cannot read ${f.name}`));
    r.readAsText(f);
  };
  file.addEventListener("change", () => { readFile(file.files[0]); file.value = ""; });
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files.length) readFile(e.dataTransfer.files[0]);
    else {
      const t = e.dataTransfer.getData("text/plain");
      if (t) onText(t, "dropped text");
    }
  });
  pasteBtn.addEventListener("click", () => { pasteBox.hidden = !pasteBox.hidden; if (!pasteBox.hidden) paste.focus(); });
  pasteLoad.addEventListener("click", () => { if (paste.value.trim()) onText(paste.value, "pasted data"); });
}
