package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The same input run twice gives identical JSON apart from sim.host_seconds
// and the rates derived from it.
func TestSameInputGivesIdenticalJSON(t *testing.T) {
	for _, ex := range []string{"double_buffer.sms", "entangle_lanes.sms", "early_exit.sms"} {
		path := filepath.Join("..", "..", "examples", ex)
		var docs []string
		for i := 0; i < 2; i++ {
			code, out, errs := cli(t, "run", path, "-o", "json")
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", ex, code, errs)
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(out), &m); err != nil {
				t.Fatal(err)
			}
			s := m["sim"].(map[string]any)
			delete(s, "host_seconds")
			delete(s, "warp_instructions_per_second")
			delete(s, "cycles_per_second")
			b, _ := json.Marshal(m)
			docs = append(docs, string(b))
		}
		if docs[0] != docs[1] {
			t.Errorf("%s: two runs differ", ex)
		}
	}
}

var oneLineLoc = regexp.MustCompile(`^smsim: \S+\.(sms|ptx):\d+:\d+: .+\n$`)

// Malformed input exits non-zero with one line naming file:line:column.
func TestMalformedInputGivesOneLineWithLocation(t *testing.T) {
	cases := []struct{ name, body string }{
		{"bad.sms", "kernel k\nblock 32\narrive nosuch\n"},
		{"bad2.sms", "kernel k\nblock 32\nlet x = (1 +\n"},
		{"garbage.sms", "\x00\x01\x02 kernel"},
		{"bad.ptx", ".version 8.0\n.target sm_90a\n.entry k( {\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, tc.name, tc.body)
			code, _, errs := cli(t, "run", p)
			if code != exitInput {
				t.Errorf("got exit %d, want %d (%q)", code, exitInput, errs)
			}
			if !oneLineLoc.MatchString(errs) {
				t.Errorf("got stderr %q, want one line with file:line:col", errs)
			}
		})
	}
}

func TestExitCodes(t *testing.T) {
	deadlock := writeFile(t, "d.sms", "kernel k\nblock 32\nbarrier b\ninit b, 64\narrive b\nwait b parity 0\n")
	misuse := writeFile(t, "m.sms", "kernel k\nblock 32\nbarrier b\ninit b, 16\narrive b\n")
	ok := writeFile(t, "ok.sms", "kernel k\nblock 32\ncompute 10\n")
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"success", []string{"run", ok}, exitOK},
		{"unknown flag", []string{"run", ok, "--nope"}, exitUsage},
		{"missing file argument", []string{"run"}, exitUsage},
		{"unknown command", []string{"fly"}, exitUsage},
		{"missing file", []string{"run", "/nonexistent.sms"}, exitInput},
		{"livelock", []string{"run", deadlock, "--set", "watchdog.spin_cycles=5000"}, exitStuck},
		{"misuse", []string{"run", misuse}, exitMisuse},
		{"limit", []string{"run", deadlock, "--max-cycles", "3000"}, exitLimit},
		{"bad set", []string{"run", ok, "--set", "nosuch=1"}, exitUsage},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := cli(t, tc.args...)
			if code != tc.want {
				t.Errorf("got exit %d, want %d; stderr %q", code, tc.want, errs)
			}
			if code != 0 && !strings.HasPrefix(errs, "smsim: ") {
				t.Errorf("stderr %q does not start with smsim:", errs)
			}
		})
	}
}

// list --disasm prints the instructions smsim runs, after its rewrites:
// microbench.ptx's elected arrive (a branch around one arrive) is
// if-converted into a guarded arrive, as ptxas makes it (@!P0 SYNCS.ARRIVE).
func TestListDisasmShowsTheRewrittenProgram(t *testing.T) {
	code, out, errOut := cli(t, "list", "testdata/bench_fma.sms", "--disasm")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"13 instructions", "mul.lo.s64 r5, r0, 3", "// imad", "@p0 bra -> 5 (reconverge 12)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	ptx := filepath.Join("..", "..", "..", "shared", "calibration", "h200", "microbench.ptx")
	code, out, errOut = cli(t, "list", ptx, "--disasm", "-k", "k_arrive_waitILi3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Count(out, "// _Z13k_arrive_waitILi3EEviPx") != 1 || !regexp.MustCompile(`@!?p\d+ mbarrier\.arrive`).MatchString(out) {
		t.Errorf("want one kernel with a guarded (if-converted) arrive:\n%s", out)
	}
	if code, _, _ := cli(t, "list", ptx, "-k", "no_such_kernel"); code != 2 {
		t.Errorf("unknown kernel: exit %d, want 2", code)
	}
}

// A run reports its copies: JSON's "tma" object and a line of the table
// summary, naming only the kinds of copy the kernel made. tmadesc.ptx's
// kernel copies a box wholly out of bounds and then one in bounds through
// a second tensor map: two tensor loads, two tensor-map fetches, 8 KiB out
// of bounds. A kernel without copies has neither.
func TestRunReportsTheKernelsCopies(t *testing.T) {
	ptx := filepath.Join("..", "..", "calibration", "h200", "tmadesc.ptx")
	m := "tensormap:f16,64x64,box=64x64,stride=128"
	args := []string{"run", ptx, "-b", "1", "--smem", "16384", "-a", m, "-a", m, "-a", "1", "-a", "64", "-a", "64", "-a", "0", "-a", "0", "-a", "buf:16"}
	code, out, errs := cli(t, append(args, "-o", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		TMA *jsonTMA `json:"tma"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.TMA == nil {
		t.Fatal("no tma object in the JSON report")
	}
	if g := *doc.TMA; g.TensorLoads != 2 || g.Loads != 0 || g.DescriptorFetches != 2 || g.OOBBytes != 8192 || g.BytesLoaded != 16384 {
		t.Errorf("tma %+v: want 2 tensor loads, 2 tensor-map fetches, 8192 bytes out of bounds of 16384", g)
	}
	code, out, errs = cli(t, append(args, "--report", "summary")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "tma: 2 tensor loads, 16.0 KiB loaded ("; !strings.Contains(out, want) || !strings.Contains(out, "8.0 KiB out of bounds); 2 tensor-map fetches; front end busy") {
		t.Errorf("summary:\n%s\nwant a line starting %q", out, want)
	}
	code, out, _ = cli(t, "run", filepath.Join("..", "..", "examples", "entangle_half.sms"), "-o", "json")
	if code != 0 || strings.Contains(out, `"tma"`) {
		t.Errorf("a kernel without copies: exit %d, tma object present: %v", code, strings.Contains(out, `"tma"`))
	}
}
