// form.js: the settings form. Its controls are the schema's settings
// (app.Settings, through the catalogue) that have a control of that id in
// the form; it fills the model, selection-rule, preset and choice menus
// and each number's bounds from the catalogue, offers the rule menu and
// the self-paced box only for methods that have them, and copies settings
// between the form, app.settings and the URL hash.
import { methods, method, bundles, setting } from "./catalog.js";
import { writeHash, formSettings } from "./state.js";
import { fillCheckedFields } from "./checks.js";

const $ = (id) => document.getElementById(id);

/** The settings that are one form control each (same id): the schema's
 *  settings with a control in the form, but the self-paced box (sp), which
 *  a method without a self-paced version greys out. Filled by wireForm. */
export const settingIds = [];

/** Fills the menus and keeps the form in step with app.settings. */
export function wireForm(app) {
  settingIds.splice(0, settingIds.length, ...formSettings().filter((s) => s.kind !== "bool").map((s) => s.key));
  fillCheckedFields();
  fillMenus();
  const form = {
    /** settings → form */
    apply() {
      const s = app.settings;
      // A model that is not a method would blank the menu (links are checked
      // before this, see link-check.js; an embedding host's message is not).
      if (!method(s.model)) s.model = setting("model").default;
      for (const id of settingIds) $(id).value = s[id] ?? "";
      $("order").value = s.order;
      const presets = Array.from($("preset").options).map((o) => o.value);
      $("preset").value = presets.includes(s.data) ? s.data : "custom";
      showMethod(s.select);
      app.emit("settings");
    },
    /** form → settings and hash */
    read() {
      for (const id of settingIds) app.settings[id] = $(id).value;
      // So is the rule of a method with rules (this one's menu is empty).
      if ($("select").options.length === 0) app.settings.select = keptSelect;
      // A method without a self-paced version greys the box out and keeps
      // the choice for the next method that has one.
      if (!$("selfPaced").disabled) app.settings.sp = $("selfPaced").checked ? "1" : "0";
      app.settings.order = $("order").value;
      writeHash(app.settings);
      app.emit("settings");
    },
  };

  // showMethod shows what the chosen method offers: its selection rules,
  // whether it has a self-paced version, and its one-line summary.
  // The rule chosen last is kept while a method without rules is chosen.
  let keptSelect = app.settings.select;
  function showMethod(want) {
    const m = method($("model").value);
    const rules = (m && m.rules) || [];
    const sel = $("select");
    keptSelect = want;
    sel.innerHTML = "";
    for (const r of rules) sel.add(new Option(r, r));
    if (rules.includes(want)) sel.value = want;
    sel.closest("label").classList.toggle("unused", rules.length === 0);
    const sp = $("selfPaced");
    sp.disabled = !(m && m.selfPaced);
    sp.checked = !sp.disabled && app.settings.sp === "1";
    sp.closest("label").title = sp.disabled ? `${m ? m.label : "this method"} has no self-paced version` : "";
    $("model-summary").textContent = m ? m.summary : "";
  }

  $("model").addEventListener("change", () => showMethod($("select").options.length ? $("select").value : keptSelect));
  for (const id of settingIds) $(id).addEventListener("change", form.read);
  $("selfPaced").addEventListener("change", form.read);
  return form;
}

function fillMenus() {
  // Two methods may share a label (MMTL, and MMTL solved jointly): the key tells them apart.
  const count = {};
  for (const m of methods()) count[m.label] = (count[m.label] || 0) + 1;
  const model = $("model");
  model.innerHTML = "";
  for (const m of methods()) {
    const o = new Option(count[m.label] > 1 ? `${m.label} (${m.key})` : m.label, m.key);
    o.title = m.summary;
    model.add(o);
  }
  const preset = $("preset");
  const custom = preset.querySelector('option[value="custom"]');
  for (const b of bundles()) preset.insertBefore(new Option(b.title, b.name), custom);
  // The other menus list a setting's choices (an optional one first offers
  // "auto": the learner chooses); a number field takes its range's bounds.
  for (const s of formSettings()) {
    const el = $(s.key);
    if (s.kind === "choice" && s.key !== "model" && s.key !== "select") {
      el.innerHTML = "";
      if (s.optional) el.add(Object.assign(new Option("auto", ""), { title: s.unset || "" }));
      for (const c of s.choices) el.add(new Option(c.label || c.value, c.value));
    }
    const r = s.range || (s.forms && s.forms.every((f) => f.range) ? s.forms.map((f) => f.range).reduce(widest) : null);
    if (r && el.type === "number") {
      el.min = String(r.lo);
      if (r.hi < Number.MAX_VALUE) el.max = String(r.hi);
      el.step = r.integer ? "1" : "any";
    }
  }
}

// widest is the smallest range that holds both a and b.
const widest = (a, b) => ({ lo: Math.min(a.lo, b.lo), hi: Math.max(a.hi, b.hi), integer: a.integer && b.integer });
