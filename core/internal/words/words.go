// Package words writes counts as the messages and notes of core/ write
// them: digits grouped by thousands, and a noun that agrees.
package words

import "strconv"

// Grouped writes n with commas between thousands: "2,097,153".
func Grouped(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Plural writes a count with its noun: "1 task", "5,000 features".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Grouped(int64(n)) + " " + noun + "s"
}

// List writes names as prose does: "a", "a and b", "a, b and c".
func List(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	s := names[0]
	for _, n := range names[1 : len(names)-1] {
		s += ", " + n
	}
	return s + " and " + names[len(names)-1]
}

// Clip shortens s to at most n characters (runes), ending a cut one with
// "…": a task's name quoted in a sentence, where 300 characters of a name
// would fill a phone's screen.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 2 {
		return s
	}
	return string(r[:n-1]) + "…"
}

// First returns the first k of items, and "and N more" for the rest when
// there are more than k.
func First(items []string, k int) []string {
	if len(items) <= k {
		return items
	}
	return append(items[:k:k], "and "+strconv.Itoa(len(items)-k)+" more")
}
