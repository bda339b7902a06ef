package jsonlite_test

import (
	"os"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/wasm/internal/jsonlite"
)

// FuzzReadModel: the bridge's reader of a visitor's model file (a JSON
// text within a size and depth bound, read into app.ModelFile, then
// checked) never panics, refuses what breaks a bound with an error that
// names the file, and keeps the depth bound on whatever it accepts.
func FuzzReadModel(f *testing.F) {
	if b, err := os.ReadFile("../../../core/app/testdata/syn1-quick.json"); err == nil {
		f.Add(b)
	}
	for _, s := range []string{`{"format":"spmtl-model","version":1}`, strings.Repeat("[", 40) + strings.Repeat("]", 40),
		`{"tasks":["a"],"features":["x"],"w":[[1e308,-1e308]],"theta":{"kind":"mtfl","d":[[1]]}}`, `{"w":[[null]]}`} {
		f.Add([]byte(s))
	}
	// The bridge's bounds scaled down (its MaxBytes is 128 MiB), so that
	// the fuzzer reaches the size bound too.
	r := jsonlite.Reader{MaxBytes: 1 << 14, MaxDepth: 32}
	f.Fuzz(func(t *testing.T, text []byte) {
		var m app.ModelFile
		err := r.Decode(text, "model.json", &m)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "model.json") {
				t.Fatalf("the error does not name the file: %v", err)
			}
			return
		}
		if len(text) > r.MaxBytes {
			t.Fatalf("a text of %d bytes was read past the bound of %d", len(text), r.MaxBytes)
		}
		if err := m.Check("model.json"); err != nil && !strings.Contains(err.Error(), "model.json") {
			t.Fatalf("the check's error does not name the file: %v", err)
		}
	})
}
