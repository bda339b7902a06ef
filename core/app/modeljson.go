package app

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/spmtl/spmtl/core/internal/words"
)

// decodeModel decodes a model file's JSON. A syntax error or a value of
// the wrong type is reported with its line and column; a null where a
// number belongs is refused, since encoding/json would read it as 0 (an
// intercept of 0 is a different model, not a missing one).
func decodeModel(b []byte, name string, m *ModelFile) error {
	// A byte-order mark, as Notepad saves a file, is no part of the JSON
	// (the page's reader skipped it; the command line refused the file).
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if err := NotAPage(b, name); err != nil {
		return err
	}
	if err := NotARun(b, name); err != nil {
		return err
	}
	if err := json.Unmarshal(b, m); err != nil {
		return jsonError(b, name, err)
	}
	var tree any
	if err := json.Unmarshal(b, &tree); err != nil {
		return jsonError(b, name, err)
	}
	if err := CheckModelTree(tree); err != nil {
		return fmt.Errorf("read model %s: %w", name, err)
	}
	return nil
}

// CheckModelTree refuses what the two readers of a model file would read
// differently or silently (tree is the file's JSON decoded as nil, bool,
// float64, string, []any and map[string]any): a null where a number
// belongs ("config.rho is null, not a number": the page said "rho must be
// more than 0 … got NaN"), and a field given twice up to case
// (treeProblem). Both readers call it.
func CheckModelTree(tree any) error {
	if p := treeProblem(tree, reflect.TypeFor[ModelFile](), ""); p != "" {
		return fmt.Errorf("%s; %s", p, damaged)
	}
	return nil
}

// NotAPage refuses a web page given as a model file: a page published by
// spmtl holds its run's model, which is not the page, and a JSON error at
// its first '<' said only that the file was damaged. Nil for anything
// else.
func NotAPage(b []byte, name string) error {
	if t := bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))); len(t) == 0 || t[0] != '<' {
		return nil
	}
	return fmt.Errorf("read model %s: a web page, not a model file: a page published by spmtl holds its run's model, which its \"Download its model\" button saves; otherwise give a model file saved by spmtl train -save, spmtl tune -save or the page", name)
}

// runMarked reports whether b holds what a run file has and a model file
// never does: the page's saved run names its format ("format":
// "spmtl-run"), and spmtl train -json's report counts its test rows
// ("testRows":). Written out by hand: regexp would add 125 KB gzipped to
// the learner (core/internal/boundary).
func runMarked(b []byte) bool {
	// after returns what follows the first occurrence of key in b that is
	// followed, past white space, by a colon; ok false when none is.
	after := func(b []byte, key string) (rest []byte, ok bool) {
		for {
			i := bytes.Index(b, []byte(key))
			if i < 0 {
				return nil, false
			}
			b = bytes.TrimLeft(b[i+len(key):], " \t\r\n")
			if len(b) > 0 && b[0] == ':' {
				return bytes.TrimLeft(b[1:], " \t\r\n"), true
			}
		}
	}
	if _, ok := after(b, `"testRows"`); ok {
		return true
	}
	for rest := b; ; {
		v, ok := after(rest, `"format"`)
		if !ok {
			return false
		}
		if bytes.HasPrefix(v, []byte(`"spmtl-run"`)) {
			return true
		}
		rest = v
	}
}

// NotARun refuses a run given as a model file (a page's saved run, or
// spmtl train -json's report), which was refused as damaged ("features:
// want an array, found a number"), without a word of what it was or
// where its model is. Nil for anything else.
func NotARun(b []byte, name string) error {
	if !runMarked(b[:min(len(b), 64<<10)]) {
		return nil
	}
	return fmt.Errorf("read model %s: a run, not a model file: a run saved by the page holds its model, which the page's Model panel saves once the run is opened (Open a saved run…); spmtl train -save and spmtl tune -save write a model file", name)
}

// jsonError turns encoding/json's error into one that says where the
// file goes wrong, as file:line:column.
func jsonError(b []byte, name string, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case len(bytes.TrimSpace(b)) == 0:
		return fmt.Errorf("read model %s: the file is empty: give a model file saved by spmtl train -save, spmtl tune -save or the page", name)
	case errors.As(err, &syn) && syn.Offset >= int64(len(b)) && syn.Error() == "unexpected end of JSON input":
		// Only this message means the text ran out: a stray last byte ("}\n,}")
		// is reported at the end too, and was called a file cut short.
		line, col := position(b, len(b))
		return fmt.Errorf("read model %s:%d:%d: the file ends in the middle of the JSON (was it cut short?); %s", name, line, col, damaged)
	case errors.As(err, &syn):
		line, col := position(b, int(syn.Offset)-1)
		return fmt.Errorf("read model %s:%d:%d: not valid JSON (%s); %s", name, line, col, syn, damaged)
	case errors.As(err, &typ):
		line, col := position(b, valueStart(b, int(typ.Offset)))
		field := typ.Field
		if field == "" {
			field = "the model"
		}
		if n, ok := strings.CutPrefix(typ.Value, "number "); ok && jsonKind(typ.Type) == "a number" {
			// A number where a number belongs, refused for its size:
			// "want a number, found the number 1e309" contradicted itself.
			return fmt.Errorf("read model %s:%d:%d: %s: the number %s is out of the range of a number (about ±1.8e308); %s", name, line, col, field, numberShown(n), damaged)
		}
		return fmt.Errorf("read model %s:%d:%d: %s: want %s, found %s; %s", name, line, col, field, jsonKind(typ.Type), found(typ.Value), damaged)
	}
	return fmt.Errorf("read model %s: %w", name, err)
}

// position returns the 1-based line and column (in characters) of byte
// offset i of b.
func position(b []byte, i int) (line, col int) {
	i = max(0, min(i, len(b)))
	start := 0
	line = 1
	for k, c := range b[:i] {
		if c == '\n' {
			line++
			start = k + 1
		}
	}
	return line, utf8.RuneCount(b[start:i]) + 1
}

// valueStart returns where the JSON value ending at byte offset end
// begins: encoding/json reports a type error after reading the value.
func valueStart(b []byte, end int) int {
	end = max(0, min(end, len(b)))
	i := end - 1
	if i < 0 {
		return 0
	}
	if b[i] == '"' { // a string: back to its opening quote
		for i--; i >= 0; i-- {
			if b[i] == '"' && !escaped(b, i) {
				return i
			}
		}
		return 0
	}
	if b[i] == ']' || b[i] == '}' {
		return i // an array or object: point at its end
	}
	for i > 0 && !strings.ContainsRune(",:[{ \t\r\n", rune(b[i-1])) {
		i--
	}
	return i
}

// escaped reports whether the quote at b[i] is escaped by an odd number of
// backslashes.
func escaped(b []byte, i int) bool {
	n := 0
	for k := i - 1; k >= 0 && b[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}

// found says what encoding/json found, from UnmarshalTypeError.Value
// ("string", "number 2.5").
func found(value string) string {
	if n, ok := strings.CutPrefix(value, "number "); ok {
		return "the number " + numberShown(n)
	}
	switch value {
	case "array", "object":
		return "an " + value
	case "bool":
		return "true or false"
	}
	return "a " + value
}

// numberShown is a number's text as a message quotes it, cut by
// words.Clip: a weight of 100,000 digits was echoed whole, a line of 100 KB.
func numberShown(n string) string { return words.Clip(n, 38) }

// jsonKind says what JSON value a Go type reads.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		return "an object"
	}
	return t.String()
}

// treeProblem says what is wrong in tree (decoded JSON) as read into t,
// the Go type, at path, or "" when nothing is: a null where t holds a
// number ("b[0] is null, not a number": encoding/json reads it as 0, the
// page's reader as NaN), or two members of an object that name one field
// up to case ("W" beside "w"): encoding/json reads the last of them and
// the page's reader the one spelt as the field is, so the same file
// predicted 464.32 on the command line and 0.4869 on the page. Values of a
// type with its own UnmarshalJSON (TuneResult, whose null scores are
// failed grid points) are not looked into.
func treeProblem(tree any, t reflect.Type, path string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		return ""
	}
	switch v := tree.(type) {
	case nil:
		switch t.Kind() {
		case reflect.Float32, reflect.Float64, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			return path + " is null, not a number"
		}
	case []any:
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return ""
		}
		for i, e := range v {
			if p := treeProblem(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
	case map[string]any:
		if t.Kind() != reflect.Struct {
			return ""
		}
		for i := range t.NumField() {
			f := t.Field(i)
			key, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || key == "-" {
				continue
			}
			if key == "" {
				key = f.Name
			}
			sub := key
			if path != "" {
				sub = path + "." + key
			}
			var names []string
			var e any
			for k, x := range v {
				if strings.EqualFold(k, key) {
					names, e = append(names, k), x
				}
			}
			if len(names) > 1 {
				slices.Sort(names)
				return fmt.Sprintf("%s is given %d times, as %s (names that differ only in case are one field)", sub, len(names), strings.Join(quoteAll(names), " and "))
			}
			if len(names) == 0 {
				continue
			}
			if p := treeProblem(e, f.Type, sub); p != "" {
				return p
			}
		}
	}
	return ""
}

// quoteAll quotes each name.
func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}
