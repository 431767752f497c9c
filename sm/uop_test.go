package sm

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// An instruction's uop reads its operands on the datapath latePaths gives
// it, which drops the forwarding test where no operand can arrive late: the
// readiness of its scoreboard entries is the same as on its own pipe's
// datapath for any scoreboard a program of those pipes can produce
// (entries of pathNone or of a datapath of a pipe some instruction of it
// issues to, the second pipe of a pair included), and any forward.
func TestLatePathsKeepEveryLateOperand(t *testing.T) {
	rng := rand.New(rand.NewSource(32))
	for _, fwd := range []int{0, 1, 3} {
		for _, n := range []int{1, 2, 4, 12} {
			t.Run(fmt.Sprintf("forward %d, %d instructions", fwd, n), func(t *testing.T) {
				for prog := 0; prog < 300; prog++ {
					cfg := DefaultConfig()
					cfg.Pipes.MUFUForward = fwd
					pipes := make([]pipePair, n)
					for i := range pipes {
						pipes[i] = pipePair{int16(rng.Intn(numPipes)), -1}
						if rng.Intn(3) == 0 {
							pipes[i][1] = int16(rng.Intn(numPipes))
						}
					}
					late := latePaths(pipes, &cfg)
					paths := []uint8{pathNone}
					for _, pp := range pipes {
						for _, p := range pp {
							if p >= 0 {
								paths = append(paths, pipePaths[p])
							}
						}
					}
					b := newRegBoard(8, 0)
					for trial := 0; trial < 20; trial++ {
						for e := range b.ent {
							b.ent[e] = sbEntry{at: sim.Cycle(rng.Intn(12)), why: Reason(rng.Intn(int(numReasons))),
								path: paths[rng.Intn(len(paths))]}
							if rng.Intn(10) == 0 {
								b.ent[e].at = sim.Never
							}
						}
						entries := rng.Perm(len(b.ent))[:1+rng.Intn(len(b.ent))]
						deps := make([]int32, len(entries))
						for k, e := range entries {
							deps[k] = int32(e)
						}
						for _, pp := range pipes {
							own := datapath(int(pp[0]))
							wr, wwhy := b.readyAt(deps, own, sim.Cycle(fwd))
							gr, gwhy := b.readyAt(deps, late[own], sim.Cycle(fwd))
							if gr != wr || gwhy != wwhy {
								t.Fatalf("pipes %v, forward %d, instruction on %v (path %d, read as %d), board %v, entries %v: ready %d (%v), want %d (%v)",
									pipes, fwd, pp, own, late[own], b.ent, deps, gr, gwhy, wr, wwhy)
							}
						}
					}
				}
			})
		}
	}
}

// A program with no MUFU instruction reads its arithmetic operands without
// the forwarding test, and one with MUFU instructions keeps it on both
// sides.
func TestLatePathsOfPrograms(t *testing.T) {
	cfg := DefaultConfig()
	if cfg.Pipes.MUFUForward == 0 {
		t.Fatal("the default configuration forwards MUFU results late")
	}
	arith := []pipePair{{int16(pipeFMALite), int16(pipeFMAHeavy)}, {int16(pipeInt), -1}}
	if got := latePaths(arith, &cfg); got[pathArith] != pathNone {
		t.Errorf("FMA and integer pipes alone: arithmetic read as %d, want pathNone", got[pathArith])
	}
	mixed := append(arith, pipePair{int16(isa.ClassSFU), -1})
	if got := latePaths(mixed, &cfg); got[pathArith] != pathArith || got[pathMUFU] != pathMUFU {
		t.Errorf("with MUFU: read as %v, want each datapath its own", got)
	}
	cfg.Pipes.MUFUForward = 0
	if got := latePaths(mixed, &cfg); got != [3]uint8{} {
		t.Errorf("no forward: read as %v, want pathNone throughout", got)
	}
}

// A look that finds a warp not ready notes that at the cycle it found only
// the instruction's pipes can hold it (awaitDeps); the visit then stands
// for a full look. Random loops, Scheduled by random control bits (stall
// counts, yields, loads and stores that set scoreboards, waits on them) or
// by the register scoreboard, on 1 to 32 warps: the same issues (cycle,
// warp, pc, scoreboard counts), cycles and stall reasons as with every look
// a full one.
func TestAwaitedLooksMatchFullLooks(t *testing.T) {
	for prog := 0; prog < 60; prog++ {
		scheduled := prog%3 != 0
		threads := []int{32, 128, 256, 1024}[prog%4]
		build := func() *isa.Program {
			r := rand.New(rand.NewSource(int64(prog)))
			a := newAsm(12, 2)
			c := func() isa.Ctrl {
				var opts []func(*isa.Ctrl)
				if r.Intn(4) == 0 {
					opts = append(opts, yield())
				}
				if r.Intn(3) == 0 {
					opts = append(opts, wait(uint8(1<<r.Intn(3))))
				}
				return ctl(uint8(r.Intn(7)), opts...)
			}
			a.emit(with(movI(0, ctl(1)), ctl(1)))
			a.label("loop")
			for k := 0; k < 3+r.Intn(8); k++ {
				switch r.Intn(5) {
				case 0:
					a.emit(movI(2+r.Intn(4), c()))
				case 1:
					a.emit(with(alu(isa.OpFma, isa.F32, isa.R(6), isa.R(7), isa.R(8), isa.R(6)), c()))
				case 2:
					a.emit(with(alu(isa.OpAdd, isa.U32, isa.R(9), isa.R(9), isa.R(6)), c()))
				case 3:
					cc := c()
					cc.WriteSB = uint8(r.Intn(3))
					a.emit(ldI(isa.Shared, 2+r.Intn(4), 1, cc))
				default:
					cc := c()
					cc.ReadSB = uint8(r.Intn(3))
					a.emit(stI(isa.Shared, 1, 2+r.Intn(4), cc))
				}
			}
			a.emit(with(alu(isa.OpAdd, isa.U32, isa.R(0), isa.R(0), isa.Imm(1)), ctl(2)))
			a.emit(with(setp(isa.CmpLt, isa.U32, 0, isa.R(0), isa.Imm(uint64(5+r.Intn(20)))), ctl(5)))
			a.bra("loop", isa.P(0))
			setCtrl(a, ctl(5))
			a.emit(exitC)
			p := a.done()
			if scheduled {
				p.Scheduled = true
			}
			return p
		}
		run := func(full bool) (*Result, []issueRec) {
			fullLooks = full
			defer func() { fullLooks = false }()
			p := build()
			if scheduled {
				r, o := runCtrl(t, p, threads, nil)
				return r, o.issues
			}
			r, o := runObserved(t, p, threads, nil)
			return r, o.issues
		}
		want, wantIssues := run(true)
		got, gotIssues := run(false)
		if got.Cycles != want.Cycles {
			t.Fatalf("program %d (scheduled %v, %d threads): %d cycles, want %d", prog, scheduled, threads, got.Cycles, want.Cycles)
		}
		if len(gotIssues) != len(wantIssues) {
			t.Fatalf("program %d: %d issues, want %d", prog, len(gotIssues), len(wantIssues))
		}
		for k := range gotIssues {
			if gotIssues[k] != wantIssues[k] {
				t.Fatalf("program %d (scheduled %v, %d threads): issue %d is %+v, want %+v", prog, scheduled, threads, k, gotIssues[k], wantIssues[k])
			}
		}
		for k := range got.Warps {
			if got.Warps[k].Stalls != want.Warps[k].Stalls {
				t.Fatalf("program %d (scheduled %v, %d threads): warp %d stalls %v, want %v", prog, scheduled, threads, k, got.Warps[k].Stalls, want.Warps[k].Stalls)
			}
		}
	}
}

// An IMAD.WIDE executed by its kernel books both words of its destination
// pair, as dstReady does: an instruction that reads only the high word
// waits for it as one that reads the low word does.
func TestKernelBooksBothWordsOfAPair(t *testing.T) {
	issueOf := func(word int) uint64 {
		a := newAsm(8, 1)
		dst, c := isa.R(2), isa.R(4)
		dst.Mod, c.Mod = isa.MPair, isa.MPair
		a.emit(isa.Instr{Op: isa.OpIMad, Type: isa.S32, Mode: isa.IMadWide, NDst: 1, Ops: []isa.Operand{dst, isa.R(0), isa.Imm(16), c}})
		a.emit(alu(isa.OpAdd, isa.U32, isa.R(6), isa.R(word), isa.Imm(1)))
		a.emit(exit)
		p := a.done()
		if k := decodeKernels(p)[0]; !k.Resolved() {
			t.Fatal("IMAD.WIDE has no pair kernel")
		}
		_, o := runObserved(t, p, 32, nil)
		return o.first(0, 1) - o.first(0, 0)
	}
	lo, hi := issueOf(2), issueOf(3)
	if lo < 2 || hi != lo {
		t.Errorf("a reader of the low word issues %d cycles after IMAD.WIDE, of the high word %d", lo, hi)
	}
}
