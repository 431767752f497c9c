package compiler

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/smsim/smsim/isa"
)

// randomControlProgram builds a program of n instructions of lane-dependent
// and uniform predicates, barrier waits, forward and backward guarded
// branches and arithmetic, ending in exit, with its reconvergence points.
func randomControlProgram(rng *rand.Rand, n int) *isa.Program {
	sym := isa.Addr(-1, 0)
	ins := make([]isa.Instr, 0, n)
	for len(ins) < n-1 {
		switch rng.IntN(6) {
		case 0:
			ins = append(ins, laneSetp(rng.IntN(3)+1))
		case 1:
			ins = append(ins, paramSetp(rng.IntN(3)+1))
		case 2:
			ins = append(ins, isa.Instr{Op: isa.OpMbarTryWait, NDst: 1, Ops: []isa.Operand{isa.P(rng.IntN(3) + 1), sym, isa.Imm(0)}, Class: isa.ClassSyncs})
		case 3:
			g := isa.P(rng.IntN(3) + 1)
			g.Neg = rng.IntN(2) == 0
			ins = append(ins, gbra(g, int32(rng.IntN(n))))
		case 4:
			ins = append(ins, isa.Instr{Op: isa.OpExit, Guard: isa.P(rng.IntN(3) + 1)})
		default:
			ins = append(ins, aluI(rng.IntN(4)+1, rng.IntN(4)+1))
		}
	}
	p := &isa.Program{Instrs: append(ins, isa.Instr{Op: isa.OpExit}), NumPreds: 4, NumRegs: 10}
	isa.Reconverge(p, nil)
	return p
}

// The region marks visit each wait (markWaitRegions) or each instruction
// (underLaneControl) of every lane-dependent region once, not each
// instruction of each region; on random programs they give what visiting
// every instruction of every region gives.
func TestRegionMarksMatchVisitingEveryInstruction(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 2000; i++ {
		p := randomControlProgram(rng, 4+rng.IntN(60))
		vary := varies(varyingRegs(p))

		wantUnder := make([]bool, len(p.Instrs))
		laneDependentRegions(p, vary, func(lo, hi int, _ bool) {
			for k := max(lo, 0); k < min(hi, len(p.Instrs)); k++ {
				wantUnder[k] = true
			}
		})
		if got := underLaneControl(p, vary); !slices.Equal(got, wantUnder) {
			t.Fatalf("program %d: underLaneControl %v, want %v", i, got, wantUnder)
		}

		ref := &isa.Program{Instrs: slices.Clone(p.Instrs), NumPreds: p.NumPreds, NumRegs: p.NumRegs}
		wantRegion := make([]bool, len(ref.Instrs))
		laneDependentRegions(ref, vary, func(lo, hi int, closed bool) {
			lo, hi = max(lo, 0), min(hi, len(ref.Instrs))
			for k := lo; k < hi; k++ {
				if isWait(ref.Instrs[k].Op) {
					ref.Instrs[k].Sched |= isa.SchedVecAddr
					wantRegion[k] = wantRegion[k] || closed && !loopAround(ref, k, lo, hi)
				}
			}
		})
		if got := markWaitRegions(p, vary); !slices.Equal(got, wantRegion) {
			t.Fatalf("program %d: markWaitRegions %v, want %v", i, got, wantRegion)
		}
		for k := range p.Instrs {
			if p.Instrs[k].Sched != ref.Instrs[k].Sched {
				t.Fatalf("program %d instruction %d: hints %#x, want %#x", i, k, p.Instrs[k].Sched, ref.Instrs[k].Sched)
			}
		}
	}
}
