// intake.js: data from a file picker (a real button that opens it),
// drag-and-drop (the drop zone also opens the picker on Enter or Space) or
// paste. It hands on a File (read by the worker, off the page's thread) or
// the pasted text; parsing happens in the learner.

/** Wires the inputs; onData(src, name, err) is called with each data source,
 *  src being {file} or {text}. */
export function wireIntake({ drop, file, fileBtn, pasteBtn, pasteBox, paste, pasteLoad }, onData) {
  const takeFile = (f) => { if (f) onData({ file: f }, f.name); };
  fileBtn.addEventListener("click", () => file.click());
  file.addEventListener("change", () => { takeFile(file.files[0]); file.value = ""; });
  // The drop zone takes the keyboard too: Enter or Space opens the picker.
  drop.addEventListener("keydown", (e) => {
    if (e.target === drop && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); file.click(); }
  });
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    if (e.dataTransfer.files.length) takeFile(e.dataTransfer.files[0]);
    else {
      const t = e.dataTransfer.getData("text/plain");
      if (t) onData({ text: t }, "dropped text");
    }
  });
  pasteBtn.addEventListener("click", () => {
    pasteBox.hidden = !pasteBox.hidden;
    pasteBtn.setAttribute("aria-expanded", String(!pasteBox.hidden));
    if (!pasteBox.hidden) paste.focus();
  });
  pasteLoad.addEventListener("click", () => { if (paste.value.trim()) onData({ text: paste.value }, "pasted data"); });
}
