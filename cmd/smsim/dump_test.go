package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkGolden compares got with testdata/name; -update rewrites the file.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./cmd/smsim -run %s -update writes it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test ./cmd/smsim -run %s -update rewrites it)\ngot:\n%s\nwant:\n%s",
			golden, t.Name(), got, want)
	}
}

// --dump values appear in every output format: after the table's report, as
// a section of the CSV, and in the JSON's dumps. The golden files hold the
// dump sections alone (--report dumps); the default table and CSV end with
// exactly those sections.
func TestDumpAppearsInEveryFormat(t *testing.T) {
	parity := filepath.Join("..", "..", "examples", "parity.sms")
	parityDumps := []string{"--dump", "out:i64:2", "--dump", "out:u8:20", "--dump", "0:hex:3"}
	reduce := []string{filepath.Join("..", "..", "testdata", "cuda", "reduce.ptx"), "-k", "reduce_sum_f32", "-b", "256",
		"-a", "buf:16384:random:2", "-a", "4096", "-a", "0.0009765625", "-a", "buf:16", "--dump", "3:f32:4", "--dump", "0:u16:20", "--dump", "3:i32:0"}
	tests := []struct {
		name   string
		args   []string
		golden string
		// suffix: the golden file is the end of the output, which has other
		// sections before it (a blank line between).
		suffix bool
	}{
		{"table after the report", append([]string{"run", parity}, parityDumps...), "dump_parity.golden.txt", true},
		{"table dumps only", append([]string{"run", parity, "--report", "dumps"}, parityDumps...), "dump_parity.golden.txt", false},
		{"csv after the phases", append([]string{"run", parity, "-o", "csv"}, parityDumps...), "dump_parity.golden.csv", true},
		{"csv dumps only", append([]string{"run", parity, "-o", "csv", "--report", "dumps"}, parityDumps...), "dump_parity.golden.csv", false},
		{"ptx table floats", append([]string{"run"}, append(reduce, "--report", "dumps")...), "dump_reduce_f32.golden.txt", false},
		{"ptx csv floats", append([]string{"run"}, append(reduce, "-o", "csv", "--report", "dumps")...), "dump_reduce_f32.golden.csv", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !tc.suffix {
				checkGolden(t, tc.golden, out)
				return
			}
			want, err := os.ReadFile(filepath.Join("testdata", tc.golden))
			if err != nil {
				t.Fatal(err)
			}
			head, ok := strings.CutSuffix(out, "\n\n"+string(want))
			if !ok || head == "" {
				t.Errorf("the output does not end with a blank line and %s:\n%s", tc.golden, out)
			}
		})
	}
	t.Run("json", func(t *testing.T) {
		code, out, errs := cli(t, append([]string{"run", parity, "-o", "json"}, parityDumps...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var r struct{ Dumps map[string][]any }
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if got := r.Dumps["0"]; len(got) != 3 || got[0] != "0x00000001" {
			t.Errorf("dumps[0] = %v, want 3 hex words from 0x00000001", got)
		}
	})
}

// A --dump naming no buffer, or --report dumps without a --dump, stops
// before the run with a usage error naming the flag.
func TestDumpMistakesAreUsageErrors(t *testing.T) {
	parity := filepath.Join("..", "..", "examples", "parity.sms")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", parity, "--dump", "nosuch"}, "smsim: --dump nosuch: not a buffer parameter of kernel parity_tracking (0:out u64)"},
		{[]string{"run", parity, "--report", "dumps"}, "smsim: --report dumps: no --dump NAME[:TYPE[:COUNT]] names a buffer to print"},
		{[]string{"run", parity, "--report", "dump"}, `smsim: --report "dump": want summary, sms, clusters, barriers, phases, warps, instructions, dumps`},
	}
	for _, tc := range tests {
		code, _, errs := cli(t, tc.args...)
		if code != exitUsage || firstLine(errs) != tc.want {
			t.Errorf("%v: exit %d, %q; want %d, %q", tc.args, code, firstLine(errs), exitUsage, tc.want)
		}
	}
}
