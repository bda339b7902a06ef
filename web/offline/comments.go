package main

import "strings"

// stripComments takes out of a script the lines that are comments and
// nothing else: a line whose text starts with "//", and a block comment
// ("/*" ... "*/") whose first line starts with it and whose last line ends
// with it. The offline file carries every script as text, and these lines
// were about a fifth of it (docs/bench.md, "Eighth round"); what the
// scripts do is unchanged, and the served site keeps its commented
// sources. The indentation of the other lines goes too (about 60 KB of
// the file, 2026-11-27), and blank lines. A line inside a template literal (after an odd
// number of backticks) is text, never a comment, and keeps its spaces; a
// comment that shares a line with code stays, so that nothing here has to
// read JavaScript's expressions.
func stripComments(src string) string {
	lines := strings.Split(src, "\n")
	out := make([]string, 0, len(lines))
	inTemplate := false
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		t := strings.TrimSpace(line)
		if !inTemplate {
			if strings.HasPrefix(t, "//") {
				continue
			}
			if end, ok := blockEnd(lines, i); ok {
				i = end
				continue
			}
		}
		if !inTemplate {
			// Indentation outside a template literal says nothing to the
			// engine (the scripts continue no string over a line end),
			// nor does a blank line: the line break before it still ends
			// the statement above, as it did (about 1 KB of the file,
			// 2026-11-28).
			line = strings.TrimLeft(line, " \t")
			if line == "" {
				continue
			}
		}
		if strings.Count(line, "`")%2 == 1 {
			inTemplate = !inTemplate
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// blockEnd returns the last line of a block comment that starts lines[i]
// and ends at the end of a line, with nothing but the comment on its
// lines; ok is false for any other line.
func blockEnd(lines []string, i int) (int, bool) {
	t := strings.TrimSpace(lines[i])
	if !strings.HasPrefix(t, "/*") {
		return 0, false
	}
	for j := i; j < len(lines); j++ {
		s := strings.TrimSpace(lines[j])
		if j == i {
			s = s[2:]
		}
		if k := strings.Index(s, "*/"); k >= 0 {
			return j, k+2 == len(s)
		}
	}
	return 0, false
}
