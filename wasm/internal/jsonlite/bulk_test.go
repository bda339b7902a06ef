package jsonlite

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// weightsJSON is a model-like text: tasks lists of n numbers each.
func weightsJSON(tasks, n int) []byte {
	var b strings.Builder
	b.WriteString(`{"w":[`)
	for t := 0; t < tasks; t++ {
		if t > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(math.Sin(float64(t*n+i))*1e3, 'g', -1, 64))
		}
		b.WriteByte(']')
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// BenchmarkDecodeWeights reads 4 lists of 250,000 numbers into
// [][]float64, the bulk of a large model file.
func BenchmarkDecodeWeights(b *testing.B) {
	text := weightsJSON(4, 250000)
	r := Reader{MaxBytes: 128 << 20, MaxDepth: 32}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var m struct {
			W [][]float64 `json:"w"`
		}
		if err := r.Decode(text, "m.json", &m); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDecodePackedListsAsParsed: Decode, whose tree holds a list of
// numbers only as a []float64, fills every kind of target as Assign does
// from Parse's tree of []any: slices of floats, of named floats, of whole
// numbers, arrays, interfaces, lists mixing numbers with null or text,
// and the same errors for a list where a value is wanted.
func TestDecodePackedListsAsParsed(t *testing.T) {
	type level float64
	r := Reader{MaxBytes: 1 << 20, MaxDepth: 8}
	for _, c := range []struct {
		name string
		text string
		dst  func() any
	}{
		{"floats", `[1,-2.5,3e2]`, func() any { return new([]float64) }},
		{"nested", `{"w":[[1,2],[3],[]]}`, func() any { return new(struct{ W [][]float64 }) }},
		{"named", `[1,2]`, func() any { return new([]level) }},
		{"ints", `[1,2,3]`, func() any { return new([]int) }},
		{"not whole", `[1,2.5]`, func() any { return new([]int) }},
		{"array", `[1,2,3,4]`, func() any { return new([3]float64) }},
		{"interface", `{"a":[1,2],"b":[[3]]}`, func() any { return new(any) }},
		{"null inside", `[1,null,3]`, func() any { return new([]float64) }},
		{"text inside", `[1,"x"]`, func() any { return new([]float64) }},
		{"text inside any", `[1,"x",[2]]`, func() any { return new([]any) }},
		{"bytes", `[1,2]`, func() any { return new([]byte) }},
		{"string", `[1,2]`, func() any { return new(string) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, want := c.dst(), c.dst()
			errGot := r.Decode([]byte(c.text), "x.json", got)
			tree, err := r.Parse([]byte(c.text), "x.json")
			if err != nil {
				t.Fatal(err)
			}
			errWant := Assign(want, tree)
			if errWant != nil {
				errWant = fmt.Errorf("x.json: %w", errWant)
			}
			if fmt.Sprint(errGot) != fmt.Sprint(errWant) {
				t.Fatalf("Decode's error %v, Assign(Parse)'s %v", errGot, errWant)
			}
			// Printed, the values compare NaN with NaN.
			if g, w := fmt.Sprintf("%#v", reflect.ValueOf(got).Elem().Interface()), fmt.Sprintf("%#v", reflect.ValueOf(want).Elem().Interface()); g != w {
				t.Errorf("Decode gave %s, Assign(Parse) %s", g, w)
			}
		})
	}
}
