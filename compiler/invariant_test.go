package compiler

import (
	"reflect"
	"testing"

	"github.com/smsim/smsim/isa"
)

// shapeOf lists each instruction as its destination register (predicates as
// 100+n), branches as -100-target, anything else as -1.
func shapeOf(p *isa.Program) []int {
	var out []int
	for i := range p.Instrs {
		in := &p.Instrs[i]
		switch {
		case in.Op == isa.OpBra:
			out = append(out, -100-int(in.Target))
		case in.NDst > 0 && in.Ops[0].Kind == isa.KReg:
			out = append(out, int(in.Ops[0].Reg))
		case in.NDst > 0 && in.Ops[0].Kind == isa.KPred:
			out = append(out, 100+int(in.Ops[0].Reg))
		default:
			out = append(out, -1)
		}
	}
	return out
}

func TestHoistInvariantCompares(t *testing.T) {
	laneTest := isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpNe, NDst: 1, Ops: []isa.Operand{isa.P(3), isa.R(8), isa.Imm(0)}, Class: isa.ClassALU}
	counterTest := isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(1), isa.R(4), isa.Imm(9)}, Class: isa.ClassALU}
	arrive := isa.Instr{Op: isa.OpMbarArrive, Guard: isa.NotP(3), Ops: []isa.Operand{isa.Addr(-1, 0)}, Class: isa.ClassSyncs}
	inc := isa.Instr{Op: isa.OpAdd, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(4), isa.R(4), isa.Imm(1)}, Class: isa.ClassALU}
	mov := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.Imm(8)}, Class: isa.ClassALU}
	guarded := laneTest
	guarded.Guard = isa.P(5)
	exit := isa.Instr{Op: isa.OpExit}
	// A loop that already uses predicates 0-6 (seven) and the lane test's p3:
	// eight, more than the SASS has.
	many := []isa.Instr{laneTest, arrive}
	for q := 0; q < 7; q++ {
		if q == 3 {
			continue
		}
		many = append(many, isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpEq, NDst: 1, Ops: []isa.Operand{isa.P(q), isa.R(4), isa.Imm(uint64(q))}, Class: isa.ClassALU})
	}
	many = append(many, isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpEq, NDst: 1, Ops: []isa.Operand{isa.P(7), isa.R(4), isa.Imm(9)}, Class: isa.ClassALU})
	many = append(many, inc, isa.Instr{Op: isa.OpBra, Guard: isa.P(1), Target: 0}, exit)
	tests := []struct {
		name string
		prog []isa.Instr
		want []int
	}{
		{"the lane test leaves the loop",
			// 0: setp p3, r8, 0; 1: @!p3 arrive; 2: r4++; 3: setp p1, r4, 9; 4: @p1 bra 0
			[]isa.Instr{laneTest, arrive, inc, counterTest, {Op: isa.OpBra, Guard: isa.P(1), Target: 0}, exit},
			[]int{103, -1, 4, 101, -101, -1}},
		{"a compare of what the loop writes stays",
			[]isa.Instr{inc, counterTest, arrive, {Op: isa.OpBra, Guard: isa.P(1), Target: 0}, exit},
			[]int{4, 101, -1, -100, -1}},
		{"only compares move",
			[]isa.Instr{mov, laneTest, arrive, inc, counterTest, {Op: isa.OpBra, Guard: isa.P(1), Target: 0}, exit},
			[]int{103, 2, -1, 4, 101, -101, -1}},
		{"not a guarded compare",
			[]isa.Instr{guarded, arrive, inc, counterTest, {Op: isa.OpBra, Guard: isa.P(1), Target: 0}, exit},
			[]int{103, -1, 4, 101, -100, -1}},
		{"not when the loop's predicates do not fit seven registers",
			many, shapeOf(&isa.Program{Instrs: many})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: append([]isa.Instr(nil), tc.prog...)}
			apply(HoistInvariantCompares, p)
			if got := shapeOf(p); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
