package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func TestElideMoves(t *testing.T) {
	mov := func(d, s int) isa.Instr {
		return isa.Instr{Op: isa.OpMov, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(s)}, Class: isa.ClassALU}
	}
	i2f := func(d, s int) isa.Instr {
		return isa.Instr{Op: isa.OpCvt, Type: isa.F32, Type2: isa.U32, Rnd: isa.RN, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(s)}, Class: isa.ClassALU}
	}
	ld := func(d, a int) isa.Instr {
		return isa.Instr{Op: isa.OpLd, Type: isa.U32, Space: isa.Shared, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.Addr(a, 8)}, Class: isa.ClassShared}
	}
	exit := isa.Instr{Op: isa.OpExit}
	tests := []struct {
		name string
		prog []isa.Instr
		want []isa.Instr // the program after the pass
	}{
		{"a copy's reader reads its source",
			[]isa.Instr{mov(1, 0), addRR(2, 1, 1), exit},
			[]isa.Instr{addRR(2, 0, 0), exit}},
		{"an address register too",
			[]isa.Instr{mov(1, 0), ld(2, 1), exit},
			[]isa.Instr{ld(2, 0), exit}},
		{"a chain carried around a loop: the definition writes the mov's destination",
			// L: cvt r1, r0; mov r0, r1; @p0 bra L
			[]isa.Instr{i2f(1, 0), mov(0, 1), gbra(isa.P(0), 0), exit},
			[]isa.Instr{i2f(0, 0), gbra(isa.P(0), 0), exit}},
		{"not when the source is written before the reader",
			[]isa.Instr{mov(1, 0), mov(0, 3), addRR(2, 1, 1), exit},
			[]isa.Instr{mov(1, 0), mov(0, 3), addRR(2, 1, 1), exit}},
		{"not when the copy is read past a branch target",
			[]isa.Instr{mov(1, 0), gbra(isa.P(0), 2), addRR(2, 1, 1), exit},
			[]isa.Instr{mov(1, 0), gbra(isa.P(0), 2), addRR(2, 1, 1), exit}},
		{"not backwards when the destination is read in between",
			[]isa.Instr{i2f(1, 0), addRR(2, 0, 0), mov(0, 1), gbra(isa.P(0), 0), exit},
			[]isa.Instr{i2f(1, 0), addRR(2, 0, 0), mov(0, 1), gbra(isa.P(0), 0), exit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: append([]isa.Instr(nil), tc.prog...)}
			apply(ElideMoves, p)
			if len(p.Instrs) != len(tc.want) {
				t.Fatalf("%d instructions, want %d: %v", len(p.Instrs), len(tc.want), opsOf(p))
			}
			for i := range tc.want {
				g, w := p.Instrs[i], tc.want[i]
				if g.Op != w.Op || len(g.Ops) != len(w.Ops) {
					t.Fatalf("instruction %d is %v, want %v", i, g.Op, w.Op)
				}
				for k := range w.Ops {
					if g.Ops[k].Kind != w.Ops[k].Kind || g.Ops[k].Reg != w.Ops[k].Reg {
						t.Errorf("instruction %d (%v) operand %d is %+v, want %+v", i, g.Op, k, g.Ops[k], w.Ops[k])
					}
				}
			}
		})
	}
}
