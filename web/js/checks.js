// checks.js: what a valid setting is, for the settings form (before Play)
// and for a link's values: a reason for a bad value, or "". The learner's
// ranges come from the catalogue (mtl.Ranges, where Validate reads them
// too), so they are stated once; checking them here lets the page name the
// field instead of failing the run. train and seed are the split's, not
// the learner's.
import { lambda0Option } from "./state.js";
import { range } from "./catalog.js";

/** A rule of the learner's range for key: [name, valid(v), in words]. */
function learnerRule(name, key, prefix = "") {
  // An unbounded range's hi is the largest number (mtl.NoBound).
  const r = () => range(key) || { lo: -Infinity, hi: Number.MAX_VALUE, loIncluded: true, integer: false };
  const words = () => {
    const x = r();
    const kind = x.integer ? "a whole number" : "a number";
    if (x.integer && x.hi < Number.MAX_VALUE) return `${prefix}${kind} from ${x.lo} to ${x.hi}`;
    return `${prefix}${kind} ${x.loIncluded ? `of at least ${x.lo}` : `above ${x.lo}`}`;
  };
  const valid = (v) => {
    const x = r();
    return Number.isFinite(v) && (x.loIncluded ? v >= x.lo : v > x.lo) && v <= x.hi && (!x.integer || Number.isInteger(v));
  };
  return [name, valid, words];
}

const rules = {
  rho: learnerRule("ρ", "rho"),
  // Empty is "not set" (see settingProblem).
  intercept: learnerRule("κ (shared intercept)", "intercept", "empty or "),
  c: learnerRule("the pace c", "c"),
  h: learnerRule("h", "h"),
  maxIter: learnerRule("max iterations", "maxIter"),
  train: ["train rows/task", (v) => v > 0 && (v < 1 || Number.isInteger(v)), () => "a whole count of at least 1, or a fraction between 0 and 1"],
  seed: ["the seed", (v) => Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER, () => "a whole number of at least 0"],
};

/** The settings that are numbers (or λ0's words) and are checked here. */
export const checkedFields = ["rho", "intercept", "lambda0", "c", "h", "maxIter", "train", "seed"];

/** The name a message gives setting key. */
export function settingName(key) { return key === "lambda0" ? "λ0" : rules[key] ? rules[key][0] : key; }

/** What a valid value of setting key is, in words. */
export function settingWant(key) {
  return key === "lambda0" ? "a number above 0, auto or auto*K (K above 0)" : rules[key] ? rules[key][2]() : "valid";
}

/** Why value is not a valid setting key ("" when it is, or when key is not checked here). */
export function settingProblem(key, value) {
  const s = String(value ?? "").trim();
  if (key === "lambda0") {
    try {
      const o = lambda0Option(s);
      if (o.lambda0 !== undefined && o.lambda0 !== "auto" && !(o.lambda0 > 0)) throw new Error();
      return "";
    } catch (_) {
      return `λ0 must be ${settingWant(key)}${s ? `, not "${s}"` : ""}`;
    }
  }
  const r = rules[key];
  if (!r) return "";
  if (key === "intercept" && s === "") return ""; // not set: the learner's default
  const v = s === "" ? NaN : Number(s);
  if (Number.isFinite(v) && r[1](v)) return "";
  return `${r[0]} must be ${r[2]()}${s ? `, not "${s}"` : ""}`;
}
