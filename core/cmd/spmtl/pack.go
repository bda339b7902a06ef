package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spmtl/spmtl/core/app"
)

// runPack writes a CSV as a packed table (core/data.PackTable): the same
// data set, read back without parsing a number. The page's build packs its
// bundled CSVs this way; train, tune and the page's load read either.
func runPack(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("pack", stderr)
	in := fs.String("data", "", "the CSV `file` to pack")
	out := fs.String("out", "", "the packed `file` to write (default: the CSV's name with .packed)")
	task := fs.String("task", "task", "the task `column`")
	label := fs.String("label", "y", "the label `column`")
	drop := fs.String("drop", "", "comma-separated CSV `columns` to leave out")
	missing := fs.String("missing", "", setting("missing").Help())
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *in == "" {
		return fmt.Errorf("pack: -data is required")
	}
	if err := refuseOverwrite(map[string]string{"out": *out}, map[string]string{"data": *in}); err != nil {
		return fmt.Errorf("pack: %w", err)
	}
	text, err := readFile(*in)
	if err != nil {
		return fmt.Errorf("pack: %w", err)
	}
	omit, err := app.OmitMissing(*missing)
	if err != nil {
		return fmt.Errorf("pack: -%w", err)
	}
	packed, err := app.Pack(text, app.LoadOptions{Name: *in, TaskColumn: *task, LabelColumn: *label, Drop: (&dataFlags{drop: *drop}).dropped(), OmitMissing: omit})
	if err != nil {
		return fmt.Errorf("pack: %w", err)
	}
	dst := *out
	if dst == "" {
		dst = strings.TrimSuffix(*in, ".csv") + ".packed"
	}
	if err := os.WriteFile(dst, packed, 0o644); err != nil {
		return fmt.Errorf("pack: %w", err)
	}
	fmt.Fprintf(stdout, "%s: %d bytes packed from %d\n", dst, len(packed), len(text))
	if len(packed) > len(text) {
		// A packed table stores every value at full precision, with its columns'
		// names, kinds and a checksum: a small or low-precision CSV is shorter.
		fmt.Fprintf(stdout, "note: the packed file is %d bytes larger than the CSV; it saves reading the numbers, which takes no noticeable time at this size, so the CSV serves as well\n", len(packed)-len(text))
	}
	return nil
}
