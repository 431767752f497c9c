package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smsim/smsim/report"
)

// namesPTX holds a template kernel with a CUtensorMap and static shared
// barrier arrays, an extern "C" kernel with dynamic shared memory, a Blackwell tcgen05
// kernel smsim cannot run and a kernel taking a structure (see its head).
var namesPTX = filepath.Join("testdata", "names.ptx")

// `smsim list` names every kernel the way its source does, with its mangled
// name, parameter types and a run line, and lists the kernel it cannot run
// with the reason (golden file; go test -update rewrites it).
func TestListNamesKernels(t *testing.T) {
	code, out, errs := cli(t, "list", namesPTX)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden := filepath.Join("testdata", "list_names.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if out != string(want) {
		t.Errorf("list differs from %s (go test ./cmd/smsim -run TestListNamesKernels -update rewrites it):\n%s", golden, out)
	}
	// -k lists the one kernel, also one smsim cannot run (exit 0: listing it worked).
	code, out, errs = cli(t, "list", namesPTX, "-k", "k_tcgen05")
	if code != 0 || !strings.HasPrefix(out, "k_tcgen05(float*)\n") || !strings.Contains(out, "cannot run: testdata/names.ptx:102:2: unsupported instruction tcgen05.fence::before_thread_sync") {
		t.Errorf("list -k k_tcgen05: exit %d, %s%s", code, out, errs)
	}
}

// Every run line `smsim list` prints launches its kernel as printed.
func TestListRunLinesLaunch(t *testing.T) {
	_, out, _ := cli(t, "list", namesPTX)
	n := 0
	for _, line := range strings.Split(out, "\n") {
		cmdline, ok := strings.CutPrefix(strings.TrimSpace(line), "run: smsim ")
		if !ok {
			continue
		}
		n++
		args := shellSplit(t, cmdline)
		if code, _, errs := cli(t, append(args, "--report", "summary")...); code != 0 {
			t.Errorf("%s: exit %d: %s", cmdline, code, errs)
		}
	}
	if n != 2 {
		t.Errorf("%d run lines, want 2 (k_pipe<2> and pipe_c; k_tcgen05 cannot run, k_struct takes a structure):\n%s", n, out)
	}
}

// shellSplit splits a command line the way a POSIX shell splits what
// shellQuote writes: words separated by spaces, single-quoted parts.
func shellSplit(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	var w strings.Builder
	in, quoted := false, false
	for _, c := range s {
		switch {
		case c == '\'':
			quoted, in = !quoted, true
		case c == ' ' && !quoted:
			if in {
				out = append(out, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(c)
			in = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if in {
		out = append(out, w.String())
	}
	return out
}

// The reports name the kernel and its barriers as the source does, and keep
// the mangled names: JSON kernel_mangled and each barrier's symbol.
func TestReportsUseSourceNames(t *testing.T) {
	run := []string{"run", namesPTX, "-k", "k_pipe<2>", "--arg", "tensormap:f16,1024x1024,box=64x64", "--arg", "0", "--arg", "buf:4096"}
	r := runReport(t, append(run, "-o", "json")...)
	if r.Kernel != "void k_pipe<2>(CUtensorMap_st, int, long long*)" || r.Mangled != "_Z6k_pipeILi2EEv14CUtensorMap_stiPx" {
		t.Errorf("kernel %q, kernel_mangled %q", r.Kernel, r.Mangled)
	}
	var names, symbols []string
	for _, b := range r.Barriers {
		names, symbols = append(names, b.Name), append(symbols, b.Symbol)
	}
	if want := []string{"k_pipe<2>::full[1]", "k_pipe<2>::empty[0]"}; !slices.Equal(names, want) {
		t.Errorf("barriers %q, want %q", names, want)
	}
	if want := []string{"_ZZ6k_pipeILi2EEv14CUtensorMap_stiPxE4full+8", "_ZZ6k_pipeILi2EEv14CUtensorMap_stiPxE5empty"}; !slices.Equal(symbols, want) {
		t.Errorf("symbols %q, want %q", symbols, want)
	}

	code, out, errs := cli(t, append(run, "-o", "csv")...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) < 2 || recs[1][0] != r.Kernel || recs[1][1] != "k_pipe<2>::full[1]" {
		t.Errorf("csv: exit %d %v %s: %q", code, err, errs, recs)
	}

	code, out, errs = cli(t, append(run, "--report", "summary")...)
	if code != 0 || !strings.HasPrefix(out, "kernel void k_pipe<2>(CUtensorMap_st, int, long long*) (testdata/names.ptx)") {
		t.Errorf("table: exit %d %s:\n%s", code, errs, out)
	}

	tl := filepath.Join(t.TempDir(), "t.json")
	if code, _, errs := cli(t, append(run, "--timeline", tl, "--report", "summary")...); code != 0 {
		t.Fatalf("timeline: %s", errs)
	}
	b, err := os.ReadFile(tl)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []report.TraceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var tracks []string
	for _, e := range doc.TraceEvents {
		if e.Ph == "M" {
			tracks = append(tracks, e.Args["name"].(string))
		}
	}
	if !slices.Contains(tracks, "warps of "+r.Kernel) || !slices.Contains(tracks, "k_pipe<2>::full[1] (CTA 0)") {
		t.Errorf("timeline tracks %q lack the kernel's and the barrier's source names", tracks)
	}
}

// Diagnostics name barriers and kernels as the source does: a livelock on
// the second element of a barrier array, and a missing argument.
func TestDiagnosticsUseSourceNames(t *testing.T) {
	code, _, errs := cli(t, "run", namesPTX, "-k", "k_pipe<2>", "--arg", "tensormap:f16,1024x1024,box=64x64", "--arg", "1", "--arg", "buf:4096")
	if code != exitStuck || !strings.Contains(errs, "barrier k_pipe<2>::full[1] phase 1 is missing 64 of 64 arrivals") {
		t.Errorf("exit %d, want %d naming barrier k_pipe<2>::full[1]:\n%s", code, exitStuck, errs)
	}
	code, _, errs = cli(t, "run", namesPTX, "-k", "k_pipe<2>", "--arg", "tensormap:f16,1024x1024,box=64x64")
	want := "kernel void k_pipe<2>(CUtensorMap_st, int, long long*): parameter 1 (_Z6k_pipeILi2EEv14CUtensorMap_stiPx_param_1) has no value; " +
		"give --arg (0:_Z6k_pipeILi2EEv14CUtensorMap_stiPx_param_0 CUtensorMap_st, 1:_Z6k_pipeILi2EEv14CUtensorMap_stiPx_param_1 int, 2:_Z6k_pipeILi2EEv14CUtensorMap_stiPx_param_2 long long*)"
	if code != exitUsage || !strings.Contains(errs, want) {
		t.Errorf("exit %d, want %d with %q:\n%s", code, exitUsage, want, errs)
	}
}

// A module runs every kernel it can: the kernel with a Blackwell tcgen05 fence is an
// input error at the instruction's line, the others run.
func TestModuleRunsEveryKernelItCan(t *testing.T) {
	code, _, errs := cli(t, "run", namesPTX, "-k", "k_tcgen05", "--arg", "buf:64")
	if code != exitInput || !oneLineLoc.MatchString(errs) || !strings.Contains(errs, "names.ptx:102:2: unsupported instruction tcgen05.fence::before_thread_sync") {
		t.Errorf("k_tcgen05: exit %d, want %d with one located line:\n%s", code, exitInput, errs)
	}
	code, out, errs := cli(t, "run", namesPTX, "-k", "pipe_c", "-b", "64", "--smem", "1KiB", "--arg", "buf:512", "--arg", "0", "--dump", "0:i64:64", "-o", "json")
	if code != 0 {
		t.Fatalf("pipe_c: exit %d: %s", code, errs)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	// pipe_c stores tid % warpSize (WARP_SZ) for each thread.
	for i, v := range r.Dumps["0"] {
		if v.(float64) != float64(i%32) {
			t.Fatalf("pipe_c out[%d] = %v, want %d", i, v, i%32)
		}
	}
}

// Two kernels (or functions) of one name are an input error at the second.
func TestDuplicateKernelIsAnInputError(t *testing.T) {
	b, err := os.ReadFile(namesPTX)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	i := strings.Index(src, ".visible .entry _Z8k_struct6Params(")
	dup := writeFile(t, "dup.ptx", src+src[i:])
	line := strings.Count(src, "\n") + 1
	for _, cmd := range []string{"list", "run"} {
		code, _, errs := cli(t, cmd, dup)
		if code != exitInput || !oneLineLoc.MatchString(errs) || !strings.Contains(errs, "dup.ptx:"+itoa(line)+":17: duplicate kernel _Z8k_struct6Params") {
			t.Errorf("%s: exit %d, want %d with one located line:\n%s", cmd, code, exitInput, errs)
		}
	}
}
