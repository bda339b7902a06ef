// Package jsonlite is the WebAssembly build's JSON: an encoder that writes
// what encoding/json writes for spmtl's result types, a bounded reader of
// JSON text (Reader: a size and a depth limit, so that a hostile file is
// refused by name instead of exhausting the program), and an assigner
// that fills a typed value from the parsed tree (objects, arrays,
// numbers, strings, booleans, null).
//
// It exists for size, not speed. Linking encoding/json into the wasm cost
// 233 KB of code (and, through the methods it keeps alive, most of
// time.Parse and time.Format): about 160 KB of the gzipped download. The
// command line keeps encoding/json; this package's tests check, value by
// value, that both write the same bytes and read the same trees.
//
// The rules are encoding/json's, restricted to what spmtl's types use:
// exported struct fields named by their json tag ("-" skips, omitempty
// drops empty values), embedded structs promoted, maps written with
// sorted keys, []byte as base64. Two differences are deliberate and match
// spmtl's own marshalers (mtl.Float, app.TuneResult): a NaN or infinite
// float is written as null, and null read into a float is NaN. Types with
// their own MarshalJSON are encoded by these rules, not by that method.
// EncodeAll writes every member, omitempty or not, for the bridge's
// answers that the page reads member by member.
package jsonlite

import (
	"encoding/base64"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Encode returns v as JSON text.
func Encode(v any) ([]byte, error) {
	e := encoder{}
	return e.encode(v)
}

// EncodeAll is Encode writing every member, omitempty or not, and a nil
// slice or map as an empty one: for a reader that takes each member as
// there, of its type.
func EncodeAll(v any) ([]byte, error) {
	e := encoder{all: true}
	return e.encode(v)
}

func (e *encoder) encode(v any) ([]byte, error) {
	if err := e.value(reflect.ValueOf(v)); err != nil {
		return nil, err
	}
	return e.b, nil
}

type encoder struct {
	b    []byte
	path trail
	all  bool // EncodeAll
}

// trail is where the walk is inside the value: one step per member or
// element below the top. Only an error spells it out ("w[3][2]"); the walk
// pushes and pops steps, so a long array costs no string per element.
type trail []step

// step is an element's index, or a member's name when index is -1.
type step struct {
	name  string
	index int
}

func (p *trail) member(name string) { *p = append(*p, step{name: name, index: -1}) }
func (p *trail) element(i int)      { *p = append(*p, step{index: i}) }
func (p *trail) pop()               { *p = (*p)[:len(*p)-1] }

// String is the path as an error names it: "the value" at the top.
func (p trail) String() string {
	if len(p) == 0 {
		return "the value"
	}
	var b []byte
	for _, s := range p {
		if s.index >= 0 {
			b = append(strconv.AppendInt(append(b, '['), int64(s.index), 10), ']')
			continue
		}
		if len(b) > 0 {
			b = append(b, '.')
		}
		b = append(b, s.name...)
	}
	return string(b)
}

func (e *encoder) value(v reflect.Value) error {
	if !v.IsValid() {
		e.b = append(e.b, "null"...)
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			e.b = append(e.b, "null"...)
			return nil
		}
		return e.value(v.Elem())
	case reflect.Bool:
		e.b = strconv.AppendBool(e.b, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.b = strconv.AppendInt(e.b, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.b = strconv.AppendUint(e.b, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		e.float(v.Float(), v.Type().Bits())
	case reflect.String:
		e.str(v.String())
	case reflect.Struct:
		return e.object(v)
	case reflect.Map:
		return e.mapping(v)
	case reflect.Slice:
		if v.IsNil() && !e.all {
			e.b = append(e.b, "null"...)
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			e.str(base64.StdEncoding.EncodeToString(v.Bytes()))
			return nil
		}
		return e.array(v)
	case reflect.Array:
		return e.array(v)
	default:
		return fmt.Errorf("jsonlite: %s: cannot encode a %s", e.path, v.Type())
	}
	return nil
}

// float writes f as encoding/json does ('f' between 1e-6 and 1e21, else
// 'e' with a short exponent), and NaN or ±Inf as null.
func (e *encoder) float(f float64, bits int) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.b = append(e.b, "null"...)
		return
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (bits == 64 && (a < 1e-6 || a >= 1e21) || bits == 32 && (float32(a) < 1e-6 || float32(a) >= 1e21)) {
		format = 'e'
	}
	start := len(e.b)
	e.b = strconv.AppendFloat(e.b, f, format, -1, bits)
	if format == 'e' {
		// 1e-07 → 1e-7, as encoding/json writes it.
		if n := len(e.b) - start; n >= 4 && e.b[len(e.b)-4] == 'e' && e.b[len(e.b)-3] == '-' && e.b[len(e.b)-2] == '0' {
			e.b[len(e.b)-2] = e.b[len(e.b)-1]
			e.b = e.b[:len(e.b)-1]
		}
	}
}

const hex = "0123456789abcdef"

// str writes s quoted, escaping as encoding/json does by default (HTML
// characters and U+2028/U+2029 too; invalid UTF-8 becomes U+FFFD).
func (e *encoder) str(s string) {
	e.b = append(e.b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				e.b = append(e.b, '\\', c)
			case c == '\n':
				e.b = append(e.b, '\\', 'n')
			case c == '\r':
				e.b = append(e.b, '\\', 'r')
			case c == '\t':
				e.b = append(e.b, '\\', 't')
			case c == '\b':
				e.b = append(e.b, '\\', 'b')
			case c == '\f':
				e.b = append(e.b, '\\', 'f')
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				e.b = append(e.b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				e.b = append(e.b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			e.b = append(e.b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			e.b = append(e.b, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			e.b = append(e.b, s[i:i+size]...)
		}
		i += size
	}
	e.b = append(e.b, '"')
}

func (e *encoder) array(v reflect.Value) error {
	e.b = append(e.b, '[')
	for i := 0; i < v.Len(); i++ {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.path.element(i)
		if err := e.value(v.Index(i)); err != nil {
			return err
		}
		e.path.pop()
	}
	e.b = append(e.b, ']')
	return nil
}

func (e *encoder) mapping(v reflect.Value) error {
	if v.IsNil() && !e.all {
		e.b = append(e.b, "null"...)
		return nil
	}
	// Keys sorted as strings, as encoding/json sorts them. (A sort of
	// key/value pairs would instantiate the generic sort once more: 20 KB
	// of wasm; the strings' sort is linked anyway.)
	vals := make(map[string]reflect.Value, v.Len())
	keys := make([]string, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		k := it.Key()
		var key string
		switch k.Kind() {
		case reflect.String:
			key = k.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			key = strconv.FormatInt(k.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			key = strconv.FormatUint(k.Uint(), 10)
		default:
			return fmt.Errorf("jsonlite: %s: cannot encode a map keyed by %s", e.path, k.Type())
		}
		keys = append(keys, key)
		vals[key] = it.Value()
	}
	slices.Sort(keys)
	e.b = append(e.b, '{')
	for i, key := range keys {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.str(key)
		e.b = append(e.b, ':')
		e.path.member(key)
		if err := e.value(vals[key]); err != nil {
			return err
		}
		e.path.pop()
	}
	e.b = append(e.b, '}')
	return nil
}

func (e *encoder) object(v reflect.Value) error {
	e.b = append(e.b, '{')
	first := true
	for _, f := range fieldsOf(v.Type()) {
		fv, ok := fieldByIndex(v, f.index)
		if !ok || f.omitEmpty && !e.all && isEmpty(fv) {
			continue
		}
		if !first {
			e.b = append(e.b, ',')
		}
		first = false
		e.str(f.name)
		e.b = append(e.b, ':')
		e.path.member(f.name)
		if err := e.value(fv); err != nil {
			return err
		}
		e.path.pop()
	}
	e.b = append(e.b, '}')
	return nil
}

// field is one JSON member of a struct type.
type field struct {
	name      string
	index     []int
	omitEmpty bool
}

// fieldCache holds each struct type's fields: reading the tags again for
// every value parsed each tag anew (StructTag.Get unquotes it) for every
// row of a table. A map and a mutex, not a sync.Map: that would add 8 KB
// to the wasm.
var fieldCache struct {
	sync.Mutex
	m map[reflect.Type][]field
}

// fieldsOf lists a struct's JSON members in declaration order, embedded
// structs' fields promoted where they do not clash with a shallower one.
func fieldsOf(t reflect.Type) []field {
	fieldCache.Lock()
	defer fieldCache.Unlock()
	f, ok := fieldCache.m[t]
	if !ok {
		if fieldCache.m == nil {
			fieldCache.m = map[reflect.Type][]field{}
		}
		f = structFields(t)
		fieldCache.m[t] = f
	}
	return f
}

func structFields(t reflect.Type) []field {
	var out []field
	seen := map[string]int{} // name → depth
	var walk func(t reflect.Type, index []int, depth int)
	walk = func(t reflect.Type, index []int, depth int) {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(append([]int(nil), index...), i)
			if sf.Anonymous && name == "" {
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft, idx, depth+1)
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if d, ok := seen[name]; ok && d <= depth {
				continue
			}
			if d, ok := seen[name]; ok && d > depth {
				out = slices.DeleteFunc(out, func(f field) bool { return f.name == name })
			}
			seen[name] = depth
			out = append(out, field{name: name, index: idx, omitEmpty: strings.Contains(","+opts+",", ",omitempty,")})
		}
	}
	// The walk is depth first in declaration order, so promoted fields
	// already stand where their embedding struct is declared.
	walk(t, nil, 0)
	return out
}

// fieldByIndex follows an index path; false when it crosses a nil pointer.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}

// Assign fills dst (a pointer) from a JSON tree: nil, bool, float64,
// string, []any and map[string]any, as Reader.Parse (or JSON.parse) gives
// them. Members dst does not have are ignored; a struct's fields the tree
// lacks keep the values dst holds (a request's defaults); object members
// match a field's name exactly or, failing that, ignoring case, as
// encoding/json matches them. A value of the wrong type is an error naming
// its path ("w[3][2]: want a number, got a string").
func Assign(dst any, tree any) error {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("jsonlite: Assign needs a non-nil pointer, got %T", dst)
	}
	var a assigner
	return a.assign(v.Elem(), tree)
}

// assigner fills values from a JSON tree; path is where it is (see trail).
type assigner struct{ path trail }

func (a *assigner) assign(v reflect.Value, src any) error {
	if src == nil {
		if k := v.Kind(); k == reflect.Float32 || k == reflect.Float64 {
			v.SetFloat(math.NaN())
		} else {
			v.SetZero()
		}
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return a.assign(v.Elem(), src)
	case reflect.Interface:
		if v.NumMethod() != 0 {
			return fmt.Errorf("%s: cannot read into %s", a.path, v.Type())
		}
		v.Set(reflect.ValueOf(general(src)))
		return nil
	case reflect.Bool:
		b, ok := src.(bool)
		if !ok {
			return a.wrongType("true or false", src)
		}
		v.SetBool(b)
	case reflect.Float32, reflect.Float64:
		f, ok := src.(float64)
		if !ok {
			return a.wrongType("a number", src)
		}
		v.SetFloat(f)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f, ok := src.(float64)
		if !ok {
			return a.wrongType("a whole number", src)
		}
		if f != math.Trunc(f) || v.OverflowInt(int64(f)) || math.Abs(f) > 1<<53 {
			return fmt.Errorf("%s: want a whole number, got %v", a.path, f)
		}
		v.SetInt(int64(f))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		f, ok := src.(float64)
		if !ok {
			return a.wrongType("a whole number", src)
		}
		if f != math.Trunc(f) || f < 0 || f > 1<<53 || v.OverflowUint(uint64(f)) {
			return fmt.Errorf("%s: want a whole number not below 0, got %v", a.path, f)
		}
		v.SetUint(uint64(f))
	case reflect.String:
		s, ok := src.(string)
		if !ok {
			return a.wrongType("a string", src)
		}
		v.SetString(s)
	case reflect.Slice, reflect.Array:
		return a.assignList(v, src)
	case reflect.Map:
		return a.assignMap(v, src)
	case reflect.Struct:
		return a.assignStruct(v, src)
	default:
		return fmt.Errorf("%s: cannot read into %s", a.path, v.Type())
	}
	return nil
}

// assignList reads a JSON list into a slice or an array (a []byte from
// base64 text).
func (a *assigner) assignList(v reflect.Value, src any) error {
	if nums, ok := src.([]float64); ok {
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() != reflect.Uint8 {
			return a.assignNumbers(v, nums)
		}
		src = general(nums)
	}
	if v.Kind() == reflect.Array {
		list, ok := src.([]any)
		if !ok {
			return a.wrongType("a list", src)
		}
		v.SetZero()
		for i := 0; i < v.Len() && i < len(list); i++ {
			a.path.element(i)
			if err := a.assign(v.Index(i), list[i]); err != nil {
				return err
			}
			a.path.pop()
		}
		return nil
	}
	if v.Type().Elem().Kind() == reflect.Uint8 {
		s, ok := src.(string)
		if !ok {
			return a.wrongType("base64 text", src)
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return fmt.Errorf("%s: %w", a.path, err)
		}
		v.SetBytes(b)
		return nil
	}
	list, ok := src.([]any)
	if !ok {
		return a.wrongType("a list", src)
	}
	s := reflect.MakeSlice(v.Type(), len(list), len(list))
	for i, x := range list {
		a.path.element(i)
		if err := a.assign(s.Index(i), x); err != nil {
			return err
		}
		a.path.pop()
	}
	v.Set(s)
	return nil
}

// assignNumbers reads a list of numbers only (a []float64 of Decode's
// tree) into a slice: a []float64 takes the list itself, any other slice
// element by element, by assign's rules.
func (a *assigner) assignNumbers(v reflect.Value, nums []float64) error {
	if v.Type() == reflect.TypeFor[[]float64]() {
		v.Set(reflect.ValueOf(nums))
		return nil
	}
	s := reflect.MakeSlice(v.Type(), len(nums), len(nums))
	for i, f := range nums {
		a.path.element(i)
		if err := a.assign(s.Index(i), f); err != nil {
			return err
		}
		a.path.pop()
	}
	v.Set(s)
	return nil
}

// general is tree with its lists of numbers as []any, the form Parse
// gives, for a value read into an interface.
func general(tree any) any {
	switch t := tree.(type) {
	case []float64:
		out := make([]any, len(t))
		for i, f := range t {
			out[i] = f
		}
		return out
	case []any:
		for i, x := range t {
			t[i] = general(x)
		}
	case map[string]any:
		for k, x := range t {
			t[k] = general(x)
		}
	}
	return tree
}

// assignMap reads a JSON object into a map keyed by strings.
func (a *assigner) assignMap(v reflect.Value, src any) error {
	obj, ok := src.(map[string]any)
	if !ok {
		return a.wrongType("an object", src)
	}
	if v.Type().Key().Kind() != reflect.String {
		return fmt.Errorf("%s: cannot read a map keyed by %s", a.path, v.Type().Key())
	}
	m := reflect.MakeMapWithSize(v.Type(), len(obj))
	for k, x := range obj {
		ev := reflect.New(v.Type().Elem()).Elem()
		a.path.member(k)
		if err := a.assign(ev, x); err != nil {
			return err
		}
		a.path.pop()
		m.SetMapIndex(reflect.ValueOf(k).Convert(v.Type().Key()), ev)
	}
	v.Set(m)
	return nil
}

// assignStruct reads a JSON object into a struct's fields by their JSON
// names (fieldsOf), matching a name exactly first, then without case.
func (a *assigner) assignStruct(v reflect.Value, src any) error {
	obj, ok := src.(map[string]any)
	if !ok {
		return a.wrongType("an object", src)
	}
	for _, f := range fieldsOf(v.Type()) {
		x, ok := obj[f.name]
		if !ok {
			for k, y := range obj {
				if strings.EqualFold(k, f.name) {
					x, ok = y, true
					break
				}
			}
		}
		if !ok {
			continue
		}
		fv := v
		for i, idx := range f.index {
			if i > 0 && fv.Kind() == reflect.Pointer {
				if fv.IsNil() {
					fv.Set(reflect.New(fv.Type().Elem()))
				}
				fv = fv.Elem()
			}
			fv = fv.Field(idx)
		}
		a.path.member(f.name)
		if err := a.assign(fv, x); err != nil {
			return err
		}
		a.path.pop()
	}
	return nil
}

func (a *assigner) wrongType(want string, got any) error {
	var what string
	switch got.(type) {
	case bool:
		what = "true or false"
	case float64:
		what = "a number"
	case string:
		what = "a string"
	case []any, []float64:
		what = "a list"
	case map[string]any:
		what = "an object"
	default:
		what = fmt.Sprintf("%T", got)
	}
	return fmt.Errorf("%s: want %s, got %s", a.path, want, what)
}
