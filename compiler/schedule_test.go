package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func ldShared(d, a int, flags isa.Flags) isa.Instr {
	return isa.Instr{Op: isa.OpLd, Space: isa.Shared, Type: isa.U32, Flags: flags, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.Addr(a, 0)}, Class: isa.ClassShared}
}

func addRR(d, a, b int) isa.Instr {
	return isa.Instr{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(a), isa.R(b)}, Class: isa.ClassALU}
}

func TestScheduleLoadsIssuesTheNextLoadBeforeTheSumOfThePrevious(t *testing.T) {
	// r1 = ld [r10]; r2 = r2 + r1; r3 = r2 + r1; r11 = r10 + r9; r4 = ld [r11]; r5 = r3 + r4
	p := &isa.Program{Instrs: []isa.Instr{
		ldShared(1, 10, 0), addRR(2, 2, 1), addRR(3, 2, 1), addRR(11, 10, 9), ldShared(4, 11, 0), addRR(5, 3, 4), {Op: isa.OpExit},
	}}
	apply(ScheduleLoads, p)
	pos := map[int32]int{} // destination register -> position
	for i := range p.Instrs {
		if p.Instrs[i].NDst == 1 {
			pos[p.Instrs[i].Ops[0].Reg] = i
		}
	}
	if !(pos[11] < pos[2] && pos[4] < pos[2]) {
		t.Errorf("order %v: want the second address and load before the adds that wait on the first load", opsOf(p))
	}
	if !(pos[1] < pos[2] && pos[2] < pos[3] && pos[3] < pos[5] && pos[4] < pos[5] && pos[11] < pos[4]) {
		t.Errorf("order %v breaks a dependence", opsOf(p))
	}
}

func stShared(a, v int, flags isa.Flags, sem isa.Sem) isa.Instr {
	return isa.Instr{Op: isa.OpSt, Space: isa.Shared, Type: isa.U32, Flags: flags, Sem: sem, Ops: []isa.Operand{isa.Addr(a, 0), isa.R(v)}, Class: isa.ClassShared}
}

func TestScheduleLoadsMovesNothingAcrossClocksOrOrderedAccesses(t *testing.T) {
	tests := []struct {
		name  string
		fence isa.Instr
	}{
		{"a clock read", clock(8)},
		{"a volatile load", ldShared(8, 12, isa.FVolatile)},
		{"a volatile store", stShared(12, 7, isa.FVolatile, isa.SemNone)},
		{"a release store", stShared(12, 7, 0, isa.SemRelease)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// ld; add (waits); FENCE; add addr; ld  -- the second load may not pass the fence.
			prog := []isa.Instr{ldShared(1, 10, 0), addRR(2, 2, 1), tc.fence, addRR(11, 10, 9), ldShared(4, 11, 0), addRR(5, 2, 4), {Op: isa.OpExit}}
			p := &isa.Program{Instrs: append([]isa.Instr(nil), prog...)}
			apply(ScheduleLoads, p)
			if p.Instrs[2].Op != tc.fence.Op || p.Instrs[2].Flags != tc.fence.Flags {
				t.Fatalf("order %v: the %s moved", opsOf(p), tc.name)
			}
			for i := 0; i < 2; i++ {
				if r := p.Instrs[i].Ops[0].Reg; r != 1 && r != 2 {
					t.Fatalf("order %v: an instruction crossed the %s", opsOf(p), tc.name)
				}
			}
		})
	}
}

// ptxas lets loads pass plain stores to another state space: the
// Programming Guide's producer copies global memory to shared memory with
// `ld.global; st.shared` four times a trip, and its SASS issues the trip's
// LDGs before the first STS (apps/h200/pc_guide.sass). A store to a space
// the load may alias (its own, or a generic address) keeps its place
// before the load, and stores keep their order among themselves.
func TestScheduleLoadsPassStoresOfAnotherSpaceOnly(t *testing.T) {
	ldGlobal := func(d, a int) isa.Instr {
		return isa.Instr{Op: isa.OpLd, Space: isa.Global, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.Addr(a, 0)}, Class: isa.ClassGlobal}
	}
	generic := stShared(21, 1, 0, isa.SemNone)
	generic.Space, generic.Class = isa.Generic, isa.ClassGlobal
	tests := []struct {
		name string
		load func(d, a int) isa.Instr
		st0  isa.Instr // the first trip's store
		pass bool      // whether the second load may go before it
	}{
		{"global load, shared store", ldGlobal, stShared(20, 1, 0, isa.SemNone), true},
		{"shared load, shared store", func(d, a int) isa.Instr { return ldShared(d, a, 0) }, stShared(20, 1, 0, isa.SemNone), false},
		{"global load, generic store", ldGlobal, generic, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// ld r1; st [r20], r1; ld r2; st [r21], r2
			p := &isa.Program{Instrs: []isa.Instr{
				tc.load(1, 10), tc.st0, tc.load(2, 11), stShared(21, 2, 0, isa.SemNone), {Op: isa.OpExit},
			}}
			apply(ScheduleLoads, p)
			pos := map[int]int{}
			for i := range p.Instrs {
				in := &p.Instrs[i]
				switch {
				case in.Op == isa.OpLd:
					pos[int(in.Ops[0].Reg)] = i // 1, 2: the loads
				case in.Op == isa.OpSt:
					pos[100+int(in.Ops[1].Reg)] = i // 101, 102: the stores of r1, r2
				}
			}
			if !(pos[1] < pos[101] && pos[2] < pos[102] && pos[101] < pos[102]) {
				t.Fatalf("order %v breaks a dependence or the stores' order", opsOf(p))
			}
			if got := pos[2] < pos[101]; got != tc.pass {
				t.Errorf("order %v: second load before the first store = %v, want %v", opsOf(p), got, tc.pass)
			}
		})
	}
}

// A loop whose whole trip is arithmetic is list-scheduled too, as ptxas
// does (calibration/h200 convert.sass: the eight chains' F2FP and HADD2.F32
// interleaved, where the PTX has each chain's two conversions back to
// back): an instruction that would wait on its chain's result gives its
// slot to the next chain's, and the compare that closes the trip issues as
// soon as the counter is ready. The same body in straight-line code that is
// not a loop keeps its order.
func TestScheduleLoadsOrdersArithmeticLoopTrips(t *testing.T) {
	cvt := func(d, s int) isa.Instr {
		return isa.Instr{Op: isa.OpCvt, Type: isa.F32, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(s)}, Class: isa.ClassFMA}
	}
	setp := isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(1), isa.R(20), isa.R(21)}, Class: isa.ClassALU}
	body := []isa.Instr{
		addRR(20, 20, 22),      // 0: the counter
		cvt(10, 1), cvt(1, 10), // 1, 2: chain 1
		cvt(11, 2), cvt(2, 11), // 3, 4: chain 2
		cvt(12, 3), cvt(3, 12), // 5, 6: chain 3
		setp, // 7: the trip's compare
	}
	loop := append(append([]isa.Instr(nil), body...), gbra(isa.P(1), 0), isa.Instr{Op: isa.OpExit})
	p := &isa.Program{Instrs: loop, NumRegs: 30, NumPreds: 2}
	apply(ScheduleLoads, p)
	pos := map[int32]int{}
	for i := range p.Instrs {
		if p.Instrs[i].NDst == 1 && p.Instrs[i].Ops[0].Kind == isa.KReg {
			pos[p.Instrs[i].Ops[0].Reg] = i
		}
	}
	setpAt := -1
	for i := range p.Instrs {
		if p.Instrs[i].Op == isa.OpSetp {
			setpAt = i
		}
	}
	if !(pos[10] < pos[1] && pos[11] < pos[1] && pos[12] < pos[1]) {
		t.Errorf("order %v: want every chain's first conversion before the first chain's second", opsOf(p))
	}
	if !(pos[20] < setpAt && setpAt < pos[1]) {
		t.Errorf("order %v: want the counter and its compare ahead of the chains' second conversions", opsOf(p))
	}
	if p.Instrs[8].Op != isa.OpBra || p.Instrs[8].Target != 0 {
		t.Errorf("order %v: the back edge moved", opsOf(p))
	}
	straight := append(append([]isa.Instr(nil), body...), isa.Instr{Op: isa.OpExit})
	q := &isa.Program{Instrs: straight, NumRegs: 30, NumPreds: 2}
	apply(ScheduleLoads, q)
	for i := range body {
		if q.Instrs[i].Op != body[i].Op || q.Instrs[i].Ops[0] != body[i].Ops[0] {
			t.Fatalf("straight-line arithmetic reordered: %v", opsOf(q))
		}
	}
}
