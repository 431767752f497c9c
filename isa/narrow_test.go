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

func TestElideMoves(t *testing.T) {
	mov := func(d, s int) Instr {
		return Instr{Op: OpMov, Type: B32, NDst: 1, Ops: []Operand{R(d), R(s)}, Class: ClassALU}
	}
	i2f := func(d, s int) Instr {
		return Instr{Op: OpCvt, Type: F32, Type2: U32, Rnd: RN, NDst: 1, Ops: []Operand{R(d), R(s)}, Class: ClassALU}
	}
	ld := func(d, a int) Instr {
		return Instr{Op: OpLd, Type: U32, Space: Shared, NDst: 1, Ops: []Operand{R(d), Addr(a, 8)}, Class: ClassShared}
	}
	exit := Instr{Op: OpExit}
	tests := []struct {
		name string
		prog []Instr
		want []Instr // the program after the pass
	}{
		{"a copy's reader reads its source",
			[]Instr{mov(1, 0), addRR(2, 1, 1), exit},
			[]Instr{addRR(2, 0, 0), exit}},
		{"an address register too",
			[]Instr{mov(1, 0), ld(2, 1), exit},
			[]Instr{ld(2, 0), exit}},
		{"a chain carried around a loop: the definition writes the mov's destination",
			// L: cvt r1, r0; mov r0, r1; @p0 bra L
			[]Instr{i2f(1, 0), mov(0, 1), gbra(P(0), 0), exit},
			[]Instr{i2f(0, 0), gbra(P(0), 0), exit}},
		{"not when the source is written before the reader",
			[]Instr{mov(1, 0), mov(0, 3), addRR(2, 1, 1), exit},
			[]Instr{mov(1, 0), mov(0, 3), addRR(2, 1, 1), exit}},
		{"not when the copy is read past a branch target",
			[]Instr{mov(1, 0), gbra(P(0), 2), addRR(2, 1, 1), exit},
			[]Instr{mov(1, 0), gbra(P(0), 2), addRR(2, 1, 1), exit}},
		{"not backwards when the destination is read in between",
			[]Instr{i2f(1, 0), addRR(2, 0, 0), mov(0, 1), gbra(P(0), 0), exit},
			[]Instr{i2f(1, 0), addRR(2, 0, 0), mov(0, 1), gbra(P(0), 0), exit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: append([]Instr(nil), tc.prog...)}
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

func TestConversionClasses(t *testing.T) {
	cvt := func(dt, st Type, rnd Rounding) *Instr {
		return &Instr{Op: OpCvt, Type: dt, Type2: st, Rnd: rnd, NDst: 1, Ops: []Operand{R(1), R(0)}}
	}
	tests := []struct {
		name string
		in   *Instr
		want Class
	}{
		{"cvt.rn.f32.u32 is I2FP on the integer pipe", cvt(F32, U32, RN), ClassALU},
		{"cvt.rn.f32.s32 too", cvt(F32, S32, RN), ClassALU},
		{"cvt.rz.f32.s32 is I2F on the MUFU unit", cvt(F32, S32, RZ), ClassSFU},
		{"cvt.rzi.s32.f32 is F2I on the MUFU unit", cvt(S32, F32, RZI), ClassSFU},
		{"cvt.rni.u32.f32 too", cvt(U32, F32, RNI), ClassSFU},
		{"cvt.rn.f32.u16 is I2F.U16", cvt(F32, U16, RN), ClassSFU},
		{"cvt.rn.f32.s64 is I2F.S64", cvt(F32, S64, RN), ClassSFU},
		{"cvt.rn.f16.f32 is F2FP on the FMA pipe, 5 cycles", cvt(F16, F32, RN), ClassCvtFloat},
		{"cvt.f32.f16 is HADD2.F32, the same", cvt(F32, F16, RNone), ClassCvtFloat},
		{"cvt.rn.bf16.f32 is F2FP too", cvt(BF16, F32, RN), ClassCvtFloat},
		{"cvt.f64.f32 is the MUFU unit's", cvt(F64, F32, RNone), ClassSFU},
		{"cvt.u32.u64 is an integer move", cvt(U32, U64, RNone), ClassALU},
	}
	for _, tc := range tests {
		if got := ClassOf(tc.in); got != tc.want {
			t.Errorf("%s: class %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestNarrowConversionsOfLoads(t *testing.T) {
	ld := func(d int, ty Type) Instr {
		return Instr{Op: OpLd, Type: ty, Space: Shared, NDst: 1, Ops: []Operand{R(d), Addr(9, 0)}, Class: ClassShared}
	}
	cvt := func(st Type) Instr {
		in := Instr{Op: OpCvt, Type: F32, Type2: st, Rnd: RN, NDst: 1, Ops: []Operand{R(2), R(1)}}
		in.Class = ClassOf(&in)
		return in
	}
	tests := []struct {
		name string
		prog []Instr
		want Class
	}{
		{"a loaded u16 is already zero-extended: I2FP", []Instr{ld(1, U16), cvt(U16)}, ClassALU},
		{"a loaded s8 converted as s16: I2FP", []Instr{ld(1, S8), cvt(S16)}, ClassALU},
		{"an unsigned load converted as signed needs I2F.S16", []Instr{ld(1, U16), cvt(S16)}, ClassSFU},
		{"a value also computed elsewhere needs I2F.U16", []Instr{ld(1, U16), addRR(1, 3, 4), cvt(U16)}, ClassSFU},
		{"a wider load does not zero-extend 16 bits", []Instr{ld(1, U32), cvt(U16)}, ClassSFU},
	}
	for _, tc := range tests {
		p := &Program{Instrs: append(append([]Instr(nil), tc.prog...), Instr{Op: OpExit})}
		NarrowConversionsOfLoads(p)
		if got := p.Instrs[len(tc.prog)-1].Class; got != tc.want {
			t.Errorf("%s: class %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestDropDeadResults(t *testing.T) {
	bfe := Instr{Op: OpBfe, Type: U32, NDst: 1, Ops: []Operand{R(5), R(1), Imm(16), Imm(16)}, Class: ClassALU}
	clock := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(6), {Kind: KSpecial, Special: SClock}}, Class: ClassSpecial}
	ld := Instr{Op: OpLd, Type: U32, Space: Shared, NDst: 1, Ops: []Operand{R(7), Addr(1, 0)}, Class: ClassShared}
	guarded := addRR(8, 1, 1)
	guarded.Guard = P(0)
	exit := Instr{Op: OpExit}
	tests := []struct {
		name string
		prog []Instr
		want []Op
	}{
		{"an unread extract goes", []Instr{bfe, exit}, []Op{OpExit}},
		{"and what only it read", []Instr{addRR(1, 2, 3), bfe, exit}, []Op{OpExit}},
		{"a read result stays", []Instr{bfe, addRR(2, 5, 5), addRR(3, 2, 2), Instr{Op: OpSt, Type: U32, Space: Shared, Ops: []Operand{Addr(9, 0), R(3)}, Class: ClassShared}, exit},
			[]Op{OpBfe, OpAdd, OpAdd, OpSt, OpExit}},
		{"a clock read stays", []Instr{clock, exit}, []Op{OpMov, OpExit}},
		{"a load stays", []Instr{ld, exit}, []Op{OpLd, OpExit}},
		{"a guarded instruction stays", []Instr{guarded, exit}, []Op{OpAdd, OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: append([]Instr(nil), tc.prog...)}
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

func TestShuffleRunsInTheSharedPipe(t *testing.T) {
	shfl := &Instr{Op: OpShfl, Type: B32, NDst: 1, Ops: []Operand{R(1), R(0), Imm(1), Imm(31), Imm(0xffffffff)}}
	if c := ClassOf(shfl); c != ClassShared {
		t.Errorf("shfl.sync: class %v, want shared (ldg.csv: 24 cycles, one every 4 a sub-partition)", c)
	}
	vote := &Instr{Op: OpVote, Type: Pred, NDst: 1, Ops: []Operand{P(1), P(0)}}
	if c := ClassOf(vote); c != ClassWarpSync {
		t.Errorf("vote.sync: class %v, want warpsync", c)
	}
}
