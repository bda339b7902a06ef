package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/data"
	"github.com/spmtl/spmtl/core/internal/words"
	"github.com/spmtl/spmtl/core/mtl"
	webdata "github.com/spmtl/spmtl/web/data"
)

// dataFlags are the flags that read and split a data set, shared by the
// commands. Unset flags (zero values) take the defaults of core/app, or
// a bundled data set's preset.
type dataFlags struct {
	path, taskCol, labelCol, format string
	split, dataDir                  string
	train                           float64
	all                             bool // -train all
	drop, text, missing, origin     string
	seed                            uint64
}

func (f *dataFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.path, "data", "", "data `file` (CSV, sparse text or a packed table; the format is detected), or a bundled data set: "+strings.Join(app.BundleNames(), ", "))
	fs.StringVar(&f.format, "format", "", "data format: csv, sparse, or packed (a table spmtl pack wrote) (default: detected from the file)")
	fs.StringVar(&f.split, "split", "", "split `file:column` (splits.csv:split1, or splits.csv:1) instead of a random split")
	fs.StringVar(&f.dataDir, "data-dir", "", "read the bundled data sets from this `folder` instead of the copies built into spmtl")
	// The settings of the split and the column roles (app.Settings).
	for key, dst := range map[string]*string{"task": &f.taskCol, "label": &f.labelCol, "drop": &f.drop, "text": &f.text} {
		s := setting(key)
		fs.StringVar(dst, s.Flag, "", s.Help())
	}
	missing := setting("missing")
	fs.Var(choiceFlag{dst: &f.missing}, missing.Flag, missing.Help())
	origin := setting("origin")
	fs.Var(choiceFlag{dst: &f.origin, choices: []string{app.OriginAuto, app.OriginZero, app.OriginMeans},
		check: func(v string) error { _, err := app.ParseOrigin(v); return err }}, origin.Flag, origin.Help())
	train := setting("train")
	fs.Var(trainFlag{f}, train.Flag, train.Help())
	seed := setting("seed")
	def, err := strconv.ParseUint(seed.Default, 10, 64)
	if err != nil {
		panic(fmt.Sprintf("the seed's default %q: %v", seed.Default, err)) // the schema's own text
	}
	fs.Uint64Var(&f.seed, seed.Flag, def, seed.Usage)
}

// sourceFlags are the flags of dataFlags that say where the data comes
// from; every other flag of dataFlags and modelFlags is a setting of the
// schema (app.Settings).
var sourceFlags = []string{"data", "format", "split", "data-dir"}

// setting returns the schema's setting key (one of this file's keys).
func setting(key string) app.Setting {
	s, ok := app.LookupSetting(key)
	if !ok {
		panic(fmt.Sprintf("no setting %q in the schema", key))
	}
	return s
}

// bundleFS is where the bundled data sets are read from.
func (f *dataFlags) bundleFS() fs.FS {
	if f.dataDir != "" {
		return os.DirFS(f.dataDir)
	}
	return webdata.FS
}

// load reads -data: a file, or (when no such file exists) a bundled data
// set, whose preset then fills the unset training size. It returns the
// bundle when -data named one.
func (f *dataFlags) load() (*app.Data, *app.Bundle, error) {
	if f.path == "" {
		return nil, nil, fmt.Errorf("-data is required: a data file or one of %s", strings.Join(app.BundleNames(), ", "))
	}
	if _, statErr := os.Stat(f.path); statErr != nil {
		b, err := app.LookupBundle(f.path)
		if err != nil {
			return nil, nil, fmt.Errorf("read data: %w (and %v)", statErr, err)
		}
		if err := f.bundleRefuses(b); err != nil {
			return nil, nil, err
		}
		d, err := f.loadBundle(b)
		if err != nil {
			return nil, nil, err
		}
		f.train = app.WithPreset(b.Preset, app.TrainOptions{Train: f.train}).Train
		return d, &b, nil
	}
	text, err := readFile(f.path)
	if err != nil {
		return nil, nil, fmt.Errorf("read data: %w", err)
	}
	omit, err := app.OmitMissing(f.missing)
	if err != nil {
		return nil, nil, fmt.Errorf("-%w", err)
	}
	if err := packedOmitted(text, f.path, f.missing); err != nil {
		return nil, nil, err
	}
	opt := app.LoadOptions{Name: f.path, Format: f.format, TaskColumn: f.taskCol, LabelColumn: f.labelCol, Drop: f.dropped(), Text: columnList(f.text), OmitMissing: omit, Origin: f.origin,
		// A text column with too many values to encode is left out with the
		// reason, which the summary prints, as the page leaves it unticked:
		// refused, a file with two date columns took three runs.
		DropRefused: true}
	if f.split != "" {
		if f.train != 0 {
			return nil, nil, splitFixesTrain(f.train, "the split file (-split "+f.split+")")
		}
		path, col := splitFlag(f.split)
		if opt.Splits, err = readFile(path); err != nil {
			return nil, nil, fmt.Errorf("split file: %w", err)
		}
		opt.SplitColumn, opt.SplitName = col, path
	}
	d, err := app.Load(text, opt)
	return d, nil, err
}

// bundleRefuses refuses the flags a bundled data set does not read: its
// columns, format and missing values are its own (a file's flags were
// silently ignored), a split file other than its own, and a training
// share where its split files fix the split.
func (f *dataFlags) bundleRefuses(b app.Bundle) error {
	var given []string
	for _, fl := range []struct{ name, v string }{{"format", f.format}, {"task", f.taskCol}, {"label", f.labelCol},
		{"drop", f.drop}, {"text", f.text}, {"missing", f.missing}, {"origin", f.origin}} {
		if fl.v != "" {
			given = append(given, "-"+fl.name)
		}
	}
	if len(given) > 0 {
		return fmt.Errorf("%s: %s is a bundled data set, read with its own columns and settings; leave %s out, or give a file of your own to -data", strings.Join(given, ", "), b.Name, words.List(given))
	}
	if f.train != 0 && (b.Splits != "" || b.Generated) {
		by := b.Name + "'s split file (" + b.Splits + ")"
		if b.Generated {
			by = b.Name + ", generated with its own training and test rows,"
		}
		return splitFixesTrain(f.train, by)
	}
	if f.split == "" {
		return nil
	}
	if b.Generated {
		return fmt.Errorf("-split %s: %s is generated with its own training and test rows (-seed draws them); leave -split out", f.split, b.Name)
	}
	if b.Splits == "" {
		return fmt.Errorf("-split %s: %s has no split file; its split is drawn at random (-train sets the share, -seed the draw); leave -split out", f.split, b.Name)
	}
	if path, _ := splitFlag(f.split); path != "" && path != b.Splits && path != filepath.Base(b.Splits) {
		return fmt.Errorf("-split %s: %s is split by its own split file (%s); name only its column, as -split :2 or -split %s:split2", f.split, b.Name, b.Splits, filepath.Base(b.Splits))
	}
	return nil
}

// packedOmitted refuses -missing refuse, given on purpose, for a packed
// table whose rows missing a value were left out when it was packed: they
// are not in it to be refused (the table's note says which they were).
func packedOmitted(text []byte, path, missing string) error {
	if strings.TrimSpace(missing) != app.MissingRefuse || !data.IsPacked(text) {
		return nil
	}
	tab, err := data.ReadPacked(text, path)
	if err != nil || tab.Omitted == nil {
		return nil // the load names a damaged table
	}
	return fmt.Errorf("-missing refuse: %s was packed with its rows that miss a value left out (%s), so there are none to refuse; pack the CSV again without -missing omit, or leave -missing out", path, tab.Omitted.Text())
}

// splitFixesTrain refuses a training share where a split file, by, fixes
// which rows train (app.NewRun would leave the share unread).
func splitFixesTrain(train float64, by string) error {
	return fmt.Errorf("-train %g: %s says which rows train, so there is no share to draw; leave -train out, or give -train all to train on every row", train, by)
}

// loadBundle reads or generates a bundled data set; a bundle with split
// files uses column split1 unless -split names another column.
func (f *dataFlags) loadBundle(b app.Bundle) (*app.Data, error) {
	if b.Generated {
		return app.Generate(b.Name, f.seed)
	}
	text, err := fs.ReadFile(f.bundleFS(), b.Data)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", b.Data, err)
	}
	opt := app.LoadOptions{Name: b.Data, Bundled: true}
	if b.Splits != "" {
		if opt.Splits, err = fs.ReadFile(f.bundleFS(), b.Splits); err != nil {
			return nil, fmt.Errorf("read %s: %w", b.Splits, err)
		}
		opt.SplitColumn, opt.SplitName = "split1", b.Splits
		if f.split != "" {
			_, opt.SplitColumn = splitFlag(f.split)
		}
	}
	return app.Load(text, opt)
}

// splitFlag reads "file:column"; "file:3" means column split3.
func splitFlag(s string) (path, col string) {
	path, col, ok := strings.Cut(s, ":")
	if !ok {
		col = "split1"
	}
	if _, err := strconv.Atoi(col); err == nil {
		col = "split" + col
	}
	return path, col
}

// modelFlags are the learner settings; every flag defaults to "unset" (its
// zero value), which mtl.Config.Defaults fills in. An explicit value out
// of range, 0 included, is refused by check, never taken for "unset".
type modelFlags struct {
	cfg mtl.Config
}

// register adds a flag for each learner setting of the schema
// (app.Settings), with its help and defaults.
func (m *modelFlags) register(fs *flag.FlagSet) {
	for _, s := range app.Settings() {
		if s.Group != app.LearnerGroup || s.Flag == "" {
			continue
		}
		switch v := s.Field(&m.cfg).(type) {
		case *float64:
			fs.Float64Var(v, s.Flag, 0, s.Help())
		case *int:
			fs.IntVar(v, s.Flag, 0, s.Help())
		case *string:
			fs.StringVar(v, s.Flag, "", s.Help())
		case *bool:
			fs.BoolVar(v, s.Flag, false, s.Help())
		case flag.Value:
			fs.Var(v, s.Flag, s.Help())
		default:
			panic(fmt.Sprintf("setting %s: a field of type %T", s.Key, v)) // the schema's own fields
		}
	}
}

// flagRange is the range of a numeric flag: a finite number more than
// (or, with loIncluded, at least) lo and at most hi (+Inf: no bound).
type flagRange struct {
	flag string
	mtl.Range
}

// countFrom is the range of a count flag (-folds, -runs): a whole number
// of at least lo.
func countFrom(flag string, lo float64) flagRange {
	return flagRange{flag: flag, Range: mtl.Range{Lo: lo, Hi: mtl.NoBound, LoIncluded: true, Integer: true}}
}

// contains reports whether v is in the range (NaN and ±Inf are not).
func (r flagRange) contains(v float64) bool { return r.Contains(v) }

// String says the bounds ("at least 1 and at most 100000"), which the
// flag's message puts after "want a number".
func (r flagRange) String() string { return strings.TrimPrefix(r.Range.String(), "a whole number ") }

// modelRanges are the ranges of the numeric learner flags: those of
// mtl.Config.Validate, read from the schema (TestFlagRangesAgreeWithValidate
// checks them). They are checked here because an explicit 0 would
// otherwise be taken for "unset" and replaced by the default, and so that
// the message states the bound.
var modelRanges = learnerRanges()

func learnerRanges() []flagRange {
	var out []flagRange
	for _, s := range app.Settings() {
		if s.Group == app.LearnerGroup && s.Flag != "" && s.Range != nil {
			out = append(out, flagRange{flag: s.Flag, Range: *s.Range})
		}
	}
	return out
}

// paceRange is the range of -c (and of figure pace's -values).
var paceRange = flagRange{flag: "c", Range: *setting("c").Range}

// checkRanges refuses a flag of fs that was given a value outside its
// range.
func checkRanges(fs *flag.FlagSet, ranges []flagRange) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		for _, r := range ranges {
			if r.flag != f.Name || err != nil {
				continue
			}
			v, perr := strconv.ParseFloat(f.Value.String(), 64)
			if perr != nil || !r.contains(v) {
				err = usageErrorf(fs, "-%s %s: want a number %s (or leave -%s out for the default)", f.Name, f.Value, r, f.Name)
			}
		}
	})
	return err
}

// check refuses learner flags given a value out of range.
func (m *modelFlags) check(fs *flag.FlagSet) error { return checkRanges(fs, modelRanges) }

// config returns the configuration: the flags, a bundle's preset for the
// settings they leave unset (app.WithPreset), and seed as the learner's
// seed.
func (m *modelFlags) config(b *app.Bundle, seed uint64) mtl.Config {
	c := m.cfg
	if b != nil {
		c = app.WithPreset(b.Preset, app.TrainOptions{Config: c}).Config
	}
	c.Seed = int64(seed)
	return c
}

// dropped returns the -drop columns.
func (f *dataFlags) dropped() []string { return columnList(f.drop) }

// columnList returns the columns of a comma-separated list (-drop, -text),
// read as one CSV record, so that a name holding a comma is given in
// double quotes ("notes, free",id), as listItem writes it. A list that is
// no CSV record (an unbalanced quote) is split at its commas, and the
// intake then names what it did not find.
func columnList(list string) []string {
	cr := csv.NewReader(strings.NewReader(list))
	cr.TrimLeadingSpace = true
	items, err := cr.Read()
	if err != nil {
		items = strings.Split(list, ",")
	}
	var out []string
	for _, c := range items {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// listItem writes a column name as an item of a -drop or -text list: in
// double quotes when it holds a comma or a quote (columnList).
func listItem(name string) string {
	if strings.ContainsAny(name, ",\"") {
		return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
	}
	return name
}

// trainOptions returns the split settings of the flags.
func (f *dataFlags) trainOptions(cfg mtl.Config) app.TrainOptions {
	return app.TrainOptions{Config: cfg, Train: f.train, Seed: f.seed, All: f.all}
}

// choiceFlag reads a flag of a few words (-missing and predict's
// -new-tasks: refuse or omit; -origin), so that another value is a mistake
// in the flags, with the hint to -h, not an error after the read. No
// choices: refuse or omit.
type choiceFlag struct {
	dst     *string
	choices []string
	// check, when set, reads a value that is none of the choices (-origin's
	// number t or column=value: app.ParseOrigin).
	check func(string) error
}

func (m choiceFlag) String() string {
	if m.dst == nil {
		return ""
	}
	return *m.dst
}

func (m choiceFlag) Set(v string) error {
	v = strings.TrimSpace(v)
	choices := m.choices
	if len(choices) == 0 {
		choices = []string{app.MissingRefuse, app.MissingOmit}
	}
	if !slices.Contains(choices, v) {
		if m.check != nil {
			if err := m.check(v); err != nil {
				return err
			}
			*m.dst = v
			return nil
		}
		return fmt.Errorf("want %s or %s", strings.Join(choices[:len(choices)-1], ", "), choices[len(choices)-1])
	}
	*m.dst = v
	return nil
}

// trainFlag reads -train: a count, a fraction or "all".
type trainFlag struct{ f *dataFlags }

func (t trainFlag) String() string {
	if t.f == nil {
		return ""
	}
	if t.f.all {
		return "all"
	}
	if t.f.train == 0 {
		return ""
	}
	return strconv.FormatFloat(t.f.train, 'g', -1, 64)
}

func (t trainFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	if s == "all" {
		t.f.all, t.f.train = true, 0
		return nil
	}
	// The schema's forms say what a training share is; the messages here
	// say what to give instead.
	_, v, err := setting("train").ParseForm(s)
	switch {
	case err == nil && v == 1 && strings.TrimPrefix(s, "+") != "1":
		// 1.0 looks like 100% but, being 1 or more, is a count: one
		// training row per task.
		return fmt.Errorf("ambiguous: %s reads as 100%%, but 1 or more is a count of rows: for every row give -train all (no test score); for one training row per task, -train 1; for a fraction, a number below 1 (0.8)", s)
	case err == nil:
		t.f.train, t.f.all = v, false
		return nil
	}
	if v, perr := strconv.ParseFloat(s, 64); perr == nil && v > 1 && !math.IsInf(v, 0) && v != math.Trunc(v) {
		return fmt.Errorf("a count of rows is a whole number, got %s; a fraction is below 1 (0.8)", s)
	}
	return fmt.Errorf("want a count, a fraction or all, got %q", s)
}

// inputs are the files the data flags read, by flag name.
func (f *dataFlags) inputs() map[string]string {
	in := map[string]string{"data": f.path}
	if f.split != "" {
		in["split"], _ = splitFlag(f.split)
	}
	return in
}

// refuseOverwrite refuses, before any work, an output (a flag's file) that
// is one of the command's inputs: "spmtl train -data d.csv -save d.csv"
// once replaced the data with the model file; and one that could not be
// written (writable), which was found only after minutes of tuning.
// Outputs and inputs are by flag name; a path that does not exist yet, ""
// and "-" (standard output) are never an input.
func refuseOverwrite(outputs, inputs map[string]string) error {
	for _, o := range slices.Sorted(maps.Keys(outputs)) {
		if err := writable(outputs[o]); err != nil {
			return fmt.Errorf("-%s %s: %w", o, outputs[o], err)
		}
		for _, i := range slices.Sorted(maps.Keys(inputs)) {
			if sameFile(outputs[o], inputs[i]) {
				return fmt.Errorf("-%s %s is the file -%s reads: writing it would replace that file; give -%s another file name", o, outputs[o], i, o)
			}
		}
	}
	return nil
}

// writable reports why path, an output file, could not be written: its
// folder is missing, it is a folder, or opening it for writing fails (a
// file it creates to find out is removed again; an existing one is not
// changed). "" and "-" (standard output) are always writable.
func writable(path string) error {
	if path == "" || path == "-" {
		return nil
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return fmt.Errorf("its folder %s does not exist: create it, or give a path in an existing folder", filepath.Dir(path))
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return errors.New("it is a folder: give a file name")
	}
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("cannot be written: %w", err)
	}
	f.Close()
	if os.IsNotExist(statErr) {
		os.Remove(path)
	}
	return nil
}

// sameFile reports whether paths a and b name one existing file.
func sameFile(a, b string) bool {
	if a == "" || b == "" || a == "-" || b == "-" {
		return false
	}
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// readFile reads a file named on the command line. Only a regular file is
// read: a device (/dev/zero, /dev/urandom) never ends, and read whole it
// grew the process to the machine's memory until the kernel killed it
// (hunt10: 24 GB in 140 s); a pipe with no writer blocks in open.
func readFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		return nil, fmt.Errorf("%s is not a regular file (a device, a pipe or a socket): give the path of a file", path)
	}
	return os.ReadFile(path)
}
