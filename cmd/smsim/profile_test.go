package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/sm"
)

var update = flag.Bool("update", false, "rewrite cmd/smsim/testdata/*.golden from the current output")

type profiledRun struct {
	Cycles uint64 `json:"cycles"`
	Sim    struct {
		WarpInstructions uint64 `json:"warp_instructions"`
	} `json:"sim"`
	Warps []struct {
		Start  uint64            `json:"start"`
		End    uint64            `json:"end"`
		Stalls map[string]uint64 `json:"stalls"`
	} `json:"warps"`
	Instructions []report.Instr `json:"instructions"`
}

func profiled(t *testing.T, args ...string) profiledRun {
	t.Helper()
	code, out, errs := cli(t, append([]string{"run"}, append(args, "-o", "json", "--report", "instructions")...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var r profiledRun
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// Every warp cycle of the run lands on exactly one instruction: the profile's
// issues are the report's warp instructions, and its cycles of each stall
// reason are the warps' cycles of that reason; on a GPU of several SMs,
// every SM's, also beside a timeline.
func TestProfileAccountsForEveryWarpCycle(t *testing.T) {
	for _, c := range [][]string{{"arrive_wait.sms"}, {"tma_pipeline.sms"}, {"early_exit.sms"}, {"entangle_lanes.sms"},
		{"tma_pipeline.sms", "--sms", "4", "-g", "8"},
		{"arrive_wait.sms", "--sms", "3", "-g", "6", "--timeline", filepath.Join(t.TempDir(), "t.json")}} {
		ex := strings.Join(c, " ")
		r := profiled(t, append([]string{filepath.Join("..", "..", "examples", c[0])}, c[1:]...)...)
		var issues uint64
		byReason := map[string]uint64{}
		for _, in := range r.Instructions {
			issues += in.Issues
			var sum uint64
			for k, c := range in.Stalls {
				byReason[k] += c
				sum += c
			}
			if sum != in.Cycles {
				t.Errorf("%s pc %d: cycles %d, reasons sum to %d", ex, in.PC, in.Cycles, sum)
			}
		}
		if issues != r.Sim.WarpInstructions || issues == 0 {
			t.Errorf("%s: %d issues in the profile, %d warp instructions in the report", ex, issues, r.Sim.WarpInstructions)
		}
		want := map[string]uint64{}
		for _, w := range r.Warps {
			for k, c := range w.Stalls {
				want[k] += c
			}
		}
		for k := 0; k < sm.NumReasons; k++ {
			n := sm.Reason(k).String()
			if byReason[n] != want[n] {
				t.Errorf("%s: %s: %d cycles in the profile, %d in the warps", ex, n, byReason[n], want[n])
			}
		}
	}
}

// As in Nsight Compute's source view, a wait's cycles count against the
// instruction the warp is stalled on: the branch after the try_wait, the
// first instruction it issues once the wait answers.
func TestProfilePutsBarrierWaitsOnTheInstructionAfterTheWait(t *testing.T) {
	r := profiled(t, filepath.Join("..", "..", "examples", "arrive_wait.sms"))
	best := -1
	for i, in := range r.Instructions {
		if best < 0 || in.Stalls["mbarrier"] > r.Instructions[best].Stalls["mbarrier"] {
			best = i
		}
	}
	in := r.Instructions[best]
	if in.Stalls["mbarrier"] == 0 || best == 0 {
		t.Fatalf("no instruction has mbarrier cycles")
	}
	if !strings.Contains(in.Instruction, "bra") || !strings.Contains(r.Instructions[best-1].Instruction, "try_wait") {
		t.Errorf("most mbarrier cycles on pc %d %q (after %q), want the branch after the try_wait",
			best, in.Instruction, r.Instructions[best-1].Instruction)
	}
	if !strings.HasSuffix(strings.SplitN(in.Source, ":", 2)[0], "arrive_wait.sms") {
		t.Errorf("source %q does not name the kernel's file", in.Source)
	}
}

// With --launches N the profile, like the report, describes the last launch.
func TestProfileDescribesTheLastLaunch(t *testing.T) {
	ex := filepath.Join("..", "..", "examples", "double_buffer.sms")
	r := profiled(t, ex, "--launches", "3")
	var issues uint64
	for _, in := range r.Instructions {
		issues += in.Issues
	}
	if issues != r.Sim.WarpInstructions {
		t.Errorf("3 launches: %d issues in the profile, %d warp instructions in the last launch", issues, r.Sim.WarpInstructions)
	}
	// The timeline too shows the last launch only: nothing past its cycles.
	tl := filepath.Join(t.TempDir(), "t.json")
	if code, _, errs := cli(t, "run", ex, "--launches", "3", "--timeline", tl, "--report", "summary"); code != 0 {
		t.Fatal(errs)
	}
	b, err := os.ReadFile(tl)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []struct {
			Ph  string  `json:"ph"`
			Ts  uint64  `json:"ts"`
			Dur *uint64 `json:"dur"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	var spans, one int
	for _, e := range doc.TraceEvents {
		if e.Ph == "X" {
			spans++
			if e.Ts+*e.Dur > r.Cycles {
				t.Fatalf("timeline span ends at %d, past the last launch's %d cycles", e.Ts+*e.Dur, r.Cycles)
			}
		}
	}
	tl1 := filepath.Join(t.TempDir(), "t1.json")
	if code, _, errs := cli(t, "run", ex, "--timeline", tl1, "--report", "summary"); code != 0 {
		t.Fatal(errs)
	}
	b, _ = os.ReadFile(tl1)
	doc.TraceEvents = nil
	_ = json.Unmarshal(b, &doc)
	for _, e := range doc.TraceEvents {
		if e.Ph == "X" {
			one++
		}
	}
	if spans > 2*one {
		t.Errorf("3 launches give %d spans against %d for one: earlier launches kept", spans, one)
	}
}

// --profile FILE writes every instruction, as CSV or (FILE.json) JSON; the
// CSV of examples/arrive_wait.sms is a golden file (go test -update).
func TestProfileFile(t *testing.T) {
	dir := t.TempDir()
	ex := filepath.Join("..", "..", "examples", "arrive_wait.sms")
	csvPath, jsonPath := filepath.Join(dir, "p.csv"), filepath.Join(dir, "p.json")
	for _, p := range []string{csvPath, jsonPath} {
		if code, _, errs := cli(t, "run", ex, "--profile", p, "--report", "summary"); code != 0 {
			t.Fatalf("--profile %s: %s", p, errs)
		}
	}
	b, err := os.ReadFile(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []report.Instr
	jb, _ := os.ReadFile(jsonPath)
	if err := json.Unmarshal(jb, &rows); err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(rows)+1 || len(rows) == 0 {
		t.Fatalf("CSV has %d records, JSON %d instructions", len(recs), len(rows))
	}
	if got, want := strings.Join(recs[0], ","), strings.Join(report.ProfileHeader(), ","); got != want {
		t.Errorf("header %s, want %s", got, want)
	}
	// The golden file holds the CSV with the source path reduced to its name
	// (the test runs from cmd/smsim).
	got := strings.ReplaceAll(string(b), filepath.ToSlash(filepath.Join("..", "..", "examples"))+"/", "")
	golden := filepath.Join("testdata", "profile_arrive_wait.golden.csv")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("profile differs from %s (go test ./cmd/smsim -run TestProfileFile -update rewrites it)", golden)
	}
}

// The table's instructions section lists the hottest instructions, and an
// unknown section is a usage error that names the new one.
func TestProfileTableSection(t *testing.T) {
	ex := filepath.Join("..", "..", "examples", "arrive_wait.sms")
	code, out, errs := cli(t, "run", ex, "--report", "instructions")
	if code != 0 {
		t.Fatal(errs)
	}
	if !strings.Contains(out, "instructions by warp cycles") || !strings.Contains(out, "mbarrier") {
		t.Errorf("instructions section missing or without the wait:\n%s", out)
	}
	if n := strings.Count(out, "arrive_wait.sms:"); n == 0 || n > report.HotInstructions {
		t.Errorf("%d instruction rows, want 1..%d", n, report.HotInstructions)
	}
	code, _, errs = cli(t, "run", ex, "--report", "bogus")
	if code != 2 || !strings.Contains(errs, "instructions") {
		t.Errorf("--report bogus: exit %d, %q", code, errs)
	}
	code, out, errs = cli(t, "run", ex, "-o", "csv", "--report", "instructions")
	if code != 0 || !strings.HasPrefix(out, strings.Join(report.ProfileHeader(), ",")) {
		t.Errorf("csv instructions: exit %d %s\n%s", code, errs, out)
	}
}

// --timeline beside --profile on a GPU of several SMs still gives each SM
// its process of warp tracks, as --timeline alone does.
func TestTimelineBesideAProfileCoversEverySM(t *testing.T) {
	ex := filepath.Join("..", "..", "examples", "arrive_wait.sms")
	dir := t.TempDir()
	pids := func(args ...string) map[int]bool {
		tl := filepath.Join(dir, "t.json")
		args = append([]string{"run", ex, "--sms", "3", "-g", "6", "--timeline", tl}, args...)
		if code, _, errs := cli(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
		b, err := os.ReadFile(tl)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			TraceEvents []struct {
				Pid int `json:"pid"`
			} `json:"traceEvents"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		for _, e := range doc.TraceEvents {
			seen[e.Pid] = true
		}
		return seen
	}
	alone, beside := pids(), pids("--profile", filepath.Join(dir, "p.csv"))
	if len(alone) < 4 || len(beside) != len(alone) {
		t.Errorf("processes: %d with the timeline alone, %d beside a profile", len(alone), len(beside))
	}
}
