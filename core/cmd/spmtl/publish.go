package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/internal/words"
	"github.com/spmtl/spmtl/core/method"
	"github.com/spmtl/spmtl/core/mtl"
	"github.com/spmtl/spmtl/core/publish"
	"github.com/spmtl/spmtl/core/session"
)

// publishRefused are the train flags a published page cannot rerun: the
// page has no setting for them (its intake detects the format, a split
// file comes only with a bundled data set) or it trains every run with a
// test set.
var publishRefused = map[string]string{
	"format":    "the page detects the format: leave -format out",
	"split":     "the page takes a split file only with a bundled data set: publish a random split (-train)",
	"data-dir":  "the page carries the bundled data sets itself: leave -data-dir out",
	"solver":    "the page has no solver setting (the variant chooses it): leave -solver out",
	"scale":     "the page has no scale setting (the data chooses it): leave -scale out",
	"pace-cost": "the page has no pace-cost setting (the data chooses it): leave -pace-cost out",
	"delta":     "the page has no delta setting: leave -delta out",
	"eps":       "the page has no eps setting: leave -eps out",
	"code-bugs": "the page does not reproduce the authors' bug: leave -code-bugs out",
}

// publishBy says what made a published page.
const publishBy = "spmtl publish"

// runPublish trains a run as the page would, records it and writes the
// offline page with the run, its model and the data in it.
func runPublish(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("publish", stderr)
	var df dataFlags
	var mf modelFlags
	df.register(fs)
	mf.register(fs)
	page := fs.String("page", filepath.Join("dist", "spmtl-offline.html"), "the offline page `file` to publish into (./build.sh writes it)")
	out := fs.String("o", "", "write the published page to `file` (.html)")
	for name, why := range publishRefused {
		refuseFlag(fs, name, why)
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := mf.check(fs); err != nil {
		return err
	}
	switch {
	case *out == "":
		return usageErrorf(fs, "publish: -o is required: the HTML file to write")
	case df.all:
		return usageErrorf(fs, "-train all: a published run shows its test scores, and a run on every row has none: give a count or a fraction")
	}
	inputs := df.inputs()
	inputs["page"] = *page
	if err := refuseOverwrite(map[string]string{"o": *out}, inputs); err != nil {
		return err
	}
	template, err := readFile(*page)
	if err != nil {
		return fmt.Errorf("read the page to publish into: %w (build it with ./build.sh, or give -page)", err)
	}
	start := time.Now()
	sess := session.New()
	ref, raw, sum, bundle, err := loadForPage(sess, &df)
	if err != nil {
		return err
	}
	cfg := mf.config(bundle, df.seed)
	if df.train == 0 {
		df.train = app.DefaultTrain
	}
	// The model file says what it was trained on as the page's Save does
	// (web/js/model.js): the data set's name, and the split unless fixed.
	trained := app.Trained{File: sum.Name, Seed: df.seed}
	if !sum.FixedSplit {
		trained.Train = df.train
	}
	p := newProgress(stderr, "publish")
	rec, err := publish.Record(sess, sum.Handle, df.trainOptions(cfg), trained, func(s mtl.Snapshot) { p.report("step %d", s.Iter) })
	if err != nil {
		return err
	}
	rec.Made, rec.By, rec.Data = start.UTC().Format(time.RFC3339), publishBy, sum
	rec.Settings = pageSettings(fs, rec.Run.Config, ref.Bundle, df.train, df.seed)
	ref.Rows, ref.Tasks = sum.Rows, len(sum.Tasks)
	html, sizes, err := publish.Write(string(template), publish.Manifest{Data: ref, Run: *rec}, raw)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, []byte(html), 0o644); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	printPublished(stdout, rec, *out, sizes, time.Since(start))
	return nil
}

// loadForPage reads -data into sess as the page reads it: the author's
// file under its base name with the columns given (the data payload's
// bytes), or a bundled data set as the page loads its own copy.
func loadForPage(sess *session.Session, df *dataFlags) (publish.DataRef, []byte, session.Summary, *app.Bundle, error) {
	if df.path == "" {
		return publish.DataRef{}, nil, session.Summary{}, nil, fmt.Errorf("-data is required: a data file or one of %s", strings.Join(app.BundleNames(), ", "))
	}
	if _, statErr := os.Stat(df.path); statErr != nil {
		b, err := app.LookupBundle(df.path)
		if err != nil {
			return publish.DataRef{}, nil, session.Summary{}, nil, fmt.Errorf("read data: %w (and %v)", statErr, err)
		}
		sum, err := loadBundleForPage(sess, b, df.seed)
		if df.train == 0 {
			df.train = b.Preset.Train
		}
		return publish.DataRef{Bundle: b.Name, File: b.Name}, nil, sum, &b, err
	}
	raw, err := readFile(df.path)
	if err != nil {
		return publish.DataRef{}, nil, session.Summary{}, nil, fmt.Errorf("read data: %w", err)
	}
	ref := publish.DataRef{File: filepath.Base(df.path), Task: df.taskCol, Label: df.labelCol, Drop: df.dropped(), Text: columnList(df.text), Missing: df.missing, Origin: df.origin}
	if ref.Task == "" {
		ref.Task = "task"
	}
	if ref.Label == "" {
		ref.Label = "y"
	}
	sum, err := sess.LoadBytes(raw, session.LoadOptions{Name: ref.File, TaskColumn: ref.Task, LabelColumn: ref.Label, Drop: ref.Drop, Text: ref.Text, Missing: ref.Missing, Origin: ref.Origin})
	return ref, raw, sum, nil, err
}

// loadBundleForPage loads a bundled data set as the page's data panel does
// (web/js/data.js loadBundle): generated with the seed, or read from its
// files with the split file's first column.
func loadBundleForPage(sess *session.Session, b app.Bundle, seed uint64) (session.Summary, error) {
	if b.Generated {
		return sess.Generate(b.Name, seed)
	}
	dfs := (&dataFlags{}).bundleFS()
	text, err := fs.ReadFile(dfs, b.Data)
	if err != nil {
		return session.Summary{}, fmt.Errorf("read %s: %w", b.Data, err)
	}
	opt := session.LoadOptions{Name: b.Data, Bundled: true}
	if b.Splits != "" {
		split, err := fs.ReadFile(dfs, b.Splits)
		if err != nil {
			return session.Summary{}, fmt.Errorf("read %s: %w", b.Splits, err)
		}
		opt.SplitText, opt.SplitColumn = string(split), "split1"
	}
	return sess.LoadBytes(text, opt)
}

// pageSettings are the page's settings (web/js/state.js) that rerun cfg,
// the configuration the run took: the learner's settings as it used them,
// and the loss and κ as given (left empty, the page lets the learner
// choose them, as the command line did).
func pageSettings(fs *flag.FlagSet, cfg mtl.Config, bundle string, train float64, seed uint64) map[string]string {
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	sp := "0"
	if cfg.SelfPaced {
		sp = "1"
	}
	data := bundle
	if data == "" {
		data = "custom" // the page's name for a visitor's own file (state.js OWN_DATA)
	}
	s := map[string]string{"data": data, "model": cfg.Model, "sp": sp, "tau": string(cfg.Tau), "variant": string(cfg.Variant),
		"rho": num(cfg.Rho), "lambda0": app.Lambda0Text(cfg), "c": num(cfg.Pace), "h": strconv.Itoa(cfg.H),
		"maxIter": strconv.Itoa(cfg.MaxIter), "train": num(train), "seed": strconv.FormatUint(seed, 10), "loss": "", "intercept": ""}
	if cfg.Select != "" {
		s["select"] = cfg.Select
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "loss":
			s["loss"] = f.Value.String()
		case "intercept":
			s["intercept"] = f.Value.String()
		}
	})
	return s
}

// printPublished says what was published: the data, the run and its
// scores, and the file's size in parts.
func printPublished(w io.Writer, rec *publish.RunFile, out string, sz publish.Sizes, took time.Duration) {
	d, r := rec.Data, rec.Run
	fmt.Fprintf(w, "data %s: %s, %s, %s, %s; %s, %s\n",
		d.Name, words.Plural(len(d.Tasks), "task"), words.Plural(d.Rows, "row"), words.Plural(d.Features, "feature"), d.Kind, words.Plural(r.TrainRows, "training row"), words.Plural(r.TestRows, "test row"))
	for _, note := range []string{d.FeatureText, d.LevelNote, d.MissingNote} {
		if note != "" {
			fmt.Fprintf(w, "  %s\n", note)
		}
	}
	last := rec.Snapshots[len(rec.Snapshots)-1]
	kind := "iterations"
	if m, err := method.Lookup(r.Config.Model); err == nil && m.Kind == method.Sequential {
		kind = "steps"
	}
	fmt.Fprintf(w, "model %s: %d %s; %s\n", r.Name, len(rec.Snapshots), kind, last.StopMessage)
	if r.UntestedText != "" {
		fmt.Fprintln(w, r.UntestedText+".")
	}
	for _, role := range []string{"main", "baseline", "itl"} {
		if res, ok := rec.Results[role]; ok {
			fmt.Fprintf(w, "  mean test %s of %s: %s\n", strings.ToUpper(res.Metric), res.Label, score(float64(res.Mean)))
		}
	}
	data := "the data set is in the page already"
	if sz.DataCodec != "" {
		data = fmt.Sprintf("the data %d (%s)", sz.Data, sz.DataCodec)
	}
	fmt.Fprintf(w, "published to %s in %v: %d bytes (the offline page %d, %s, the run and model %d)\n",
		out, took.Round(time.Millisecond), sz.Page, sz.Template, data, sz.Manifest)
}
