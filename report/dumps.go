package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// dumpsPerLine is how many values one line of the table's dump section shows.
const dumpsPerLine = 8

// dumpText writes one dumped value of type typ as the table and the CSV
// show it: integers in decimal, floats in the shortest form that reads back
// exactly at their width, hex words as they are.
func dumpText(v any, typ string) string {
	switch x := v.(type) {
	case float64:
		if typ == "f32" {
			return strconv.FormatFloat(x, 'g', -1, 32)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// tableDumps prints each --dump: a title line, then the values
// dumpsPerLine to a line, each line led by the index of its first value, the
// columns right-aligned; a blank line between dumps.
func tableDumps(w io.Writer, r *Report) error {
	for k, d := range r.dumps {
		if k > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		texts := make([]string, len(d.Values))
		width := 1
		for i, v := range d.Values {
			texts[i] = dumpText(v, d.Type)
			width = max(width, len(texts[i]))
		}
		if _, err := fmt.Fprintf(w, "dump %s (%s, %s):\n", d.Name, d.Type, countOf(uint64(len(d.Values)), "value")); err != nil {
			return err
		}
		idx := len(strconv.Itoa(max(len(texts)-1, 0)))
		for i := 0; i < len(texts); i += dumpsPerLine {
			line := texts[i:min(i+dumpsPerLine, len(texts))]
			var b strings.Builder
			fmt.Fprintf(&b, "  %*d:", idx, i)
			for _, t := range line {
				fmt.Fprintf(&b, " %*s", width, t)
			}
			if _, err := fmt.Fprintln(w, b.String()); err != nil {
				return err
			}
		}
	}
	return nil
}

// csvDumps writes the dumps in tidy form, one row per value:
// kernel,dump,type,index,value.
func csvDumps(cw *csv.Writer, r *Report) {
	_ = cw.Write([]string{"kernel", "dump", "type", "index", "value"})
	for _, d := range r.dumps {
		for i, v := range d.Values {
			_ = cw.Write([]string{r.Kernel, d.Name, d.Type, itoa(i), dumpText(v, d.Type)})
		}
	}
}
