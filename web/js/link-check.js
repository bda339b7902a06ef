// link-check.js: a link's values are checked before the page uses them. A
// value the page cannot use (a model that is not a method, a data set that
// is not bundled, ρ = "abc", ...) is replaced by the value the link would
// have without it (its data set's defaults) and reported in words: "the
// link's model "nope" is not a method; using mtfl". A bad value never
// reaches a menu, so the Model menu always shows a method. What a value may
// be is the catalogue's schema (checks.js); the task order is the page's
// own menu. A link made on a visitor's own file is checked the same way and
// then held for the file (own-link.js).
import { bundles, method, methods } from "./catalog.js";
import { baseSettings, pageKeys, roleKeys, ownLink, valueProblem, OWN_DATA, OWN_FILE_KEYS } from "./state.js";
import { settingProblem, settingName, settingWant } from "./checks.js";
import { holdOwnLink } from "./own-link.js";

// A value as the note quotes it: its first 60 characters at most (a link
// of megabytes once became a note of megabytes).
const shown = (v) => (v === "" ? "(empty)" : String(v).length > 60 ? `${String(v).slice(0, 60)}… (${String(v).length} characters)` : v);

/** Checks the settings read from hash; replaces every bad value in s by its
 *  default and returns the reports ([] when the link is good). A link on a
 *  visitor's own file where none is loaded has its own settings checked
 *  and held for the file (own-link.js), and is reported: s then holds the
 *  default data set's settings. */
export function checkLink(s, hash = location.hash, ownLoaded = false) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const problems = [];
  const named = params.get("data");
  const waiting = named === OWN_DATA && !ownLoaded ? ownLink(hash) : null;
  if (waiting) {
    // The page wrote it for a visitor's own file, which never leaves their
    // machine and so is in no link.
    problems.push(`it was made with a file of your own, which a link does not carry (your data never leaves your machine); showing ${s.data} with its own settings until you choose that file (see the note below)`);
  } else if (named !== null && named !== s.data && !(ownLoaded && named === OWN_DATA)) {
    problems.push(`the link's data set "${named}" is not one of the bundled data sets (${bundles().map((b) => b.name).join(", ")}); using ${s.data}`);
  }
  checkValues(waiting ? waiting.settings : s, params, problems);
  checkSpelling(waiting ? waiting.settings : s, params, problems);
  holdOwnLink(waiting);
  return problems;
}

// checkSpelling reports a key of the link that is a setting's name in
// other letter case ("maxiter" for maxIter): the page reads names as
// written, and a link edited by hand to train 10⁹ iterations trained
// the preset's 10, unsaid. Other keys the page does not know stay
// unsaid (a panel's anchor, a host's own key).
function checkSpelling(s, params, problems) {
  const known = ["data", ...pageKeys(), ...roleKeys(), ...OWN_FILE_KEYS];
  for (const key of new Set(params.keys())) {
    if (known.includes(key)) continue;
    const meant = known.find((k) => k.toLowerCase() === key.toLowerCase());
    if (meant) problems.push(`the link's "${shown(key)}" is no setting, ${meant} is (names are read as written, capitals too); using ${meant} ${shown(s[meant])}`);
  }
}

// checkValues replaces every bad value of the link's in s (params) by the
// value of s's data set, adding a report for each to problems.
function checkValues(s, params, problems) {
  const base = baseSettings(s.data);
  const replace = (key, why) => {
    problems.push(`the link's ${why}; using ${shown(base[key])}`);
    s[key] = base[key];
  };
  // A key given twice takes its last value (readHash), which is said: a
  // link edited by hand once trained with ρ 7 beside a ρ 0.5 unsaid.
  for (const key of pageKeys()) {
    const all = params.getAll(key);
    if (all.length > 1) problems.push(`the link gives ${key} ${all.length} times (${all.slice(0, 4).map(shown).join(", ")}${all.length > 4 ? ", …" : ""}); using the last`);
  }
  // A value past its bound (state.js) is not read at all: its default instead.
  for (const key of pageKeys()) {
    const why = params.has(key) && valueProblem(key, s[key]);
    if (why) replace(key, `value of ${why}`);
  }
  if (params.has("model") && !method(s.model)) replace("model", `model "${s.model}" is not a method (${methods().map((m) => m.key).join(", ")})`);
  const m = method(s.model);
  if (params.has("select") && m && m.rules && m.rules.length && !m.rules.includes(s.select)) {
    problems.push(`the link's selection rule "${s.select}" is not one of ${m.label}'s (${m.rules.join(", ")}); using ${m.rules[0]}`);
    s.select = m.rules[0];
  }
  const order = Array.from(document.getElementById("order").options).map((o) => o.value);
  if (params.has("order") && !order.includes(s.order)) replace("order", `task order "${s.order}" is not one of ${order.join(", ")}`);
  for (const key of pageKeys()) {
    if (!params.has(key) || key === "model" || key === "select" || key === "order") continue;
    // "the link's pace c", not "the link's the pace c".
    if (settingProblem(key, s[key])) replace(key, `${settingName(key).replace(/^the /, "")} "${shown(s[key])}" is not ${settingWant(key)}`);
  }
}
