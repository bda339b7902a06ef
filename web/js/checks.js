// checks.js: what a valid setting is, for the settings form (before Play)
// and for a link's values: a reason for a bad value, or "". The ranges are
// the learner's (mtl.Config.Validate, the split's train size); checking
// them here lets the page name the field instead of failing the run.
import { lambda0Option } from "./state.js";

const rules = {
  rho: ["ρ", (v) => v > 0 && v <= 1e12, "a number above 0"],
  // Empty is "not set" (see settingProblem).
  intercept: ["κ (shared intercept)", (v) => v >= 0 && v <= 1e12, "empty or a number of at least 0"],
  c: ["the pace c", (v) => v >= 1 && v <= 1e6, "a number of at least 1"],
  h: ["h", (v) => Number.isInteger(v) && v >= 1, "a whole number of at least 1"],
  maxIter: ["max iterations", (v) => Number.isInteger(v) && v >= 1 && v <= 100000, "a whole number from 1 to 100000"],
  train: ["train rows/task", (v) => v > 0 && (v < 1 || Number.isInteger(v)), "a whole count of at least 1, or a fraction between 0 and 1"],
  seed: ["the seed", (v) => Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER, "a whole number of at least 0"],
};

/** The settings that are numbers (or λ0's words) and are checked here. */
export const checkedFields = ["rho", "intercept", "lambda0", "c", "h", "maxIter", "train", "seed"];

/** The name a message gives setting key. */
export function settingName(key) { return key === "lambda0" ? "λ0" : rules[key] ? rules[key][0] : key; }

/** What a valid value of setting key is, in words. */
export function settingWant(key) {
  return key === "lambda0" ? "a number above 0, auto or auto*K (K above 0)" : rules[key] ? rules[key][2] : "valid";
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
  return `${r[0]} must be ${r[2]}${s ? `, not "${s}"` : ""}`;
}
