// Package data holds the multitask datasets the learners train on and reads
// them from text.
//
// A Dataset is a list of Tasks over the same d features. A task stores its
// examples as a dense matrix (Task.X, gonum) or in compressed sparse rows
// (Task.S), with one label per example (Task.Y). Labels are real numbers for
// Regression and -1/+1 for Classification. Task.Source remembers where each
// example came from in its file, so that split files can be applied
// (ReadSplitFile, SplitByMask).
//
// # Formats
//
// ReadCSV reads the long CSV format, one example per row:
//
//	task,y,x1,x2,x3
//	school001,17,1,0,24
//	school002,5,0,1,18
//
// ReadSparse reads the sparse text format, one example per line, with
// 1-based increasing feature indices:
//
//	books_r5 1 478:0.0035 1010:0.147
//	books_r1 0 12:0.5
//
// Load is the intake's one entry: it reads any format of its table of
// formats (intake.go: a CSV, the sparse format, a packed table as
// PackTable writes it), detected from the first bytes (Detect) or named,
// decoding and checking a text once (DecodeText, CheckText). Training and
// new rows are its two entries over the same passes: Load reads a file for
// training, LoadNewRows reads new rows the way a model's encoding says.
// LoadHeader gives a file's columns, and Read is Load over an io.Reader.
//
// A format is a row of that table: how to detect it, read it, read its
// header and read new rows. A new format is its reader's file, its row in
// intake.go, and its tests.
//
// # Labels
//
// Unless forced with a KindChoice, the kind is detected: the labels are
// classes when they take exactly two distinct values, or when any of them is
// not a number (then there may be at most two); otherwise they are
// regression targets. Two labels are the same class when they are equal
// numbers ("1" and "1.0") or equal text. The positive class (+1) is
//
//  1. the one named by the Positive option, when given;
//  2. for two numbers, the larger one: 0/1 and -1/+1 both map 1 to +1;
//  3. for text, the one that looks positive ("1", "+1", "true", "yes",
//     "pos", "positive", in any case) when exactly one does, else the other
//     one when exactly one looks negative ("0", "-1", "false", "no", "neg",
//     "negative"), else the one that sorts last byte-wise.
//
// A task may hold a single class. When the whole file has a single class,
// it is positive if it is a number > 0 or looks positive. Dataset.Positive
// and Dataset.Negative keep the classes' spellings from the file.
//
// # Errors
//
// Problems at a position in the input are reported as *ParseError values
// carrying the file name, line and column, in the manner of
// encoding/csv.ParseError, with a message that says what was expected. Each
// wraps one of the Err* sentinels for errors.Is.
//
// A CSV is read from its first line that is not blank: lines above the
// header (comments starting with "#", a title of fewer fields than the
// header) are refused, with the lines to delete (above.go), not read as
// the header. A header without the task or label column asked for, with
// a column that has no name but values in its rows, is refused naming
// that column, rather than offering the named columns alone.
package data
