package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/smsim/smsim/report"
)

func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runCLI(args, &out, &errb)
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

var oneLineLoc = regexp.MustCompile(`^smsim: \S+\.(sms|ptx|sass):\d+:\d+: .+\n$`)

// Malformed input exits non-zero with one line naming file:line:column.
func TestMalformedInputGivesOneLineWithLocation(t *testing.T) {
	cases := []struct{ name, body string }{
		{"bad.sms", "kernel k\nblock 32\narrive nosuch\n"},
		{"bad2.sms", "kernel k\nblock 32\nlet x = (1 +\n"},
		{"garbage.sms", "\x00\x01\x02 kernel"},
		{"bad.ptx", ".version 8.0\n.target sm_90a\n.entry k( {\n"},
		{"noenc.sass", "\tcode for sm_90a\n\t\tFunction : _Z1kPi\n        /*0000*/                   EXIT ;\n\t\t..........\n"},
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
	code, out, errOut := cli(t, "list", filepath.Join("..", "..", "run", "testdata", "bench_fma.sms"), "--disasm")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"13 instructions", "mul.lo.s64 r5, r0, 3", "// imad", "@p0 bra -> 5 (reconverge 12)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	ptx := filepath.Join("..", "..", "calibration", "h200", "microbench.ptx")
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

// TestRunReportsBulkReductions: a kernel whose thread 0 reduces 128 bytes of
// shared memory into global memory (cp.reduce.async.bulk .add.u32) reports
// one store, one reduction among them, and adds the words.
func TestRunReportsBulkReductions(t *testing.T) {
	dir := t.TempDir()
	ptx := filepath.Join(dir, "red.ptx")
	src := `.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 k_dst)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 128 .b8 sh[128];
	ld.param.u64 %rd1, [k_dst];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 2;
	mov.u32 %r3, sh;
	add.u32 %r4, %r3, %r2;
	add.u32 %r5, %r1, 1;
	st.shared.u32 [%r4], %r5;
	fence.proxy.async.shared::cta;
	bar.sync 0;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra DONE;
	cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [sh], 128;
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group 0;
DONE:
	ret;
}
`
	if err := os.WriteFile(ptx, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"run", ptx, "-b", "32", "-a", "buf:128:seq", "--dump", "0:u32:4"}
	code, out, errs := cli(t, append(args, "-o", "json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		TMA   *report.TMA         `json:"tma"`
		Dumps map[string][]uint64 `json:"dumps"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.TMA == nil || doc.TMA.Stores != 1 || doc.TMA.Reductions != 1 || doc.TMA.BytesStored != 128 {
		t.Fatalf("tma %+v: want 1 store, 1 reduction, 128 bytes", doc.TMA)
	}
	if got := doc.Dumps["0"]; len(got) != 4 || got[0] != 1 || got[1] != 3 || got[3] != 7 {
		t.Errorf("dump %v: want word i = i + (i + 1)", got)
	}
	code, out, errs = cli(t, append(args, "--report", "summary")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := "tma: 1 store, 1 reduction among the stores, 128 B stored"; !strings.Contains(out, want) {
		t.Errorf("summary:\n%s\nwant %q", out, want)
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
		TMA *report.TMA `json:"tma"`
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

// runReport runs the CLI with args (a `run ... --format json`), fails the
// test unless it exits 0, and returns the decoded report.
func runReport(t *testing.T, args ...string) report.Report {
	t.Helper()
	code, out, errs := cli(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func barrierNamed(t *testing.T, r *report.Report, name string) report.Barrier {
	t.Helper()
	for _, b := range r.Barriers {
		if b.Name == name {
			return b
		}
	}
	t.Fatalf("no barrier %q in the report", name)
	return report.Barrier{}
}
