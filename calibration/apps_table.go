package calibration

import (
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/smsim/smsim/report"
)

// WriteAppTable prints the application set: one row per case, with the
// H200's cycles and, for each input form, the prediction, its error and
// whether the outputs are the H200's bit for bit; then a line per form.
func WriteAppTable(w io.Writer, v *AppValidation) error {
	var inputs []string
	for in := range v.Summary {
		inputs = append(inputs, in)
	}
	sort.Strings(inputs)
	head := []any{"app", "measured"}
	for _, in := range inputs {
		head = append(head, in, in+" error %", in+" exact")
	}
	t := report.NewTable(w, head...)
	byApp := map[string]map[string]AppResult{}
	var order []string
	var measured = map[string]float64{}
	for _, r := range v.Results {
		if byApp[r.App] == nil {
			byApp[r.App] = map[string]AppResult{}
			order = append(order, r.App)
			measured[r.App] = r.Measured
		}
		byApp[r.App][r.Input] = r
	}
	for _, app := range order {
		row := []any{app, strconv.FormatFloat(measured[app], 'f', 0, 64)}
		for _, in := range inputs {
			r, ok := byApp[app][in]
			switch {
			case !ok:
				row = append(row, "", "", "")
			case r.Err != "":
				row = append(row, "error", "", "")
			default:
				exact := "yes"
				if !r.Exact {
					exact = "no"
				}
				row = append(row, strconv.FormatFloat(r.Predicted, 'f', 0, 64), strconv.FormatFloat(r.ErrorPct, 'f', 1, 64), exact)
			}
		}
		_ = t.Append(row...)
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, r := range v.Results {
		if r.Err != "" {
			fmt.Fprintf(w, "error in %s from %s: %s\n", r.App, r.Input, r.Err)
		} else if !r.Exact {
			fmt.Fprintf(w, "outputs of %s from %s differ from the H200's: %s\n", r.App, r.Input, r.Mismatch)
		}
	}
	fmt.Fprintln(w)
	for _, in := range inputs {
		s := v.Summary[in]
		if _, err := fmt.Fprintf(w, "%-5s %3d cases  MAPE %5.2f %%  worst %5.1f %% (%s)  exact %d of %d  failed %d\n",
			in, s.Cases, s.MAPE, s.Worst, s.WorstApp, s.Exact, s.Cases, s.Failed); err != nil {
			return err
		}
	}
	return nil
}
