// state.js: every setting lives in the URL hash, so a link reproduces a run.

export const defaults = {
  data: "landmine", model: "mtfl", sp: "1", tau: "softmax", variant: "paper", loss: "",
  rho: "0.01", lambda0: "1", c: "1.1", h: "5", maxIter: "10", train: "80", seed: "1",
  order: "name", task: "task", label: "y", select: "random",
};

// Per-preset starting points (the medians the cross-validation chose in
// `spmtl reproduce`; landmine uses the authors' fixed rho = 0.01, lambda0 = 1).
export const presetDefaults = {
  landmine: { rho: "0.01", lambda0: "1", train: "80", maxIter: "10" },
  school: { rho: "0.01", lambda0: "50", train: "0.75", maxIter: "10" },
  cs: { rho: "0.1", lambda0: "1", train: "15", maxIter: "50" },
  sentiment: { rho: "0.001", lambda0: "0.1", train: "120", maxIter: "10" },
  syn1: { rho: "0.01", lambda0: "0.1", train: "15", maxIter: "50" },
  syn2: { rho: "0.01", lambda0: "1", train: "15", maxIter: "50" },
};

/** Reads the hash into a settings object (unknown keys are kept). */
export function readHash(hash = location.hash) {
  const s = Object.assign({}, defaults);
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  for (const [k, v] of params) s[k] = v;
  return s;
}

/** Writes the settings to the hash without adding a history entry. */
export function writeHash(s) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(s)) {
    if (k === "run" || v === undefined || v === null) continue;
    if (defaults[k] === v && k !== "data") continue;
    params.set(k, v);
  }
  const h = "#" + params.toString();
  if (h !== location.hash) history.replaceState(null, "", h);
}

/** Converts settings to the learner's training options. */
export function trainOptions(s, dataHandle) {
  const num = (k) => {
    const v = Number(s[k]);
    if (!Number.isFinite(v)) throw new Error(`setting ${k} is not a number: "${s[k]}"`);
    return v;
  };
  const o = {
    data: dataHandle, model: s.model, selfPaced: s.sp === "1", tau: s.tau, variant: s.variant,
    rho: num("rho"), lambda0: num("lambda0"), c: num("c"), h: num("h"), maxIter: num("maxIter"),
    train: num("train"), seed: num("seed"), select: s.select,
  };
  if (s.loss) o.loss = s.loss;
  return o;
}
