package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func TestElideNarrowingCvts(t *testing.T) {
	cvt := func(d, s int) isa.Instr {
		return isa.Instr{Op: isa.OpCvt, Type: isa.U32, Type2: isa.U64, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(s)}, Class: isa.ClassALU}
	}
	madWide := func(d, a, b, c int) isa.Instr {
		return isa.Instr{Op: isa.OpMad, Type: isa.U32, Flags: isa.FWide, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(a), isa.R(b), isa.R(c)}, Class: isa.ClassIMAD}
	}
	shr := isa.Instr{Op: isa.OpShr, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(5), isa.R(1), isa.Imm(3)}, Class: isa.ClassALU}
	wr0 := isa.Instr{Op: isa.OpMov, Type: isa.U64, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.Imm(7)}, Class: isa.ClassALU}
	exit := isa.Instr{Op: isa.OpExit}
	tests := []struct {
		name   string
		prog   []isa.Instr
		n      int // instructions after the pass
		reader int // index (after) of an instruction that must read r0 where it read r1
		src    int // which source of it
	}{
		{"a chain of cvt and mad.wide loses its cvts",
			// x = r0: cvt r1, r0; mad.wide r0, r1, r2, r3; cvt r1, r0; mad.wide r0, r1, r2, r3
			[]isa.Instr{cvt(1, 0), madWide(0, 1, 2, 3), cvt(1, 0), madWide(0, 1, 2, 3), exit},
			3, 1, 0},
		{"an add reads the low half",
			[]isa.Instr{cvt(1, 0), addRR(4, 1, 2), exit}, 2, 0, 0},
		{"not a shift right (the high half would shift in)",
			[]isa.Instr{cvt(1, 0), shr, exit}, 3, -1, 0},
		{"not the 64-bit addend of a mad.wide",
			[]isa.Instr{cvt(1, 0), madWide(4, 2, 3, 1), exit}, 3, -1, 0},
		{"not when x changes before the reader",
			[]isa.Instr{cvt(1, 0), wr0, addRR(4, 1, 2), exit}, 4, -1, 0},
		{"not when the value is read past a branch",
			[]isa.Instr{cvt(1, 0), addRR(4, 1, 2), gbra(isa.P(0), 0), addRR(5, 1, 2), exit}, 5, -1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: append([]isa.Instr(nil), tc.prog...)}
			apply(ElideNarrowingCvts, p)
			if len(p.Instrs) != tc.n {
				t.Fatalf("%d instructions, want %d: %v", len(p.Instrs), tc.n, opsOf(p))
			}
			if tc.reader >= 0 {
				if o := p.Instrs[tc.reader].Src(tc.src); o.Kind != isa.KReg || o.Reg != 0 {
					t.Errorf("instruction %d source %d is %+v, want r0", tc.reader, tc.src, o)
				}
			}
		})
	}
}
