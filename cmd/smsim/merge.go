package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/run"
)

type mergeOptions struct {
	out          string
	format       string
	allowMissing bool
}

func newMergeCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &mergeOptions{}
	c := &cobra.Command{
		Use:   "merge FILE... [--out FILE]",
		Short: "Join sweep shards: drop duplicates, sort by grid index, report missing points",
		Long: `Join the results files of a sharded sweep (JSON lines or CSV, by extension) into one,
sorted by grid index. A point present in several files is kept once. All records must come
from the same sweep (same file, flags and grid). If points are missing, merge names them and
exits with status 3 (the merged file is written all the same); rerunning the sweep with the
merged file as --out runs only the missing points.

` + exitHelp,
		Example: `  smsim merge part-*.jsonl --out sweep.jsonl
  smsim merge part-0.csv part-1.csv --out sweep.csv`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeFiles("jsonl", "csv"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(o, args, stdout, stderr)
		},
	}
	fs := c.Flags()
	fs.StringVar(&o.out, "out", "", "write the merged results to FILE, replacing it (default: stdout)")
	fs.StringVar(&o.format, "format", "", "jsonl or csv (default: csv for a .csv --out, else jsonl)")
	fs.BoolVar(&o.allowMissing, "allow-missing", false, "exit 0 even when points are missing")
	_ = c.RegisterFlagCompletionFunc("format", completeValues("jsonl", "csv"))
	return c
}

// merged is the outcome of joining results files.
type merged struct {
	records    []sweepRecord
	params     []string // parameter columns (from a CSV input, else sorted names)
	duplicates int
	missing    []int
}

// mergeFiles reads, checks, deduplicates and sorts the records of files.
func mergeFiles(files []string, stderr io.Writer) (*merged, error) {
	m := &merged{}
	byID := map[string][]string{}
	seen := map[int]sweepRecord{}
	for _, f := range files {
		format, _ := recordFormat("", f)
		if _, err := os.Stat(f); err != nil {
			return nil, &inputError{Err: fmt.Errorf("%s: %w", f, run.UnwrapPath(err))}
		}
		rf, err := readResults(f, format)
		if err != nil {
			return nil, err
		}
		if m.params == nil && rf.params != nil {
			m.params = rf.params
		}
		for _, r := range rf.records {
			if ids := byID[r.Sweep]; len(ids) == 0 || ids[len(ids)-1] != f {
				byID[r.Sweep] = append(ids, f)
			}
			if old, ok := seen[r.Index]; ok {
				m.duplicates++
				if old.Cycles != r.Cycles || old.Exit != r.Exit {
					fmt.Fprintf(stderr, "merge: warning: point %d differs between files (%d and %d cycles); keeping the first\n", r.Index, old.Cycles, r.Cycles)
				}
				continue
			}
			seen[r.Index] = r
			m.records = append(m.records, r)
		}
	}
	if len(byID) > 1 {
		var parts []string
		for id, fs := range byID {
			parts = append(parts, fmt.Sprintf("%s in %s", id, strings.Join(fs, ", ")))
		}
		sort.Strings(parts)
		return nil, &inputError{Err: fmt.Errorf("the files hold %d different sweeps: %s", len(byID), strings.Join(parts, "; "))}
	}
	sort.Slice(m.records, func(a, b int) bool { return m.records[a].Index < m.records[b].Index })
	if m.params == nil {
		m.params = paramNames(m.records)
	}
	for _, r := range m.records {
		if r.Points != m.records[0].Points {
			return nil, &inputError{Err: fmt.Errorf("records disagree on the grid size (%d and %d points)", m.records[0].Points, r.Points)}
		}
	}
	if len(m.records) > 0 {
		for i := 0; i < m.records[0].Points; i++ {
			if _, ok := seen[i]; !ok {
				m.missing = append(m.missing, i)
			}
		}
	}
	return m, nil
}

func runMerge(o *mergeOptions, files []string, stdout, stderr io.Writer) error {
	format, err := recordFormat(o.format, o.out)
	if err != nil {
		return err
	}
	if err := checkOutput("--out", o.out); err != nil {
		return err
	}
	m, err := mergeFiles(files, stderr)
	if err != nil {
		return err
	}
	if len(m.records) == 0 {
		return &inputError{Err: fmt.Errorf("no sweep records in %s", strings.Join(files, ", "))}
	}
	var buf bytes.Buffer
	if err := writeResults(&buf, format, m.params, m.records); err != nil {
		return err
	}
	if o.out == "" {
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			return err
		}
	} else if err := replaceFile("--out", o.out, buf.Bytes()); err != nil {
		return err
	}
	total := m.records[0].Points
	fmt.Fprintf(stderr, "merge: %d records from %d files (%d duplicates dropped), sweep %s: ",
		len(m.records), len(files), m.duplicates, m.records[0].Sweep)
	if len(m.missing) == 0 {
		fmt.Fprintf(stderr, "complete, all %d points\n", total)
		return nil
	}
	fmt.Fprintf(stderr, "incomplete\n")
	err = &inputError{Err: fmt.Errorf("%d of %d points missing: %s (the same sweep with the merged file as --out runs just these)",
		len(m.missing), total, ranges(m.missing, 40))}
	if o.allowMissing {
		fmt.Fprintf(stderr, "smsim: %s\n", err)
		return nil
	}
	return err
}

// replaceFile writes data to path through a temporary file and a rename,
// so that readers never see half a file (and path may be one of the inputs).
func replaceFile(flag, path string, data []byte) error {
	fail := func(err error) error { return fileError(flag, path, "write", err) }
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fail(err)
	}
	defer os.Remove(tmp.Name())
	_ = tmp.Chmod(0o644)
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fail(err)
	}
	return nil
}

// ranges writes sorted indices compactly, "3, 7-9, 12", at most limit
// ranges before "...".
func ranges(xs []int, limit int) string {
	var parts []string
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		if len(parts) == limit {
			parts = append(parts, "...")
			break
		}
		if j == i {
			parts = append(parts, itoa(xs[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", xs[i], xs[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}
