package isa

import (
	"reflect"
	"testing"
)

// shapeOf lists each instruction as its destination register (predicates as
// 100+n), branches as -100-target, anything else as -1.
func shapeOf(p *Program) []int {
	var out []int
	for i := range p.Instrs {
		in := &p.Instrs[i]
		switch {
		case in.Op == OpBra:
			out = append(out, -100-int(in.Target))
		case in.NDst > 0 && in.Ops[0].Kind == KReg:
			out = append(out, int(in.Ops[0].Reg))
		case in.NDst > 0 && in.Ops[0].Kind == KPred:
			out = append(out, 100+int(in.Ops[0].Reg))
		default:
			out = append(out, -1)
		}
	}
	return out
}

func TestHoistInvariantCompares(t *testing.T) {
	laneTest := Instr{Op: OpSetp, Type: S32, Cmp: CmpNe, NDst: 1, Ops: []Operand{P(3), R(8), Imm(0)}, Class: ClassALU}
	counterTest := Instr{Op: OpSetp, Type: S32, Cmp: CmpLt, NDst: 1, Ops: []Operand{P(1), R(4), Imm(9)}, Class: ClassALU}
	arrive := Instr{Op: OpMbarArrive, Guard: NotP(3), Ops: []Operand{Addr(-1, 0)}, Class: ClassSyncs}
	inc := Instr{Op: OpAdd, Type: S32, NDst: 1, Ops: []Operand{R(4), R(4), Imm(1)}, Class: ClassALU}
	mov := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(2), Imm(8)}, Class: ClassALU}
	guarded := laneTest
	guarded.Guard = P(5)
	exit := Instr{Op: OpExit}
	// A loop that already uses predicates 0-6 (seven) and the lane test's p3:
	// eight, more than the SASS has.
	many := []Instr{laneTest, arrive}
	for q := 0; q < 7; q++ {
		if q == 3 {
			continue
		}
		many = append(many, Instr{Op: OpSetp, Type: S32, Cmp: CmpEq, NDst: 1, Ops: []Operand{P(q), R(4), Imm(uint64(q))}, Class: ClassALU})
	}
	many = append(many, Instr{Op: OpSetp, Type: S32, Cmp: CmpEq, NDst: 1, Ops: []Operand{P(7), R(4), Imm(9)}, Class: ClassALU})
	many = append(many, inc, Instr{Op: OpBra, Guard: P(1), Target: 0}, exit)
	tests := []struct {
		name string
		prog []Instr
		want []int
	}{
		{"the lane test leaves the loop",
			// 0: setp p3, r8, 0; 1: @!p3 arrive; 2: r4++; 3: setp p1, r4, 9; 4: @p1 bra 0
			[]Instr{laneTest, arrive, inc, counterTest, {Op: OpBra, Guard: P(1), Target: 0}, exit},
			[]int{103, -1, 4, 101, -101, -1}},
		{"a compare of what the loop writes stays",
			[]Instr{inc, counterTest, arrive, {Op: OpBra, Guard: P(1), Target: 0}, exit},
			[]int{4, 101, -1, -100, -1}},
		{"only compares move",
			[]Instr{mov, laneTest, arrive, inc, counterTest, {Op: OpBra, Guard: P(1), Target: 0}, exit},
			[]int{103, 2, -1, 4, 101, -101, -1}},
		{"not a guarded compare",
			[]Instr{guarded, arrive, inc, counterTest, {Op: OpBra, Guard: P(1), Target: 0}, exit},
			[]int{103, -1, 4, 101, -100, -1}},
		{"not when the loop's predicates do not fit seven registers",
			many, shapeOf(&Program{Instrs: many})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: append([]Instr(nil), tc.prog...)}
			HoistInvariantCompares(p)
			if got := shapeOf(p); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
