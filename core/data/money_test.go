package data

import "testing"

// firstFeature returns the first feature's values, task by task in the
// order the tasks first appear.
func firstFeature(tab *Table) []float64 {
	var got []float64
	for _, tk := range tab.Data.Tasks {
		for i := range tk.Y {
			got = append(got, tk.X.At(i, 0))
		}
	}
	return got
}

// TestMoney: numbers written as amounts of money ("$95", "-$12",
// "12,50 €", "€ 3,20", "1.250,00 €") are read without the sign, and the
// column says so (ColumnInfo.Money); a tester's "$95" column was one-hot
// encoded as categories without a word. A word that starts with a sign
// ("$AAPL") is no amount.
func TestMoney(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []float64 // the feature's values, in file order
		money      bool
	}{
		{"dollars", "task,y,price\na,1,$95\na,2,\"$1,250.50\"\nb,3,-$12\nb,4,$ 7\n", []float64{95, 1250.5, -12, 7}, true},
		{"euros after a decimal comma", "task;y;price\na;1;12,50 €\na;2;€ 3,20\nb;3;1.250,00 €\nb;4;4€\n", []float64{12.5, 3.2, 1250, 4}, true},
		{"pounds and yen", "task,y,price\na,1,£3\na,2,¥200\nb,3,£4.5\nb,4,5\n", []float64{3, 200, 4.5, 5}, true},
		{"plain numbers", "task,y,price\na,1,3\na,2,4\nb,3,5\nb,4,6\n", []float64{3, 4, 5, 6}, false},
		// French and Swiss thousands: no-break spaces and apostrophes
		// between groups of three digits.
		{"spaced thousands", "task;y;price\na;1;1\u00a0000,5\na;2;12\u202f345\nb;3;7,25\nb;4;2\u00a0500\n", []float64{1000.5, 12345, 7.25, 2500}, false},
		{"apostrophes", "task,y,price\na,1,1'000.50\na,2,12'345\nb,3,7\nb,4,-2'500\n", []float64{1000.5, 12345, 7, -2500}, false},
		// The minus sign U+2212 (typeset text, copied web tables) is a minus.
		{"a typeset minus", "task,y,price\na,1,\u2212350\na,2,4\nb,3,\u22122.5\nb,4,\u2212$3\n", []float64{-350, 4, -2.5, -3}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := ReadTable([]byte(tc.text), "m.csv", TableOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got := firstFeature(tab)
			// Tasks a, b: rows 1, 2 then 3, 4, as the file has them.
			for i := range tc.want {
				if i >= len(got) || got[i] != tc.want[i] {
					t.Fatalf("values %v, want %v", got, tc.want)
				}
			}
			if c := tab.Columns[2]; c.Money != tc.money || c.Role != RoleNumeric {
				t.Errorf("column %+v, want money %v", c, tc.money)
			}
			if grouped := tc.name == "spaced thousands" || tc.name == "apostrophes" || tc.name == "dollars" || tc.name == "euros after a decimal comma"; tab.Columns[2].Thousands != grouped {
				t.Errorf("column %+v, want thousands %v", tab.Columns[2], grouped)
			}
		})
	}
	tab, err := ReadTable([]byte("task,y,tick\na,1,$AAPL\na,2,$MSFT\nb,3,$AAPL\nb,4,$IBM\n"), "m.csv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c := tab.Columns[2]; c.Role != RoleText || c.Money {
		t.Errorf("a column of ticker symbols: %+v, want words", c)
	}
}

// TestAccountingNegatives: a negative number in parentheses ("(1.23)",
// "($0.72)", "$(12)"), as spreadsheets' Accounting format writes it, is
// read as negative and the column says so (ColumnInfo.Parens); such a
// column was left out as words (120 distinct values). A word in
// parentheses is no number, nor is a signed number in them.
func TestAccountingNegatives(t *testing.T) {
	tab, err := ReadTable([]byte("task,y,x,z\na,1,1.5,(a)\na,2,(0.72),(b)\nb,3,\"(1,250.50)\",(-3)\nb,4,($0.25),(a)\nb,5,$(12),(b)\n"), "m.csv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := firstFeature(tab)
	want := []float64{1.5, -0.72, -1250.5, -0.25, -12}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("values %v, want %v", got, want)
		}
	}
	if c := tab.Columns[2]; c.Role != RoleNumeric || !c.Parens || !c.Money || !c.Thousands {
		t.Errorf("x %+v, want numbers in parentheses, money and thousands", c)
	}
	if c := tab.Columns[3]; c.Role != RoleText || c.Parens {
		t.Errorf("z %+v, want words", c)
	}
}
