package app

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/spmtl/spmtl/core/data"
)

// FuzzLoad: Load on any bytes, with any task, label and dropped column
// names and any split file, returns data that validates and summarises,
// or an error, never a panic; a positioned error has a position; and a CSV
// that loads packs to a table that loads back the same with the same
// names (the names as given: " y" is the column y).
func FuzzLoad(f *testing.F) {
	f.Add([]byte("task,y,x1,c\na,1,2,u\na,2,3,v\nb,0,1,u\nb,1,5,w\n"), "task", "y", "", []byte(""))
	f.Add([]byte("school;score;sex\nS1;1,5;M\nS1;2,5;F\nS2;3;M\n"), "school", "score", "sex", []byte("row,split1\n0,train\n1,test\n2,train\n"))
	f.Add([]byte("a 1 1:1 3:2\nb 0 2:1\n"), "", "", "", []byte(""))
	f.Add([]byte("task,y,1,c\na,1,2,u\nb,2,3,v\n"), "task", " y", "", []byte(""))
	f.Add([]byte("task,y,x\ra,1,2\rb,0,3\r,,\r"), "", "", "x", []byte(""))
	f.Fuzz(func(t *testing.T, text []byte, task, label, drop string, splits []byte) {
		if len(text) > 1<<14 {
			return
		}
		var dr []string
		if drop != "" {
			dr = strings.Split(drop, ",")
		}
		opt := LoadOptions{Name: "f.csv", TaskColumn: task, LabelColumn: label, Drop: dr, Splits: splits, SplitName: "s.csv"}
		d, err := Load(text, opt)
		if err != nil {
			if d != nil {
				t.Fatal("data with an error")
			}
			var pe *data.ParseError
			if errors.As(err, &pe) && (pe.Line < 1 || pe.Column < 1) {
				t.Fatalf("bad position in %v", err)
			}
			return
		}
		if err := d.All.Validate(); err != nil {
			t.Fatalf("loaded data fails Validate: %v", err)
		}
		_ = d.Summary()
		if d.Table == nil || len(splits) > 0 {
			return
		}
		opt.Splits = nil
		packed, err := Pack(text, opt)
		if err != nil {
			t.Fatalf("loads but does not pack: %v", err)
		}
		back, err := Load(packed, opt)
		if err != nil {
			t.Fatalf("packed does not load: %v", err)
		}
		if !reflect.DeepEqual(back.All, d.All) {
			t.Fatal("the packed table loads differently")
		}
	})
}
