// data.js: the data panel. It loads a bundled data set (the preset menu,
// the seed of a generated one) exactly as shipped, or a visitor's own file,
// pasted or dropped text (intake.js) in the worker. A visitor's file is
// read with the columns the visitor chose, "task" and "y" at first: the
// learner never guesses. A file without a column of either name is not an
// error but a first step: a neutral prompt beside the two column menus
// (which offer exactly the file's header columns) asks for the missing
// ones, with suggestions (column-hints.js) the visitor may take in one
// click; the file is read once both are chosen, and only then can it be
// refused. Play or Step before that is the visitor's mistake, said in red.
// When the file is refused (a bad value, a column that cannot be the task
// or the label) the refusal is shown here, in the data panel, with the
// menus; choosing a column re-parses. A
// refusal that a column left out would take away (a missing value, a word in
// a numeric column) offers a button that reads the file again without it,
// and one that a column read as words would take away (0, 1, 2, 3+) a
// button that reads it so; one that asks for another task or label column
// points at its menu.
// After a CSV is read, every column is listed with its role (task, label,
// numeric, text one-hot, left out or refused with the reason) and a menu of
// the roles it may take; choosing one re-loads the file so. The table and
// the two column menus are columns.js's, at any width of file.
import { bundle, presetSettings } from "./catalog.js";
import { bundleSource } from "./sources.js";
import { writeHash, OWN_DATA, startingPoint, rolesOf, roleSettings, dropOwnKeys, originWords } from "./state.js";
import { wireIntake } from "./intake.js";
import { holdOwnLink, takeOwnLink, fileDigest, verdict, showOwnNote } from "./own-link.js";
import { ColumnMenu, ColumnsTable, Columns, columnsOf, grouped, plural, typicalRows, SMALL_TASKS } from "./columns.js";
import { suggestColumns, SAMPLE_BYTES } from "./column-hints.js";

const $ = (id) => document.getElementById(id);

// menuNames names the column menus for a refusal's remedy (core/data Remedy).
const menuNames = { task: "Task column", label: "Label column" };

// yieldToPage lets the browser handle input and paint before more work.
const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));

const delimiterWords = { semicolon: ";", tab: "tab" };

// copyRoles is a copy of a file's column roles, its rule for rows that
// miss a value and its features' origin ({task, label, drop, text,
// missing, origin}: the schema's data group, as rolesOf reads it from
// settings).
const copyRoles = (r) => ({ task: r.task, label: r.label, drop: (r.drop || []).slice(), text: (r.text || []).slice(), missing: r.missing || "refuse", origin: r.origin || "auto" });

/** Wires the data panel; returns {loadBundle, loadOwn}. */
export function wireData(app, form) {
  const client = app.client;
  // own is the visitor's file while it is the data panel's subject:
  // {src, name, task, label, drop, text, missing, good} where good is the column choice of
  // its last successful parse (null before one). null while a bundle is.
  let own = null;
  let parses = 0; // counts the data sets asked for (a preset, a parse of own); the latest one decides

  // remedyBox holds what the page offers beside a refusal (see showDataError).
  const remedyBox = document.createElement("div");
  remedyBox.id = "data-remedy";
  remedyBox.hidden = true;
  $("data-error").after(remedyBox);

  // The column menus and the Columns table (columns.js), whatever the file's width.
  const menus = {
    task: new ColumnMenu($("task-col"), $("task-col-find"), $("task-col-note")),
    label: new ColumnMenu($("label-col"), $("label-col-find"), $("label-col-note")),
  };
  const columnsTable = new ColumnsTable($("columns-wrap"));

  // app.source says how the loaded data set was read, so that other workers
  // (the tuning pool) can read the same: {src, name, opts} or {generate: {name, seed}}.
  app.source = null;

  // beginLoading: another data set is on its way ("loading" ends the run on
  // the one before: controller.js).
  function beginLoading() {
    hidePrompt();
    app.emit("loading");
    app.move("load");
  }

  /** Loads the bundled data set name (generated or read from its files), as shipped. */
  async function loadBundle(name) {
    own = null;
    const gen = ++parses;
    beginLoading();
    try {
      const b = bundle(name);
      if (!b) throw new Error(`no bundled data set ${name}`);
      let summary, source;
      if (b.generated) {
        const seed = Number(app.settings.seed) || 1;
        summary = await client.request("generate", { name, seed });
        source = { generate: { name, seed } };
      } else {
        // Its own columns ("task" and "y", or the sparse format): no choice
        // made for another file reaches a preset.
        const src = bundleSource(b);
        const loading = client.request("load", Object.assign({ name: b.data, opts: {} }, src));
        app.emit("loadsent", loading); // a run waiting for it may be asked for now (controller.js)
        summary = await loading;
        source = { src, name: b.data, opts: {} };
      }
      await loaded(summary, name, source, false, gen);
    } catch (e) {
      if (gen !== parses) return; // a data set asked for since is on its way
      app.move("loadFailed");
      showDataError(e.message);
    }
  }

  /** Loads a visitor's file or text (src: {file} or {text}, and a split),
   *  with the columns roles names ({task, label, drop, text, missing}: a published
   *  run's), else "task" and "y" until the visitor chooses others.
   *  Resolves with the summary (null if another data set was asked for
   *  meanwhile), rejects with the refusal (also shown in the data panel). */
  function loadOwn(src, name, roles = {}) {
    own = Object.assign({ src, name, good: null, pending: null }, copyRoles(roles), { task: roles.task || "task", label: roles.label || "y" });
    own.digest = fileDigest(src).catch(() => null);
    $("preset").value = OWN_DATA;
    return parseOwn(true);
  }

  let expected = null; // {settings, name}: a saved run's own file, awaited (expectOwn)
  // held: the visitor's file last read in this tab ({src, name, sha}),
  // kept when another data set is loaded: going Back to its history entry
  // reads it again (main.js), where the entry read as a link made
  // elsewhere showed the default data set and asked for the file, and
  // wrote the default's hash over the entry.
  let held = null;

  // giveFile loads the file a visitor gave. A link made on a file of their
  // own waits for it (own-link.js): the file is read with the link's
  // column roles, its first reading takes the link's settings as a whole,
  // and the page says whether the file is the one the link was made with.
  function giveFile(src, name) {
    const link = takeOwnLink();
    // A saved run shown without its data (run-open.js) reads its file,
    // given by its name, with the run's column roles and settings.
    const run = !link && expected && expected.name === name ? expected : null;
    expected = null;
    const from = link || run;
    const loading = loadOwn(src, name, from ? rolesOf(from.settings) : {});
    if (run) own.start = run.settings;
    if (link) {
      own.start = link.settings;
      $("link-note").hidden = true;
      own.digest.then((sha) => showOwnNote(verdict(link, name, sha)));
    }
    loading.catch(() => {});
  }

  // noteFile puts the name and SHA-256 of the visitor's file o into the
  // settings and the link, once its digest is in; given the link that
  // named another file ({file, sha256}), it says whether o is that file.
  function noteFile(o, link = null) {
    o.digest.then((sha) => {
      if (sha && o.good) held = { src: o.src, name: o.name, sha };
      if (own !== o || app.settings.data !== OWN_DATA) return;
      if (link && link.sha256 && link.sha256 !== sha) showOwnNote(verdict(link, o.name, sha));
      Object.assign(app.settings, { file: o.name, sha256: sha || "" });
      writeHash(app.settings);
    });
  }

  /** Reads the visitor's file again with other column roles ({task,
   *  label, drop, text, missing}); resolves with the summary (null if another data
   *  set was asked for meanwhile), rejects with the refusal (the file stays
   *  loaded as it was). */
  function reloadOwn(roles) {
    if (!own || !own.good) return Promise.reject(new Error("no file of the visitor's is loaded"));
    Object.assign(own, copyRoles(roles));
    return parseOwn(false);
  }

  // A link on a visitor's file opened where one is loaded (main.js has
  // read it into app.settings by the time this runs) applies to it: other
  // column roles read it again with them, the page says whether it is the
  // file the link was made with, and the link keeps the loaded file's own
  // name and SHA-256.
  window.addEventListener("hashchange", () => setTimeout(() => {
    const o = own;
    if (!o || !o.good || app.settings.data !== OWN_DATA) return;
    const roles = rolesOf(app.settings);
    if (JSON.stringify(roles) !== JSON.stringify(o.good)) reloadOwn(roles).catch(() => {});
    noteFile(o, { file: app.settings.file || "", sha256: String(app.settings.sha256 || "").toLowerCase() });
  }, 0));

  // parseOwn reads own with its current column choice: a fresh file
  // ("load") or the kept text again ("reload"). It resolves with the
  // summary shown, or null when a data set asked for after it made it stale
  // (its summary is then freed in the learner, not to be used).
  async function parseOwn(fresh) {
    const o = own, gen = ++parses;
    const opts = copyRoles(o);
    beginLoading();
    try {
      const summary = fresh
        ? await client.request("load", Object.assign({ name: o.name, opts }, o.src))
        : await client.request("reload", { opts });
      if (gen !== parses) {
        drop(summary);
        return null;
      }
      const first = !o.good;
      o.good = opts;
      if (!(await loaded(summary, OWN_DATA, { src: o.src, name: o.name, opts }, first, gen))) return null;
      noteFile(o);
      return summary;
    } catch (e) {
      if (gen === parses) await refused(o, e, opts);
      throw e;
    }
  }

  // refused shows why own was not read with the columns tried, next to its
  // columns, and what the page can do about it. A file never read offers
  // its header's columns in the menus; one read before goes back to the
  // columns it was read with (that parse is still loaded). A file never
  // read whose header lacks the task or label column tried is asked for
  // them instead (askColumns): nothing is wrong with it yet.
  async function refused(o, e, tried) {
    if (o.good) {
      Object.assign(o, copyRoles(o.good));
      showColumns(app.data);
    } else {
      let info = { names: null };
      // A learner that died reading it holds the data set before it (client.js): no header of this file.
      if (!e.died) try { info = await client.request("header"); } catch (_) { /* not a CSV: no menus */ }
      // The header's names come packed (worker.js packStrings), read in place.
      const header = new Columns({ names: info.names });
      const missing = ["task", "label"].filter((r) => !header.has(o[r]));
      if (menuNames[e.choose] && header.count && missing.length) {
        await askColumns(o, header, info.delimiter, missing);
        return;
      }
      fillMenus(header, o.task, o.label, header.count > 0);
      $("columns-box").hidden = true;
      $("data-notes").hidden = true;
      // The data set loaded before stays in the worker, but Play, Step and
      // Tune wait for the file or another data set (the click handler
      // below): the file's menus and "your data" are on screen, and Play
      // once trained the data set before it in its place, unsaid.
      o.failed = true;
      app.refusedFile = o.name;
      if (app.data) $("summary").textContent = `${o.name} is not read (see above). Still loaded: ${summaryText(app.data)}`;
      $("bar-summary").textContent = `${o.name} is not read: see the Data panel`;
      // As while it waits for its columns (askColumns): the file's
      // settings, and the map no longer lists the data set before it.
      showFileSettings(o);
    }
    // A file read before is still read with its columns, which the menus
    // went back to: said, or the menus' change reads as unexplained.
    const kept = o.good ? ` ${o.name} is still read as before, with ${o.task} as the task and ${o.label} as the label.` : "";
    // Go's messages end without a full stop; one goes between them.
    const stop = kept && !/[.!?]$/.test(e.message) ? "." : "";
    showDataError(e.message + stop + kept, { drop: e.drop, text: e.text, choose: e.choose, omit: e.omit, retry: (col, role) => readAs(o, tried, col, role) });
    app.move("loadFailed");
    if (!o.good) app.emit("prompt", o.name, "refused");
  }

  // askColumns is a file's first step when its header lacks the task or
  // label column (missing: the roles to choose): the menus offer its
  // columns with none chosen for those roles, a neutral prompt says what
  // to choose and suggests columns, and the summary names the file. The
  // data set loaded before stays in the worker, but Play and Step wait for
  // the choice (the click handler below).
  async function askColumns(o, header, delimiter, missing) {
    let hints = { task: [], label: [] };
    try { hints = suggestColumns(await sampleText(o.src), delimiter, header); } catch (_) { /* no suggestions */ }
    if (own !== o) return; // another file came since
    for (const r of missing) o[r] = "";
    Object.assign(o, { pending: new Set(missing), hints, header });
    showDataError(""); // a refusal shown is of the file before this one, its buttons of no use
    $("columns-box").hidden = true;
    $("data-notes").hidden = true;
    showFileSettings(o);
    showPrompt(o);
    app.columnPrompt = o.name;
    app.move("loadFailed");
    app.emit("prompt", o.name);
  }

  // showFileSettings is what a file not yet read shows (waiting for its
  // columns, or refused): the Model panel the settings it will be read with
  // (a link's, else a visitor's file's starting point), kept from then on
  // with what the visitor edits meanwhile (the first reading does not
  // replace them), and Preset "your data" (form.apply shows the data set
  // still loaded).
  function showFileSettings(o) {
    if (!o.keep) {
      Object.assign(app.settings, o.start || startingPoint(OWN_DATA));
      o.start = null;
      o.keep = true;
      form.apply();
    }
    $("preset").value = OWN_DATA;
  }

  // sampleText is the start of a visitor's text or file (SAMPLE_BYTES),
  // cut after its last whole line, for the column suggestions.
  async function sampleText(src) {
    const whole = src.text !== undefined ? src.text.length <= SAMPLE_BYTES : src.file.size <= SAMPLE_BYTES;
    const text = src.text !== undefined ? src.text.slice(0, SAMPLE_BYTES) : await src.file.slice(0, SAMPLE_BYTES).text();
    return whole ? text : text.slice(0, text.lastIndexOf("\n") + 1);
  }

  // pendingWords names the columns still to choose: "task and label columns".
  const pendingWords = (o) => `${["task", "label"].filter((r) => o.pending.has(r)).join(" and ")} column${o.pending.size > 1 ? "s" : ""}`;

  // suggested is the column suggested for role (a role still to choose),
  // never the column chosen or suggested for the other role.
  function suggested(o, role) {
    if (role === "task") return o.hints.task.find((c) => c !== o.label) || "";
    const task = o.pending.has("task") ? suggested(o, "task") : o.task;
    return o.hints.label.find((c) => c !== task) || "";
  }

  // showPrompt says which columns of own are still to choose, and offers
  // the suggested ones (also marked in the menus).
  function showPrompt(o) {
    const box = $("column-prompt");
    const names = { task: '"task"', label: '"y"' };
    const roles = ["task", "label"].filter((r) => o.pending.has(r));
    const ask = { task: "which column names each row's task (its group)", label: "which column holds the label to learn" };
    const lead = document.createElement("p");
    lead.textContent = `${o.name} has no column named ${roles.map((r) => names[r]).join(" or ")}. Choose ${roles.map((r) => ask[r]).join(", and ")}, in the ${roles.map((r) => menuNames[r]).join(" and ")} menu${roles.length > 1 ? "s" : ""}.`;
    const parts = [lead];
    const picks = roles.map((r) => [r, suggested(o, r)]).filter(([, c]) => c);
    if (picks.length) {
      const p = document.createElement("p");
      p.textContent = `Suggested: ${picks.map(([r, c]) => `${c} as the ${r}`).join(", ")}. `;
      const b = document.createElement("button");
      b.type = "button";
      b.id = "use-suggested";
      b.textContent = picks.length > 1 ? "Use these" : "Use it";
      b.addEventListener("click", () => { for (const [r, c] of picks) o[r] = c; chosen(o, picks.map(([r]) => r)); });
      p.append(b);
      parts.push(p);
    }
    box.replaceChildren(...parts);
    box.hidden = false;
    fillMenus(o.header, o.task, o.label, true);
    for (const [id, role] of [["task-col", "task"], ["label-col", "label"]]) {
      const pick = o.pending.has(role) ? suggested(o, role) : "";
      for (const opt of $(id).options) if (opt.value === pick) opt.textContent = `${pick} (suggested)`;
    }
    // The summary names the file now in the panel, not the data set before it.
    const named = o.header.named(), shown = o.header.firstNamed(8);
    $("summary").textContent = `${o.name}: ${plural(named, "column")} (${shown.join(", ")}${named > 8 ? ", …" : ""}), read as soon as its ${pendingWords(o)} ${o.pending.size > 1 ? "are" : "is"} chosen.`;
    $("bar-summary").textContent = `${o.name}: choose its ${pendingWords(o)} in the Data panel`;
  }

  function hidePrompt() {
    $("column-prompt").hidden = true;
    $("column-prompt").replaceChildren();
    app.columnPrompt = null;
  }

  // chosen takes the visitor's choice of the columns for roles: the file
  // is read once none is left to choose, else the prompt asks for the rest.
  function chosen(o, roles) {
    if (own !== o) return;
    for (const r of roles) if (o.pending) o.pending.delete(r);
    // The task and label columns are never left out, nor read as words.
    o.drop = o.drop.filter((c) => c !== o.task && c !== o.label);
    o.text = o.text.filter((c) => c !== o.task && c !== o.label);
    if (o.pending && o.pending.size) {
      showPrompt(o);
      showDataError("");
      return;
    }
    o.pending = null;
    parseOwn(false).catch(() => {});
  }

  // readAs reads own again with the columns tried and column col given
  // role: "dropped" (the "Leave out" button of a refusal, or the column's
  // role menu), "text" (read as words), "numeric" (as the intake sees it);
  // or, with role "omit" (no column), leaving out the rows that miss a
  // value.
  function readAs(o, tried, col, role) {
    if (own !== o) return; // another file came since
    const r = copyRoles(tried);
    r.drop = r.drop.filter((c) => c !== col);
    r.text = r.text.filter((c) => c !== col);
    if (role === "dropped") r.drop.push(col);
    if (role === "text") r.text.push(col);
    if (role === "omit") r.missing = "omit";
    Object.assign(o, r);
    parseOwn(false).catch(() => {});
  }

  // showDataError shows a refusal (or clears it, msg ""), with what the
  // page offers against it: remedy.choose ("task" or "label") points at
  // that column's menu; remedy.omit leaves out the rows that miss a value,
  // remedy.text is a column to read as words and remedy.drop one to leave
  // out, each offered as a button calling remedy.retry(column, role) when
  // the file's columns can be chosen (a visitor's file).
  function showDataError(msg, remedy = {}) {
    const el = $("data-error");
    let text = msg || "";
    if (text && menuNames[remedy.choose] && own) text += `\nChoose it in the ${menuNames[remedy.choose]} menu.`;
    el.textContent = text;
    el.hidden = !text;
    remedyBox.replaceChildren();
    remedyBox.hidden = true;
    if (!text || !remedy.retry || !own) return;
    const offer = (id, col, role, words) => {
      const b = document.createElement("button");
      b.type = "button";
      b.id = id;
      b.textContent = words;
      b.addEventListener("click", () => remedy.retry(col, role));
      remedyBox.append(b);
      remedyBox.hidden = false;
    };
    if (remedy.omit) offer("leave-out-rows", "", "omit", "Leave out the rows that miss a value and read the file again");
    if (remedy.text) offer("read-as-words", remedy.text, "text", `Read ${remedy.text} as words and read the file again`);
    if (remedy.drop) offer("leave-out", remedy.drop, "dropped", `Leave out ${remedy.drop} and read the file again`);
  }

  function summaryText(s) {
    // A loop, not Math.min(...rows): 200,000 tasks are more arguments than a call takes.
    let lo = Infinity, hi = -Infinity;
    for (const t of s.tasks) { lo = Math.min(lo, t.rows); hi = Math.max(hi, t.rows); }
    const pos = s.kind === "classification" ? `, ${grouped(s.tasks.reduce((a, t) => a + t.positives, 0))} positive (${s.positive})` : "";
    return `${s.name}: ${plural(s.tasks.length, "task")}, ${plural(s.rows, "row")} (${lo === hi ? grouped(lo) : `${grouped(lo)}–${grouped(hi)}`} per task${pos}), ${plural(s.features, "feature")}, ${s.kind}${s.fixedSplit ? "; fixed train/test split" : ""}.`;
  }

  // shortSummary: the run bar's one line about the data.
  function shortSummary(s, name) {
    const title = name === OWN_DATA ? s.name : name;
    return `${title}: ${plural(s.tasks.length, "task")}, ${plural(s.rows, "row")}, ${plural(s.features, "feature")}, ${s.kind}`;
  }

  // loaded shows a newly loaded data set. The first drawing of the charts
  // costs tens of milliseconds on a slow machine, so the form and summary
  // and the charts (on "data") go in separate turns of the event loop. A
  // visitor's new file starts from its own settings (train 0.75, λ0 auto),
  // or a link's made on it, never from the preset shown before it; its
  // column roles are settings of its link.
  async function loaded(summary, name, source, fresh, gen) {
    // A data set asked for after this one (another preset chosen, the
    // file's columns chosen again) makes this one stale: it is dropped
    // rather than shown, and the page stays loading until the latest is
    // in. Shown, it let Play start a run on it that the latest one's
    // arrival then cleared, and the page waited on that run for good.
    if (gen !== parses) return drop(summary);
    // Play and Step stay disabled until the charts are reset for the new data.
    app.refusedFile = null;
    app.move("load");
    if (fresh && !(name === OWN_DATA && own && own.keep)) Object.assign(app.settings, (own && own.start) || startingPoint(name));
    if (name === OWN_DATA) Object.assign(app.settings, roleSettings(source.opts));
    else dropOwnKeys(app.settings);
    app.settings.data = name;
    writeHash(app.settings);
    form.apply();
    app.showError("");
    showDataError("");
    $("summary").textContent = summaryText(summary);
    $("bar-summary").textContent = shortSummary(summary, name);
    showNotes(summary);
    showColumns(summary);
    // The summary paints before the panels take the data, unless a run is
    // waiting for it (run=1 in a link): that run starts first, and the
    // page paints while the worker trains (~0.1 s sooner to the first τ).
    if (!app.runPending) await yieldToPage();
    if (gen !== parses) return drop(summary);
    if (app.data) client.request("free", { handle: app.data.handle }).catch(() => {});
    app.data = summary;
    app.source = source;
    app.emit("data", summary);
    return true;
  }

  // drop frees a data set the learner read that the page will not show;
  // false, for loaded's callers.
  function drop(summary) {
    if (summary && summary.handle) client.request("free", { handle: summary.handle }).catch(() => {});
    return false;
  }

  // showNotes says how the file was read: its text encoding when not
  // UTF-8, a delimiter other than the comma, how its columns became
  // features, how its labels were read, which numbers had thousands
  // separators.
  function showNotes(s) {
    const notes = [];
    // The menus of columns are empty and disabled for a sparse file: said where it shows.
    if (own && s.format === "sparse") notes.push("Columns: a sparse file (lines of task label index:value) has none to choose: each line's first field is its task, its second its label.");
    // After a semicolon Go reads "1,5" as 1.5 (core/data decimal): the
    // numbers' note below names the columns where it did, so that a
    // visitor whose commas were thousands marks can tell.
    if (s.delimiter === "semicolon") notes.push("Read with ; as the delimiter.");
    else if (s.delimiter && s.delimiter !== "comma") notes.push(`Read with ${delimiterWords[s.delimiter] || s.delimiter} as the delimiter.`);
    // Go decodes a file that is not UTF-8 (core/data DecodeText).
    if (s.textEncoding) notes.push(`Read as ${s.textEncoding} text (it is not UTF-8).`);
    if (s.featureText) notes.push(`Features: ${s.featureText}.`);
    if (s.labelNote) notes.push(`Labels: ${s.labelNote}.`);
    // Go's note on commas in numbers: a quoted "1,234" read as 1234 in a
    // comma-separated file (core/data ungroup), a decimal comma read as a
    // point (core/data decimal, writesDecimalComma).
    if (s.numberNote) notes.push(`Numbers: ${s.numberNote}.`);
    // Go flags a column of a different whole number in every row (core/data ColumnInfo.ID).
    if (s.idNote) notes.push(`Ids: ${s.idNote} (its menu in Columns: "leave out").`);
    // Go warns of a column of words that fixes a classifier's label (core/app leakNote).
    if (s.leakNote) notes.push(`Warning: ${s.leakNote}${(s.leakColumns || []).length ? ' (its menu in Columns: "leave out")' : ""}.`);
    // Go warns when the task column makes nearly a task per row (core/app taskNote).
    if (s.taskNote) notes.push(`Tasks: ${s.taskNote}`);
    // Go names the columns of whole numbers and an open level (0, 1, 2, 3+) read as categories (core/app levelNote).
    if (s.levelNote) notes.push(`Categories: ${s.levelNote}.`);
    // Go names the columns constant within every task, shared effects (core/app fixedNote).
    if (s.fixedNote) notes.push(`Task-level: ${s.fixedNote}.`);
    // Go names the columns with one value in every row, or that repeat another (core/app sameNote).
    // (With no other feature there is nothing to leave out: no menu named.)
    if (s.sameNote) notes.push(`Columns: ${s.sameNote}${s.sameColumns && s.sameColumns.length ? ' (its menu in Columns: "leave out")' : ""}.`);
    // Go names the columns of a few whole numbers in a file that quotes every number (core/app quotedNote).
    if (s.quotedNote) notes.push(`Numbers in quotes: ${s.quotedNote} (its menu in Columns: "words").`);
    // Go's note on the features' origin asked for (core/app Data.OriginNote).
    if (s.originNote) notes.push(`Origin: ${s.originNote}.`);
    // Go says which rows were left out for a missing value (core/data Omitted.Text).
    if (s.missingNote) notes.push(`Rows: ${s.missingNote}.`);
    // A classifier of tasks this small gets no per-task test AUC after
    // Play (the Results say why, after the run): said before it.
    const median = classifierMedian(s);
    if (median) notes.push(`Scores: with ${median} rows in a typical task, a task's test rows will rarely hold both classes, so a run here can score few tasks or none by AUC; Tune scores the file by its log-loss pooled over every held-out row.`);
    $("data-notes").textContent = notes.join(" ");
    $("data-notes").hidden = notes.length === 0;
  }

  // classifierMedian is the rows of a typical task of a visitor's
  // classifier file when they are few (SMALL_TASKS or fewer), else 0.
  function classifierMedian(s) {
    if (s.kind !== "classification" || !own) return 0;
    const median = typicalRows(s.tasks);
    return median <= SMALL_TASKS ? median : 0;
  }

  function fillMenus(header, task, label, enabled) {
    menus.task.fill(header, task, enabled);
    menus.label.fill(header, label, enabled);
    const hint = !own ? "A preset loads with its own columns; drop your own file to choose columns."
      : !enabled && header.count === 0 ? "A sparse file (lines of task label index:value) has no named columns: each line's first field is its task, its second its label."
        : "";
    for (const id of ["task-col", "label-col", "missing-rows", "feature-origin"]) $(id).title = hint;
    // A preset has no missing value; a visitor's file says what to do with the rows that have one.
    $("missing-rows").value = own ? own.missing : "refuse";
    $("missing-rows").disabled = !(own && enabled);
    // A preset's features are as shipped; a visitor's may be moved toward their means (Go's app.LoadOptions.Origin).
    originChoice(own ? own.origin : "auto");
    $("feature-origin").disabled = !(own && enabled);
  }

  /** Tune moved the loaded file's features' origin (Go's
   *  TuneSearch.Origin, in the page's learner): the file's choice says so,
   *  and every later reading (the tuning pool, a learner that died, Save
   *  on every row, the link, a published run) reads it so. */
  app.originMoved = (origin) => {
    if (own) own.origin = origin;
    if (own && own.good) own.good = Object.assign({}, own.good, { origin });
    app.source = Object.assign({}, app.source, { opts: Object.assign({}, app.source.opts, { origin }) });
    originChoice(origin);
    app.settings.origin = origin;
    writeHash(app.settings);
  };

  // originChoice shows origin in the features' origin menu: one of its
  // words, or where Tune's likelihood put it (Go's app.ParseOrigin): a
  // number t, t times the numeric features' means, or column=value, which
  // gets an option of its own in place of any earlier one.
  function originChoice(origin) {
    const menu = $("feature-origin");
    const v = String(origin || "auto");
    const fixed = ["auto", "zero", "means"];
    for (const o of Array.from(menu.options)) if (!fixed.includes(o.value) && o.value !== v) o.remove();
    if (!Array.from(menu.options).some((o) => o.value === v)) {
      const where = v.includes("=") ? originWords(v) : `${v} × the numeric features' means`;
      menu.add(new Option(`at ${where} (where Tune's likelihood is highest)`, v));
    }
    menu.value = v;
  }

  // showColumns fills the menus from a summary and lists its columns, each
  // feature column with its role menu, which a visitor's file only may
  // change: a preset's columns are shown as shipped. The columns are read
  // in place (columns.js Columns): nothing here visits every column.
  let columnsWaiting = null; // lists the closed box's columns when it opens (showColumns)
  function showColumns(s) {
    const editable = !!own;
    const header = columnsOf(s);
    fillMenus(header, s.taskColumn, s.labelColumn, editable && header.count > 0);
    // Rows left out by the file itself (a table packed with them left
    // out), where nothing here asked: the menu says what was done.
    if (editable && s.omitted && s.omitted.rows > 0 && $("missing-rows").value !== "omit") {
      $("missing-rows").value = "omit";
      $("missing-rows").title = "This file's rows missing a value were left out when it was packed (spmtl pack -missing omit): the notes say which.";
    }
    const box = $("columns-box");
    box.hidden = header.size === 0;
    box.open = editable;
    // A preset's columns (the box closed) are listed when the box is first
    // opened: listing them at once took 25-35 ms of the page's thread before
    // a link's first τ column (docs/bench.md, "Twenty-fifth round").
    columnsWaiting = null;
    if (box.open) columnsTable.show(s, editable);
    else columnsWaiting = () => columnsTable.show(s, editable);
  }
  $("columns-box").addEventListener("toggle", () => {
    const show = columnsWaiting;
    if (!$("columns-box").open || !show) return;
    columnsWaiting = null;
    show();
  });

  // The preset menu: the data set with its preset settings, as a link naming it would get.
  $("preset").addEventListener("change", () => {
    const name = $("preset").value;
    holdOwnLink(null); // a link waiting for a file of the visitor's is dropped
    Object.assign(app.settings, { intercept: "" }, presetSettings(name)); // κ: empty in every preset
    form.apply();
    $("preset").value = name; // the form shows the data set loaded until this one is in
    loadBundle(name);
  });
  // A generated data set depends on the seed.
  $("seed").addEventListener("change", () => {
    const b = bundle(app.settings.data);
    if (b && b.generated && !own) loadBundle(b.name);
  });

  // A column menu re-parses the visitor's file with that column (once
  // both columns are chosen).
  for (const [id, key] of [["task-col", "task"], ["label-col", "label"]]) {
    $(id).addEventListener("change", () => {
      // A change event that changes nothing (a second one for the same
      // choice) reads nothing again: a second reading would clear the
      // run bar's word on why the run went.
      if (!own || own[key] === $(id).value) return;
      own[key] = $(id).value;
      chosen(own, [key]);
    });
  }
  // The rows that miss a value (refused, the file is, at the first; or left
  // out) and the features' origin (as written unless Tune moves it, kept
  // so, or at the numeric features' means): the file is read again with
  // the choice. While the file's columns are still to choose, the choice
  // is kept for the read that choosing them starts.
  for (const [id, key] of [["missing-rows", "missing"], ["feature-origin", "origin"]]) {
    $(id).addEventListener("change", () => {
      // A change event that changes nothing (a second one for the same
      // choice) reads nothing again: a second reading would clear the
      // run bar's word on why the run went.
      if (!own || own[key] === $(id).value) return;
      own[key] = $(id).value;
      if (!(own.pending && own.pending.size)) parseOwn(false).catch(() => {});
    });
  }
  // Play, Step or Tune while a file's columns are still to choose: the
  // visitor's mistake, said in the data panel, whose first menu to choose
  // takes the focus (on a phone it may be a screen away). The data set
  // loaded before is not trained in the file's place.
  // A file that was refused (and never read) holds them too: its refusal
  // stays, and the click says what to do.
  const needs = { play: "Play trains on them", step: "Step trains on them", tune: "Tune searches with them" };
  const nothing = { play: "Play has nothing of it to train", step: "Step has nothing of it to train", tune: "Tune has nothing of it to search" };
  document.addEventListener("click", (e) => {
    const prompt = own && own.pending && own.pending.size, failed = own && own.failed && !own.good;
    if (!(prompt || failed) || !e.target.closest) return;
    const b = e.target.closest("#play, #step, #tune");
    if (!b || b.disabled) return;
    e.preventDefault();
    e.stopPropagation();
    if (prompt) {
      showDataError(`Choose the ${pendingWords(own)} of ${own.name} first: ${needs[b.id]}.`);
      $(own.pending.has("task") ? "task-col" : "label-col").focus();
      return;
    }
    app.showError(`${own.name} is not read, so ${nothing[b.id]}: correct it as the Data panel says, or choose a data set in Preset.`);
    $("preset").focus();
  }, true);
  // A column's role menu re-loads the file with that column read as a
  // number (as the intake sees it), as words, or left out.
  $("columns-wrap").addEventListener("change", (e) => {
    if (!own || e.target.tagName !== "SELECT") return;
    const o = own;
    readAs(o, o, e.target.name, e.target.value);
  });

  wireIntake({ drop: $("drop"), file: $("file"), fileBtn: $("file-btn"), pasteBtn: $("paste-btn"), pasteBox: $("paste-box"), paste: $("paste"), pasteLoad: $("paste-load") },
    (src, name, err) => {
      if (err) { showDataError(err.message); return; }
      giveFile(src, name);
    });

  // A run started on the data read: a refusal of another choice of its
  // columns, still shown, is of a choice no longer on screen.
  app.on("run", () => { if (!own || (own.good && !own.failed && !own.pending)) showDataError(""); });

  window.spmtlApp.dataError = () => ($("data-error").hidden ? "" : $("data-error").textContent);
  // The loaded data set's columns, one object each (columns.js Columns.list): for tests.
  window.spmtlApp.columns = () => columnsOf(app.data).list();
  window.spmtlApp.columnPrompt = () => ($("column-prompt").hidden ? "" : $("column-prompt").textContent);
  return { loadBundle, loadOwn, reloadOwn, ownLoaded: () => !!(own && own.good),
    // holdsOwn(sha): whether the file this tab read last has SHA-256 sha;
    // reopenOwn(settings) reads it again with settings' column roles, and
    // its first reading takes settings as a whole (as a link's file does).
    holdsOwn: (sha) => !!(held && sha && held.sha === String(sha).toLowerCase()),
    reopenOwn: (settings) => {
      const loading = loadOwn(held.src, held.name, rolesOf(settings));
      own.start = settings;
      loading.catch(() => {});
    },
    // expectOwn(settings, name): the next file given, when named name, is
    // read with settings' column roles (a saved run's; null: none).
    expectOwn: (settings, name) => { expected = settings ? { settings, name } : null; } };
}
