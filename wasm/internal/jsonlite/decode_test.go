package jsonlite_test

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/wasm/internal/jsonlite"
)

// reader is generous enough for every text of these tests but the ones
// about its bounds.
var reader = jsonlite.Reader{MaxBytes: 1 << 20, MaxDepth: 32}

// TestParseMatchesEncodingJSON: Parse reads valid JSON into the tree
// encoding/json gives for the same text.
func TestParseMatchesEncodingJSON(t *testing.T) {
	cases := []string{
		`null`, `true`, `false`, `0`, `-0`, `12`, `-1.5`, `1e-7`, `1E+2`, `2.5e3`, `123456789012345678`, `5e-324`,
		`""`, `"plain"`, `"quote\" back\\ slash\/ \b\f\n\r\t"`, `"\u00e9\u2028 é"`, `"\ud83d\ude00 pair"`,
		`"\ud83d lone"`, `"\ude00 low"`, `"\ud83d\u0041 broken pair"`, "\"bad \xff byte\"", "\"mixed \xe9t\xe9 \\n\"",
		`[]`, `{}`, `[1,"a",null,true,[],{}]`, `{"a":{"b":[1,{"c":"d"}]},"e":[]}`, `{"dup":1,"dup":2}`,
		" \t\n\r[ 1 , 2 ]\n ", `{"w":[[0.1,0.2],[-3e-05,4]]}`,
	}
	for _, text := range cases {
		var want any
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatalf("%s: encoding/json: %v", text, err)
		}
		got, err := reader.Parse([]byte(text), "t.json")
		if err != nil {
			t.Errorf("%s: %v", text, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %#v, want %#v", text, got, want)
		}
	}
}

// TestParseRefuses: text that is not JSON is refused with the file's
// name, the line and column where it goes wrong, and what is wrong.
func TestParseRefuses(t *testing.T) {
	cases := []struct{ text, want string }{
		{``, "t.json:1:1: no JSON: the text is empty"},
		{"  \n ", "t.json:2:2: no JSON: the text is empty"},
		{`[1,2`, "t.json:1:5: the text ends in the middle of the JSON (was it cut short?)"},
		{`[1 2]`, "t.json:1:4: not valid JSON (want ',' or ']', found '2')"},
		{`{"a" 1}`, "t.json:1:6: not valid JSON (want ':', found '1')"},
		{`{"a":1,}`, "t.json:1:8: not valid JSON (want a member name in quotes, found '}')"},
		{`{a:1}`, "t.json:1:2: not valid JSON (want a member name in quotes, found 'a')"},
		{`01`, "t.json:1:1: not valid JSON (a number needs digits, without leading zeros)"},
		{`-`, "t.json:1:2: not valid JSON (a number needs digits, without leading zeros)"},
		{`1.`, "t.json:1:3: not valid JSON (a number needs digits after its decimal point)"},
		{`1e+`, "t.json:1:4: not valid JSON (a number needs digits in its exponent)"},
		{`[1e400]`, "t.json:1:2: the number 1e400 is out of range"},
		{`NaN`, "t.json:1:1: not valid JSON (unexpected 'N')"},
		{`tru`, "t.json:1:1: not valid JSON (unexpected 't')"},
		{`"abc`, "t.json:1:5: the text ends in the middle of a string (was it cut short?)"},
		{"\"a\x01\"", "t.json:1:3: not valid JSON (a control character in a string must be escaped)"},
		{`"\q"`, "t.json:1:2: not valid JSON (unknown escape \\q)"},
		{`"\u12"`, "t.json:1:2: not valid JSON (\\u needs four hexadecimal digits)"},
		{`"\`, "t.json:1:3: the text ends in the middle of a string (was it cut short?)"},
		{`[1] x`, "t.json:1:5: more text after the JSON value"},
		{"{\n \"w\": [1,\n  nope]}", "t.json:3:3: not valid JSON (unexpected 'n')"},
		{"[\"é\", é]", "t.json:1:7: not valid JSON (unexpected 'é')"},
	}
	for _, c := range cases {
		_, err := reader.Parse([]byte(c.text), "t.json")
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: got error %v, want %q", c.text, err, c.want)
		}
	}
}

// TestReaderBounds: text nested deeper than MaxDepth, or longer than
// MaxBytes, is refused with its name, whatever its size.
func TestReaderBounds(t *testing.T) {
	nest := func(open, close string, n int) []byte {
		return []byte(strings.Repeat(open, n) + strings.Repeat(close, n))
	}
	small := jsonlite.Reader{MaxBytes: 100, MaxDepth: 3}
	cases := []struct {
		r    jsonlite.Reader
		text []byte
		want string // "" reads
	}{
		{small, nest("[", "]", 3), ""},
		{small, nest("[", "]", 4), "deep.json:1:4: arrays and objects nested more than 3 deep"},
		{small, []byte(`{"a":{"b":[{}]}}`), "deep.json:1:12: arrays and objects nested more than 3 deep"},
		{small, []byte(`{"a":{"b":[1]}}`), ""},
		{reader, nest("[", "]", 30000), "deep.json:1:33: arrays and objects nested more than 32 deep"},
		{small, []byte(strings.Repeat(" ", 99) + "1"), ""},
		{small, []byte(strings.Repeat(" ", 100) + "1"), "deep.json: 101 bytes of JSON, more than the 100 bytes it may have"},
	}
	for _, c := range cases {
		_, err := c.r.Parse(c.text, "deep.json")
		if c.want == "" && err != nil || c.want != "" && (err == nil || err.Error() != c.want) {
			t.Errorf("%.40s…: got error %v, want %q", c.text, err, c.want)
		}
	}
	big := jsonlite.Reader{MaxBytes: 128 << 20, MaxDepth: 32}
	if err := big.CheckSize(2e8+2, "huge.json"); err == nil || err.Error() != "huge.json: 190.7 MB of JSON, more than the 128.0 MB it may have" {
		t.Errorf("a 10^8-element array's size: %v", err)
	}
	if err := big.CheckSize(128<<20, "big.json"); err != nil {
		t.Errorf("a text at the bound: %v", err)
	}
}

// TestDecode reads text into a typed value, naming the file and the path
// of a value of the wrong type.
func TestDecode(t *testing.T) {
	var m app.ModelFile
	err := reader.Decode([]byte(`{"format":"spmtl-model","w":[[1,2],[3,"x"]]}`), "m.json", &m)
	if err == nil || err.Error() != "m.json: w[1][1]: want a number, got a string" {
		t.Errorf("got error %v", err)
	}
	if err := reader.Decode([]byte(`{"format":"spmtl-model","tasks":["a"],"w":[[1,null]]}`), "m.json", &m); err != nil {
		t.Fatal(err)
	}
	if m.Format != "spmtl-model" || len(m.Tasks) != 1 || m.W[0][0] != 1 || !math.IsNaN(m.W[0][1]) {
		t.Errorf("read %+v", m)
	}
	if err := reader.Decode([]byte(`{"w":`), "m.json", &m); err == nil || !strings.HasPrefix(err.Error(), "m.json:1:6: ") {
		t.Errorf("cut short: %v", err)
	}
}

// TestEncodeAll writes every member, omitempty or not, and nil lists and
// maps as empty ones; Encode leaves them out or writes null.
func TestEncodeAll(t *testing.T) {
	v := struct {
		List  []string          `json:"list,omitempty"`
		Nil   []int             `json:"nil"`
		Map   map[string]string `json:"map"`
		Text  string            `json:"text,omitempty"`
		Ptr   *int              `json:"ptr"`
		Inner struct {
			N int `json:"n,omitempty"`
		} `json:"inner"`
	}{}
	for _, c := range []struct {
		enc  func(any) ([]byte, error)
		want string
	}{
		{jsonlite.Encode, `{"nil":null,"map":null,"ptr":null,"inner":{}}`},
		{jsonlite.EncodeAll, `{"list":[],"nil":[],"map":{},"text":"","ptr":null,"inner":{"n":0}}`},
	} {
		got, err := c.enc(v)
		if err != nil || string(got) != c.want {
			t.Errorf("got %s (%v), want %s", got, err, c.want)
		}
	}
}

// FuzzParse: Parse accepts exactly the texts encoding/json takes as valid
// (but for numbers beyond a float64, which it refuses), reads the same
// tree, and never panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\ud83d\ude00"`, `[1e400]`, `-0.5e-3`, "\"\xff\"", `[[[[]]]]`, `{"a":1,}`} {
		f.Add([]byte(s))
	}
	r := jsonlite.Reader{MaxBytes: 1 << 16, MaxDepth: 16}
	f.Fuzz(func(t *testing.T, text []byte) {
		got, err := r.Parse(text, "f.json")
		var want any
		werr := json.Unmarshal(text, &want)
		switch {
		case err == nil && werr != nil:
			t.Fatalf("%q: Parse read %#v, encoding/json refuses it: %v", text, got, werr)
		case err != nil && werr == nil && !strings.Contains(err.Error(), "out of range") && !strings.Contains(err.Error(), "nested more than"):
			t.Fatalf("%q: Parse refuses %v, encoding/json reads it", text, err)
		case err == nil && !reflect.DeepEqual(got, want):
			t.Fatalf("%q: Parse read %#v, encoding/json %#v", text, got, want)
		}
	})
}
