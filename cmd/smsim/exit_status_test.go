package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fullDisk is a stdout whose every write fails as on a full disk.
type fullDisk struct{}

func (fullDisk) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: errors.New("no space left on device")}
}

// TestExitStatusAndFirstLine holds every command-line mistake a new user
// met to the documented exit status (docs/cli.md, smsim --help) and to the
// first line it prints on stderr, which names the flag or file at fault.
func TestExitStatusAndFirstLine(t *testing.T) {
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "")
	half := filepath.Join("..", "..", "examples", "entangle_half.sms")
	dir := t.TempDir()
	none := filepath.Join(dir, "none")
	folder := filepath.Join(dir, "folder.svg")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	noenc := filepath.Join(dir, "noenc.sass") // a listing without encodings, no cubin beside it
	if err := os.WriteFile(noenc, []byte("\tcode for sm_90a\n\t\tFunction : _Z1kPi\n"+
		"        /*0000*/                   EXIT ;\n\t\t..........\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	noencLine := "smsim: " + noenc + ":3:36: the listing has no instruction encodings (EXIT at 0x0 of _Z1kPi is its first instruction); " +
		"smsim times SASS by the control bits of the encodings (stall counts, yield, scoreboards): dump the cubin with " +
		"`cuobjdump -sass noenc.cubin`, which prints every instruction's encoding, or put the cubin beside the listing as noenc.cubin"
	results := filepath.Join(dir, "r.jsonl")
	if code, _, errs := cli(t, "sweep", half, "--vary", "arg:ITERS=1", "--out", results); code != 0 {
		t.Fatal(errs)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		line   string    // stderr's first line ("" for none)
		stdout io.Writer // nil: a buffer
		device string    // a device file the case needs (skipped where it is absent)
	}{
		{name: "version", args: []string{"--version"}, code: exitOK, line: ""},
		{name: "run without a file", args: []string{"run"}, code: exitUsage,
			line: "smsim: accepts 1 arg(s), received 0 (see smsim run --help)"},
		{name: "unknown command", args: []string{"fly"}, code: exitUsage,
			line: `smsim: unknown command "fly" for "smsim"`},
		{name: "unknown shorthand on the root", args: []string{"-v"}, code: exitUsage,
			line: "smsim: unknown shorthand flag: 'v' in -v (see smsim --help)"},
		{name: "unknown flag", args: []string{"run", half, "--nope"}, code: exitUsage,
			line: "smsim: unknown flag: --nope (see smsim run --help)"},
		{name: "arg flag without its value", args: []string{"run", half, "-a"}, code: exitUsage,
			line: "smsim: flag needs an argument: 'a' in -a (see smsim run --help)"},
		{name: "stats in an unknown format", args: []string{"stats", half, "-o", "xml"}, code: exitUsage,
			line: `smsim: --format "xml": want table, json or csv`},
		{name: "dump of no buffer", args: []string{"run", half, "--dump", "ITERS"}, code: exitUsage,
			line: "smsim: --dump ITERS: not a buffer parameter of kernel entangle_half (0:ITERS s64)"},
		{name: "dumps section without a dump", args: []string{"run", half, "-o", "csv", "--report", "dumps"}, code: exitUsage,
			line: "smsim: --report dumps: no --dump NAME[:TYPE[:COUNT]] names a buffer to print"},
		{name: "negative threads", args: []string{"run", half, "--threads", "-1"}, code: exitUsage,
			line: "smsim: --threads -1: want 0 (every core) or 1..1024"},
		{name: "negative SM threads", args: []string{"run", half, "--sm-threads", "-1"}, code: exitUsage,
			line: "smsim: --sm-threads -1: want 1..1024 (0 is 1)"},
		{name: "block over 1024 threads", args: []string{"run", half, "--block", "5000"}, code: exitUsage,
			line: `smsim: --block "5000": 5000 threads per block, more than the 1024 a block may have`},
		{name: "block of 2048 threads in three dimensions", args: []string{"run", half, "--block", "32,32,2"}, code: exitUsage,
			line: `smsim: --block "32,32,2": 2048 threads per block, more than the 1024 a block may have`},
		{name: "block z over 64", args: []string{"run", half, "--block", "1,1,128"}, code: exitUsage,
			line: `smsim: --block "1,1,128": z dimension 128 is more than 64`},
		{name: "block zero", args: []string{"run", half, "--block", "0"}, code: exitUsage,
			line: `smsim: --block "0": dimensions are at least 1`},
		{name: "block past int32", args: []string{"run", half, "--block", "99999999999"}, code: exitUsage,
			line: `smsim: --block "99999999999": dimension 99999999999 is more than 2147483647`},
		{name: "block not a number", args: []string{"run", half, "--block", "a"}, code: exitUsage,
			line: `smsim: --block "a": want X[,Y[,Z]], each a positive integer`},
		{name: "grid y over 65535", args: []string{"run", half, "--grid", "1,100000"}, code: exitUsage,
			line: `smsim: --grid "1,100000": y dimension 100000 is more than 65535`},
		{name: "grid of too many blocks", args: []string{"run", half, "--grid", "2000000"}, code: exitUsage,
			line: `smsim: --grid "2000000": 2000000 blocks, more than the 1048576 one simulated SM runs in a launch`},
		{name: "smem of 10GiB", args: []string{"run", half, "--smem", "10GiB"}, code: exitUsage,
			line: `smsim: --smem "10GiB": 10737418240 bytes is more than the 227.0 KiB of shared memory one block may have (smem.per_cta = 232448)`},
		{name: "smem of 3GiB", args: []string{"run", half, "--smem", "3GiB"}, code: exitUsage,
			line: `smsim: --smem "3GiB": 3221225472 bytes is more than the 227.0 KiB of shared memory one block may have (smem.per_cta = 232448)`},
		{name: "smem with static past the limit", args: []string{"run", half, "--smem", "227KiB"}, code: exitUsage,
			line: `smsim: --smem "227KiB": with kernel entangle_half's 16 bytes of static shared memory a block needs 232464 bytes, more than the 227.0 KiB allowed (smem.per_cta = 232448)`},
		{name: "smem under a smaller configured limit", args: []string{"run", half, "--smem", "64KiB", "--set", "smem.per_cta=49152"}, code: exitUsage,
			line: `smsim: --smem "64KiB": 65536 bytes is more than the 48.0 KiB of shared memory one block may have (smem.per_cta = 49152)`},
		{name: "smem not a size", args: []string{"run", half, "--smem", "lots"}, code: exitUsage,
			line: `smsim: --smem "lots": want a byte count such as 49152 or 48KiB`},

		{name: "sweep with no workers", args: []string{"sweep", half, "--vary", "arg:ITERS=1", "-j", "0"}, code: exitUsage,
			line: `smsim: invalid argument "0" for "-j, --jobs" flag: want 1 or more runs in parallel (see smsim sweep --help)`},
		{name: "validate with negative jobs", args: []string{"validate", "--jobs", "-3"}, code: exitUsage,
			line: `smsim: invalid argument "-3" for "--jobs" flag: want 1 or more runs in parallel (see smsim validate --help)`},
		{name: "compare with negative jobs", args: []string{"compare", half, half, "-j", "-1"}, code: exitUsage,
			line: `smsim: invalid argument "-1" for "-j, --jobs" flag: want 1 or more runs in parallel (see smsim compare --help)`},
		{name: "calibrate with no jobs", args: []string{"calibrate", "--params", "syncs.latency", "--jobs", "0"}, code: exitUsage,
			line: `smsim: invalid argument "0" for "--jobs" flag: want 1 or more runs in parallel (see smsim calibrate --help)`},
		{name: "calibrate with no evaluations", args: []string{"calibrate", "--params", "syncs.latency", "--evals", "0"}, code: exitUsage,
			line: `smsim: --evals 0: want 1 or more suite runs`},

		{name: "block past the register file", args: []string{"run", filepath.Join("..", "..", "calibration", "h200", "hwprobe.sass"),
			"-k", "p_arrive_throughput<true>", "-b", "1024", "-a", "buf:8"}, code: exitUsage,
			line: `smsim: --block "1024": kernel void p_arrive_throughput<true>(long long*) takes 72 registers a thread; 1024 threads need 73728, more than the SM's 65536 (limit.registers)`},
		{name: "arg naming a parameter without a value", args: []string{"run", half, "-a", "ITERS"}, code: exitUsage,
			line: `smsim: --arg "ITERS": ITERS is parameter 0 of kernel entangle_half, with no value; give --arg ITERS=VALUE`},
		{name: "integer arg in float notation", args: []string{"run", half, "-a", "1e18"}, code: exitInput,
			line: `smsim: --arg "1e18": parameter 0 (ITERS s64): want an integer literal; 1e18 is a float literal (write 1000000000000000000)`},
		{name: "integer arg with a fraction", args: []string{"run", half, "-a", "ITERS=1.5"}, code: exitInput,
			line: `smsim: --arg "ITERS=1.5": parameter 0 (ITERS s64): want an integer literal such as 42 or 0x2a, not "1.5"`},
		{name: "integer arg past 64 bits", args: []string{"run", half, "-a", "99999999999999999999"}, code: exitInput,
			line: `smsim: --arg "99999999999999999999": parameter 0 (ITERS s64): 99999999999999999999 does not fit 64 bits`},
		{name: "arg past the last parameter", args: []string{"run", half, "-a", "4", "-a", "5"}, code: exitUsage,
			line: `smsim: --arg "5": kernel entangle_half takes only 1 parameter (0:ITERS s64)`},
		{name: "arg naming no parameter", args: []string{"run", half, "-a", "N=4"}, code: exitUsage,
			line: `smsim: --arg "N=4": kernel entangle_half has no parameter "N" (0:ITERS s64)`},

		{name: "timeline in a missing folder", args: []string{"run", half, "--timeline", none + "/t.json"}, code: exitInput,
			line: "smsim: --timeline " + none + "/t.json: cannot write: folder " + none + ": no such file or directory"},
		{name: "profile on a full disk", args: []string{"run", half, "--profile", "/dev/full"}, code: exitInput,
			line: "smsim: --profile /dev/full: cannot write: no space left on device", device: "/dev/full"},
		{name: "timeline on a full disk", args: []string{"run", half, "--timeline", "/dev/full"}, code: exitInput,
			line: "smsim: --timeline /dev/full: cannot write: no space left on device", device: "/dev/full"},
		{name: "plot into a folder", args: []string{"run", half, "--plot", folder}, code: exitInput,
			line: "smsim: --plot " + folder + ": cannot write: is a folder"},
		{name: "plot of an unknown format", args: []string{"run", half, "--plot", "x.gif"}, code: exitUsage,
			line: "smsim: --plot x.gif: want a .svg, .png or .pdf file (the extension names the image format)"},
		{name: "sweep out in a missing folder", args: []string{"sweep", half, "--vary", "arg:ITERS=1,2", "--out", none + "/s.jsonl"}, code: exitInput,
			line: "smsim: --out " + none + "/s.jsonl: cannot write: folder " + none + ": no such file or directory"},
		{name: "merge out in a missing folder", args: []string{"merge", results, "--out", none + "/m.jsonl"}, code: exitInput,
			line: "smsim: --out " + none + "/m.jsonl: cannot write: folder " + none + ": no such file or directory"},
		{name: "plot out in a missing folder", args: []string{"plot", results, "--out", none + "/p.svg"}, code: exitInput,
			line: "smsim: --out " + none + "/p.svg: cannot write: folder " + none + ": no such file or directory"},
		{name: "calibrate out in a missing folder", args: []string{"calibrate", "--params", "syncs.latency", "--out", none + "/c.cfg"}, code: exitInput,
			line: "smsim: --out " + none + "/c.cfg: cannot write: folder " + none + ": no such file or directory"},
		{name: "stdout on a full disk", args: []string{"run", half}, code: exitInput,
			line: "smsim: stdout: cannot write: no space left on device", stdout: fullDisk{}},
		{name: "json to stdout on a full disk", args: []string{"run", half, "-o", "json"}, code: exitInput,
			line: "smsim: stdout: cannot write: no space left on device", stdout: fullDisk{}},
		{name: "config file missing", args: []string{"run", half, "--config", none + "/x.cfg"}, code: exitInput,
			line: "smsim: --config " + none + "/x.cfg: cannot read: no such file or directory"},
		{name: "config a folder", args: []string{"run", half, "--config", dir}, code: exitInput,
			line: "smsim: --config " + dir + ": is a directory; a --config file must be a regular file"},
		{name: "config name misspelt", args: []string{"run", half, "--config", "h100"}, code: exitUsage,
			line: `smsim: --config "h100": not a built-in configuration (h200) or an existing file`},
		{name: "input file missing", args: []string{"run", none + ".sms"}, code: exitInput,
			line: "smsim: " + none + ".sms: no such file or directory"},
		{name: "run a SASS listing without encodings or cubin", args: []string{"run", noenc}, code: exitInput, line: noencLine},
		{name: "list a SASS listing without encodings or cubin", args: []string{"list", noenc}, code: exitInput, line: noencLine},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.device != "" {
				if _, err := os.Stat(tc.device); err != nil {
					t.Skipf("no %s here", tc.device)
				}
			}
			stdout := tc.stdout
			if stdout == nil {
				stdout = &bytes.Buffer{}
			}
			var stderr strings.Builder
			code := runCLI(tc.args, stdout, &stderr)
			errs := stderr.String()
			if code != tc.code || firstLine(errs) != tc.line {
				t.Errorf("smsim %q:\ngot  exit %d, %q\nwant exit %d, %q", tc.args, code, firstLine(errs), tc.code, tc.line)
			}
		})
	}
}

// The exit-status tables of docs/cli.md and of smsim --help list exactly
// the statuses the code returns, in order, and --help prints its table.
func TestExitStatusTablesMatchTheCode(t *testing.T) {
	codes := []int{exitOK, exitInternal, exitUsage, exitInput, exitStuck, exitMisuse, exitLimit, exitTargets, exitInterrupted}
	var want []string
	for _, c := range codes {
		want = append(want, itoa(c))
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "| status | meaning |\n| --- | --- |\n")
	if !ok {
		t.Fatal("docs/cli.md has no exit-status table")
	}
	var inDoc []string
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "| ") {
			break
		}
		inDoc = append(inDoc, strings.TrimSpace(strings.Split(line, "|")[1]))
	}
	var inHelp []string
	for _, line := range strings.Split(exitHelp, "\n")[1:] {
		if f := strings.Fields(line); len(f) > 0 && strings.Trim(f[0], "0123456789") == "" {
			inHelp = append(inHelp, f[0])
		}
	}
	for _, got := range []struct {
		where string
		codes []string
	}{{"docs/cli.md", inDoc}, {"smsim --help", inHelp}} {
		if strings.Join(got.codes, " ") != strings.Join(want, " ") {
			t.Errorf("%s lists exit statuses %v, the code returns %v", got.where, got.codes, want)
		}
	}
	if code, out, _ := cli(t, "--help"); code != 0 || !strings.Contains(out, exitHelp) {
		t.Errorf("smsim --help: exit %d, and its text lacks the exit statuses", code)
	}
}
