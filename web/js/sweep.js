// sweep.js: the Figures panel. It runs the current method, self-paced, once
// per value of λ0 or of the pace c on the loaded data, and draws the
// objective and the mean test score of every run as they progress. Only a
// method with a self-paced version has a pace to sweep. Its errors show
// beside its button (cleared when a sweep starts); its exports are enabled
// once there is a curve to export.
import { MultiLine } from "./multiline.js";
import { showSlot } from "./notices.js";
import { trainOptions } from "./state.js";
import { method, methods } from "./catalog.js";

const $ = (id) => document.getElementById(id);

const defaultValues = { lambda0: "1,10,25,50,75,100", c: "1.01,1.05,1.1,1.2,1.5" };

/** Wires the Figures panel; returns {sweepObj, sweepTest, rows()}. */
export function wireSweep(app, form) {
  const tooltip = $("tooltip");
  const sweepObj = new MultiLine($("sweep-objective"), tooltip, "objective per iteration", "objective");
  const sweepTest = new MultiLine($("sweep-test"), tooltip, "mean test score per iteration", "test score");
  let rows = [];
  let running = false;

  // The Run button is offered for a method with a self-paced version only.
  function offer() {
    const m = method($("model").value);
    const ok = !!(m && m.selfPaced);
    $("sweep-run").disabled = running || !ok;
    const paced = methods().filter((x) => x.selfPaced).map((x) => x.label).join(", ");
    $("sweep-run").title = ok ? "" : `${m ? m.label : "this method"} has no self-paced version (these have: ${paced})`;
  }

  // The exports have something to export once a curve has a point.
  const exportIds = ["sweep-png", "sweep-svg", "sweep-csv"];
  const offerExports = () => { for (const id of exportIds) $(id).disabled = rows.length === 0; };
  const fail = (msg) => { showSlot("sweep-error", msg); };

  $("sweep-param").addEventListener("change", () => { $("sweep-values").value = defaultValues[$("sweep-param").value]; });
  $("model").addEventListener("change", offer);
  app.on("data", offer);
  app.client.on("sweep", (m) => {
    sweepObj.add(m.index, m.iter, m.objective);
    sweepTest.add(m.index, m.iter, m.score === null ? NaN : m.score);
    rows.push([m.value, m.iter, m.objective, m.score]);
    if (rows.length === 1) offerExports();
    $("sweep-status").textContent = `${$("sweep-param").value} = ${m.value}, iteration ${m.iter}`;
  });
  $("sweep-run").addEventListener("click", async () => {
    if (!app.data) return;
    const param = $("sweep-param").value;
    const values = $("sweep-values").value.split(",").map(Number);
    if (!values.length || values.some((v) => !Number.isFinite(v) || v <= 0)) { fail(`The sweep's values must be positive numbers separated by commas, not "${$("sweep-values").value}".`); return; }
    form.read();
    let config;
    try {
      const m = method(app.settings.model);
      config = trainOptions(Object.assign({}, app.settings, { sp: "1" }), app.data.handle, m);
      if (!config.selfPaced) throw new Error(`${m ? m.label : app.settings.model} has no self-paced version to sweep`);
      // A λ0 sweep sets λ0 itself: no automatic multiple may override it.
      if (param === "lambda0") delete config.autoLambda0;
    } catch (e) { fail(e.message); return; }
    showSlot("sweep-error", "");
    const name = param === "c" ? "c" : "λ0";
    sweepObj.reset(values.map((v) => `${name} = ${v}`));
    sweepTest.reset(values.map((v) => `${name} = ${v}`));
    rows = [];
    offerExports();
    $("sweep-status").textContent = "starting…";
    running = true; offer(); $("sweep-cancel").disabled = false;
    try {
      const done = await app.client.request("sweep", { config, param, values });
      $("sweep-status").textContent += done ? " · done" : " · cancelled";
    } catch (e) { fail(e.message); $("sweep-status").textContent += " · failed"; }
    running = false; offer(); $("sweep-cancel").disabled = true;
  });
  $("sweep-cancel").addEventListener("click", () => app.client.request("cancelSweep"));
  window.addEventListener("resize", () => { sweepObj.draw(); sweepTest.draw(); });
  offerExports();
  window.spmtlApp.sweep = () => ({ series: sweepObj.series, rows, svg: sweepObj.svg() });
  return { sweepObj, sweepTest, rows: () => rows };
}
