package words

import "testing"

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
