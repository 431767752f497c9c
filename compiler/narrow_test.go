package compiler

import (
	"github.com/smsim/smsim/isa"
	"testing"
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
			ElideNarrowingCvts(p)
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
			ElideMoves(p)
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

func TestNarrowConversionsOfLoads(t *testing.T) {
	ld := func(d int, ty isa.Type) isa.Instr {
		return isa.Instr{Op: isa.OpLd, Type: ty, Space: isa.Shared, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.Addr(9, 0)}, Class: isa.ClassShared}
	}
	cvt := func(st isa.Type) isa.Instr {
		in := isa.Instr{Op: isa.OpCvt, Type: isa.F32, Type2: st, Rnd: isa.RN, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.R(1)}}
		in.Class = isa.ClassOf(&in)
		return in
	}
	tests := []struct {
		name string
		prog []isa.Instr
		want isa.Class
	}{
		{"a loaded u16 is already zero-extended: I2FP", []isa.Instr{ld(1, isa.U16), cvt(isa.U16)}, isa.ClassALU},
		{"a loaded s8 converted as s16: I2FP", []isa.Instr{ld(1, isa.S8), cvt(isa.S16)}, isa.ClassALU},
		{"an unsigned load converted as signed needs I2F.S16", []isa.Instr{ld(1, isa.U16), cvt(isa.S16)}, isa.ClassSFU},
		{"a value also computed elsewhere needs I2F.U16", []isa.Instr{ld(1, isa.U16), addRR(1, 3, 4), cvt(isa.U16)}, isa.ClassSFU},
		{"a wider load does not zero-extend 16 bits", []isa.Instr{ld(1, isa.U32), cvt(isa.U16)}, isa.ClassSFU},
	}
	for _, tc := range tests {
		p := &isa.Program{Instrs: append(append([]isa.Instr(nil), tc.prog...), isa.Instr{Op: isa.OpExit})}
		NarrowConversionsOfLoads(p)
		if got := p.Instrs[len(tc.prog)-1].Class; got != tc.want {
			t.Errorf("%s: class %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestDropDeadResults(t *testing.T) {
	bfe := isa.Instr{Op: isa.OpBfe, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(5), isa.R(1), isa.Imm(16), isa.Imm(16)}, Class: isa.ClassALU}
	clock := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(6), {Kind: isa.KSpecial, Special: isa.SClock}}, Class: isa.ClassSpecial}
	ld := isa.Instr{Op: isa.OpLd, Type: isa.U32, Space: isa.Shared, NDst: 1, Ops: []isa.Operand{isa.R(7), isa.Addr(1, 0)}, Class: isa.ClassShared}
	guarded := addRR(8, 1, 1)
	guarded.Guard = isa.P(0)
	exit := isa.Instr{Op: isa.OpExit}
	tests := []struct {
		name string
		prog []isa.Instr
		want []isa.Op
	}{
		{"an unread extract goes", []isa.Instr{bfe, exit}, []isa.Op{isa.OpExit}},
		{"and what only it read", []isa.Instr{addRR(1, 2, 3), bfe, exit}, []isa.Op{isa.OpExit}},
		{"a read result stays", []isa.Instr{bfe, addRR(2, 5, 5), addRR(3, 2, 2), isa.Instr{Op: isa.OpSt, Type: isa.U32, Space: isa.Shared, Ops: []isa.Operand{isa.Addr(9, 0), isa.R(3)}, Class: isa.ClassShared}, exit},
			[]isa.Op{isa.OpBfe, isa.OpAdd, isa.OpAdd, isa.OpSt, isa.OpExit}},
		{"a clock read stays", []isa.Instr{clock, exit}, []isa.Op{isa.OpMov, isa.OpExit}},
		{"a load stays", []isa.Instr{ld, exit}, []isa.Op{isa.OpLd, isa.OpExit}},
		{"a guarded instruction stays", []isa.Instr{guarded, exit}, []isa.Op{isa.OpAdd, isa.OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: append([]isa.Instr(nil), tc.prog...)}
			DropDeadResults(p)
			got := opsOf(p)
			if len(got) != len(tc.want) {
				t.Fatalf("%v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("%v, want %v", got, tc.want)
				}
			}
		})
	}
}
