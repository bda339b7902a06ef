package words

import (
	"strings"
	"testing"
)

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 tasks"}, {1, "1 task"}, {999, "999 tasks"}, {5000, "5,000 tasks"}, {-1234, "-1,234 tasks"}, {2097153, "2,097,153 tasks"}} {
		if got := Plural(c.n, "task"); got != c.want {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestList(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a and b"}, {[]string{"a", "b", "c"}, "a, b and c"}} {
		if got := List(c.names); got != c.want {
			t.Errorf("List(%q) = %q, want %q", c.names, got, c.want)
		}
	}
}

// TestClip: a long name is cut to n characters ending in "…", by
// characters, not bytes; a short one is as it is.
func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"litter 5", 40, "litter 5"},
		{"Sprague-Dawley litter from the second breeding colony", 20, "Sprague-Dawley litt…"},
		{"ééééé", 3, "éé…"},
		{"abc", 3, "abc"},
	} {
		if got := Clip(c.in, c.n); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// TestFirst: at most k items, the rest counted.
func TestFirst(t *testing.T) {
	for _, tc := range []struct {
		items []string
		k     int
		want  string
	}{
		{[]string{"a", "b"}, 2, "a|b"},
		{[]string{"a", "b", "c"}, 2, "a|b|and 1 more"},
		{nil, 2, ""},
	} {
		if got := strings.Join(First(tc.items, tc.k), "|"); got != tc.want {
			t.Errorf("First(%q, %d) = %q, want %q", tc.items, tc.k, got, tc.want)
		}
	}
}
