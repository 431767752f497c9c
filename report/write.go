package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/smsim/smsim/run"
)

// WriteJSON writes v as indented JSON, as every JSON document of smsim is.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // C++ names keep their <>& readable (k_ws<2>); the output is no HTML
	return enc.Encode(v)
}

// WriteTable prints the report as text tables: the sections named (see
// SectionNames; none: summary, sms when the launch ran on several SMs,
// barriers, phases and warps), the --dump values last unless sections place
// them.
func WriteTable(w io.Writer, sections []string, r *Report) error {
	if len(sections) == 0 && (len(r.SMs) > 1 || len(r.Clusters) > 0) {
		sections = []string{"summary", "sms", "barriers", "phases", "warps"}
		if len(r.Clusters) > 0 {
			sections = []string{"summary", "sms", "clusters", "barriers", "phases", "warps"}
		}
	}
	sections = sectionsFor("table", sections, len(r.dumps) > 0)
	for i, s := range sections {
		// The warps, sms and instructions tables end without the blank
		// line the other sections leave, so one goes in before whatever
		// follows them.
		if i > 0 && slices.Contains([]string{"warps", "sms", "clusters", "instructions"}, sections[i-1]) {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		var err error
		switch s {
		case "summary":
			err = tableSummary(w, r)
		case "barriers":
			err = tableBarriers(w, r)
		case "phases":
			err = tablePhases(w, r, 12)
		case "warps":
			err = tableWarps(w, r)
		case "sms":
			err = tableSMs(w, r)
		case "clusters":
			err = tableClusters(w, r)
		case "instructions":
			err = tableInstructions(w, r)
		case "dumps":
			err = tableDumps(w, r)
		default:
			return &run.UsageError{Msg: fmt.Sprintf("--report %q: want %s", s, strings.Join(SectionNames(), ", "))}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// SectionNames are the sections --report takes, for tables and CSV alike
// (a CSV's summary is its warps table).
func SectionNames() []string {
	return []string{"summary", "sms", "clusters", "barriers", "phases", "warps", "instructions", "dumps"}
}

// CheckSections refuses a --report value that is not a section, and dumps
// without a --dump to print, before anything runs.
func CheckSections(sections []string, dumps int) error {
	for _, s := range sections {
		if !slices.Contains(SectionNames(), s) {
			return &run.UsageError{Msg: fmt.Sprintf("--report %q: want %s", s, strings.Join(SectionNames(), ", "))}
		}
		if s == "dumps" && dumps == 0 {
			return &run.UsageError{Msg: "--report dumps: no --dump NAME[:TYPE[:COUNT]] names a buffer to print"}
		}
	}
	return nil
}

// sectionsFor are the sections a table or CSV prints: those --report
// names, else the format's defaults; the --dump values come last unless
// --report places them.
func sectionsFor(format string, sections []string, dumps bool) []string {
	if len(sections) == 0 {
		sections = []string{"summary", "barriers", "phases", "warps"}
		if format == "csv" {
			sections = []string{"phases"}
		}
	}
	if dumps && !slices.Contains(sections, "dumps") {
		sections = append(slices.Clip(sections), "dumps")
	}
	return sections
}
