package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// usageError is a mistake in how a command was called (an unknown flag, a
// flag value out of range, a stray argument). The command line prints it
// with a one-line hint to the command's -h rather than with every flag.
type usageError struct {
	cmd string // the command, as typed: "train", "figure tau"
	err error
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// hint is the line printed after the error.
func (e *usageError) hint() string { return "spmtl " + e.cmd + " -h for the flags" }

// usageErrorf returns a usage error of the command of fs.
func usageErrorf(fs *flag.FlagSet, format string, args ...any) error {
	return &usageError{cmd: fs.Name(), err: fmt.Errorf(format, args...)}
}

// newFlagSet returns the flag set of a command; -h prints its flags on
// stderr. Parse it with parseFlags.
func newFlagSet(cmd string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args with fs. On -h it prints the flags and returns
// flag.ErrHelp; a bad flag or value is returned as a usage error, without
// the flag package's dump of every flag (which buried the message).
func parseFlags(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	var given []*counted
	fs.VisitAll(func(f *flag.Flag) {
		c := &counted{Value: f.Value, name: f.Name}
		f.Value = c
		given = append(given, c)
	})
	err := fs.Parse(args)
	fs.SetOutput(out)
	fs.VisitAll(func(f *flag.Flag) { f.Value = f.Value.(*counted).Value })
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(out, "Usage of %s:\n", fs.Name())
		shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
		shown.SetOutput(out)
		fs.VisitAll(func(f *flag.Flag) {
			if !strings.HasPrefix(f.Usage, refused) {
				shown.Var(f.Value, f.Name, f.Usage)
				shown.Lookup(f.Name).DefValue = f.DefValue // not a value parsed before -h
			}
		})
		shown.PrintDefaults()
		return err
	case err != nil:
		return &usageError{cmd: fs.Name(), err: err}
	case fs.NArg() > 0:
		return usageErrorf(fs, "%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	// The flag package takes the last of two values unsaid; a command
	// line that says two things is refused (hunt10).
	for _, c := range given {
		if k := slices.IndexFunc(c.values, func(v string) bool { return v != c.values[0] }); k > 0 {
			return usageErrorf(fs, "-%s given twice, as %q and as %q: give it once", c.name, c.values[0], c.values[k])
		}
	}
	fs.Visit(func(f *flag.Flag) {
		if why, ok := strings.CutPrefix(f.Usage, refused); ok && err == nil {
			err = usageErrorf(fs, "-%s: %s", f.Name, why)
		}
	})
	return err
}

// counted is a flag's value that keeps the texts it was set to, so that
// parseFlags can refuse a flag given twice with two values.
type counted struct {
	flag.Value
	name   string
	values []string
}

// Set records v and sets the flag's value.
func (c *counted) Set(v string) error {
	c.values = append(c.values, v)
	return c.Value.Set(v)
}

// IsBoolFlag keeps a boolean flag's form (-flag alone).
func (c *counted) IsBoolFlag() bool {
	b, ok := c.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// refused starts the usage of a flag that a command registers (with a
// shared set of flags) but does not take.
const refused = "\x00refused: "

// refuseFlag marks the flag name of fs as one the command does not take:
// -h leaves it out, and parseFlags refuses it with why.
func refuseFlag(fs *flag.FlagSet, name, why string) {
	fs.Lookup(name).Usage = refused + why
}
