package sm

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// heldGroupProgram is a random loop of instructions on pipes of different
// rates (FMA, integer, conversions, MUFU, shared loads and stores, setp,
// LEA's carry from one LEA to the next, IMAD.MOV),
// some dependent, some not, with a trip count that differs between warps
// (their exits change the scheduler's list while groups are held);
// Scheduled by random control bits when sched.
func heldGroupProgram(seed int64, sched bool) *isa.Program {
	r := rand.New(rand.NewSource(seed))
	a := newAsm(12, 2)
	c := func() isa.Ctrl {
		cc := ctl(uint8(1 + r.Intn(4)))
		if r.Intn(5) == 0 {
			cc.Yield = true
		}
		return cc
	}
	reg := func() isa.Operand { return isa.R(4 + r.Intn(6)) }
	a.emit(with(alu(isa.OpMov, isa.U32, isa.R(0), isa.Imm(0)), ctl(1)))
	a.emit(with(isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(10), isa.Spec(isa.STidX)}}, ctl(1, wsb(0))))
	a.emit(with(alu(isa.OpAnd, isa.B32, isa.R(10), isa.R(10), isa.Imm(96)), ctl(2, wait(1))))
	a.emit(with(alu(isa.OpShr, isa.U32, isa.R(10), isa.R(10), isa.Imm(5)), ctl(2)))
	a.emit(with(alu(isa.OpAdd, isa.U32, isa.R(10), isa.R(10), isa.Imm(uint64(4+r.Intn(8)))), ctl(2)))
	a.label("loop")
	for k := 0; k < 4+r.Intn(10); k++ {
		switch r.Intn(10) {
		case 0:
			a.emit(with(alu(isa.OpFma, isa.F32, reg(), reg(), reg(), reg()), c()))
		case 1:
			a.emit(with(alu(isa.OpAdd, isa.U32, reg(), reg(), isa.Imm(3)), c()))
		case 2:
			a.emit(with(isa.Instr{Op: isa.OpCvt, Type: isa.F32, Type2: isa.U32, Rnd: isa.RN, NDst: 1,
				Ops: []isa.Operand{reg(), reg()}}, c()))
		case 3:
			a.emit(with(isa.Instr{Op: isa.OpEx2, Type: isa.F32, Flags: isa.FApprox, NDst: 1,
				Ops: []isa.Operand{reg(), reg()}}, c()))
		case 4:
			cc := c()
			cc.WriteSB = uint8(r.Intn(3))
			a.emit(ldI(isa.Shared, 4+r.Intn(6), 1, cc))
		case 5:
			cc := c()
			cc.Wait = uint8(1 << r.Intn(3))
			a.emit(stI(isa.Shared, 1, 4+r.Intn(6), cc))
		case 6:
			a.emit(with(setp(isa.CmpLt, isa.U32, 1, reg(), isa.Imm(5)), c()))
		case 8:
			// A 64-bit address: LEA's carry out into p1, which LEA.HI.X takes in.
			a.emit(with(isa.Instr{Op: isa.OpLea, Type: isa.U32, NDst: 2,
				Ops: []isa.Operand{reg(), isa.P(1), reg(), reg(), isa.Imm(4)}}, c()))
			a.emit(with(isa.Instr{Op: isa.OpLea, Type: isa.U32, Mode: isa.LeaHi, NDst: 1, Flags: isa.FCarryIn,
				Ops: []isa.Operand{reg(), reg(), reg(), reg(), isa.Imm(4), isa.P(1)}}, c()))
		case 9:
			a.emit(with(isa.Instr{Op: isa.OpIMad, Type: isa.U32, NDst: 1,
				Ops: []isa.Operand{reg(), isa.Imm(0), isa.Imm(0), reg()}}, c())) // IMAD.MOV
		default:
			a.emit(with(isa.Instr{Op: isa.OpCvt, Type: isa.F16, Type2: isa.F32, Rnd: isa.RN, NDst: 1,
				Ops: []isa.Operand{reg(), reg()}}, c()))
		}
	}
	a.emit(with(alu(isa.OpAdd, isa.U32, isa.R(0), isa.R(0), isa.Imm(1)), ctl(2)))
	a.emit(with(setp(isa.CmpLt, isa.U32, 0, isa.R(0), isa.R(10)), ctl(5)))
	a.bra("loop", isa.P(0))
	setCtrl(a, ctl(5))
	a.emit(exitC)
	p := a.done()
	p.Scheduled = sched
	return p
}

// heldWaitProgram is k_arrive_wait's converged loop with random slow-pipe
// work (conversions, MUFU, FMA) between each try_wait and the branch on
// its answer: warps wait on held pipe groups while their answers come,
// which bring their looks forward (lowered).
func heldWaitProgram(seed int64, threads, iters int) *isa.Program {
	r := rand.New(rand.NewSource(seed))
	a := newAsm(12, 4)
	bar := isa.Addr(-1, 0)
	a.emit(setp(isa.CmpEq, isa.U32, 0, isa.Spec(isa.STidX), isa.Imm(0)))
	a.bra("skipinit", isa.NotP(0))
	a.emit(mbar(isa.OpMbarInit, 0, 0, bar, isa.Imm(uint64(threads))))
	a.label("skipinit")
	a.emit(barSyncI)
	a.label("loop")
	a.emit(mbar(isa.OpMbarArrive, 0, 1, isa.R(2), bar))
	a.label("wait")
	a.emit(mbar(isa.OpMbarTryWait, isa.FParity, 1, isa.P(2), bar, isa.R(1)))
	for k := 0; k < 2+r.Intn(6); k++ {
		d, s := isa.R(4+r.Intn(6)), isa.R(4+r.Intn(6))
		switch r.Intn(3) {
		case 0:
			a.emit(isa.Instr{Op: isa.OpCvt, Type: isa.F32, Type2: isa.U32, Rnd: isa.RN, NDst: 1, Ops: []isa.Operand{d, s}})
		case 1:
			a.emit(isa.Instr{Op: isa.OpEx2, Type: isa.F32, Flags: isa.FApprox, NDst: 1, Ops: []isa.Operand{d, s}})
		default:
			a.emit(alu(isa.OpFma, isa.F32, d, s, s, d))
		}
	}
	a.bra("wait", isa.NotP(2))
	a.emit(alu(isa.OpXor, isa.B32, isa.R(1), isa.R(1), isa.Imm(1)))
	a.emit(alu(isa.OpAdd, isa.U32, isa.R(0), isa.R(0), isa.Imm(1)))
	a.emit(setp(isa.CmpLt, isa.U32, 3, isa.R(0), isa.Imm(uint64(iters))))
	a.bra("loop", isa.P(3))
	a.emit(exit)
	p := a.done()
	p.Symbols = []isa.Symbol{{Name: "bar", Space: isa.Shared, Offset: 0, Size: 8}}
	return p
}

// Holding a pipe group of ready warps (sched_hold.go) gives what visiting
// its warps gives: random loops over pipes of different rates, from PTX
// and Scheduled, and arrive/try_wait loops with slow-pipe work before each
// answer's branch, on 4 to 32 warps, run with and without held groups (no
// observer, whose calls would make the scan visit): the same cycles, and
// each warp's start, end, instructions and stall cycles by reason.
func TestHeldGroupsMatchVisits(t *testing.T) {
	for prog := 0; prog < 64; prog++ {
		sched := prog%2 == 1 && prog < 48
		threads := []int{128, 256, 512, 1024}[prog%4]
		build := func() *isa.Program { return heldGroupProgram(int64(prog), sched) }
		if prog >= 48 {
			build = func() *isa.Program { return heldWaitProgram(int64(prog), threads, 6) }
		}
		run := func(hold bool) *Result {
			holdGroups = hold
			defer func() { holdGroups = true }()
			return mustRun(t, build(), threads, nil)
		}
		want, got := run(false), run(true)
		if got.Cycles != want.Cycles {
			t.Fatalf("program %d (scheduled %v, %d threads): %d cycles, want %d", prog, sched, threads, got.Cycles, want.Cycles)
		}
		for k := range want.Warps {
			g, w := got.Warps[k], want.Warps[k]
			if g.Start != w.Start || g.End != w.End || g.Instructions != w.Instructions || g.Stalls != w.Stalls {
				t.Fatalf("program %d (scheduled %v, %d threads): warp %d %+v, want %+v", prog, sched, threads, k, g, w)
			}
		}
	}
}

// A scheduler of fewer than minQueued warps skips its scan while no warp
// is due (scanAll's quiet cycle): random loops over pipes of different
// rates, from PTX and Scheduled, and arrive/try_wait loops whose answers
// and bar.sync wake-ups bring warps' looks forward, on 1 to 14 warps (one
// to three a scheduler, exiting at different trips), in grids of one CTA,
// of three that shared memory lets run only one at a time (a CTA's warps
// arrive at schedulers its predecessor left quiet) and of five that run
// two at a time (a CTA's warps join quiet schedulers' warps, which may
// start the queues there), run with and
// without the skip give the same result: cycles, scheduler ticks, every
// warp's start, end, instructions and stalls, and every issue the observer
// sees. A scheduler of queued warps skips its scan likewise once its last
// scan found every warp waiting: the same loops on 16 to 32 warps (four
// to eight a scheduler).
func TestQuietScansMatchTheScan(t *testing.T) {
	for prog := 0; prog < 64; prog++ {
		grid, smem := []int{1, 3, 5}[prog/8%3], []int{64, 160 << 10, 100 << 10}[prog/8%3] // one CTA at a time, or two
		runSwitched(t, prog, []int{32, 96, 224, 448}[prog%4], grid, smem, func(on bool) { quietScans = on })
	}
	for prog := 0; prog < 48; prog++ {
		grid, smem := []int{1, 3}[prog/8%2], []int{64, 160 << 10}[prog/8%2]
		runSwitched(t, prog, []int{512, 640, 864, 1024}[prog%4], grid, smem, func(on bool) { quietScans = on })
	}
}

// An instruction issued through its lane kernel books its results as
// execute and aluIssued do (kernelIssued; a setp's predicate at the
// predicate latency, noted for the static clock): the loops of
// TestQuietScansMatchTheScan, from PTX and Scheduled, with and without
// kernels, give the same result, stalls and issues.
func TestKernelsBookAsExecuteDoes(t *testing.T) {
	for prog := 0; prog < 48; prog++ {
		runSwitched(t, prog, []int{32, 128, 448, 1024}[prog%4], 1, 64, func(on bool) { laneKernels = on })
	}
}

// runSwitched runs random loop prog (heldGroupProgram, Scheduled for odd
// prog below 32; heldWaitProgram from 32 on) on grid CTAs of threads, each
// with smem bytes of shared memory, with a switch off and then on (set
// back on after), and fails unless both give the same result — cycles,
// scheduler ticks, every warp's start, end, instructions and stalls — and
// the same issues.
func runSwitched(t *testing.T, prog, threads, grid, smem int, set func(on bool)) {
	t.Helper()
	sched := prog%2 == 1 && prog < 32
	run := func(on bool) (*Result, []issueRec) {
		set(on)
		defer set(true)
		p := heldGroupProgram(int64(prog), sched)
		if prog >= 32 {
			p = heldWaitProgram(int64(prog), threads, 6)
		}
		p.SharedStatic = max(p.SharedStatic, smem)
		s, err := New(DefaultConfig(), sim.New(), &fakeMem{b: map[uint64]byte{}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		obs := &ctrlObs{s: s}
		s.SetObserver(obs)
		r, err := s.Run(&Launch{Prog: p, Block: [3]int{threads, 1, 1}, Grid: [3]int{grid, 1, 1},
			Params: make([]byte, p.ParamBytes), MaxCycles: 1_000_000})
		if err != nil {
			t.Fatalf("program %d: %v", prog, err)
		}
		return r, obs.issues
	}
	want, wantIssues := run(false)
	got, gotIssues := run(true)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("program %d (scheduled %v, %d threads, %d CTAs):\n%+v\nwant\n%+v", prog, sched, threads, grid, got, want)
	}
	if !reflect.DeepEqual(gotIssues, wantIssues) {
		t.Fatalf("program %d (scheduled %v, %d threads, %d CTAs): the issues differ", prog, sched, threads, grid)
	}
}
