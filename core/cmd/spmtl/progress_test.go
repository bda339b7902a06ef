package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spmtl/spmtl/core/app"
)

// TestProgress: nothing is printed during the first seconds, then a line
// at most every few seconds (a fake clock: no timing in the test).
func TestProgress(t *testing.T) {
	var b strings.Builder
	clock := time.Unix(0, 0)
	p := newProgress(&b, "ELLA-random")
	p.now = func() time.Time { return clock }
	p.start, p.next = clock, clock.Add(progressFirst)
	for _, tc := range []struct {
		at   time.Duration
		done int
		want string
	}{
		{time.Second, 1, ""},
		{progressFirst, 2, "spmtl: ELLA-random: step 2 of 9 after 3s\n"},
		{progressFirst + time.Second, 3, ""},
		{progressFirst + progressEvery, 4, "spmtl: ELLA-random: step 4 of 9 after 8s\n"},
		{progressFirst + progressEvery + time.Millisecond, 5, ""},
	} {
		b.Reset()
		clock = time.Unix(0, 0).Add(tc.at)
		p.report("step %d of %d", tc.done, 9)
		if b.String() != tc.want {
			t.Errorf("at %v: printed %q, want %q", tc.at, b.String(), tc.want)
		}
	}
}

// TestLongRunsReportProgress: train (ELLA stepped for minutes on 3,000
// tasks without a word) and tune report their progress on stderr once a
// run is long; here "long" is made 0 so that every step reports.
func TestLongRunsReportProgress(t *testing.T) {
	defer func(first, every time.Duration) { progressFirst, progressEvery = first, every }(progressFirst, progressEvery)
	progressFirst, progressEvery = 0, 0
	_, stderr, err := spmtl(t, "train", "-data", "testdata/toy.csv", "-model", "ella")
	if err != nil || !strings.HasPrefix(stderr, "spmtl: ELLA-random: step 1 of 3 after ") || !strings.Contains(stderr, "spmtl: ELLA-random: step 3 of 3 after ") {
		t.Errorf("train -model ella: %v, stderr %q", err, stderr)
	}
	_, stderr, err = spmtl(t, "train", "-data", "testdata/toy.csv", "-model", "mtfl", "-selfpaced", "-maxiter", "2")
	if err != nil || !strings.HasPrefix(stderr, "spmtl: spMTFL: iteration 1 of at most 2 after ") {
		t.Errorf("train -selfpaced: %v, stderr %q", err, stderr)
	}
	_, stderr, err = spmtl(t, "tune", "-data", "testdata/toy.csv", "-model", "mtfl", "-maxiter", "2")
	// The search's plan: ρ, then κ, then two rounds around the best (§14).
	plan := len(app.TuneRho) + len(app.TuneIntercept) - 1 + 8
	// A grid extended past its edge raises the total: the count reaches it
	// and never passes it.
	last := regexp.MustCompile(`grid point (\d+) of about (\d+) after [^\n]*\n(spmtl: MTFL on every row)`).FindStringSubmatch(stderr)
	if err != nil || !strings.HasPrefix(stderr, fmt.Sprintf("spmtl: tune MTFL: grid point 1 of about %d after ", plan)) ||
		last == nil || last[1] != last[2] || !strings.Contains(stderr, "spmtl: MTFL on every row: iteration 1 of at most 2 after ") {
		t.Errorf("tune: %v, stderr %q", err, stderr)
	}
	for _, m := range regexp.MustCompile(`grid point (\d+) of about (\d+) after`).FindAllStringSubmatch(stderr, -1) {
		done, _ := strconv.Atoi(m[1])
		total, _ := strconv.Atoi(m[2])
		if done > total {
			t.Errorf("tune counted %s of %s", m[1], m[2])
		}
	}
}
