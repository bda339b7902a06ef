package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/publish"
)

// offlineStandIn writes a stand-in for the offline page (its first
// payload element is where the published ones go) and returns its path.
func offlineStandIn(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "spmtl-offline.html")
	page := "<!doctype html>\n<html><body>\n<script type=\"application/octet-stream\" id=\"spmtl-wasm\" data-codec=\"bin\" data-gz=\"1\">A</script>\n</body></html>\n"
	if err := os.WriteFile(p, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readPublished reads a published page back.
func readPublished(t *testing.T, path string) (*publish.Manifest, []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, data, err := publish.Read(string(b))
	if err != nil {
		t.Fatal(err)
	}
	return m, data
}

// TestPublishExam: spmtl publish of exam.csv records the run spmtl train
// makes of the same file and flags, the page's settings that rerun it,
// the column roles, and the file itself under its base name; no folder of
// this machine is named in the page.
func TestPublishExam(t *testing.T) {
	flags := []string{"-data", "testdata/exam.csv", "-task", "school", "-label", "score", "-drop", "student", "-selfpaced", "-lambda0", "auto", "-seed", "4"}
	out := filepath.Join(t.TempDir(), "exam.html")
	stdout, _, err := spmtl(t, append([]string{"publish", "-page", offlineStandIn(t), "-o", out}, flags...)...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "published to "+out) || !strings.Contains(stdout, "mean test RMSE of spMTFL") {
		t.Errorf("publish printed:\n%s", stdout)
	}
	m, data := readPublished(t, out)
	raw, _ := os.ReadFile("testdata/exam.csv")
	if string(data) != string(raw) {
		t.Error("the published data is not exam.csv")
	}
	d := m.Data
	if d.File != "exam.csv" || d.Task != "school" || d.Label != "score" || strings.Join(d.Drop, ",") != "student" || d.Rows != 71 || d.Tasks != 6 || d.Bytes != len(raw) {
		t.Errorf("data %+v", d)
	}
	want := map[string]string{"data": "custom", "model": "mtfl", "sp": "1", "tau": "softmax", "variant": "paper", "loss": "", "intercept": "",
		"rho": "0.1", "lambda0": "auto", "c": "1.1", "h": "5", "maxIter": "1000", "train": "0.75", "seed": "4"}
	for k, v := range want {
		if m.Run.Settings[k] != v {
			t.Errorf("setting %s = %q, want %q", k, m.Run.Settings[k], v)
		}
	}
	trainOut, _, err := spmtl(t, append([]string{"train", "-json", "-"}, flags...)...)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Mean float64 `json:"mean"`
	}
	if err := json.Unmarshal([]byte(trainOut), &rep); err != nil {
		t.Fatal(err)
	}
	if got := float64(m.Run.Results["main"].Mean); got != rep.Mean {
		t.Errorf("published mean %v, spmtl train's %v", got, rep.Mean)
	}
	if m.Run.By != "spmtl publish" || m.Run.Made == "" || len(m.Run.Evals) != len(m.Run.Snapshots) || m.Run.Model == nil {
		t.Errorf("the record: by %q, made %q, %d evals for %d snapshots", m.Run.By, m.Run.Made, len(m.Run.Evals), len(m.Run.Snapshots))
	}
	js, _ := json.Marshal(m)
	abs, _ := filepath.Abs("testdata")
	if strings.Contains(string(js), abs) || strings.Contains(string(js), "testdata/") {
		t.Error("the published manifest names the data's folder")
	}
}

// TestPublishBundle: a bundled data set is named, not packed (the page
// carries it), with its preset's training size.
func TestPublishBundle(t *testing.T) {
	out := filepath.Join(t.TempDir(), "syn1.html")
	if _, _, err := spmtl(t, "publish", "-page", offlineStandIn(t), "-data", "syn1", "-maxiter", "3", "-o", out); err != nil {
		t.Fatal(err)
	}
	m, data := readPublished(t, out)
	if m.Data.Bundle != "syn1" || data != nil || m.Run.Settings["data"] != "syn1" || m.Run.Settings["train"] != "15" || m.Run.Settings["maxIter"] != "3" {
		t.Errorf("published syn1: data %+v (%d bytes), settings %v", m.Data, len(data), m.Run.Settings)
	}
}

// TestPublishRefuses what a published page could not rerun, and a call
// without its output or page.
func TestPublishRefuses(t *testing.T) {
	page := offlineStandIn(t)
	out := filepath.Join(t.TempDir(), "x.html")
	notOffline := filepath.Join(t.TempDir(), "index.html")
	if err := os.WriteFile(notOffline, []byte("<html></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"publish", "-data", "testdata/exam.csv", "-task", "school", "-label", "score"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-page", page}, "-o is required"},
		{[]string{"-page", page, "-o", out, "-split", "x.csv:1"}, "-split: the page takes a split file only with a bundled data set"},
		{[]string{"-page", page, "-o", out, "-format", "csv"}, "-format: the page detects the format"},
		{[]string{"-page", page, "-o", out, "-solver", "exact"}, "-solver: the page has no solver setting"},
		{[]string{"-page", page, "-o", out, "-train", "all"}, "-train all: a published run shows its test scores"},
		{[]string{"-page", filepath.Join(t.TempDir(), "gone.html"), "-o", out}, "build it with ./build.sh, or give -page"},
		{[]string{"-page", notOffline, "-o", out}, "not the offline page"},
		{[]string{"-page", page, "-o", out, "-label", "nosuch"}, "nosuch"},
	} {
		_, _, err := spmtl(t, append(append([]string(nil), base...), c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one saying %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a refused publish wrote its output")
	}
}
