package sweep

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/smsim/smsim/run"
)

// Merged is the outcome of joining results files.
type Merged struct {
	Records    []Record
	Params     []string // parameter columns (from a CSV input, else sorted names)
	Duplicates int      // records of a point already read, dropped
	Missing    []int    // the grid's points no file has, in order
}

// MergeFiles reads, checks, deduplicates and sorts the records of files.
func MergeFiles(files []string, warn io.Writer) (*Merged, error) {
	m := &Merged{}
	byID := map[string][]string{}
	seen := map[int]Record{}
	for _, f := range files {
		format, _ := RecordFormat("", f)
		if _, err := os.Stat(f); err != nil {
			return nil, &run.InputError{Err: fmt.Errorf("%s: %w", f, run.UnwrapPath(err))}
		}
		rf, err := ReadResults(f, format)
		if err != nil {
			return nil, err
		}
		if m.Params == nil && rf.Params != nil {
			m.Params = rf.Params
		}
		for _, r := range rf.Records {
			if ids := byID[r.Sweep]; len(ids) == 0 || ids[len(ids)-1] != f {
				byID[r.Sweep] = append(ids, f)
			}
			if old, ok := seen[r.Index]; ok {
				m.Duplicates++
				if old.Cycles != r.Cycles || old.Exit != r.Exit {
					fmt.Fprintf(warn, "merge: warning: point %d differs between files (%d and %d cycles); keeping the first\n", r.Index, old.Cycles, r.Cycles)
				}
				continue
			}
			seen[r.Index] = r
			m.Records = append(m.Records, r)
		}
	}
	if len(byID) > 1 {
		var parts []string
		for id, fs := range byID {
			parts = append(parts, fmt.Sprintf("%s in %s", id, strings.Join(fs, ", ")))
		}
		sort.Strings(parts)
		return nil, &run.InputError{Err: fmt.Errorf("the files hold %d different sweeps: %s", len(byID), strings.Join(parts, "; "))}
	}
	sort.Slice(m.Records, func(a, b int) bool { return m.Records[a].Index < m.Records[b].Index })
	if m.Params == nil {
		m.Params = ParamNames(m.Records)
	}
	for _, r := range m.Records {
		if r.Points != m.Records[0].Points {
			return nil, &run.InputError{Err: fmt.Errorf("records disagree on the grid size (%d and %d points)", m.Records[0].Points, r.Points)}
		}
	}
	if len(m.Records) > 0 {
		for i := 0; i < m.Records[0].Points; i++ {
			if _, ok := seen[i]; !ok {
				m.Missing = append(m.Missing, i)
			}
		}
	}
	return m, nil
}
