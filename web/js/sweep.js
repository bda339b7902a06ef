// sweep.js: the Figures panel. It runs the current method, self-paced, once
// per value of λ0 or of the pace c on the loaded data, and draws the
// objective and the mean test score (its metric named, and which way is
// better) of every run as they progress. Only a method with a self-paced
// version has a pace to sweep. λ0 is a threshold on the task costs, whose
// scale differs from one data set to the next (school's near 50,
// landmine's near 0.2), so the suggested λ0 values are multiples of the
// automatic λ0 ("auto*K", docs/algorithms.md §2.5), which fit any data set
// where "auto" applies; the visitor may give numbers instead. Its errors
// show beside its button (cleared when a sweep starts); its exports are
// enabled once there is a curve to export.
import { MultiLine } from "./multiline.js";
import { showSlot } from "./notices.js";
import { trainOptions, lambda0Auto } from "./state.js";
import { settingProblem, settingWant } from "./checks.js";
import { method, methods } from "./catalog.js";

const $ = (id) => document.getElementById(id);

// Multiples of the automatic λ0, from a pace so sharp that a few tasks
// lead (landmine's test AUC falls to 0.61) to auto itself. Above auto, τ
// is nearly uniform from the start and the curves draw one line (on
// landmine, school and syn1 auto*2 is within a pixel of auto), as school's
// λ0 = 1 … 100 all did on landmine; below it each value draws its own.
const AUTO_MULTIPLES = [0.125, 0.25, 0.5, 1];
const C_VALUES = "1.01,1.05,1.1,1.2,1.5";

/** The λ0 values suggested when "auto" cannot apply (the hard τ rule):
 *  decades around the form's λ0 (1 when it is
 *  "auto"), as a threshold's scale is unknown until the costs are. */
function numericLambdas(formLambda0) {
  const v = Number(formLambda0);
  const base = Number.isFinite(v) && v > 0 ? v : 1;
  return [0.01, 0.1, 1, 10, 100].map((k) => Number((base * k).toPrecision(6))).join(",");
}

/** Wires the Figures panel; returns {sweepObj, sweepTest, rows()}. */
export function wireSweep(app, form) {
  const tooltip = $("tooltip");
  const sweepObj = new MultiLine($("sweep-objective"), tooltip, "objective per iteration", "objective");
  const sweepTest = new MultiLine($("sweep-test"), tooltip, "mean test score per iteration", "test score");
  let rows = [];
  let running = false;

  // The values the page suggests for the loaded data, τ rule and swept
  // setting.
  function suggestion() {
    if ($("sweep-param").value === "c") return C_VALUES;
    // The automatic λ0 applies to any number of tasks (docs/algorithms.md
    // §2.5), not to the hard rule.
    return $("tau").value === "hard" ? numericLambdas($("lambda0").value) : AUTO_MULTIPLES.map(lambda0Auto).join(",");
  }
  // The field follows the suggestion while it holds the page's last one:
  // values the visitor typed are theirs to keep.
  let suggested = "";
  function suggest(force) {
    if (!force && $("sweep-values").value !== suggested) return;
    suggested = $("sweep-values").value = suggestion();
  }
  suggest(true);

  // The test chart names its metric, and which way is better, as the
  // curves panel does: RMSE climbing is a run getting worse.
  function retitle() {
    if (!app.data) return;
    const auc = app.data.kind === "classification";
    sweepTest.retitle(`mean test ${auc ? "AUC" : "RMSE"} per iteration (${auc ? "higher" : "lower"} is better)`, auc ? "test AUC" : "test RMSE");
  }

  // The Run button is offered for a method with a self-paced version only.
  // Why it is not is said in the panel's own text, and on the charts in
  // place of "press Run sweep": a disabled button's title reaches no
  // keyboard (it takes no focus), touch screen or screen reader in browse
  // mode. It follows the model however that changes: the menu, a link, Tune
  // or a reopened run (each ends with form.js's "settings" event).
  function offer() {
    const m = method($("model").value);
    const ok = !!(m && m.selfPaced);
    $("sweep-run").disabled = running || !ok;
    const name = m ? m.label : "This model";
    const paced = [...new Set(methods().filter((x) => x.selfPaced).map((x) => x.label))];
    const these = paced.length < 2 ? paced.join("") : `${paced.slice(0, -1).join(", ")} or ${paced[paced.length - 1]}`;
    const why = ok ? "" : `Run sweep is off: ${name} has no self-paced version, so it has no pace to sweep. Choose ${these} as the model to sweep λ0 or c.`;
    $("sweep-why").textContent = why;
    $("sweep-why").hidden = ok;
    const idle = ok ? "" : `${name} has no self-paced version`;
    sweepObj.idleText(idle); sweepTest.idleText(idle);
  }

  // The exports have something to export once a curve has a point.
  const exportIds = ["sweep-png", "sweep-svg", "sweep-csv"];
  const offerExports = () => { for (const id of exportIds) $(id).disabled = rows.length === 0; };
  const fail = (msg) => { showSlot("sweep-error", msg); };

  // parse reads the values field: {key, values, labels, repeats} where key
  // is the learner's option swept ("c", or "lambda0", whose values the
  // learner reads as text: numbers, auto and auto*K alike), labels are the
  // values as typed and repeats says which were given more than once. Each
  // value is checked as the form's field would be. A value given twice
  // ("1,1,1", or 1 and 1.0) runs once: its runs would be one run drawn
  // over itself, and their one line would read as "λ0 makes no difference".
  function parse(param, text) {
    const typed = text.split(",").map((s) => s.trim());
    if (!typed.length || typed.some((v) => v === "" || settingProblem(param, v))) {
      throw new Error(`The sweep's values must be ${settingWant(param)}, separated by commas, not "${text}".`);
    }
    const same = (v) => {
      if (Number.isFinite(Number(v))) return String(Number(v));
      const k = /^auto\s*\*\s*(.+)$/.exec(v);
      return k && Number(k[1]) !== 1 ? `auto*${Number(k[1])}` : k ? "auto" : v;
    };
    const seen = new Map(); // value → how many times it was given
    const labels = [];
    for (const v of typed) {
      const k = same(v);
      if (!seen.has(k)) labels.push(v);
      seen.set(k, (seen.get(k) || 0) + 1);
    }
    const repeats = labels.filter((v) => seen.get(same(v)) > 1).map((v) => `${v} (${seen.get(same(v))} times)`);
    return { key: param, values: param === "c" ? labels.map(Number) : labels, labels, repeats };
  }

  // explain says, under the buttons, why every curve may coincide and what
  // to try; the charts' own notes only say that they do.
  // A value given more than once is said to have run once.
  function explain(param, repeats) {
    const note = $("sweep-note");
    const name = param === "c" ? "c" : "λ0";
    const said = [];
    if (repeats.length) {
      said.push(`${repeats.length === 1 ? `One value was given more than once: ${name} = ${repeats[0]}; it ran once.`
        : `Some values were given more than once (${name} = ${repeats.join(", ")}); each ran once.`}`);
    }
    if (sweepObj.allCoincide()) {
      said.push(param === "c"
        ? "Every curve coincides: the pace c makes no difference here, most likely because λ0 keeps τ uniform from the first iteration (a λ0 well above the spread of the tasks' costs does). Try a λ0 below auto, such as auto*0.5."
        : "Every curve coincides: these λ0 values make no difference on this data. A λ0 well above the spread of the tasks' costs keeps τ uniform, and each run is then its baseline; multiples of the automatic λ0 at or below auto (auto*0.5, auto*0.25, …) fit any data set.");
    }
    note.textContent = said.join(" ");
    note.hidden = said.length === 0;
  }

  let labels = []; // the running sweep's values as typed
  let ran = new Set(); // the indices of its values that have run an iteration
  $("sweep-param").addEventListener("change", () => suggest(true));
  // The hard rule takes numbers only, around the form's λ0.
  $("tau").addEventListener("change", () => suggest(false));
  $("lambda0").addEventListener("change", () => suggest(false));
  $("model").addEventListener("change", offer);
  app.on("settings", offer);
  app.on("data", () => { offer(); retitle(); suggest(false); });
  app.client.on("sweep", (m) => {
    sweepObj.add(m.index, m.iter, m.objective);
    sweepTest.add(m.index, m.iter, m.score === null ? NaN : m.score);
    ran.add(m.index);
    rows.push([labels[m.index], m.iter, m.objective, m.score]);
    if (rows.length === 1) offerExports();
    $("sweep-status").textContent = `${$("sweep-param").value === "c" ? "c" : "λ0"} = ${labels[m.index]}, iteration ${m.iter}`;
  });
  $("sweep-run").addEventListener("click", async () => {
    if (!app.data) return;
    const param = $("sweep-param").value;
    let sweep;
    try { sweep = parse(param, $("sweep-values").value); } catch (e) { fail(e.message); return; }
    form.read();
    let config;
    try {
      const m = method(app.settings.model);
      config = trainOptions(Object.assign({}, app.settings, { sp: "1" }), app.data.handle, m);
      if (!config.selfPaced) throw new Error(`${m ? m.label : app.settings.model} has no self-paced version to sweep`);
    } catch (e) { fail(e.message); return; }
    showSlot("sweep-error", "");
    $("sweep-note").hidden = true;
    labels = sweep.labels;
    ran = new Set();
    const name = param === "c" ? "c" : "λ0";
    sweepObj.reset(labels.map((v) => `${name} = ${v}`));
    sweepTest.reset(labels.map((v) => `${name} = ${v}`));
    rows = [];
    offerExports();
    $("sweep-status").textContent = "starting…";
    running = true; offer(); $("sweep-cancel").disabled = false;
    let done = false;
    try {
      done = await app.client.request("sweep", { config, param: sweep.key, values: sweep.values });
      $("sweep-status").textContent += done ? " · done" : " · cancelled";
    } catch (e) { fail(e.message); $("sweep-status").textContent += " · failed"; }
    // A sweep that stopped early: its legend marks the values that never ran.
    if (!done) { sweepObj.markNotRun(ran); sweepTest.markNotRun(ran); }
    explain(param, sweep.repeats);
    running = false; offer(); $("sweep-cancel").disabled = true;
  });
  $("sweep-cancel").addEventListener("click", () => app.client.request("cancelSweep"));
  window.addEventListener("resize", () => { sweepObj.draw(); sweepTest.draw(); });
  offerExports();
  window.spmtlApp.sweep = () => ({ series: sweepObj.series, rows, svg: sweepObj.svg(), notes: [sweepObj.note, sweepTest.note] });
  return { sweepObj, sweepTest, rows: () => rows };
}
