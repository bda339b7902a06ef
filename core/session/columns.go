package session

import (
	"slices"
	"strings"

	"github.com/spmtl/spmtl/core/app"
	"github.com/spmtl/spmtl/core/data"
)

// ColumnTable is a CSV's columns as the page is sent them: by column
// rather than one object per column, because a visitor's file may have a
// million columns, and one object each made the page's thread stop for
// seconds while the message arrived (the structured clone of the
// worker's answer). The names are one text (Packed), each column's role,
// menu of roles and marks one byte of a string, and the rare columns that
// carry words (a text column's values, a refused column's reason) are
// listed apart by index, in the same form. The learner worker turns the
// lists of numbers into Int32Arrays (web/js/worker.js), so that the page
// gets a handful of values whatever the width; a run file the page saves
// holds this form as JSON (docs/architecture.md, "Wide files").
type ColumnTable struct {
	// Names are the header's names ("" for an unnamed column).
	Names Packed `json:"names"`
	// Roles holds each column's role (data.ColumnInfo.Role) as a letter
	// of RoleLetters; empty when the file has no column roles (the
	// sparse format), else one per name.
	Roles string `json:"roles"`
	// Menus holds, per column, the roles its menu offers
	// (data.ColumnInfo.Roles): byte 'a'+k names Menu[k].
	Menus string `json:"menus"`
	// Menu lists the distinct lists of roles that Menus names.
	Menu [][]data.Role `json:"menu"`
	// Marks holds each column's marks as byte '0'+bits: 1 when some of
	// its numbers have thousands separators (data.ColumnInfo.Thousands),
	// 2 when it looks like an id (data.ColumnInfo.ID), 4 when some have a
	// decimal comma (DecimalComma), 8 when some are percentages (Percent),
	// 16 when some are amounts of money (Money).
	Marks string `json:"marks"`
	// Notes are the words of the columns that have some.
	Notes ColumnNotes `json:"notes"`
}

// Packed is a list of texts as one: Text is them one after another, and
// Ends[i] where text i ends, counted in UTF-16 code units (JavaScript's
// string indices), so that the page cuts a text out without a list.
type Packed struct {
	Text string `json:"text"`
	Ends []int  `json:"ends"`
}

// Pack makes a Packed of texts.
func Pack(texts []string) Packed {
	p := Packed{Ends: make([]int, len(texts))}
	n, at := 0, 0
	for _, t := range texts {
		n += len(t)
	}
	var b strings.Builder
	b.Grow(n)
	for i, t := range texts {
		b.WriteString(t)
		at += utf16Len(t)
		p.Ends[i] = at
	}
	p.Text = b.String()
	return p
}

// At is text i of p (the Ends counted in UTF-16 code units), or "" when
// p has no text i or its ends do not fall between runes.
func (p Packed) At(i int) string {
	if i < 0 || i >= len(p.Ends) {
		return ""
	}
	from, to := 0, p.Ends[i]
	if i > 0 {
		from = p.Ends[i-1]
	}
	a, b, unit := -1, -1, 0
	for k, r := range p.Text {
		if unit == from && a < 0 {
			a = k
		}
		if unit == to {
			b = k
			break
		}
		unit++
		if r > 0xFFFF {
			unit++
		}
	}
	if unit == to && b < 0 {
		b = len(p.Text)
		if a < 0 && unit == from {
			a = b
		}
	}
	if a < 0 || b < a {
		return ""
	}
	return p.Text[a:b]
}

// utf16Len is how many UTF-16 code units JavaScript's string of s has:
// one per rune, two past U+FFFF; an invalid byte is one U+FFFD, as the
// JSON text writes it.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}

// ColumnNotes are what the columns that have words say, by column: the
// note of column Index[k] has Distinct[k] distinct values in all, Count[k]
// values encoded, the first of which (at most NoteValues) are the texts
// of Values from Kept[k-1] to Kept[k]; Reasons' text k says why it was
// refused ("" when it was not).
type ColumnNotes struct {
	Index    []int  `json:"index"`
	Distinct []int  `json:"distinct"`
	Count    []int  `json:"count"`
	Kept     []int  `json:"kept"`
	Values   Packed `json:"values"`
	Reasons  Packed `json:"reasons"`
}

// NoteValues is how many of a text column's values its note keeps: the
// page shows six and "…".
const NoteValues = 7

// RoleLetters are the letters of ColumnTable.Roles, in the order of the
// roles they stand for: task, label, numeric, text, dropped, refused; '?'
// is a role this list does not know.
const RoleLetters = "tlnwdr"

var letterRoles = []data.Role{data.RoleTask, data.RoleLabel, data.RoleNumeric, data.RoleText, data.RoleDropped, data.RoleRefused}

// roleLetter is r's letter in RoleLetters.
func roleLetter(r data.Role) byte {
	for k, x := range letterRoles {
		if x == r {
			return RoleLetters[k]
		}
	}
	return '?'
}

// RoleOf is the role a letter of ColumnTable.Roles stands for ("" for
// '?' or a letter not in RoleLetters).
func RoleOf(letter byte) data.Role {
	for k := range RoleLetters {
		if RoleLetters[k] == letter {
			return letterRoles[k]
		}
	}
	return ""
}

// columnTable puts a summary's header and columns in columnar form. A
// table whose columns do not match its header name for name (none does:
// data.Table names each column by its header) is sent its columns' names.
func columnTable(s app.Summary) ColumnTable {
	cols := s.Columns
	names := s.Header
	if len(cols) > 0 && len(cols) != len(names) {
		names = make([]string, len(cols))
		for j, c := range cols {
			names[j] = c.Name
		}
	}
	t := ColumnTable{Names: Pack(names)}
	roles, menus, marks := make([]byte, len(cols)), make([]byte, len(cols)), make([]byte, len(cols))
	var values, reasons []string
	for j := range cols {
		c := &cols[j]
		roles[j] = roleLetter(c.Role)
		// The intake offers at most three roles, in one order: a handful
		// of distinct menus, searched in turn (no allocation per column).
		k := slices.IndexFunc(t.Menu, func(m []data.Role) bool { return slices.Equal(m, c.Roles) })
		if k < 0 {
			k = len(t.Menu)
			t.Menu = append(t.Menu, c.Roles)
		}
		menus[j] = byte('a' + k)
		var bits byte
		if c.Thousands {
			bits |= 1
		}
		if c.ID {
			bits |= 2
		}
		if c.DecimalComma {
			bits |= 4
		}
		if c.Percent {
			bits |= 8
		}
		if c.Money {
			bits |= 16
		}
		marks[j] = '0' + bits
		if len(c.Values) > 0 || c.Reason != "" || c.Distinct > 0 {
			n := &t.Notes
			n.Index, n.Distinct, n.Count = append(n.Index, j), append(n.Distinct, c.Distinct), append(n.Count, len(c.Values))
			values = append(values, c.Values[:min(len(c.Values), NoteValues)]...)
			n.Kept = append(n.Kept, len(values))
			reasons = append(reasons, c.Reason)
		}
	}
	t.Roles, t.Menus, t.Marks = string(roles), string(menus), string(marks)
	t.Notes.Values, t.Notes.Reasons = Pack(values), Pack(reasons)
	return t
}
