package publish

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// runNode runs an ES module script in node with the page's unpack.js and
// pack.js beside it (as ./unpack.mjs and ./pack.mjs), in dir, and returns
// what it printed.
func runNode(t *testing.T, dir, script string) []byte {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	for _, m := range []string{"unpack", "pack"} {
		src, err := os.ReadFile(filepath.Join("..", "..", "web", "js", m+".js"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, m+".mjs"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	main := filepath.Join(dir, "main.mjs")
	if err := os.WriteFile(main, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, main)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("node: %v\n%s", err, msg)
	}
	return out
}
