// Command spmtl trains and evaluates self-paced multitask learners from the
// command line. It goes through the same application layer as the page
// (core/app) and finds the bundled data sets from any folder (they are
// embedded).
//
//	spmtl train -data FILE|NAME [-model mtfl] [-selfpaced] [-loss logistic] [-train 80] [-seed 1] [-save model.json] ...
//	spmtl tune -data FILE [-model mtfl -selfpaced] [-folds 3] [-save model.json]
//	spmtl predict -model model.json -data NEW.csv [-out predictions.csv]
//	spmtl inspect -model model.json [-out DIR]
//	spmtl reproduce [-quick] [-variant paper|reference|both] [-datasets ...]
//	spmtl figure KIND -data FILE|NAME [...] -out DIR
//	spmtl pack -data FILE.csv [-out FILE.packed]
//	spmtl publish -data FILE [-task T -label L -drop ...] [-model mtfl -selfpaced ...] -o run.html
//
// Run "spmtl help" or "spmtl COMMAND -h" for the flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spmtl/spmtl/core/data"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			report(os.Stderr, err)
			os.Exit(2)
		}
	}
}

// report prints a command's error (message: with the flag that does its
// remedy); a mistake in the flags is followed by a hint to the command's -h.
func report(w io.Writer, err error) {
	fmt.Fprintln(w, "spmtl:", message(err))
	var ue *usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(w, ue.hint())
	}
}

// message is an error as the command line prints it: the core's message,
// which advises a remedy in words (data.Remedy: "leave the column out"),
// followed by the flag that does it.
func message(err error) string {
	r := data.RemedyOf(err)
	switch {
	// Which remedy a flag takes is said: after "leave those rows out, or
	// fill the values in" a bare (-missing omit) read as the flag that
	// fills them in (hunt11).
	case r.Omit && r.Drop != "":
		return fmt.Sprintf("%v (to leave the rows out: -missing omit; the column: -drop %s)", err, shellWord(listItem(r.Drop)))
	case r.Omit:
		return fmt.Sprintf("%v (to leave them out: -missing omit)", err)
	case r.Skip:
		return fmt.Sprintf("%v (-new-tasks omit)", err)
	case r.Drop != "":
		name := shellWord(listItem(r.Drop)) // a name with a comma in double quotes (columnList)
		if r.Text == r.Drop {
			return fmt.Sprintf("%v (-text %s or -drop %s)", err, name, name)
		}
		return fmt.Sprintf("%v (-drop %s)", err, name)
	case r.Choose == data.RoleTask:
		return fmt.Sprintf("%v (-task NAME)", err)
	case r.Choose == data.RoleLabel:
		return fmt.Sprintf("%v (-label NAME)", err)
	}
	return err.Error()
}

// shellWord quotes a column name for a shell when it needs it.
func shellWord(name string) string {
	if strings.ContainsAny(name, " \t\"'$`\\;&|<>()*?") {
		return "'" + strings.ReplaceAll(name, "'", `'\''`) + "'"
	}
	return name
}

// shellWords writes column names as one -drop value: each a shell word,
// joined by commas.
func shellWords(names []string) string {
	out := make([]string, len(names))
	for i, c := range names {
		out[i] = shellWord(c)
	}
	return strings.Join(out, ",")
}

const usage = `spmtl: self-paced multitask learning (Murugesan & Carbonell, IJCAI 2017)

Commands:
  train      train one model on a data file (or a bundled data set) and report test scores
  tune       cross-validate rho and lambda0 on your data, fit the best on every row, save the model
  predict    predict new rows with a saved model
  inspect    show a saved model's shared knowledge and when each task was let in
  reproduce  rerun the paper's table: every method, cross-validated, over runs
  figure     write the numbers (CSV) and drawings (SVG) of the paper's figures
  pack       write a CSV as a packed table, which loads without parsing numbers
  publish    train and record a run, and write it with its data into one offline page
  generate   write grouped data from a mixed model with known effects, with reference scores
  help       show this text

Run "spmtl COMMAND -h" for a command's flags.
`

// run is the command line's boundary: a panic anywhere below is a bug,
// reported as an error here rather than as a crash.
func run(args []string, stdout, stderr io.Writer) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command")
	}
	switch args[0] {
	case "train":
		return runTrain(args[1:], stdout, stderr)
	case "figure":
		return runFigure(args[1:], stdout, stderr)
	case "reproduce":
		return runReproduce(args[1:], stdout, stderr)
	case "tune":
		return runTune(args[1:], stdout, stderr)
	case "predict":
		return runPredict(args[1:], stdout, stderr)
	case "inspect":
		return runInspect(args[1:], stdout, stderr)
	case "pack":
		return runPack(args[1:], stdout, stderr)
	case "generate":
		return runGenerate(args[1:], stdout, stderr)
	case "publish":
		return runPublish(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}
