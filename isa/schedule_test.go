package isa

import "testing"

func ldShared(d, a int, flags Flags) Instr {
	return Instr{Op: OpLd, Space: Shared, Type: U32, Flags: flags, NDst: 1, Ops: []Operand{R(d), Addr(a, 0)}, Class: ClassShared}
}

func addRR(d, a, b int) Instr {
	return Instr{Op: OpAdd, Type: U32, NDst: 1, Ops: []Operand{R(d), R(a), R(b)}, Class: ClassALU}
}

func TestScheduleLoadsIssuesTheNextLoadBeforeTheSumOfThePrevious(t *testing.T) {
	// r1 = ld [r10]; r2 = r2 + r1; r3 = r2 + r1; r11 = r10 + r9; r4 = ld [r11]; r5 = r3 + r4
	p := &Program{Instrs: []Instr{
		ldShared(1, 10, 0), addRR(2, 2, 1), addRR(3, 2, 1), addRR(11, 10, 9), ldShared(4, 11, 0), addRR(5, 3, 4), {Op: OpExit},
	}}
	ScheduleLoads(p)
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

func TestScheduleLoadsMovesNothingAcrossStoresClocksOrVolatileLoads(t *testing.T) {
	st := Instr{Op: OpSt, Space: Shared, Type: U32, Ops: []Operand{Addr(12, 0), R(7)}, Class: ClassShared}
	tests := []struct {
		name  string
		fence Instr
	}{
		{"a store", st},
		{"a clock read", clock(8)},
		{"a volatile load", ldShared(8, 12, FVolatile)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// ld; add (waits); FENCE; add addr; ld  -- the second load may not pass the fence.
			prog := []Instr{ldShared(1, 10, 0), addRR(2, 2, 1), tc.fence, addRR(11, 10, 9), ldShared(4, 11, 0), addRR(5, 2, 4), {Op: OpExit}}
			p := &Program{Instrs: append([]Instr(nil), prog...)}
			ScheduleLoads(p)
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
