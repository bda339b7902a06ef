package jsonlite

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// A Reader reads JSON text into typed values, within bounds: text longer
// than MaxBytes is refused before it is read, and arrays and objects
// nested deeper than MaxDepth where the nesting goes too deep, so that a
// hostile file costs an error, never the program's memory or stack.
type Reader struct {
	MaxBytes int
	MaxDepth int
}

// Decode fills dst (a non-nil pointer) from JSON text by Assign's rules.
// Errors name the text: "name:line:col: message" for text that is not
// JSON or that breaks a bound, "name: path: message" for a value of the
// wrong type (Assign's).
func (r Reader) Decode(text []byte, name string, dst any) error {
	tree, err := r.parse(text, name, true)
	if err != nil {
		return err
	}
	if err := Assign(dst, tree); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// DecodeWith is Decode with check run on the tree before it is assigned:
// what Assign reads without a word (a null into a float, as NaN) a caller
// may refuse in its own terms. check's error is named by the text, as
// Assign's are.
func (r Reader) DecodeWith(text []byte, name string, dst any, check func(tree any) error) error {
	tree, err := r.parse(text, name, true)
	if err != nil {
		return err
	}
	if err := check(tree); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := Assign(dst, tree); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// CheckSize refuses a text of n bytes when it is longer than MaxBytes; a
// caller can ask before it copies the text at all.
func (r Reader) CheckSize(n int, name string) error {
	if n > r.MaxBytes {
		return fmt.Errorf("%s: %s of JSON, more than the %s it may have", name, megabytes(n), megabytes(r.MaxBytes))
	}
	return nil
}

func megabytes(n int) string {
	if n < 1<<20 {
		return strconv.Itoa(n) + " bytes"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MB"
}

// Parse reads JSON text into the tree Assign takes: nil, bool, float64,
// string, []any and map[string]any (a repeated member keeps its last
// value). Invalid UTF-8 in a string becomes U+FFFD, as encoding/json
// reads it.
func (r Reader) Parse(text []byte, name string) (any, error) {
	return r.parse(text, name, false)
}

// parse is Parse; with packed, a list of numbers only is a []float64
// rather than a []any (Decode's trees, which Assign reads): a model's
// weights are millions of numbers, and one interface value each cost
// three times the memory and an allocation per number.
func (r Reader) parse(text []byte, name string, packed bool) (any, error) {
	if err := r.CheckSize(len(text), name); err != nil {
		return nil, err
	}
	p := parser{text: text, maxDepth: r.MaxDepth, packed: packed}
	p.space()
	if p.i == len(p.text) {
		return nil, p.fail(name, "no JSON: the text is empty")
	}
	v := p.value(0)
	if p.err == "" {
		p.space()
		if p.i < len(p.text) {
			p.errorf("more text after the JSON value")
		}
	}
	if p.err != "" {
		return nil, p.fail(name, p.err)
	}
	return v, nil
}

// parser walks the text once; the first error stops it, at p.i.
type parser struct {
	text     []byte
	i        int
	maxDepth int
	packed   bool // lists of numbers only as []float64 (parse)
	err      string
}

func (p *parser) errorf(format string, args ...any) {
	if p.err == "" {
		p.err = fmt.Sprintf(format, args...)
	}
}

// fail says where the error is, as line and column (in characters).
func (p *parser) fail(name, msg string) error {
	i := min(p.i, len(p.text))
	line, start := 1, 0
	for k, c := range p.text[:i] {
		if c == '\n' {
			line++
			start = k + 1
		}
	}
	return fmt.Errorf("%s:%d:%d: %s", name, line, utf8.RuneCount(p.text[start:i])+1, msg)
}

func (p *parser) space() {
	for p.i < len(p.text) {
		switch p.text[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value reads one value at nesting depth d.
func (p *parser) value(d int) any {
	if p.i >= len(p.text) {
		p.errorf("the text ends in the middle of the JSON (was it cut short?)")
		return nil
	}
	switch c := p.text[p.i]; {
	case c == '{' || c == '[':
		if d >= p.maxDepth {
			p.errorf("arrays and objects nested more than %d deep", p.maxDepth)
			return nil
		}
		if c == '[' {
			return p.array(d + 1)
		}
		return p.object(d + 1)
	case c == '"':
		return p.str()
	case c == '-' || c >= '0' && c <= '9':
		f, ok := p.number()
		if !ok {
			return nil
		}
		return f
	}
	for _, lit := range []struct {
		word string
		v    any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(p.text)-p.i >= len(lit.word) && string(p.text[p.i:p.i+len(lit.word)]) == lit.word {
			p.i += len(lit.word)
			return lit.v
		}
	}
	p.errorf("not valid JSON (unexpected %s)", p.seen())
	return nil
}

// seen describes the character at p.i for an error.
func (p *parser) seen() string {
	if p.i >= len(p.text) {
		return "end of the text"
	}
	r, _ := utf8.DecodeRune(p.text[p.i:])
	return strconv.QuoteRune(r)
}

// expect steps over c after white space, or fails saying what came.
func (p *parser) expect(c byte, what string) bool {
	p.space()
	if p.i < len(p.text) && p.text[p.i] == c {
		p.i++
		return true
	}
	if p.i >= len(p.text) {
		p.errorf("the text ends in the middle of the JSON (was it cut short?)")
	} else {
		p.errorf("not valid JSON (want %s, found %s)", what, p.seen())
	}
	return false
}

func (p *parser) array(d int) any {
	p.i++ // [
	p.space()
	if p.peek() == ']' {
		p.i++
		return []any{}
	}
	// While every element so far is a number (and p.packed), the list is
	// nums; the first element of another kind turns it into out.
	numeric := p.packed
	var nums []float64
	var out []any
	for p.err == "" {
		p.space()
		if c := p.peek(); numeric && (c == '-' || c >= '0' && c <= '9') {
			f, ok := p.number()
			if !ok {
				return nil
			}
			nums = append(nums, f)
		} else {
			if numeric {
				numeric = false
				out = make([]any, len(nums), len(nums)+1)
				for i, f := range nums {
					out[i] = f
				}
				nums = nil
			}
			out = append(out, p.value(d))
		}
		p.space()
		if p.peek() == ']' {
			p.i++
			if numeric {
				return nums
			}
			return out
		}
		p.expect(',', "',' or ']'")
	}
	return nil
}

// peek is the byte at p.i, or 0 at the end of the text.
func (p *parser) peek() byte {
	if p.i < len(p.text) {
		return p.text[p.i]
	}
	return 0
}

func (p *parser) object(d int) any {
	p.i++ // {
	out := map[string]any{}
	p.space()
	if p.i < len(p.text) && p.text[p.i] == '}' {
		p.i++
		return out
	}
	for p.err == "" {
		p.space()
		if p.i >= len(p.text) || p.text[p.i] != '"' {
			p.expect('"', "a member name in quotes")
			return nil
		}
		k := p.str()
		if !p.expect(':', "':'") {
			return nil
		}
		p.space()
		out[k] = p.value(d)
		p.space()
		if p.i < len(p.text) && p.text[p.i] == '}' {
			p.i++
			return out
		}
		p.expect(',', "',' or '}'")
	}
	return nil
}

// number reads a number by JSON's grammar; one too large for a float64
// is an error, never an infinity (ok false, with p.err set).
func (p *parser) number() (float64, bool) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.text) && p.text[p.i] >= '0' && p.text[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.text[p.i] == '-' {
		p.i++
	}
	first := p.i
	if n := digits(); n == 0 || n > 1 && p.text[first] == '0' {
		p.i = first
		p.errorf("not valid JSON (a number needs digits, without leading zeros)")
		return 0, false
	}
	if p.i < len(p.text) && p.text[p.i] == '.' {
		p.i++
		if digits() == 0 {
			p.errorf("not valid JSON (a number needs digits after its decimal point)")
			return 0, false
		}
	}
	if p.i < len(p.text) && (p.text[p.i] == 'e' || p.text[p.i] == 'E') {
		p.i++
		if p.i < len(p.text) && (p.text[p.i] == '+' || p.text[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			p.errorf("not valid JSON (a number needs digits in its exponent)")
			return 0, false
		}
	}
	// The token is read in place (no copy per number: a model holds
	// millions); ParseFloat keeps no reference to it, and the text does
	// not change while it is parsed.
	tok := unsafe.String(&p.text[start], p.i-start)
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil || math.IsInf(f, 0) {
		p.i = start
		p.errorf("the number %.40s is out of range", tok)
		return 0, false
	}
	return f, true
}

// str reads a quoted string, its escapes decoded.
func (p *parser) str() string {
	p.i++ // "
	start := p.i
	for p.i < len(p.text) { // the common case: no escapes, valid UTF-8
		c := p.text[p.i]
		if c == '"' {
			s := p.text[start:p.i]
			p.i++
			if utf8.Valid(s) {
				return string(s)
			}
			p.i = start
			break
		}
		if c == '\\' || c < 0x20 {
			p.i = start
			break
		}
		p.i++
	}
	var b []byte
	for p.i < len(p.text) {
		c := p.text[p.i]
		switch {
		case c == '"':
			p.i++
			return string(b)
		case c < 0x20:
			p.errorf("not valid JSON (a control character in a string must be escaped)")
			return ""
		case c == '\\':
			if !p.escape(&b) {
				return ""
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.i++
		default:
			r, size := utf8.DecodeRune(p.text[p.i:])
			b = utf8.AppendRune(b, r) // U+FFFD for an invalid byte
			p.i += size
		}
	}
	p.errorf("the text ends in the middle of a string (was it cut short?)")
	return ""
}

// escape decodes the escape at p.i onto b.
func (p *parser) escape(b *[]byte) bool {
	if p.i+1 >= len(p.text) {
		p.i = len(p.text)
		p.errorf("the text ends in the middle of a string (was it cut short?)")
		return false
	}
	c := p.text[p.i+1]
	if i := strings.IndexByte(`"\/bfnrt`, c); i >= 0 {
		*b = append(*b, "\"\\/\b\f\n\r\t"[i])
		p.i += 2
		return true
	}
	if c != 'u' {
		p.errorf("not valid JSON (unknown escape \\%c)", c)
		return false
	}
	r, ok := p.hex4(p.i + 2)
	if !ok {
		p.errorf("not valid JSON (\\u needs four hexadecimal digits)")
		return false
	}
	p.i += 6
	if utf16.IsSurrogate(r) {
		// A pair makes one character; a lone surrogate is U+FFFD, as
		// encoding/json reads it.
		r2, ok := p.hex4(p.i + 2)
		if ok && p.text[p.i] == '\\' && p.text[p.i+1] == 'u' && utf16.DecodeRune(r, r2) != utf8.RuneError {
			r = utf16.DecodeRune(r, r2)
			p.i += 6
		} else {
			r = utf8.RuneError
		}
	}
	*b = utf8.AppendRune(*b, r)
	return true
}

// hex4 reads the four hexadecimal digits of a \u escape at i.
func (p *parser) hex4(i int) (rune, bool) {
	if i < 2 || i+4 > len(p.text) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(p.text[i:i+4]), 16, 32)
	return rune(v), err == nil
}
