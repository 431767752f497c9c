package sm

import (
	"fmt"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// Tests of issue by control bits (ctrl_issue.go): hand-built Scheduled
// programs whose instructions carry isa.Ctrl, timed by the SM directly.

// ctl is a control word with stall count stall and no scoreboards, changed by opts.
func ctl(stall uint8, opts ...func(*isa.Ctrl)) isa.Ctrl {
	c := isa.Ctrl{Stall: stall, WriteSB: isa.NoSB, ReadSB: isa.NoSB}
	for _, o := range opts {
		o(&c)
	}
	return c
}

func wsb(k uint8) func(*isa.Ctrl)             { return func(c *isa.Ctrl) { c.WriteSB = k } }
func rsb(k uint8) func(*isa.Ctrl)             { return func(c *isa.Ctrl) { c.ReadSB = k } }
func wait(m uint8) func(*isa.Ctrl)            { return func(c *isa.Ctrl) { c.Wait = m } }
func yield() func(*isa.Ctrl)                  { return func(c *isa.Ctrl) { c.Yield = true } }
func with(in isa.Instr, c isa.Ctrl) isa.Instr { in.Ctrl = c; return in }

// setCtrl gives the instruction emitted last the control word c.
func setCtrl(a *asm, c isa.Ctrl) { a.p.Instrs[len(a.p.Instrs)-1].Ctrl = c }

// movI is a fixed-latency filler: r = imm (the integer pipe or IMAD.MOV's).
func movI(r int, c isa.Ctrl) isa.Instr {
	return with(alu(isa.OpMov, isa.U32, isa.R(r), isa.Imm(1)), c)
}

func ldI(space isa.Space, dst, addr int, c isa.Ctrl) isa.Instr {
	return with(isa.Instr{Op: isa.OpLd, Space: space, Type: isa.U32, NDst: 1,
		Ops: []isa.Operand{isa.R(dst), isa.Addr(addr, 0)}}, c)
}

func stI(space isa.Space, addr, src int, c isa.Ctrl) isa.Instr {
	return with(isa.Instr{Op: isa.OpSt, Space: space, Type: isa.U32, Ops: []isa.Operand{isa.Addr(addr, 0), isa.R(src)}}, c)
}

var exitC = with(exit, ctl(5))

// issueRec is one issue the observer saw.
type issueRec struct {
	cycle   uint64
	warp    int
	pc      int
	sbCount [isa.NumSB]int // the warp's scoreboard counts just before the issue
}

// ctrlObs records every issue of a run (Observer).
type ctrlObs struct {
	s      *SM
	issues []issueRec
}

func (o *ctrlObs) Launch() {}
func (o *ctrlObs) Issue(cycle uint64, w, pc int, _ uint32) {
	r := issueRec{cycle: cycle, warp: w, pc: pc}
	if wc := o.s.warps[w]; wc != nil {
		for k := range r.sbCount {
			r.sbCount[k] = wc.sbCount(o.s.start+sim.Cycle(cycle), k)
		}
	}
	o.issues = append(o.issues, r)
}
func (o *ctrlObs) Stall(int, uint64, uint64, Reason, string) {}
func (o *ctrlObs) Phase(string, int, uint64, uint64, uint64) {}
func (o *ctrlObs) Copy(uint64, int, uint64, uint64, string)  {}
func (o *ctrlObs) MMAGroup(int, int, uint64, uint64)         {}
func (o *ctrlObs) at(w, pc int) []uint64                     { return o.find(w, pc) }
func (o *ctrlObs) first(w, pc int) uint64                    { return o.find(w, pc)[0] }
func (o *ctrlObs) find(w, pc int) []uint64 {
	var c []uint64
	for _, r := range o.issues {
		if r.warp == w && r.pc == pc {
			c = append(c, r.cycle)
		}
	}
	return c
}

// runCtrl runs prog as a Scheduled program with threads threads and returns
// the report and what the observer saw.
func runCtrl(t *testing.T, prog *isa.Program, threads int, cfg *Config) (*Result, *ctrlObs) {
	t.Helper()
	prog.Scheduled = true
	c := DefaultConfig()
	if cfg != nil {
		c = *cfg
	}
	s, err := New(c, sim.New(), &fakeMem{b: map[uint64]byte{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	obs := &ctrlObs{s: s}
	s.SetObserver(obs)
	if prog.SharedStatic == 0 {
		prog.SharedStatic = 64
	}
	r, err := s.Run(&Launch{Prog: prog, Block: [3]int{threads, 1, 1}, Grid: [3]int{1, 1, 1},
		Params: make([]byte, prog.ParamBytes), MaxCycles: 1_000_000})
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	return r, obs
}

// offsets returns the issue cycles of warp 0's instructions 0..n-1 (first
// issues) less the first one's.
func offsets(o *ctrlObs, n int) []uint64 {
	var d []uint64
	for pc := 0; pc < n; pc++ {
		d = append(d, o.first(0, pc)-o.first(0, 0))
	}
	return d
}

// Stall counts alone time a chain of fixed-latency instructions: each issues
// its stall count after the one before (0 counts as 1), and nothing checks
// the registers — a consumer issued a cycle after its 4-cycle producer is
// not held.
func TestStallCountsTimeAChain(t *testing.T) {
	cases := []struct {
		name   string
		stalls []uint8
		dep    bool // each instruction reads the one before
		want   []uint64
	}{
		{"stall counts add up", []uint8{1, 2, 3, 4, 5}, false, []uint64{0, 1, 3, 6, 10}},
		{"stall 0 issues the next cycle", []uint8{0, 0, 0}, false, []uint64{0, 1, 2}},
		{"stall 15 is the longest", []uint8{15, 15, 1}, false, []uint64{0, 15, 30}},
		{"a fixed latency is not checked", []uint8{1, 1, 1, 1}, true, []uint64{0, 1, 2, 3}},
		{"the chain is the sum of its stalls", []uint8{4, 4, 4, 4}, true, []uint64{0, 4, 8, 12}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newAsm(8, 1)
			for i, st := range c.stalls {
				in := movI(1+i, ctl(st))
				if c.dep && i > 0 {
					in = with(alu(isa.OpAdd, isa.U32, isa.R(1+i), isa.R(i), isa.Imm(1)), ctl(st))
				}
				a.emit(in)
			}
			a.emit(exitC)
			_, o := runCtrl(t, a.done(), 32, nil)
			if got := offsets(o, len(c.stalls)); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("issue cycles %v, want %v", got, c.want)
			}
		})
	}
}

// A scoreboard holds a consumer that waits on it until the producer's result
// is written, at the latency the SM's models give: a global load's memory
// latency, a shared load's wavefront, the MUFU class latency, a special
// register (sass.special_read), a store's read of its sources
// (sass.read_scoreboard). An instruction that does not wait
// issues on its stall count.
func TestScoreboardsTimeVariableLatencies(t *testing.T) {
	cfg := DefaultConfig()
	l1 := uint64(cfg.Mem.L1HitCycles)
	shared := uint64(cfg.Pipes.Latency[isa.ClassShared])
	sfu := uint64(cfg.Pipes.Latency[isa.ClassSFU])
	read := uint64(cfg.SASS.ReadScoreboard)
	ex2 := func(c isa.Ctrl) isa.Instr {
		in := with(alu(isa.OpEx2, isa.F32, isa.R(1), isa.R(3)), c)
		in.Flags |= isa.FApprox
		return in
	}
	consumer := func(m uint8) isa.Instr {
		return with(alu(isa.OpAdd, isa.U32, isa.R(4), isa.R(1), isa.Imm(1)), ctl(1, wait(m)))
	}
	special := func(sr isa.Special, c isa.Ctrl) isa.Instr { // S2R, or CS2R without a scoreboard
		in := with(alu(isa.OpMov, isa.U32, isa.R(1), isa.Spec(sr)), c)
		in.Class = isa.ClassSpecial
		return in
	}
	cases := []struct {
		name string
		body []isa.Instr // the consumer is the last
		want uint64      // its issue, from the first instruction's
	}{
		{"a global load's consumer waits for the memory latency",
			[]isa.Instr{ldI(isa.Global, 1, 2, ctl(1, wsb(0))), consumer(1 << 0)}, l1},
		{"a shared load's consumer waits for its wavefront",
			[]isa.Instr{ldI(isa.Shared, 1, 2, ctl(1, wsb(3))), consumer(1 << 3)}, shared},
		{"a MUFU result is on a scoreboard",
			[]isa.Instr{ex2(ctl(1, wsb(5))), consumer(1 << 5)}, sfu},
		{"an S2R's value is on its scoreboard sass.special_read after issue",
			[]isa.Instr{special(isa.STidX, ctl(1, wsb(0))), consumer(1 << 0)}, uint64(cfg.SASS.SpecialRead)},
		{"a CS2R (no scoreboard) is fixed-latency: its stall count",
			[]isa.Instr{special(isa.SClock, ctl(2)), consumer(1 << 0)}, 2},
		{"a consumer that does not wait issues on its stall count",
			[]isa.Instr{ldI(isa.Global, 1, 2, ctl(2, wsb(0))), consumer(0)}, 2},
		{"a wait on another scoreboard does not hold it",
			[]isa.Instr{ldI(isa.Global, 1, 2, ctl(2, wsb(0))), consumer(1 << 1)}, 2},
		{"stalls before the consumer overlap the latency",
			[]isa.Instr{ldI(isa.Global, 1, 2, ctl(10, wsb(0))), movI(5, ctl(10)), consumer(1 << 0)}, l1},
		{"two loads on one scoreboard: the later result",
			[]isa.Instr{ldI(isa.Global, 1, 2, ctl(1, wsb(0))), ldI(isa.Shared, 6, 2, ctl(1, wsb(0))), consumer(1 << 0)}, l1},
		{"two scoreboards waited on: the later",
			[]isa.Instr{ldI(isa.Shared, 6, 2, ctl(1, wsb(1))), ldI(isa.Global, 1, 2, ctl(1, wsb(2))), consumer(1<<1 | 1<<2)}, 1 + l1},
		{"a store's read scoreboard releases when it has read its sources",
			[]isa.Instr{stI(isa.Global, 2, 1, ctl(1, rsb(0))), movI(1, ctl(1, wait(1<<0)))}, read},
		{"a shared store's too",
			[]isa.Instr{stI(isa.Shared, 2, 1, ctl(1, rsb(4))), movI(1, ctl(1, wait(1<<4)))}, read},
		{"a CTA-scope membar releases its read scoreboard sass.fence_read after issue",
			[]isa.Instr{fenceI(ctl(1, rsb(2))), movI(1, ctl(1, wait(1<<2)))}, uint64(cfg.SASS.FenceRead)},
		{"... and not before the warp's shared store is in the array (sass.smem_store_written)",
			[]isa.Instr{stI(isa.Shared, 2, 1, ctl(1)), fenceI(ctl(1, rsb(2))), movI(1, ctl(1, wait(1<<2)))},
			uint64(cfg.SASS.SmemStoreWritten)},
		{"a guarded-off load releases its scoreboard the next cycle",
			[]isa.Instr{func() isa.Instr {
				in := ldI(isa.Global, 1, 2, ctl(1, wsb(0)))
				in.Guard = isa.P(0) // P0 is false
				return in
			}(), consumer(1 << 0)}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newAsm(8, 1)
			for _, in := range c.body {
				a.emit(in)
			}
			a.emit(exitC)
			_, o := runCtrl(t, a.done(), 32, nil)
			last := len(c.body) - 1
			if got := o.first(0, last) - o.first(0, 0); got != c.want {
				t.Errorf("consumer issued %d cycles after the first instruction, want %d", got, c.want)
			}
		})
	}
}

// A scoreboard counts: each instruction that sets it adds one at its issue,
// and each result written takes one away.
func TestScoreboardCountsUpAtIssueAndDownAtWrite(t *testing.T) {
	cfg := DefaultConfig()
	l1, shared := uint64(cfg.Mem.L1HitCycles), uint64(cfg.Pipes.Latency[isa.ClassShared])
	a := newAsm(8, 1)
	a.emit(ldI(isa.Shared, 1, 2, ctl(1, wsb(2))))                                           // 0: at 0, written at 23
	a.emit(ldI(isa.Global, 3, 2, ctl(1, wsb(2))))                                           // 1: at 1, written at 33
	a.emit(movI(5, ctl(uint8(shared))))                                                     // 2: at 2: two counts
	a.emit(movI(5, ctl(uint8(l1+1-shared-2))))                                              // 3: at 25: one (the shared load written)
	a.emit(movI(5, ctl(1)))                                                                 // 4: at 33: none
	a.emit(with(alu(isa.OpAdd, isa.U32, isa.R(6), isa.R(1), isa.R(3)), ctl(1, wait(1<<2)))) // 5: at 34
	a.emit(exitC)
	_, o := runCtrl(t, a.done(), 32, nil)
	want := map[int]int{0: 0, 1: 1, 2: 2, 3: 1, 4: 0, 5: 0}
	for _, r := range o.issues {
		if w, ok := want[r.pc]; ok && r.sbCount[2] != w {
			t.Errorf("instruction %d (cycle %d): scoreboard 2 counts %d, want %d", r.pc, r.cycle, r.sbCount[2], w)
		}
	}
	if got := o.first(0, 4); got != l1+1 {
		t.Errorf("instruction 4 issued at %d, want %d", got, l1+1)
	}
}

// Two warps on one scheduler (sched.count 1), each a chain of instructions.
func twoWarps(t *testing.T, c isa.Ctrl, n int) *ctrlObs {
	t.Helper()
	a := newAsm(8, 1)
	for i := 0; i < n; i++ {
		a.emit(movI(1+i%4, c))
	}
	a.emit(exitC)
	cfg := DefaultConfig()
	cfg.Sched.Count = 1
	_, o := runCtrl(t, a.done(), 64, &cfg)
	return o
}

// order lists the warps of the first n issues.
func order(o *ctrlObs, n int) string {
	s := ""
	for _, r := range o.issues[:n] {
		s += fmt.Sprint(r.warp)
	}
	return s
}

// The yield bit makes the scheduler's next issue another warp's: with it,
// two warps whose stall counts let them issue every cycle alternate; without
// it the greedy scheduler keeps one warp until it stops. Two warps stalling
// 2 cycles each interleave as their stall counts allow.
func TestYieldAndStallCountsInterleaveWarps(t *testing.T) {
	cases := []struct {
		name string
		c    isa.Ctrl
		want string
	}{
		{"without yield the greedy scheduler keeps a warp", ctl(1), "00000111"},
		{"a yield lets another warp issue", ctl(1, yield()), "01010101"},
		{"stall counts of 2 interleave two warps", ctl(2), "01010101"},
		{"a stall count of 3 leaves a cycle empty", ctl(3), "01010101"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := twoWarps(t, c.c, 4)
			if got := order(o, 8); got != c.want {
				t.Errorf("issue order %s, want %s", got, c.want)
			}
		})
	}
	// Stall 3: warp 0 at 0, 3, 6; warp 1 at 1, 4, 7: one cycle in three idle.
	o := twoWarps(t, ctl(3), 4)
	if a, b := fmt.Sprint(o.at(0, 1)[0]-o.at(0, 0)[0]), fmt.Sprint(o.at(1, 0)[0]-o.at(0, 0)[0]); a != "3" || b != "1" {
		t.Errorf("stall 3: warp 0's second issue +%s, warp 1's first +%s, want +3 and +1", a, b)
	}
	// A yielding warp still issues when no other warp can.
	a := newAsm(8, 1)
	for i := 0; i < 4; i++ {
		a.emit(movI(1, ctl(1, yield())))
	}
	a.emit(exitC)
	_, o1 := runCtrl(t, a.done(), 32, nil)
	if got := offsets(o1, 4); fmt.Sprint(got) != "[0 1 2 3]" {
		t.Errorf("one warp yielding: issue cycles %v, want [0 1 2 3]", got)
	}
}

// Cycles a warp spends not issuing are named as Nsight Compute names them.
func TestScheduledStallReasons(t *testing.T) {
	one := DefaultConfig()
	one.Sched.Count = 1
	cases := []struct {
		name    string
		body    func(a *asm)
		threads int
		cfg     *Config
		reason  Reason
		want    uint64 // cycles of warp 0 with the reason
	}{
		{"a stall count is wait", func(a *asm) { a.emit(movI(1, ctl(9))) }, 32, nil, ReasonWait, 8},
		{"a global load's scoreboard is long_scoreboard", func(a *asm) {
			a.emit(ldI(isa.Global, 1, 2, ctl(1, wsb(0))))
			a.emit(movI(3, ctl(1, wait(1))))
		}, 32, nil, ReasonLongScoreboard, uint64(one.Mem.L1HitCycles) - 1},
		{"a local load's too", func(a *asm) {
			a.emit(ldI(isa.Local, 1, 7, ctl(1, wsb(0))))
			a.emit(movI(3, ctl(1, wait(1))))
		}, 32, nil, ReasonLongScoreboard, uint64(one.Mem.L1HitCycles) - 1},
		{"a shared load's scoreboard is short_scoreboard", func(a *asm) {
			a.emit(ldI(isa.Shared, 1, 2, ctl(1, wsb(0))))
			a.emit(movI(3, ctl(1, wait(1))))
		}, 32, nil, ReasonShortScoreboard, uint64(one.Pipes.Latency[isa.ClassShared]) - 1},
		{"a global store's read scoreboard is long_scoreboard", func(a *asm) {
			a.emit(stI(isa.Global, 2, 1, ctl(1, rsb(0))))
			a.emit(movI(1, ctl(1, wait(1))))
		}, 32, nil, ReasonLongScoreboard, uint64(one.SASS.ReadScoreboard) - 1},
		{"a taken branch's redirect is branch_resolving", func(a *asm) {
			a.bra("t", isa.Operand{})
			setCtrl(a, ctl(5))
			a.label("t")
		}, 32, nil, ReasonBranchResolving, uint64(one.Branch.Taken) - 1},
		{"a barrier wait's answer is mbarrier", func(a *asm) {
			bar := isa.Addr(-1, 0)
			a.emit(with(mbar(isa.OpMbarInit, 0, 0, bar, isa.Imm(32)), ctl(1, wsb(1))))
			a.emit(with(mbar(isa.OpMbarArrive, 0, 1, isa.Sink(), bar), ctl(1, wait(1<<1))))
			a.emit(with(mbar(isa.OpMbarTryWait, isa.FParity, 1, isa.P(0), bar, isa.Imm(0)), ctl(2, wsb(0))))
			a.emit(movI(1, ctl(1, wait(1<<0))))
		}, 32, nil, ReasonMbarrier, 0},
		{"another warp's issue is not_selected", func(a *asm) {
			a.emit(movI(1, ctl(1)))
			a.emit(movI(1, ctl(1)))
		}, 64, &one, ReasonNotSelected, 0},
		{"a busy pipe is math_pipe_throttle", func(a *asm) {
			a.emit(with(alu(isa.OpMad, isa.U32, isa.R(1), isa.R(2), isa.R(2), isa.R(2)), ctl(1)))
			a.emit(with(alu(isa.OpMad, isa.U32, isa.R(3), isa.R(2), isa.R(2), isa.R(2)), ctl(1)))
		}, 32, nil, ReasonMathPipeThrottle, uint64(one.Pipes.Interval[isa.ClassIMAD]) - 1},
		{"back-to-back barrier operations are mio_throttle", func(a *asm) {
			bar := isa.Addr(-1, 0)
			a.emit(with(mbar(isa.OpMbarInit, 0, 0, bar, isa.Imm(1000)), ctl(1)))
			a.emit(with(mbar(isa.OpMbarArrive, 0, 1, isa.Sink(), bar), ctl(1)))
		}, 32, nil, ReasonMIOThrottle, uint64(one.Syncs.WarpInterval) - 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newAsm(8, 1)
			c.body(a)
			a.emit(exitC)
			p := a.done()
			p.LocalBytes = 16
			r, _ := runCtrl(t, p, c.threads, c.cfg)
			got := r.Warps[0].Stalls[c.reason]
			if c.reason == ReasonNotSelected {
				got = r.Warps[1].Stalls[c.reason] // warp 1 waits while warp 0 issues
			}
			if c.want == 0 { // the barrier unit's answer, or the other warp's run: some cycles
				if got == 0 {
					t.Errorf("no cycles %s: %v", c.reason, r.Warps)
				}
				return
			}
			if got != c.want {
				t.Errorf("warp 0: %d cycles %s, want %d (all: %v)", got, c.reason, c.want, r.Warps[0].Stalls)
			}
		})
	}
}

// A taken branch's target issues branch.taken cycles after the branch, or
// its stall count if longer; a branch that falls through costs its stall
// count (branch.csv).
func TestTakenBranchRedirect(t *testing.T) {
	taken := uint64(DefaultConfig().Branch.Taken)
	cases := []struct {
		name  string
		stall uint8
		guard isa.Operand
		want  uint64
	}{
		{"a taken branch waits branch.taken", 5, isa.Operand{}, taken},
		{"a taken branch with a longer stall waits its stall", 13, isa.Operand{}, 13},
		{"a branch that falls through costs its stall count", 5, isa.P(0), 5},
		{"a guarded-off branch with a short stall", 1, isa.P(0), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := newAsm(8, 1)
			a.bra("t", c.guard) // P0 is false: not taken
			setCtrl(a, ctl(c.stall))
			a.label("t")
			a.emit(movI(1, ctl(1)))
			a.emit(exitC)
			_, o := runCtrl(t, a.done(), 32, nil)
			if got := o.first(0, 1) - o.first(0, 0); got != c.want {
				t.Errorf("target issued %d cycles after the branch, want %d", got, c.want)
			}
		})
	}
}

// A guarded-off barrier wait sets its scoreboard until it has passed the
// barrier unit, syncs.guarded_off after its issue (probe.csv hint_ns0);
// other guarded-off instructions release theirs the next cycle.
func TestGuardedOffWaitHoldsItsScoreboard(t *testing.T) {
	cfg := DefaultConfig()
	want := uint64(cfg.Syncs.GuardedOff)
	bar := isa.Addr(-1, 0)
	a := newAsm(8, 2)
	a.emit(with(mbar(isa.OpMbarInit, 0, 0, bar, isa.Imm(1)), ctl(1, wsb(1))))
	tw := with(mbar(isa.OpMbarTryWait, isa.FParity, 1, isa.P(1), bar, isa.Imm(0)), ctl(1, wsb(0), wait(1<<1)))
	tw.Guard = isa.P(0) // P0 is false
	a.emit(tw)
	a.emit(movI(1, ctl(1, wait(1<<0))))
	a.emit(exitC)
	_, o := runCtrl(t, a.done(), 32, nil)
	if got := o.first(0, 2) - o.first(0, 1); got != want {
		t.Errorf("the instruction waiting on a guarded-off try_wait issued %d cycles after it, want %d", got, want)
	}
}

// fenceI is MEMBAR.ALL.CTA: a CTA-scope memory barrier.
func fenceI(c isa.Ctrl) isa.Instr {
	return with(isa.Instr{Op: isa.OpFence, Type: isa.TNone, Class: isa.ClassFence}, c)
}
