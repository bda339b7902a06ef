package e2e

// The Tune panel's model search ("every model", docs/algorithms.md §14):
// the page's learner holds the search, a pool of workers scores its
// batches, and the page shows the candidate models and fills the settings
// with the chosen one.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/reml"
)

// groupedCSV writes groups of lo to hi rows (group,y,x1,x2,x3) with a
// random intercept per group, and with slopes per group too when slopes
// is set, from a seeded generator.
func groupedCSV(seed uint64, groups, lo, hi int, slopes bool) string {
	r := rand.New(rand.NewPCG(seed, 7))
	var sb strings.Builder
	sb.WriteString("group,y,x1,x2,x3\n")
	w := [3]float64{1.2, -0.8, 0.5}
	for g := 0; g < groups; g++ {
		b := 2 + r.NormFloat64()
		wg := w
		if slopes {
			for k := range wg {
				wg[k] += 0.3 * r.NormFloat64()
			}
		}
		n := lo + r.IntN(hi-lo+1)
		for i := 0; i < n; i++ {
			x := [3]float64{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
			y := b + wg[0]*x[0] + wg[1]*x[1] + wg[2]*x[2] + 0.5*r.NormFloat64()
			fmt.Fprintf(&sb, "g%d,%.4f,%.4f,%.4f,%.4f\n", g+1, y, x[0], x[1], x[2])
		}
	}
	return sb.String()
}

// loadGrouped drops a grouped file (no "task" column) on the page and
// chooses its task column, group.
func (b *browser) loadGrouped(name, text string) {
	b.t.Helper()
	b.upload("#file", writeTemp(b.t, name, text))
	b.waitForPrompt(30 * time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#task-col"), "group"))
	b.waitFor(fmt.Sprintf(`spmtlApp.summary() !== null && spmtlApp.summary().name === %q && spmtlApp.state() === "idle"`, name), 60*time.Second)
}

// tuneAllModels presses Tune with "every model" chosen and waits for its
// result (or its failure, which fails the test).
func (b *browser) tuneAllModels(timeout time.Duration) {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS("#tune-scope-all")))
	b.do(chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`spmtlApp.tune().state !== "running"`, timeout)
	if st := eval[string](b, `spmtlApp.tune().state`); st != "done" {
		b.t.Fatalf("tuning every model ended %q: %s", st, eval[string](b, `document.getElementById("tune-error").textContent`))
	}
}

// TestTuneEveryModel: on a visitor's grouped file Tune defaults to every
// model; the search runs in the pool, the table lists the candidates with
// their scores and marks the chosen one, the reason is shown, and the
// settings (model, self-paced, ρ, κ, λ0) and the link hold the choice.
// axe-core finds no violation in the panel, and at 390×844 the table
// scrolls inside its panel rather than widening the page. A bundled data
// set defaults to this model's ρ and λ0.
func TestTuneEveryModel(t *testing.T) {
	b := newBrowserFor(t, 6*time.Minute)
	src := axeSource(t)
	b.viewport(1280, 900, false)
	b.openPage(true)
	if s := eval[string](b, `spmtlApp.tune().scope`); s != "one" {
		t.Errorf("on a bundled data set the Tune scope is %q, want one (this model)", s)
	}
	text := groupedCSV(11, 40, 2, 12, false)
	b.loadGrouped("grouped.csv", text)
	if s := eval[string](b, `spmtlApp.tune().scope`); s != "all" {
		t.Errorf("on a visitor's file the Tune scope is %q, want all (every model)", s)
	}
	if !eval[bool](b, `document.getElementById("tune-grid-box").hidden`) {
		t.Error("with every model chosen, this model's heatmap is still shown")
	}
	start := time.Now()
	b.tuneAllModels(4 * time.Minute)
	t.Logf("every model tuned in %.1f s", time.Since(start).Seconds())

	type modelRow struct {
		Name, Score, Rho, Kappa, Lambda, Note, Outcome, Key string
		Chosen, SelfPaced                                   bool
	}
	rows := eval[[]modelRow](b, `Array.from(document.querySelectorAll("#tune-models tbody tr")).map((tr) => ({
		Name: tr.cells[0].textContent, Score: tr.cells[1].textContent, Rho: tr.cells[2].textContent, Kappa: tr.cells[3].textContent,
		Lambda: tr.cells[4].textContent, Note: tr.cells[6].textContent, Outcome: tr.dataset.outcome, Key: tr.dataset.key,
		Chosen: tr.classList.contains("chosen"), SelfPaced: tr.dataset.selfPaced === "1"}))`)
	scored, chosen := 0, -1
	for i, r := range rows {
		t.Logf("%-14s %-18s ρ %-7s κ %-5s λ0 %-8s %s %s", r.Name, r.Score, r.Rho, r.Kappa, r.Lambda, r.Outcome, r.Note)
		if r.Outcome == "scored" && strings.Contains(r.Score, "±") {
			scored++
		}
		if r.Outcome != "scored" && r.Note == "" {
			t.Errorf("%s %s without a reason", r.Name, r.Outcome)
		}
		if r.Chosen {
			if chosen >= 0 {
				t.Errorf("two rows are marked chosen: %s and %s", rows[chosen].Name, r.Name)
			}
			chosen = i
		}
	}
	if scored < 5 {
		t.Errorf("the table has %d models with scores, want 5 or more", scored)
	}
	// The score's name is the learner's (eval.Metric.Name, through the
	// catalogue), in the table's caption and the status.
	if got := eval[string](b, `document.getElementById("tune-models-metric").textContent`); got != "CV RMSE ± SE at its setting" {
		t.Errorf("the models' score column is captioned %q, want \"CV RMSE ± SE at its setting\"", got)
	}
	if names := eval[map[string]string](b, `spmtlApp.metricNames()`); names["brier"] != "Brier score" || names["logloss"] != "log-loss" {
		t.Errorf("the page's metric names are %v, want the learner's (Brier score, log-loss)", names)
	}
	// MMTL's row: the learner added its REML point (docs/algorithms.md §15),
	// the same as natively, the one-SE rule took it on this file (its
	// groups share their slopes), and the row says so.
	type likely struct {
		Setting   string  `json:"setting"`
		Rho       float64 `json:"rho"`
		Intercept float64 `json:"intercept"`
		Note      string  `json:"note"`
	}
	mm := eval[likely](b, `(() => { const r = spmtlApp.tune().search.result;
		const i = r.models.findIndex((m) => m.key === "mmtl-joint" && !m.selfPaced), m = r.models[i];
		return {setting: m.setting || "", rho: m.config.rho, intercept: m.config.intercept || 0,
			note: document.querySelectorAll("#tune-models tbody tr")[i].cells[6].textContent + " | " + document.getElementById("tune-leftout").textContent}; })()`)
	d, err := app.Load([]byte(text), app.LoadOptions{Name: "grouped.csv", TaskColumn: "group", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	est, err := reml.Fit(d.All.Tasks, d.All.Features)
	if err != nil {
		t.Fatal(err)
	}
	slopes, _ := est.Shared() // this file's groups share their slopes: the note says so
	if mm.Setting != app.SettingLikelihood || math.Abs(mm.Rho-est.Rho) > 1e-9*est.Rho || math.Abs(mm.Intercept-est.Kappa) > 1e-9*est.Kappa ||
		!strings.HasPrefix(mm.Note, "REML estimate (below) | ") || !slopes || !strings.Contains(mm.Note, "MMTL: ρ and intercept: their REML estimate") || !strings.Contains(mm.Note, "slopes: they share them") {
		t.Errorf("MMTL's row: %+v; want the REML estimate rho %v, kappa %v, and a note naming it", mm, est.Rho, est.Kappa)
	}
	if chosen < 0 {
		t.Fatal("no model is marked chosen")
	}
	c := rows[chosen]
	if !strings.Contains(c.Name, "chosen") || c.Outcome != "scored" {
		t.Errorf("the chosen row %+v does not say so in words, or has no score", c)
	}
	if n := eval[int](b, `document.querySelectorAll("#tune-models caption, #tune-models thead th[scope=col]").length`); n != 8 {
		t.Errorf("the table has %d of its caption and 7 column headers", n)
	}
	reason := eval[string](b, `document.getElementById("tune-reason").textContent`)
	if reason == "" || eval[bool](b, `document.getElementById("tune-found").hidden`) {
		t.Errorf("the reason %q is not shown", reason)
	}

	// The settings hold the choice: the search's chosen model and its configuration.
	type choice struct {
		Key       string  `json:"key"`
		SelfPaced bool    `json:"selfPaced"`
		Rho       float64 `json:"rho"`
		Intercept float64 `json:"intercept"`
		Auto      float64 `json:"autoLambda0"`
	}
	want := eval[choice](b, `(() => { const r = spmtlApp.tune().search.result, m = r.models[r.chosen];
		return {key: m.key, selfPaced: m.selfPaced, rho: m.config.rho, intercept: m.config.intercept || 0, autoLambda0: m.config.autoLambda0 || 0}; })()`)
	if want.Key != c.Key || want.SelfPaced != c.SelfPaced {
		t.Errorf("the marked row is %s (self-paced %v), the search chose %s (%v)", c.Key, c.SelfPaced, want.Key, want.SelfPaced)
	}
	form := eval[[]string](b, `["model", "rho", "intercept", "lambda0"].map((id) => document.getElementById(id).value).concat([String(document.getElementById("selfPaced").checked)])`)
	// The page writes numbers as JavaScript does (5e7 as 50000000): the
	// values, not their text, must be the search's.
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return math.NaN()
		}
		return v
	}
	if form[0] != want.Key || num(form[1]) != want.Rho || num(form[2]) != want.Intercept {
		t.Errorf("the form after tuning: model %q, ρ %q, κ %q; want %s, %v, %v", form[0], form[1], form[2], want.Key, want.Rho, want.Intercept)
	}
	if want.SelfPaced {
		wantL := "auto"
		if want.Auto != 1 {
			wantL = fmt.Sprintf("auto*%v", want.Auto)
		}
		if form[3] != wantL || form[4] != "true" {
			t.Errorf("a self-paced choice: λ0 %q, self-paced %s; want %s and true", form[3], form[4], wantL)
		}
	}
	if h := eval[string](b, `location.hash`); !strings.Contains(h, "rho="+strconv.FormatFloat(want.Rho, 'f', -1, 64)) && !strings.Contains(h, "rho="+fmt.Sprint(want.Rho)) {
		t.Errorf("the link %q does not carry ρ %v", h, want.Rho)
	}
	if s := eval[string](b, `document.getElementById("tune-status").textContent`); !strings.Contains(s, "Press Play to train with it") || !strings.Contains(s, "pooled over every held-out row, where Results averages over tasks") {
		t.Errorf("the status %q does not say to press Play, or how its score differs from Results'", s)
	}

	// axe-core: nothing at all in the panel, nothing serious on the page.
	b.do(chromedp.Evaluate[chromedp.Void](src))
	type violation struct {
		ID   string `json:"id"`
		Help string `json:"help"`
	}
	panelAxe := func(where string) {
		vs, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]violation](`axe.run(document.getElementById("tune-panel"), {
			runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]}, resultTypes: ["violations"],
		}).then((r) => r.violations.map((v) => ({id: v.id, help: v.help})))`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: axe-core: %v", where, err)
		}
		for _, v := range vs {
			t.Errorf("%s: the Tune panel: axe %s: %s", where, v.ID, v.Help)
		}
	}
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("tune-panel").scrollIntoView()`))
	b.shot("tune-models-1280.png")
	panelAxe("1280 px")
	b.axe(src, "the page after tuning every model, 1280 px")

	// The phone: the table scrolls inside the panel.
	b.viewport(390, 844, true)
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("tune-models").scrollIntoView()`))
	if w := b.sideways(); w > 0 {
		t.Errorf("at 390 px after tuning the page scrolls sideways by %d px (widest: %s)", w, eval[string](b, widestJS))
	}
	if r := eval[float64](b, `document.querySelector(".tune-models-wrap").getBoundingClientRect().right - document.documentElement.clientWidth`); r > 0 {
		t.Errorf("at 390 px the table's frame reaches %.0f px beyond the screen", r)
	}
	panelAxe("390 px")
	b.shot("tune-models-390.png")

	// Play trains the chosen model with the chosen settings.
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	if m := eval[string](b, `spmtlApp.runInfo().config.model`); m != want.Key {
		t.Errorf("Play after tuning trained %s, want %s", m, want.Key)
	}
	// It is compared with ITL at the setting the search chose for ITL, not
	// at its own ρ (at MMTL's REML ρ ITL keeps no slope: a page audit saw
	// "MMTL is better by 0.992 … p < 0.001" where the search found 3%), and
	// Results says which ITL it is.
	type versus struct {
		Rho, Intercept, TunedRho, TunedIntercept, RunRho float64
		Summary                                          string
	}
	if want.Key != "itl" {
		v := eval[versus](b, `(() => { const r = spmtlApp.tune().search.result, m = r.models.find((m) => m.key === "itl" && !m.selfPaced);
			const c = spmtlApp.runInfo().comparisons.find((c) => c.role === "itl");
			return {Rho: c.config.rho, Intercept: c.config.intercept || 0, TunedRho: m.config.rho, TunedIntercept: m.config.intercept || 0,
				RunRho: spmtlApp.runInfo().config.rho, Summary: document.getElementById("results-summary").textContent}; })()`)
		if v.Rho != v.TunedRho || v.Intercept != v.TunedIntercept {
			t.Errorf("ITL compared at ρ %v, κ %v; the search chose ρ %v, κ %v for it", v.Rho, v.Intercept, v.TunedRho, v.TunedIntercept)
		}
		if v.RunRho != v.TunedRho && !strings.Contains(v.Summary, "each task learned alone, at the ρ Tune chose for it, ") {
			t.Errorf("Results does not say at which ρ ITL ran (the run's %v, ITL's %v): %q", v.RunRho, v.TunedRho, v.Summary)
		}
	}

	// Its model file carries the search, saved from the run or fitted on
	// all rows (as tune -save writes it); fitted with another ρ, it does not.
	b.interceptDownloads()
	saved := func(button string) (tuned bool, chosen string, rho float64) {
		t.Helper()
		b.do(chromedp.Evaluate[chromedp.Void](`delete window.__downloads["spmtl-model.json"]`))
		b.waitFor(`!document.getElementById("save-model").disabled`, 30*time.Second)
		b.do(chromedp.Click(chromedp.CSS(button)))
		var mf struct {
			Config struct {
				Rho float64 `json:"rho"`
			} `json:"config"`
			Tuned *struct {
				Chosen int `json:"chosen"`
				Models []struct {
					Key string `json:"key"`
				} `json:"models"`
			} `json:"tuned"`
		}
		if err := json.Unmarshal([]byte(b.downloaded("spmtl-model.json")), &mf); err != nil {
			t.Fatalf("%s: the model file: %v", button, err)
		}
		if mf.Tuned == nil || mf.Tuned.Chosen >= len(mf.Tuned.Models) {
			return false, "", mf.Config.Rho
		}
		return true, mf.Tuned.Models[mf.Tuned.Chosen].Key, mf.Config.Rho
	}
	for _, button := range []string{"#save-run-model", "#save-model"} {
		if tuned, key, _ := saved(button); !tuned || key != want.Key {
			t.Errorf("%s: the model file carries a search: %v (chose %q), want one choosing %s", button, tuned, key, want.Key)
		}
	}
	// The run's own model, predicting a group it was not trained on, says
	// that its settings were chosen for known groups' rows.
	b.upload("#predict-file", writeTemp(t, "newgroup.csv", "group,x1,x2,x3\nnewgroup,0.1,0.2,0.3\nnewgroup,1,0,-1\n"))
	b.waitFor(`spmtlApp.predictions() !== null`, 20*time.Second)
	if w := eval[string](b, `document.getElementById("predict-warnings").textContent`); !strings.Contains(w, "the model's settings were chosen on held-out rows of the tasks it was trained on") {
		t.Errorf("predicting a new group with the tuned run's model: warnings %q, want the settings' choice named", w)
	}
	b.do(chromedp.SetValue(chromedp.CSS("#rho"), strconv.FormatFloat(2*want.Rho, 'g', -1, 64)))
	if tuned, _, rho := saved("#save-model"); tuned || rho != 2*want.Rho {
		t.Errorf("fitted on all rows with twice the chosen ρ (%v): the file's ρ %v, carries the search: %v", 2*want.Rho, rho, tuned)
	}
	b.noConsoleErrors()
}

// TestTuneForNewTasks: with "for tasks not in this file" checked, the
// search holds out whole tasks: the table holds only the models that
// predict a new task, its caption and the search's words say what was
// scored, the models left out say why, and the choice and its score are
// Go's own for the same search (to 1e-9: math.Exp's last bits differ
// between amd64 and js/wasm).
func TestTuneForNewTasks(t *testing.T) {
	b := newBrowserFor(t, 5*time.Minute)
	b.viewport(1280, 900, false)
	b.openPage(true)
	text := groupedCSV(21, 24, 3, 10, false)
	b.loadGrouped("newtasks.csv", text)
	b.do(chromedp.Click(chromedp.CSS("#tune-new-tasks")))
	b.tuneAllModels(4 * time.Minute)
	type page struct {
		Keys             []string
		Caption, Search  string
		LeftOut, Status  string
		Chosen           string
		ChosenSP         bool
		Score            float64
		NewTasks, Locked bool
	}
	got := eval[page](b, `(() => { const r = spmtlApp.tune().search.result, m = r.models[r.chosen];
		return {Keys: r.models.map((m) => m.key), Caption: document.getElementById("tune-models-caption").textContent,
			Search: document.getElementById("tune-search").textContent, LeftOut: document.getElementById("tune-leftout").textContent,
			Status: document.getElementById("tune-status").textContent, Chosen: m.key, ChosenSP: m.selfPaced, Score: m.score.value,
			NewTasks: !!r.newTasks, Locked: document.getElementById("tune-new-tasks").disabled}; })()`)
	for _, k := range got.Keys {
		if k != "stl" && k != "mmtl" && k != "mmtl-joint" && k != "mtfl-mean" {
			t.Errorf("%s was scored on new tasks, which it cannot predict", k)
		}
	}
	if !got.NewTasks || got.Caption != "Candidate models scored on new tasks" || !strings.Contains(got.Status, "pooled over every row of the tasks held out, each predicted as a new task") || !strings.HasPrefix(got.Search, "Searched: for new tasks: 3 folds of whole tasks") {
		t.Errorf("the result does not say it scored new tasks: newTasks %v, caption %q, search %q, status %q", got.NewTasks, got.Caption, got.Search, got.Status)
	}
	if !strings.Contains(got.LeftOut, "Left out: ITL: predicts no task it was not trained on") {
		t.Errorf("left out: %q", got.LeftOut)
	}
	if got.Locked {
		t.Error("the new-tasks box is still disabled after the search")
	}
	d, err := app.Load([]byte(text), app.LoadOptions{Name: "newtasks.csv", TaskColumn: "group", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := app.Tune(context.Background(), d, app.TuneOptions{Config: mtl.Config{Seed: 1}, Folds: 3, Seed: 1, NewTasks: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := res.Models[res.Chosen]
	if got.Chosen != want.Key || got.ChosenSP != want.SelfPaced || math.Abs(got.Score-want.Score.Value) > 1e-9*want.Score.Value {
		t.Errorf("the page chose %s (self-paced %v, CV %v), Go %s (%v, %v)", got.Chosen, got.ChosenSP, got.Score, want.Key, want.SelfPaced, want.Score.Value)
	}
	// This model alone, when it predicts no new task: refused with what
	// to do instead, and the box can be changed again.
	// This model's grid for new tasks: the map says what its scores are of.
	b.do(chromedp.Click(chromedp.CSS("#tune-scope-one")), chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`spmtlApp.tune().state !== "running"`, 2*time.Minute)
	if label := eval[string](b, `document.getElementById("tune-map").getAttribute("aria-label")`); !strings.Contains(label, "scored on new tasks") {
		t.Errorf("the map of a search for new tasks: %q", label)
	}
	b.do(chromedp.SetValue(chromedp.CSS("#model"), "mtaso"), chromedp.Evaluate[chromedp.Void](`document.getElementById("model").dispatchEvent(new Event("change", {bubbles: true}))`))
	b.do(chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`spmtlApp.tune().state === "failed"`, 30*time.Second)
	if msg := eval[string](b, `document.getElementById("tune-error").textContent`); !strings.Contains(msg, "MTASO predicts no task it was not trained on, so it cannot be tuned for new tasks") || !strings.Contains(msg, "STL, MMTL and MTFL-mean") {
		t.Errorf("tuning MTASO for new tasks: %q", msg)
	}
	// The panel's hint names the same models, from the catalogue.
	if hint := eval[string](b, `document.getElementById("tune-new-models").textContent`); hint != "STL, MMTL and MTFL-mean" {
		t.Errorf("the Tune panel's hint names %q as the models that predict a new task", hint)
	}
	if eval[bool](b, `document.getElementById("tune-new-tasks").disabled`) {
		t.Error("after the refusal the new-tasks box is disabled")
	}
	b.noConsoleErrors()
}

// TestTuneEveryModelCancel: Cancel stops the search (the pool and the
// search the page's learner holds), and a new search then runs to its end.
func TestTuneEveryModelCancel(t *testing.T) {
	b := newBrowserFor(t, 5*time.Minute)
	b.openPage(true)
	// Large enough that the search is still running when Cancel is pressed.
	b.loadGrouped("cancel.csv", groupedCSV(5, 800, 1, 20, true))
	// By keyboard: Tune disables itself as the search starts, and hands
	// the focus to Cancel rather than dropping it to the page's body;
	// Cancel hands it back.
	b.do(chromedp.Click(chromedp.CSS("#tune-scope-all")), chromedp.Focus(chromedp.CSS("#tune")), chromedp.KeyEvent("\r"))
	b.waitFor(`spmtlApp.tune().state === "running" && spmtlApp.tune().search !== null && spmtlApp.tune().search.done > 0`, 60*time.Second)
	if id := eval[string](b, `document.activeElement.id`); id != "tune-cancel" {
		t.Errorf("while the search runs the focus is on %q, want Cancel", id)
	}
	// While it runs, the status says how far it is and for how long.
	if s := eval[string](b, `document.getElementById("tune-status").textContent`); !regexp.MustCompile(`^\d+ of about \d+ points after \d+ (s|min \d\d s) · `).MatchString(s) {
		t.Errorf("the status while the search runs: %q", s)
	}
	b.do(chromedp.KeyEvent("\r"))
	b.waitFor(`spmtlApp.tune().state === "cancelled"`, 10*time.Second)
	if id := eval[string](b, `document.activeElement.id`); id != "tune" {
		t.Errorf("after Cancel the focus is on %q, want Tune", id)
	}
	// It says the search was cancelled, and nothing more (the click's
	// event was once printed as the reason: "cancelled: [object PointerEvent]").
	if s := eval[string](b, `document.getElementById("tune-status").textContent`); !strings.HasSuffix(s, " · cancelled") {
		t.Errorf("the status after Cancel: %q", s)
	}
	model := eval[string](b, `document.getElementById("model").value`)
	time.Sleep(time.Second)
	if m := eval[string](b, `document.getElementById("model").value`); m != model || eval[bool](b, `!document.getElementById("tune-found").hidden`) {
		t.Error("a cancelled search still changed the settings or showed a result")
	}
	b.tuneAllModels(3 * time.Minute)
	if n := eval[int](b, `document.querySelectorAll("#tune-models tbody tr.chosen").length`); n != 1 {
		t.Errorf("after a cancelled search, the next one marks %d rows chosen", n)
	}
	b.noConsoleErrors()
}

// TestInterceptSetting: κ is a setting of the form and the link, sent to
// the learner only when set, and checked (≥ 0, a number) before Play.
func TestInterceptSetting(t *testing.T) {
	b := newBrowser(t)
	b.do(chromedp.Navigate(b.base + "/#data=syn1&model=mmtl&intercept=0.5"))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 30*time.Second)
	if v := eval[string](b, `document.getElementById("intercept").value`); v != "0.5" {
		t.Errorf("the link's intercept=0.5 shows as %q", v)
	}
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#intercept"), "-1"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("intercept").dispatchEvent(new Event("change"))`))
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`document.getElementById("intercept").getAttribute("aria-invalid") === "true"`, 10*time.Second)
	// A preset resets it to "not set", and the link then leaves it out.
	b.do(chromedp.SetValue(chromedp.CSS("#preset"), "landmine"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("preset").dispatchEvent(new Event("change"))`))
	b.waitFor(`spmtlApp.summary().name.includes("landmine") && spmtlApp.state() === "idle"`, 30*time.Second)
	if v := eval[string](b, `document.getElementById("intercept").value`); v != "" {
		t.Errorf("after choosing a preset κ is %q, want empty", v)
	}
	if h := eval[string](b, `location.hash`); strings.Contains(h, "intercept") {
		t.Errorf("the link %q carries an intercept that is not set", h)
	}
	// A bad link value is replaced and reported.
	b.do(chromedp.Navigate("about:blank"), chromedp.Navigate(b.base+"/#data=syn1&intercept=abc"))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null`, 30*time.Second)
	if v := eval[string](b, `document.getElementById("intercept").value`); v != "" {
		t.Errorf("the link's intercept=abc shows as %q, want empty", v)
	}
}

// TestTuneMovesTheOriginAlongOneFeature: on a file of one numeric
// feature, centred as written, whose groups' intercepts were drawn
// independent of their slopes at x = −2, Tune moves the origin along x
// (Go's reml.OriginOf) and writes it as x's value; the pool reads the file
// so (the chosen model and its CV score are Go's app.Tune's on the same
// text), the data panel's menu and the link hold it, and the Tune panel
// says where it went and why.
func TestTuneMovesTheOriginAlongOneFeature(t *testing.T) {
	b := newBrowserFor(t, 5*time.Minute)
	b.openPage(true)
	r := rand.New(rand.NewPCG(8, 3))
	var sb strings.Builder
	sb.WriteString("group,y,x\n")
	for g := 0; g < 50; g++ {
		a, w := 1.5*r.NormFloat64(), 2+0.8*r.NormFloat64()
		for i := 0; i < 9; i++ {
			x := 2*r.Float64() - 1
			fmt.Fprintf(&sb, "g%d,%.4f,%.4f\n", g+1, 10+a+w*(x+2)+0.5*r.NormFloat64(), x)
		}
	}
	text := sb.String()
	b.loadGrouped("slopes.csv", text)
	b.tuneAllModels(4 * time.Minute)
	res := goTune(t, "slopes.csv", text)
	o, err := app.ParseOrigin(res.Origin)
	if err != nil || o.Column != "x" || math.Abs(o.At+2) > 0.6 {
		t.Fatalf("Go's tune moved the origin to %q: %s", res.Origin, res.OriginNote)
	}
	if s := eval[string](b, `document.getElementById("tune-origin").hidden ? "" : document.getElementById("tune-origin").textContent`); !strings.HasPrefix(s, "The origin of x was moved to −") {
		t.Errorf("the Tune panel's origin line is %q", s)
	}
	if s := eval[string](b, `document.getElementById("tune-status").textContent`); !strings.Contains(s, "The origin of x was moved to −") {
		t.Errorf("the status %q does not say where the origin went", s)
	}
	if h := b.hashParams().Get("origin"); h != res.Origin {
		t.Errorf("the link's origin is %q, want Go's %s", h, res.Origin)
	}
	menu := eval[[]string](b, `(() => { const m = document.getElementById("feature-origin"); return [m.value, m.options[m.selectedIndex].textContent]; })()`)
	if menu[0] != res.Origin || !strings.HasPrefix(menu[1], "at x = −") {
		t.Errorf("the data panel's origin menu shows %q (%q); want %s", menu[1], menu[0], res.Origin)
	}
	b.sameChoice(res)
	b.noConsoleErrors()

	// The link, opened in a fresh page and given the file, reads it with
	// that origin: the menu shows it, and a run's model keeps it.
	link := "/#" + b.hashParams().Encode()
	b.do(chromedp.Navigate(b.base + "/examples/module.html"))
	b.do(chromedp.Navigate(b.base + link))
	b.waitFor(`window.spmtlApp && spmtlApp.summary() !== null && spmtlApp.state() === "idle"`, 30*time.Second)
	b.upload("#file", writeTemp(t, "slopes.csv", text))
	b.waitFor(`spmtlApp.summary().name === "slopes.csv" && spmtlApp.state() === "idle"`, 30*time.Second)
	if v := eval[string](b, `document.getElementById("feature-origin").value`); v != res.Origin {
		t.Errorf("the link's file was read with the origin %q, want %s", v, res.Origin)
	}
	b.noConsoleErrors()
}

// goTune tunes every model on text, a grouped file (task column group,
// label y), as the command line does: the search the page's must match.
func goTune(t *testing.T, name, text string) *app.TuneResult {
	t.Helper()
	d, err := app.Load([]byte(text), app.LoadOptions{Name: name, TaskColumn: "group", LabelColumn: "y"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := app.Tune(t.Context(), d, app.TuneOptions{Folds: 3, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sameChoice checks that the page's Tune chose res's model at its CV
// score: the pool scored the data as Go's search did (to 1e-9 relative).
func (b *browser) sameChoice(res *app.TuneResult) {
	b.t.Helper()
	type choice struct {
		Key   string  `json:"key"`
		Score float64 `json:"score"`
	}
	page := eval[choice](b, `(() => { const r = spmtlApp.tune().search.result, m = r.models[r.chosen]; return {key: m.key, score: m.score.value}; })()`)
	want := res.Models[res.Chosen]
	if page.Key != want.Key || math.Abs(page.Score-want.Score.Value) > 1e-9*math.Abs(want.Score.Value) {
		b.t.Errorf("the page chose %s at CV %v; Go's tune %s at %v", page.Key, page.Score, want.Key, want.Score.Value)
	}
}

// offsetGroupsCSV writes groups of 8 to 20 rows (group,y,x1,x2) whose
// features lie around 4, with each group's intercept drawn independent of
// its slopes at the features' means: a mixed model's likelihood prefers
// the origin there (core/reml TestOriginChoosesTheDrawnOne).
func offsetGroupsCSV(seed uint64, groups int) string {
	r := rand.New(rand.NewPCG(seed, 11))
	var sb strings.Builder
	sb.WriteString("group,y,x1,x2\n")
	for g := 0; g < groups; g++ {
		b, w1, w2 := r.NormFloat64(), 1+0.5*r.NormFloat64(), -1+0.5*r.NormFloat64()
		for i, n := 0, 8+r.IntN(13); i < n; i++ {
			x1, x2 := 4+r.NormFloat64(), 4+r.NormFloat64()
			fmt.Fprintf(&sb, "g%d,%.4f,%.4f,%.4f\n", g+1, b+w1*(x1-4)+w2*(x2-4)+0.5*r.NormFloat64(), x1, x2)
		}
	}
	return sb.String()
}

// TestTuneMovesTheOrigin: on a file whose groups' intercepts belong at the
// features' means, tuning every model moves the features' origin there
// and says why; the pool scores the moved data (the chosen model's CV
// score is Go's app.Tune's on the same text), the link carries the
// origin, and a model saved on every row keeps the means, so that it
// predicts new rows moved alike, unless it is of a run made before the
// move. Reset clears the model panel's status.
func TestTuneMovesTheOrigin(t *testing.T) {
	b := newBrowserFor(t, 5*time.Minute)
	b.openPage(true)
	b.interceptDownloads()
	text := offsetGroupsCSV(3, 60)
	b.loadGrouped("offset.csv", text)
	// A run before tuning reads the features as written.
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	b.tuneAllModels(4 * time.Minute)
	res := goTune(t, "offset.csv", text)
	// Drawn with the intercepts at the means: moved there, or within a
	// step of the search's grid (reml.OriginStep).
	if o, err := app.ParseOrigin(res.Origin); err != nil || !o.Set || o.Column != "" || math.Abs(o.T-1) > 0.25 {
		t.Fatalf("Go's tune moved the origin to %q: %s", res.Origin, res.OriginNote)
	}
	if s := eval[string](b, `document.getElementById("tune-origin").hidden ? "" : document.getElementById("tune-origin").textContent`); !strings.HasPrefix(s, "The numeric features' origin was moved to ") || !strings.Contains(s, "restricted likelihood is highest") {
		t.Errorf("the Tune panel's origin line is %q", s)
	}
	if s := eval[string](b, `document.getElementById("tune-status").textContent`); !strings.Contains(s, "origin was moved to ") || !strings.Contains(s, "(below)") {
		t.Errorf("the status %q does not say the origin moved", s)
	}
	if o := b.hashParams().Get("origin"); o != res.Origin {
		t.Errorf("the link's origin is %q, want Go's %s", o, res.Origin)
	}
	b.sameChoice(res)

	// After Tune the settings shown are its choice: "Save model for
	// prediction" fits them on every row of the data as it is read now
	// (moved to the means), as the command line's tune -save does, and
	// "Save this run's model" keeps the run before tuning, as written.
	// Play then trains the choice on the moved data, and Save fits it with
	// the means.
	savedBy := func(button string) []float64 {
		b.do(chromedp.Evaluate[chromedp.Void](`delete window.__downloads["spmtl-model.json"]`))
		b.do(chromedp.Click(chromedp.CSS(button)))
		var mf struct {
			Encoding struct {
				Center []float64 `json:"center"`
			} `json:"encoding"`
		}
		if err := json.Unmarshal([]byte(b.downloaded("spmtl-model.json")), &mf); err != nil {
			t.Fatal(err)
		}
		return mf.Encoding.Center
	}
	if c := savedBy("#save-model"); len(c) != 2 || c[0] == 0 {
		t.Errorf("Tune's choice, saved on every row, has the means %v; want the two features' (moved by Tune)", c)
	}
	if s := eval[string](b, `document.getElementById("predict-status").textContent`); !strings.Contains(s, "with the settings shown, not the run's") {
		t.Errorf("the save after Tune says %q; want that it fitted the settings shown", s)
	}
	// Predicting now uses the run's model; the status says the saved one
	// has other rows and other settings.
	b.upload("#predict-file", writeTemp(t, "offset.csv", text))
	b.waitFor(`document.getElementById("predict-status").textContent.includes(" predicted with ")`, 30*time.Second)
	if s := eval[string](b, `document.getElementById("predict-status").textContent`); !strings.Contains(s, "rows with the Model panel's settings, not the run's, predicts differently") {
		t.Errorf("predicting after Tune's choice was saved: %q", s)
	}
	if c := savedBy("#save-run-model"); c != nil {
		t.Errorf("the run before tuning, saved as it trained, has the means %v: it read the features as written", c)
	}
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	if c := savedBy("#save-model"); len(c) != 2 || math.Abs(c[0]-4) > 0.5*4 || c[0] == 0 {
		t.Errorf("the saved model's means %v; want the two features' (about 4 over their SD)", c)
	}
	// Reset: the model is gone, and so is what the status said of it.
	if s := eval[string](b, `document.getElementById("predict-status").textContent`); !strings.HasPrefix(s, "Saved ") {
		t.Errorf("after saving, the model panel's status says %q", s)
	}
	b.do(chromedp.Click(chromedp.CSS("#reset")))
	b.waitFor(`document.getElementById("predict-status").textContent === ""`, 10*time.Second)

	// The data panel shows the choice, and a visitor may take it back:
	// kept as written, the file is read again and Tune leaves it so.
	if v := eval[string](b, `document.getElementById("feature-origin").value`); v != res.Origin {
		t.Errorf("the data panel's origin reads %q after tuning moved it", v)
	}
	// A run on screen when the file is read again goes, and the run bar
	// says why.
	b.do(chromedp.Click(chromedp.CSS("#play")))
	b.waitFor(`spmtlApp.state() === "done" && spmtlApp.results() !== null`, 60*time.Second)
	b.do(chromedp.SetValue(chromedp.CSS("#feature-origin"), app.OriginZero))
	b.do(chromedp.Evaluate[chromedp.Void](`document.getElementById("feature-origin").dispatchEvent(new Event("change"))`))
	// The bar's sentence comes with the new reading's summary, which may
	// follow the idle state by a task: wait for either to be wrong or both.
	b.waitFor(`spmtlApp.state() === "idle" && new URLSearchParams(location.hash.slice(1)).get("origin") === "zero" && !document.getElementById("run-outcome").hidden`, 30*time.Second)
	if got := eval[string](b, `document.getElementById("run-outcome").hidden ? "" : document.getElementById("run-outcome").textContent`); !strings.Contains(got, "The run was cleared: ") || !strings.Contains(got, "was read again") {
		t.Errorf("after the file was read again, the run bar says %q", got)
	}
	b.tuneAllModels(4 * time.Minute)
	if !eval[bool](b, `document.getElementById("tune-origin").hidden`) || eval[string](b, `document.getElementById("feature-origin").value`) != app.OriginZero {
		t.Errorf("with the origin kept as written, Tune moved it: %q", eval[string](b, `document.getElementById("tune-origin").textContent`))
	}
	b.noConsoleErrors()
}

// TestTuneSaysWhenFitsStoppedAtTheCap: on 24 rows in 6 groups MTFL-mean's
// fits reach the iteration cap in every fold at its chosen setting; the
// page's notes under the table say so, as the command line does, rather
// than showing its CV score as a finished model's.
func TestTuneSaysWhenFitsStoppedAtTheCap(t *testing.T) {
	b := newBrowserFor(t, 5*time.Minute)
	b.openPage(true)
	b.loadGrouped("plots.csv", cappedPlotsCSV())
	b.tuneAllModels(3 * time.Minute)
	notes := eval[string](b, `document.getElementById("tune-leftout").textContent`)
	if !strings.Contains(notes, "MTFL-mean: at the chosen setting the fits of 2 folds stopped at the iteration cap (1000) without converging") ||
		!strings.Contains(notes, "not of the model at its optimum") {
		t.Errorf("the tuning's notes do not say that MTFL-mean's fits stopped at the cap: %q", notes)
	}
	b.noConsoleErrors()
}

// cappedPlotsCSV is 6 groups of 4 plots with three 0/1 treatments in a
// half fraction and a yield from a fixed formula (a block effect, three
// treatment effects and a deterministic wobble): small enough that
// MTFL-mean's alternation crawls.
func cappedPlotsCSV() string {
	design := [][3]int{{0, 1, 1}, {1, 1, 0}, {0, 0, 0}, {1, 0, 1}, {1, 0, 0}, {1, 1, 1}, {0, 1, 0}, {0, 0, 1}}
	block := []float64{3, -2, 5, -6, 1, -1}
	var sb strings.Builder
	sb.WriteString("group,y,N,P,K\n")
	for g := 0; g < 6; g++ {
		for i := 0; i < 4; i++ {
			k := (g*4 + i) % 8
			if g%2 == 1 {
				k = (g*4 + i + 3) % 8
			}
			n, p, kk := design[k][0], design[k][1], design[k][2]
			y := 50 + 6*float64(n) - float64(p) - 4*float64(kk) + block[g] + float64((g*7+i*13)%9-4)*0.9
			fmt.Fprintf(&sb, "b%d,%.1f,%d,%d,%d\n", g+1, y, n, p, kk)
		}
	}
	return sb.String()
}

// TestTuneFoldsSetting: a file of pairs (every group two rows) cannot be
// cross-validated at the default 3 folds: the refusal says 2 folds would
// test its groups, the Tune panel's fold setting gives them, and the
// search then runs at 2 folds and says so. The page had no fold setting,
// so such a file could not be tuned on it at all.
func TestTuneFoldsSetting(t *testing.T) {
	b := newBrowserFor(t, 4*time.Minute)
	b.openPage(true)
	var sb strings.Builder
	sb.WriteString("group,y,x1,x2\n")
	for g := 0; g < 30; g++ {
		for k := 0; k < 2; k++ {
			x1, x2 := float64((g*3+k*5)%7)-3, float64((g*5+k)%9)-4
			fmt.Fprintf(&sb, "p%02d,%.3f,%v,%v\n", g, 0.5*x1-0.2*x2+0.1*float64(g%4)+0.05*float64(k), x1, x2)
		}
	}
	b.loadGrouped("pairs.csv", sb.String())
	if v := eval[string](b, `document.getElementById("tune-folds").value`); v != "3" {
		t.Errorf("the folds start at %q, want 3", v)
	}
	b.do(chromedp.Click(chromedp.CSS("#tune-scope-all")), chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`spmtlApp.tune().state !== "running" && !document.getElementById("tune-error").hidden`, 60*time.Second)
	if msg := eval[string](b, `document.getElementById("tune-error").textContent`); !strings.Contains(msg, "every task has fewer than 3 rows") || !strings.Contains(msg, "2 folds would test the tasks of 2 rows") {
		t.Errorf("the refusal at 3 folds: %q", msg)
	}
	b.do(chromedp.SetValue(chromedp.CSS("#tune-folds"), "2"))
	b.do(chromedp.Click(chromedp.CSS("#tune")))
	b.waitFor(`spmtlApp.tune().state === "running" && spmtlApp.tune().search !== null`, 60*time.Second)
	if s := eval[string](b, `document.getElementById("tune-status").textContent`); !strings.Contains(s, "2-fold CV") {
		t.Errorf("the status while the search runs: %q", s)
	}
	b.waitFor(`spmtlApp.tune().state !== "running"`, 3*time.Minute)
	if st := eval[string](b, `spmtlApp.tune().state`); st != "done" {
		t.Fatalf("tuning at 2 folds ended %q: %s", st, eval[string](b, `document.getElementById("tune-error").textContent`))
	}
	if f := eval[int](b, `spmtlApp.tune().search.result.folds`); f != 2 {
		t.Errorf("the result's folds: %d, want 2", f)
	}
	b.noConsoleErrors()
}
