package isa

import "testing"

func TestElideNarrowingCvts(t *testing.T) {
	cvt := func(d, s int) Instr {
		return Instr{Op: OpCvt, Type: U32, Type2: U64, NDst: 1, Ops: []Operand{R(d), R(s)}, Class: ClassALU}
	}
	madWide := func(d, a, b, c int) Instr {
		return Instr{Op: OpMad, Type: U32, Flags: FWide, NDst: 1, Ops: []Operand{R(d), R(a), R(b), R(c)}, Class: ClassIMAD}
	}
	shr := Instr{Op: OpShr, Type: U32, NDst: 1, Ops: []Operand{R(5), R(1), Imm(3)}, Class: ClassALU}
	wr0 := Instr{Op: OpMov, Type: U64, NDst: 1, Ops: []Operand{R(0), Imm(7)}, Class: ClassALU}
	exit := Instr{Op: OpExit}
	tests := []struct {
		name   string
		prog   []Instr
		n      int // instructions after the pass
		reader int // index (after) of an instruction that must read r0 where it read r1
		src    int // which source of it
	}{
		{"a chain of cvt and mad.wide loses its cvts",
			// x = r0: cvt r1, r0; mad.wide r0, r1, r2, r3; cvt r1, r0; mad.wide r0, r1, r2, r3
			[]Instr{cvt(1, 0), madWide(0, 1, 2, 3), cvt(1, 0), madWide(0, 1, 2, 3), exit},
			3, 1, 0},
		{"an add reads the low half",
			[]Instr{cvt(1, 0), addRR(4, 1, 2), exit}, 2, 0, 0},
		{"not a shift right (the high half would shift in)",
			[]Instr{cvt(1, 0), shr, exit}, 3, -1, 0},
		{"not the 64-bit addend of a mad.wide",
			[]Instr{cvt(1, 0), madWide(4, 2, 3, 1), exit}, 3, -1, 0},
		{"not when x changes before the reader",
			[]Instr{cvt(1, 0), wr0, addRR(4, 1, 2), exit}, 4, -1, 0},
		{"not when the value is read past a branch",
			[]Instr{cvt(1, 0), addRR(4, 1, 2), gbra(P(0), 0), addRR(5, 1, 2), exit}, 5, -1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: append([]Instr(nil), tc.prog...)}
			ElideNarrowingCvts(p)
			if len(p.Instrs) != tc.n {
				t.Fatalf("%d instructions, want %d: %v", len(p.Instrs), tc.n, opsOf(p))
			}
			if tc.reader >= 0 {
				if o := p.Instrs[tc.reader].Src(tc.src); o.Kind != KReg || o.Reg != 0 {
					t.Errorf("instruction %d source %d is %+v, want r0", tc.reader, tc.src, o)
				}
			}
		})
	}
}
