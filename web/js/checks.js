// checks.js: what a valid setting is, for the settings form (before Play),
// a link's values and an embedding host's: a reason for a bad value, or "".
// Every rule is the catalogue's schema (app.Settings): a number's range
// (mtl.Ranges, where Validate reads it too), a choice's values, and the
// forms λ0 and the training share are written in (a number, auto, auto*K;
// a whole count or a fraction), which one generic reader takes as Go's
// Setting.ParseForm does, and the words that stand for a flag in another
// setting's text (all rows: "all" in the training share's). Checking them here lets the page name the field
// instead of failing the run.
import { setting, pageKey } from "./catalog.js";
import { formSettings, wordsIn } from "./state.js";

/** A range in words: "a number above 0", "a whole number from 1 to
 *  100000", "a fraction between 0 and 1" (noun: what the number is). An
 *  unbounded range's hi is the largest number (mtl.NoBound). */
function rangeWords(r, noun) {
  const kind = noun ?? (r.integer ? "a whole number" : "a number");
  if (r.integer && r.hi < Number.MAX_SAFE_INTEGER) return `${kind} from ${r.lo} to ${r.hi}`;
  if (!r.integer && r.hi <= 1) return `${kind} between ${r.lo} and ${r.hi}`;
  return `${kind} ${r.loIncluded ? `of at least ${r.lo}` : `above ${r.lo}`}`;
}

/** Whether v is in the range r. */
function inRange(r, v) {
  return Number.isFinite(v) && (r.loIncluded ? v >= r.lo : v > r.lo) && v <= r.hi && (!r.integer || Number.isInteger(v));
}

/** "a, b or c". */
const orList = (words) => (words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`);

// afterWords: what follows the words at the start of t (spaces after each
// dropped), or null when t does not start with them.
function afterWords(t, words) {
  for (const w of words) {
    if (!t.startsWith(w)) return null;
    t = t.slice(w.length).trim();
  }
  return t;
}

/** Reads text in one of the setting's forms (app.Setting.ParseForm): the
 *  forms whose words all match are tried, those with more words first; the
 *  first that takes the rest reads it. {form, value}, or null. */
function parseForm(st, text) {
  const t = String(text ?? "").trim();
  const words = (f) => f.words || [];
  for (let n = Math.max(0, ...st.forms.map((f) => words(f).length)); n >= 0; n--) {
    for (const [i, f] of st.forms.entries()) {
      const rest = words(f).length === n ? afterWords(t, words(f)) : null;
      if (rest === null) continue;
      if (!f.range && rest === "") return { form: i, value: f.value ?? 0 };
      const v = rest === "" ? NaN : Number(rest);
      if (f.range && inRange(f.range, v)) return { form: i, value: v };
    }
  }
  return null;
}

/** Whether text is a valid value of the setting st. */
function valid(st, text) {
  switch (st.kind) {
    case "number": case "integer": return text !== "" && inRange(st.range, Number(text));
    case "text": case "share": return parseForm(st, text) !== null || wordsIn(st).some((w) => w.word === text);
    case "choice": return st.choices.some((c) => c.value === text);
    case "bool": return text === "0" || text === "1";
  }
  return true;
}

/** The form's settings that are numbers, or written in forms, each checked
 *  at its field before Play (their page keys); fillCheckedFields fills it
 *  from the schema once the form is wired. */
export const checkedFields = [];

/** Fills checkedFields from the catalogue's schema and the form. */
export function fillCheckedFields() {
  const keys = formSettings().filter((s) => ["number", "integer", "text", "share"].includes(s.kind)).map(pageKey);
  checkedFields.splice(0, checkedFields.length, ...keys);
}

/** The name a message gives setting key (its page key). */
export function settingName(key) { const st = setting(key); return st ? st.name : key; }

/** What a valid value of setting key is, in words. */
export function settingWant(key) {
  const st = setting(key);
  if (!st) return "valid";
  let want;
  switch (st.kind) {
    case "number": case "integer": want = rangeWords(st.range); break;
    case "text": case "share":
      want = orList(st.forms.map((f) => {
        const w = (f.words || []).join("");
        if (!f.range) return w;
        return w ? `${w}${f.param} (${f.param} ${rangeWords(f.range, "").trim()})` : rangeWords(f.range, f.noun);
      }).concat(wordsIn(st).map((x) => x.word)));
      break;
    case "choice": want = `one of ${st.choices.map((c) => c.value).join(", ")}`; break;
    case "bool": want = "0 or 1"; break;
    default: want = "valid";
  }
  return st.optional ? `empty or ${want}` : want;
}

/** Why value is not a valid setting key ("" when it is, or when key is not
 *  a setting of the schema). Empty is valid for an optional setting: the
 *  learner then chooses. */
export function settingProblem(key, value) {
  const st = setting(key);
  if (!st) return "";
  const s = String(value ?? "").trim();
  if ((st.optional && s === "") || valid(st, s)) return "";
  return `${st.name} must be ${settingWant(key)}${s ? `, not "${s}"` : ""}`;
}
