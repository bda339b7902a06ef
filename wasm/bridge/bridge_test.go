//go:build js && wasm

package bridge

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/data"
)

// TestErrorJS: a failure reaches the page with its message and the remedy
// the page can offer (a column to leave out, a column menu to use).
func TestErrorJS(t *testing.T) {
	load := func(text string) error {
		_, err := app.Load([]byte(text), app.LoadOptions{Name: "m.csv"})
		return fmt.Errorf("wrapped: %w", err)
	}
	for _, tc := range []struct {
		err  error
		want map[string]any
	}{
		{load("task,y,x1\na,1,\na,2,3\n"), map[string]any{"__error": "wrapped: m.csv:2:3: missing value in column x1: 1 of the 2 rows has a missing value; leave those rows out, fill the values in, or leave the column out", "drop": "x1", "omit": true}},
		// Every row misses a value: leaving the rows out is not offered;
		// leaving x1 out (which keeps x2's gap) only may leave rows whole.
		{load("task,y,x1,x2\na,1,,3\na,2,4,\n"), map[string]any{"__error": "wrapped: m.csv:2:3: missing value in column x1: 2 of the 2 rows have a missing value (x1: 1, x2: 1); fill the values in, or leave out x1 (1 of its cells miss a value), which may leave rows whole", "drop": "x1"}},
		// A column with no value in any row is left out (its reason in the
		// column's role), not refused.
		{load("task,y,x1\na,1,\n"), map[string]any{"__error": `wrapped: m.csv:1:1: no feature columns: the header has only the task column "task" and the label column "y" (left out: x1); read one of those back as a feature`}},
		{load("group,y,x1\na,1,2\n"), map[string]any{"__error": `wrapped: m.csv:1:1: no task column "task" in header (group, y, x1); choose the task column among these`, "choose": "task"}},
		{&data.RemedyError{Err: errors.New("unknown task"), Remedy: data.Remedy{Skip: true}}, map[string]any{"__error": "unknown task", "skip": true}},
		{errors.New("plain"), map[string]any{"__error": "plain"}},
	} {
		if got := errorJS(tc.err); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("errorJS(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
