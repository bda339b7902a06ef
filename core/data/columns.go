package data

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Role is what the intake makes of a column of a table file.
type Role string

// The roles of a column.
const (
	RoleTask    Role = "task"    // names the task of each row
	RoleLabel   Role = "label"   // holds the label
	RoleNumeric Role = "numeric" // a feature, as it is
	RoleText    Role = "text"    // a feature of words: one indicator column per value
	RoleDropped Role = "dropped" // left out on request
	RoleRefused Role = "refused" // left out: too many distinct words to encode
)

// DefaultMaxCategories is the most distinct values a text column may have
// to be encoded.
const DefaultMaxCategories = 50

// NamedMaxCategories is the most a column may have that the visitor names
// among the columns to read as words (TableOptions.Text): asked for, a
// category of 68 zip codes is encoded (hunt9's Sacramento houses, where it
// was the whole gap to lmer's fit), as a mixed model's formula would.
const NamedMaxCategories = 500

// namedCap is the most distinct values a column named as words may have
// under a table's cap maxCat.
func namedCap(maxCat int) int { return max(maxCat, NamedMaxCategories) }

// namedLimit is the most distinct values the column may have to be read
// as words when it is named so: namedCap for a category, whose values
// repeat (at most one per two rows), and maxCat for a column of values
// nearly all different (a note per row, an id), where an indicator per
// value learns nothing.
func (st *columnStats) namedLimit(maxCat int) int {
	if 2*st.distinct <= st.numeric+st.text+st.empty {
		return namedCap(maxCat)
	}
	return maxCat
}

// emptyValue is the value an empty cell of a text column takes.
const emptyValue = "(empty)"

// ColumnInfo describes one column of a table and what the intake did with
// it.
type ColumnInfo struct {
	Name string `json:"name"`
	Role Role   `json:"role"`
	// Distinct counts a text column's distinct values.
	Distinct int `json:"distinct,omitempty"`
	// Values are an encoded text column's values, in order of first
	// appearance: one indicator feature "name=value" each.
	Values []string `json:"values,omitempty"`
	// Reason says why a column was left out.
	Reason string `json:"reason,omitempty"`
	// Thousands is set on a numeric or label column some of whose numbers
	// are written with thousands separators ("1,234", read as 1234; in a
	// file that writes its numbers with a decimal comma, "1.234").
	Thousands bool `json:"thousands,omitempty"`
	// DecimalComma is set on a numeric or label column some of whose
	// numbers are written with a decimal comma ("0,5", read as 0.5): after
	// a semicolon, or in quotes in a comma-separated file that writes
	// numbers so (writesDecimalComma).
	DecimalComma bool `json:"decimalComma,omitempty"`
	// Percent is set on a numeric or label column some of whose numbers
	// are written as percentages ("12%", read as 12).
	Percent bool `json:"percent,omitempty"`
	// Money is set on a numeric or label column some of whose numbers are
	// written as amounts of money ("$95", "12,50 €"), read without the
	// sign.
	Money bool `json:"money,omitempty"`
	// Parens is set on a numeric or label column some of whose negative
	// numbers are written in parentheses ("(1.23)", as spreadsheets'
	// Accounting format writes them), read as negative.
	Parens bool `json:"parens,omitempty"`
	// Roles are the roles a visitor may give a feature column, in the
	// order a menu offers them: RoleNumeric for a column of numbers, then
	// RoleText for one of words, or of numbers that are all whole or mixed
	// with words (TableOptions.Text), then RoleDropped. A text column with
	// too many values to encode has RoleDropped alone. Nil for the task,
	// label and unnamed columns, and when reading with a model's Encoding.
	Roles []Role `json:"roles,omitempty"`
	// ID is set on a numeric column that holds a different whole number in
	// every row (at least minIDRows of them), as an id or a row number
	// does: it is used as a feature, which rarely means anything, and is
	// worth leaving out. It is never left out unasked.
	ID bool `json:"id,omitempty"`
}

// minIDRows is the fewest rows in which a column of distinct whole numbers
// is flagged as an id (ColumnInfo.ID): in a handful of rows, any counts
// can differ.
const minIDRows = 10

// columnStats is what the first pass learns of a column.
type columnStats struct {
	numeric, text, empty int
	// values are the distinct values (an empty cell as "(empty)") in order
	// of first appearance, the first cap+1 of them (the cap of a column
	// named as words, namedCap); distinct counts them all, unless the
	// column was clearly numeric when it passed cap+1 (overflow: it is no
	// text column, or a text column with more than cap values).
	// seen holds them once there are smallSet or values stops holding
	// them all; before, values is searched.
	values   []string
	seen     map[string]bool
	distinct int
	overflow bool
	// fraction is set once a value is a number that is not written as a
	// whole one (a point or an exponent: "1.5", "3.0", "1e3").
	fraction bool
	// ids holds the values while every one is a whole number unlike the
	// others (an id: ColumnInfo.ID), in idList while there are fewer than
	// smallSet; notID is set, and both dropped, at the first value that
	// is not.
	ids    map[string]struct{}
	idList []string
	notID  bool
	// top is the largest whole number seen while fraction is unset, and
	// negative is set once one is below 0 (columnStats.levels).
	top      float64
	negative bool
	// quoted counts the numbers written in quotes as they are read ("4",
	// not "1,234", whose quotes hold its comma), and bare those written
	// without quotes (columnStats.codes).
	quoted, bare int
	// readAsCodes is set once the column is read as words for its codes
	// (csvTable.trainingColumns): its roles are then those of words.
	readAsCodes bool
}

// codes reports whether the column holds codes: every number in it
// written in quotes, and few enough distinct values to encode. R's
// write.csv quotes a factor's values and never a number, and pandas'
// QUOTE_NONNUMERIC the same, so a file whose other numbers are bare
// (csvTable.bare) says by its quotes that these are categories ("1" to
// "4" for four diets). A file that quotes every field says nothing so.
func (st *columnStats) codes(maxCat int) bool {
	return st.quotedOnly() && !st.overflow && st.distinct <= maxCat
}

// quotedOnly reports whether every number of the column is written in
// quotes (columnStats.codes, which also counts the values).
func (st *columnStats) quotedOnly() bool {
	return st.quoted > 0 && st.quoted == st.numeric
}

// smallSet is how many distinct values a column's statistics keep in a
// list, searched in turn, before they take a map: a wide file of a few
// rows has as many columns as cells, and two maps per column were most of
// the allocations of reading one (16 million for 1,000,000 columns of
// four rows), which the browser's single thread pays for in collection.
const smallSet = 8

// whole records whether one value (as numberText reads it, classified ns)
// is a whole number, and whether the column can still be an id.
func (st *columnStats) whole(s string, ns numStatus) {
	if ns == numOK && strings.ContainsAny(s, ".eE") || ns == numNotFinite || ns == numTooLarge {
		st.fraction = true
	}
	if ns == numOK && !st.fraction {
		v, ok := fastFloat(s)
		if !ok {
			v, _ = parseNum(s)
		}
		st.top = max(st.top, v)
		st.negative = st.negative || v < 0
	}
	if st.notID {
		return
	}
	if ns != numOK || strings.ContainsAny(s, ".eE") {
		st.notID, st.ids, st.idList = true, nil, nil
		return
	}
	if st.ids == nil && len(st.idList) < smallSet {
		if slices.Contains(st.idList, s) {
			st.notID, st.idList = true, nil
			return
		}
		if st.idList == nil {
			st.idList = make([]string, 0, 4)
		}
		st.idList = append(st.idList, strings.Clone(s))
		return
	}
	if st.ids == nil {
		st.ids = make(map[string]struct{}, 2*smallSet)
		for _, v := range st.idList {
			st.ids[v] = struct{}{}
		}
		st.idList = nil
	}
	if _, dup := st.ids[s]; dup {
		st.notID, st.ids = true, nil
		return
	}
	st.ids[strings.Clone(s)] = struct{}{}
}

// isID reports whether the column is an id: a different whole number in
// each of at least minIDRows rows.
func (st *columnStats) isID() bool {
	return !st.notID && len(st.ids)+len(st.idList) >= minIDRows && st.text == 0 && st.empty == 0
}

// roles are the roles a visitor may give the column (ColumnInfo.Roles):
// words only when there are few enough values to encode, and, for a
// column of numbers, when they are whole or mixed with words. A column of
// counted levels (levels: 0, 1, 2, 3+) is no column of numbers: read so,
// it would be refused at its open level. limit is the most values words
// may have: the cap of a column named so (namedCap) for what a visitor may
// choose, the table's maxCat for what a message advises.
func (st *columnStats) roles(maxCat, limit int) []Role {
	encodable := !st.overflow && st.distinct <= limit
	switch {
	case st.levels(maxCat) || st.readAsCodes:
		return []Role{RoleText, RoleDropped}
	case 2*st.numeric >= st.numeric+st.text && encodable && (st.text > 0 || !st.fraction):
		return []Role{RoleNumeric, RoleText, RoleDropped}
	case 2*st.numeric >= st.numeric+st.text:
		return []Role{RoleNumeric, RoleDropped}
	case !encodable:
		return []Role{RoleDropped}
	}
	return []Role{RoleText, RoleDropped}
}

// maxLevels is the most distinct whole numbers a column of counted levels
// (columnStats.levels) may have.
const maxLevels = 20

// levels reports whether the column counts levels with an open top one:
// whole numbers, none below 0 and at most maxLevels of them, beside one or
// two words each of which is a whole number N at least as large as every
// number of the column, followed by a suffix without digits ("3+", "7p",
// "10 or more": openLevel). R reads a column with any word in it as a
// factor; here such a column is read as words unasked. Any other word (a
// typo such as "175ppm" among 95 to 1000, or "1O0"; "n.d.", a stray note)
// leaves the column numeric, and it is refused at the word.
func (st *columnStats) levels(maxCat int) bool {
	if st.text == 0 || st.numeric == 0 || st.fraction || st.negative || st.overflow || st.distinct > maxCat {
		return false
	}
	words, numbers := 0, 0
	for _, v := range st.values {
		switch {
		case v == emptyValue:
		case numClass(v) != numSyntax:
			numbers++
		default:
			n, ok := openLevel(v)
			if !ok || n < st.top {
				return false
			}
			words++
		}
	}
	return words <= 2 && numbers <= maxLevels
}

// openLevel reads a word as the open top level of a count: a whole number
// (digits only, no sign) followed by a suffix that holds no digit and no
// control character ("3+", "7p", "10 or more"). It returns the number.
func openLevel(v string) (float64, bool) {
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i == 0 || i == len(v) {
		return 0, false
	}
	for _, r := range v[i:] {
		if r >= '0' && r <= '9' || unicode.IsControl(r) || r == utf8.RuneError {
			return 0, false
		}
	}
	n, err := strconv.ParseFloat(v[:i], 64)
	return n, err == nil
}

// add records one value of the column.
func (st *columnStats) add(s string, ns numStatus, maxCat int) {
	switch ns {
	case numEmpty:
		st.empty++
		s = emptyValue
	case numOK, numNotFinite:
		st.numeric++
	default:
		st.text++
	}
	if st.overflow {
		return
	}
	// Without seen, values holds every distinct value so far.
	if st.seen != nil {
		if st.seen[s] {
			return
		}
		st.seen[s] = true
	} else if slices.Contains(st.values, s) {
		return
	}
	st.distinct++
	if len(st.values) <= maxCat {
		if st.values == nil {
			st.values = make([]string, 0, 4) // one allocation for the few values of most columns
		}
		st.values = append(st.values, strings.Clone(s))
	}
	if st.seen == nil && (st.distinct >= smallSet || len(st.values) < st.distinct) {
		st.seen = make(map[string]bool, 2*st.distinct)
		for _, v := range st.values {
			st.seen[v] = true
		}
		st.seen[s] = true
	}
	if st.distinct > maxCat+1 && st.numeric > st.text {
		st.overflow, st.seen = true, nil
	}
}

// advice completes the message for a word in a numeric column: reading
// the column as words is advised when its values can be encoded.
func advice(st *columnStats, maxCat int) string {
	if slices.Contains(st.roles(maxCat, maxCat), RoleText) {
		return fmt.Sprintf(" (%d of its %d values are numbers): correct the value, read the column as words, or leave the column out", st.numeric, st.numeric+st.text)
	}
	return fmt.Sprintf(" (%d of its %d values are numbers): correct the value, or leave the column out", st.numeric, st.numeric+st.text)
}

// textColumns checks the columns TableOptions.Text asks to read as words
// and returns them by position: an unknown column, the task or label
// column, or one also left out (TableOptions.Drop) is refused. (A model's
// Encoding says itself which columns are words.)
func (t *csvTable) textColumns(cols []string) (map[int]bool, error) {
	asText := map[int]bool{}
	for _, c := range cols {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		j, ok := t.idx[c]
		switch {
		case !ok:
			return nil, fmt.Errorf("%s: cannot read column %q as words: the header has (%s)", t.name, short(c), listNames(t.header))
		case j == t.task || j == t.label:
			return nil, fmt.Errorf("%s: cannot read column %q as words: it is the %s column", t.name, c, t.roles[j])
		case t.roles[j] == RoleDropped:
			return nil, fmt.Errorf("%s: column %q is asked both to be left out and to be read as words: choose one", t.name, c)
		}
		asText[j] = true
	}
	return asText, nil
}

// leftOut lists the columns left out, for the message when no feature is
// left.
func leftOut(cols []ColumnInfo) string {
	var names []string
	for j, c := range cols {
		if c.Role == RoleDropped || c.Role == RoleRefused {
			names = append(names, ColumnLabel(c.Name, j))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " (left out: " + strings.Join(names, ", ") + ")"
}

// ColumnLabel names column j (0-based) of a header for a message: its
// name, or "column N" for one the header leaves unnamed.
func ColumnLabel(name string, j int) string {
	if name == "" {
		return fmt.Sprintf("column %d", j+1)
	}
	return name
}
