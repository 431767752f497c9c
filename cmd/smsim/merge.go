package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/smsim/smsim/sweep"
	"github.com/spf13/cobra"
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

func runMerge(o *mergeOptions, files []string, stdout, stderr io.Writer) error {
	format, err := sweep.RecordFormat(o.format, o.out)
	if err != nil {
		return err
	}
	if err := checkOutput("--out", o.out); err != nil {
		return err
	}
	m, err := sweep.MergeFiles(files, stderr)
	if err != nil {
		return err
	}
	if len(m.Records) == 0 {
		return &inputError{Err: fmt.Errorf("no sweep records in %s", strings.Join(files, ", "))}
	}
	var buf bytes.Buffer
	if err := sweep.WriteResults(&buf, format, m.Params, m.Records); err != nil {
		return err
	}
	if o.out == "" {
		if _, err := stdout.Write(buf.Bytes()); err != nil {
			return err
		}
	} else if err := replaceFile("--out", o.out, buf.Bytes()); err != nil {
		return err
	}
	total := m.Records[0].Points
	fmt.Fprintf(stderr, "merge: %d records from %d files (%d duplicates dropped), sweep %s: ",
		len(m.Records), len(files), m.Duplicates, m.Records[0].Sweep)
	if len(m.Missing) == 0 {
		fmt.Fprintf(stderr, "complete, all %d points\n", total)
		return nil
	}
	fmt.Fprintf(stderr, "incomplete\n")
	err = &inputError{Err: fmt.Errorf("%d of %d points missing: %s (the same sweep with the merged file as --out runs just these)",
		len(m.Missing), total, ranges(m.Missing, 40))}
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
