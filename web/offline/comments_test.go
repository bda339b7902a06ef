package main

import "testing"

// TestStripComments: whole comment lines and indentation go; a comment
// beside code, a block comment with code after it, and every line of a
// template literal, with its spaces, stay.
func TestStripComments(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"line comments", "// a\nconst a = 1; // b\n  // c\nf();", "const a = 1; // b\nf();"},
		{"indentation", "if (x) {\n\t  f();\n  }", "if (x) {\nf();\n}"},
		{"indentation inside a template literal stays", "const s = `a\n  b ${c}\n  d`;\n  e();", "const s = `a\n  b ${c}\n  d`;\ne();"},
		{"a block", "/** doc\n *  more\n */\nfunction f() {}", "function f() {}"},
		{"a block on one line", "  /* x */\ng();", "g();"},
		{"a block with code after it", "/* x */ g();\nh();", "/* x */ g();\nh();"},
		{"a block never closed", "/* x\ny();", "/* x\ny();"},
		{"a template literal", "const s = `a\n// not a comment\n/* nor this */\nb`;\n// gone", "const s = `a\n// not a comment\n/* nor this */\nb`;"},
		{"a URL in a string", `const u = "https://example.org";`, `const u = "https://example.org";`},
		{"blank lines", "a();\n\n  \nb();\n", "a();\nb();"},
		{"blank lines inside a template literal stay", "const s = `a\n\n  \nb`;\n\nc();", "const s = `a\n\n  \nb`;\nc();"},
	} {
		if got := stripComments(tc.in); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
