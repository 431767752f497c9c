package warp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// sassWarp is a warp of a SASS-shaped program: 32-bit registers, the
// uniform file from 256, uniform predicates from 8.
func sassWarp(instrs ...isa.Instr) *Warp {
	p := &isa.Program{Instrs: instrs, NumRegs: 320, NumPreds: 16, UniformRegs: 256, UniformPreds: 8,
		ExplicitReconv: true, Scheduled: true, AddrStep: 16}
	env := Env{Banks: [][]byte{{0x10, 0, 0, 0, 0x20, 0, 0, 0, 0x30, 0, 0, 0}}}
	for l := 0; l < Lanes; l++ {
		env.Tid[0][l] = uint64(l)
	}
	return New(0, 0, p, FullMask, env)
}

// regv is a register's value (every lane's, as an input).
type regv struct {
	r int32
	v uint64
}

func TestSASSOperations(t *testing.T) {
	u := func(v uint32) uint64 { return uint64(v) }
	r := isa.R
	pr := isa.RPair
	neg := func(o isa.Operand) isa.Operand { o.Mod |= isa.MNeg; return o }
	not := func(o isa.Operand) isa.Operand { o.Mod |= isa.MNot; return o }
	tests := []struct {
		name  string
		in    isa.Instr
		regs  []regv           // inputs, the same in every lane
		preds []uint32         // predicate lane masks P0, P1, ...
		want  []regv           // lane 0's results
		wantP map[int32]uint32 // predicates' lanes 0-3
	}{
		{"iadd3 carries out of the 32 bits",
			isa.Instr{Op: isa.OpIAdd3, NDst: 2, Ops: []isa.Operand{r(0), isa.P(0), r(1), r(2), isa.Imm(0)}},
			[]regv{{1, 0xffffffff}, {2, 1}}, nil, []regv{{0, 0}}, map[int32]uint32{0: 0xf}},
		{"iadd3 -x adds ~x + 1: subtracting zero carries",
			isa.Instr{Op: isa.OpIAdd3, NDst: 2, Ops: []isa.Operand{r(0), isa.P(0), neg(r(1)), r(2), isa.Imm(0)}},
			[]regv{{1, 0}, {2, 7}}, nil, []regv{{0, 7}}, map[int32]uint32{0: 0xf}},
		{"iadd3 -x of a larger x borrows (no carry)",
			isa.Instr{Op: isa.OpIAdd3, NDst: 2, Ops: []isa.Operand{r(0), isa.P(0), neg(r(1)), r(2), isa.Imm(0)}},
			[]regv{{1, 9}, {2, 7}}, nil, []regv{{0, 0xfffffffe}}, map[int32]uint32{0: 0}},
		{"iadd3 two carries, one per stage",
			isa.Instr{Op: isa.OpIAdd3, NDst: 3, Ops: []isa.Operand{r(0), isa.P(0), isa.P(1), r(1), r(1), r(1)}},
			[]regv{{1, 0xffffffff}}, nil, []regv{{0, 0xfffffffd}}, map[int32]uint32{0: 0xf, 1: 0xf}},
		{"iadd3.x adds the carries, ~x is the complement",
			isa.Instr{Op: isa.OpIAdd3, NDst: 1, Flags: isa.FCarryIn, Ops: []isa.Operand{r(0), r(1), not(r(2)), isa.Imm(0), isa.P(0), isa.Imm(0)}},
			[]regv{{1, 1}, {2, 2}}, []uint32{1}, []regv{{0, 0xffffffff}}, nil},
		{"imad low word, -c",
			isa.Instr{Op: isa.OpIMad, Type: isa.S32, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(5), neg(r(2))}},
			[]regv{{1, 3}, {2, 7}}, nil, []regv{{0, 8}}, nil},
		{"imad.hi adds a pair: the Newton step's q + umulhi",
			isa.Instr{Op: isa.OpIMad, Type: isa.U32, Mode: isa.IMadHi, NDst: 1, Ops: []isa.Operand{r(0), r(1), r(2), pr(10)}},
			[]regv{{1, 0x80000000}, {2, 4}, {10, 0}, {11, 5}}, nil, []regv{{0, 7}}, nil},
		{"imad.wide signed",
			isa.Instr{Op: isa.OpIMad, Type: isa.S32, Mode: isa.IMadWide, NDst: 1, Ops: []isa.Operand{pr(4), r(1), isa.Imm(4), isa.Imm(0)}},
			[]regv{{1, 0xffffffff}}, nil, []regv{{4, 0xfffffffc}, {5, 0xffffffff}}, nil},
		{"imad.wide.u32 carries out of 64 bits",
			isa.Instr{Op: isa.OpIMad, Type: isa.U32, Mode: isa.IMadWide, NDst: 2, Ops: []isa.Operand{pr(4), isa.P(0), r(1), r(1), pr(6)}},
			[]regv{{1, 0xffffffff}, {6, 0xffffffff}, {7, 1}}, nil, []regv{{4, 0}, {5, 0}}, map[int32]uint32{0: 0xf}},
		{"lea",
			isa.Instr{Op: isa.OpLea, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(0x100), isa.Imm(4)}},
			[]regv{{1, 3}}, nil, []regv{{0, 0x130}}, nil},
		{"lea.hi of (c:a) << s",
			isa.Instr{Op: isa.OpLea, Mode: isa.LeaHi, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(0x10), r(2), isa.Imm(2)}},
			[]regv{{1, 0xc0000000}, {2, 1}}, nil, []regv{{0, 0x17}}, nil},
		{"lea.hi.sx32 sign-extends a",
			isa.Instr{Op: isa.OpLea, Mode: isa.LeaHi | isa.LeaSX32, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(0), isa.Imm(2)}},
			[]regv{{1, 0x80000000}}, nil, []regv{{0, 0xfffffffe}}, nil},
		{"lop3 with a predicate of the result",
			isa.Instr{Op: isa.OpSLop3, NDst: 2, Ops: []isa.Operand{r(0), isa.P(0), r(1), isa.Imm(0x1f), isa.Imm(0), isa.Imm(0xc0), isa.Imm(0)}},
			[]regv{{1, 0x30}}, nil, []regv{{0, 0x10}}, map[int32]uint32{0: 0xf}},
		{"plop3 0xa2 over p1, p0, pt is p1 | !p0",
			isa.Instr{Op: isa.OpPLop3, NDst: 2, Ops: []isa.Operand{isa.P(2), isa.Sink(), isa.P(1), isa.P(0), isa.Imm(1), isa.Imm(0xa2), isa.Imm(0)}},
			nil, []uint32{0b0101, 0b0011}, nil, map[int32]uint32{2: 0b1011}},
		{"shf.l.u32 clamps at 32",
			isa.Instr{Op: isa.OpSShf, Mode: isa.ShfLeft, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(32), isa.Imm(0)}},
			[]regv{{1, 1}}, nil, []regv{{0, 0}}, nil},
		{"shf.l.u64.hi",
			isa.Instr{Op: isa.OpSShf, Mode: isa.ShfLeft | isa.ShfHi | isa.Shf64, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(1), r(2)}},
			[]regv{{1, 0x80000000}, {2, 1}}, nil, []regv{{0, 3}}, nil},
		{"shf.l.w.u32.hi is a rotate",
			isa.Instr{Op: isa.OpSShf, Mode: isa.ShfLeft | isa.ShfHi | isa.ShfWrap, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(33), r(1)}},
			[]regv{{1, 0x80000001}}, nil, []regv{{0, 3}}, nil},
		{"shf.r.s32.hi",
			isa.Instr{Op: isa.OpSShf, Mode: isa.ShfHi | isa.ShfSigned, NDst: 1, Ops: []isa.Operand{r(0), isa.Imm(0), isa.Imm(4), r(1)}},
			[]regv{{1, 0x80000000}}, nil, []regv{{0, 0xf8000000}}, nil},
		{"shf.r.u64 low word",
			isa.Instr{Op: isa.OpSShf, Mode: isa.Shf64, NDst: 1, Ops: []isa.Operand{r(0), isa.Imm(0), isa.Imm(4), r(1)}},
			[]regv{{1, 1}}, nil, []regv{{0, 0x10000000}}, nil},
		{"isetp.ex: the high words decide",
			isa.Instr{Op: isa.OpISetpEx, Type: isa.U32, Cmp: isa.CmpGe, Bool: isa.BoolAnd, NDst: 2, Ops: []isa.Operand{isa.P(1), isa.P(2), r(1), r(2), isa.Imm(1), isa.P(0)}},
			[]regv{{1, 1}, {2, 0}}, []uint32{0}, nil, map[int32]uint32{1: 0xf, 2: 0}},
		{"isetp.ex: equal high words take the low words' result",
			isa.Instr{Op: isa.OpISetpEx, Type: isa.S32, Cmp: isa.CmpLt, Bool: isa.BoolAnd, NDst: 2, Ops: []isa.Operand{isa.P(1), isa.Sink(), r(1), r(1), isa.Imm(1), isa.P(0)}},
			[]regv{{1, 0xffffffff}}, []uint32{1}, nil, map[int32]uint32{1: 1}},
		{"viaddmnmx signed min",
			isa.Instr{Op: isa.OpIAddMnmx, Type: isa.S32, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(0xffffffff), isa.Imm(3), isa.Imm(1)}},
			[]regv{{1, 0}}, nil, []regv{{0, 0xffffffff}}, nil},
		{"bmsk",
			isa.Instr{Op: isa.OpBmsk, NDst: 1, Ops: []isa.Operand{r(0), isa.Imm(30), isa.Imm(4)}},
			nil, nil, []regv{{0, 0xc0000000}}, nil},
		{"sgxt sign-extends",
			isa.Instr{Op: isa.OpSgxt, Type: isa.S32, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(8)}},
			[]regv{{1, 0x1ff}}, nil, []regv{{0, 0xffffffff}}, nil},
		{"sgxt.u32 zero-extends",
			isa.Instr{Op: isa.OpSgxt, Type: isa.U32, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(8)}},
			[]regv{{1, 0x1ff}}, nil, []regv{{0, 0xff}}, nil},
		{"p2r",
			isa.Instr{Op: isa.OpP2R, NDst: 1, Ops: []isa.Operand{r(0), isa.Imm(0xf0), isa.Imm(7)}},
			nil, []uint32{1, 0, 1}, []regv{{0, 0xf5}}, nil},
		{"vabsdiff4",
			isa.Instr{Op: isa.OpVAbsDiff4, NDst: 1, Ops: []isa.Operand{r(0), r(1), r(2), isa.Imm(0)}},
			[]regv{{1, 0x01ff0510}, {2, 0x03000a10}}, nil, []regv{{0, 0x02ff0500}}, nil},
		{"fchk: an ordinary quotient needs no slow path",
			isa.Instr{Op: isa.OpFchk, NDst: 1, Ops: []isa.Operand{isa.P(0), r(1), r(2)}},
			[]regv{{1, u(math.Float32bits(1))}, {2, u(math.Float32bits(3))}}, nil, nil, map[int32]uint32{0: 0}},
		{"fchk: a zero divisor does",
			isa.Instr{Op: isa.OpFchk, NDst: 1, Ops: []isa.Operand{isa.P(0), r(1), r(2)}},
			[]regv{{1, u(math.Float32bits(1))}, {2, 0}}, nil, nil, map[int32]uint32{0: 0xf}},
		{"mufu.rcp64h of 2.0's high word",
			isa.Instr{Op: isa.OpMufu, Mode: isa.MufuRcp64H, NDst: 1, Ops: []isa.Operand{r(0), r(1)}},
			[]regv{{1, 0x40000000}}, nil, []regv{{0, 0x3fe00000}}, nil},
		{"hadd2.f32 of -0 and a half converts it",
			isa.Instr{Op: isa.OpSHAdd2F32, NDst: 1, Ops: []isa.Operand{r(0), isa.Imm(0x8000), r(1)}},
			[]regv{{1, 0x3c00}}, nil, []regv{{0, u(math.Float32bits(1))}}, nil},
		{"mufu.sin takes turns",
			isa.Instr{Op: isa.OpFSin, NDst: 1, Ops: []isa.Operand{r(0), r(1)}},
			[]regv{{1, u(math.Float32bits(1.25))}}, nil, []regv{{0, u(math.Float32bits(1))}}, nil},
		{"a constant-bank word",
			isa.Instr{Op: isa.OpMov, Type: isa.B32, NDst: 1, Ops: []isa.Operand{r(0), {Kind: isa.KConst, Reg: -1, Imm: 4}}},
			nil, nil, []regv{{0, 0x20}}, nil},
		{"a constant-bank word at a register index, past the end reads zero",
			isa.Instr{Op: isa.OpMov, Type: isa.B32, NDst: 1, Ops: []isa.Operand{r(0), {Kind: isa.KConst, Reg: 1, Imm: 4}}},
			[]regv{{1, 8}}, nil, []regv{{0, 0}}, nil},
		{"a pair moves both words; -x of a pair negates 64 bits",
			isa.Instr{Op: isa.OpMov, Type: isa.B64, NDst: 1, Ops: []isa.Operand{pr(4), neg(pr(6))}},
			[]regv{{6, 1}, {7, 0}}, nil, []regv{{4, 0xffffffff}, {5, 0xffffffff}}, nil},
		{"float negation and half selection",
			isa.Instr{Op: isa.OpMov, Type: isa.B32, NDst: 1, Ops: []isa.Operand{r(0), {Kind: isa.KReg, Reg: 1, Mod: isa.MH1H1 | isa.MHNeg}}},
			[]regv{{1, 0x3c000000}}, nil, []regv{{0, 0xbc00bc00}}, nil},
	}
	for _, tt := range tests {
		w := sassWarp(tt.in, isa.Instr{Op: isa.OpExit})
		for _, rv := range tt.regs {
			for l := 0; l < Lanes; l++ {
				w.Reg(rv.r)[l] = rv.v
			}
		}
		for p, m := range tt.preds {
			w.SetPred(int32(p), FullMask, m)
		}
		if err := w.ExecALU(&tt.in, FullMask, 0); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		for _, rv := range tt.want {
			if got := w.Reg(rv.r)[0]; got != rv.v {
				t.Errorf("%s: r%d = %#x, want %#x", tt.name, rv.r, got, rv.v)
			}
		}
		for p, m := range tt.wantP {
			if got := w.Pred(p) & 0xf; got != m {
				t.Errorf("%s: p%d lanes 0-3 = %#b, want %#b", tt.name, p, got, m)
			}
		}
	}
}

// Uniform registers and predicates hold one value per warp: a write by some
// lanes (the uniform datapath in a divergent path, R2UR, VOTEU) stores the
// first written lane's value in every lane.
func TestUniformRegistersAreOnePerWarp(t *testing.T) {
	in := isa.Instr{Op: isa.OpR2UR, NDst: 2, Ops: []isa.Operand{isa.R(260), isa.P(0), isa.R(1)}}
	w := sassWarp(in)
	for l := 0; l < Lanes; l++ {
		w.Reg(1)[l] = uint64(100 + l%3)
	}
	if err := w.ExecALU(&in, 0b0110, 0); err != nil {
		t.Fatal(err)
	}
	for l := 0; l < Lanes; l++ {
		if got := w.Reg(260)[l]; got != 101 {
			t.Fatalf("UR4 lane %d = %d, want lane 1's 101", l, got)
		}
	}
	if got := w.Pred(0); got != 0b0100 {
		t.Errorf("differs predicate %#b, want lane 2 alone", got)
	}
	vote := isa.Instr{Op: isa.OpSVote, Mode: isa.SVoteAll, NDst: 2, Ops: []isa.Operand{isa.Sink(), isa.P(8), isa.P(1)}}
	w.SetPred(1, FullMask, 0b0110)
	if err := w.ExecALU(&vote, 0b0110, 0); err != nil {
		t.Fatal(err)
	}
	if got := w.Pred(8); got != FullMask {
		t.Errorf("VOTEU.ALL of the active lanes: UP0 = %#x, want every lane true", got)
	}
	el := isa.Instr{Op: isa.OpSElect, NDst: 2, Ops: []isa.Operand{isa.P(2), isa.R(261), isa.Imm(1)}}
	if err := w.ExecALU(&el, 0b1100, 0); err != nil {
		t.Fatal(err)
	}
	if w.Pred(2) != 0b0100 || w.Reg(261)[31] != 2 {
		t.Errorf("ELECT of lanes 2,3: p %#b, UR5 %d; want lane 2", w.Pred(2), w.Reg(261)[31])
	}
}

// TestQspcNamesTheWindow: QSPC tells the generic shared window.
func TestQspcNamesTheWindow(t *testing.T) {
	in := isa.Instr{Op: isa.OpQspc, Space: isa.Shared, NDst: 1, Ops: []isa.Operand{isa.P(0), {Kind: isa.KAddr, Reg: 2, Mod: isa.MPair, Imm: 8}}}
	w := sassWarp(in)
	w.Reg(2)[0], w.Reg(3)[0] = 0, isa.SharedWindow>>32
	w.Reg(2)[1], w.Reg(3)[1] = 0x1000, 0x7
	if err := w.ExecALU(&in, 0b11, 0); err != nil {
		t.Fatal(err)
	}
	if got := w.Pred(0) & 3; got != 0b01 {
		t.Errorf("got %#b, want lane 0 (shared) alone", got)
	}
}

// IADD3 without carries (one destination, no carry in) is the low word of the
// carry-out form's sum, in every lane and for every modifier of the terms.
func TestIAdd3WithoutCarriesIsTheCarryFormsSum(t *testing.T) {
	r := isa.R
	neg := func(o isa.Operand) isa.Operand { o.Mod |= isa.MNeg; return o }
	not := func(o isa.Operand) isa.Operand { o.Mod |= isa.MNot; return o }
	for _, terms := range [][3]isa.Operand{
		{r(1), r(2), r(3)}, {neg(r(1)), r(2), isa.Imm(0xfffffff0)}, {r(1), not(r(2)), neg(r(3))}, {r(1), r(1), r(1)},
	} {
		plain := isa.Instr{Op: isa.OpIAdd3, NDst: 1, Ops: []isa.Operand{r(0), terms[0], terms[1], terms[2]}}
		carry := isa.Instr{Op: isa.OpIAdd3, NDst: 2, Ops: []isa.Operand{r(0), isa.P(0), terms[0], terms[1], terms[2]}}
		fast, slow := sassWarp(plain), sassWarp(carry)
		for reg := int32(1); reg <= 3; reg++ {
			for l := 0; l < Lanes; l++ {
				v := uint64(l)*0x9e3779b97f4a7c15 + uint64(reg)*0xffffffff // garbage above 32 bits too
				fast.Reg(reg)[l], slow.Reg(reg)[l] = v, v
			}
		}
		for _, mask := range []uint32{FullMask, 0x00ff00f1} {
			if err := fast.ExecALU(&plain, mask, 0); err != nil {
				t.Fatal(err)
			}
			if err := slow.ExecALU(&carry, mask, 0); err != nil {
				t.Fatal(err)
			}
			if *fast.Reg(0) != *slow.Reg(0) {
				t.Errorf("%v mask %#x: %x, carry form %x", terms, mask, fast.Reg(0)[:4], slow.Reg(0)[:4])
			}
		}
	}
}

// A SASS address is the base register's 32 bits (64 with a pair), plus the
// index register's 32 bits, plus the offset, in every lane: every form, on
// registers with bits above 32 and sums that wrap.
func TestSASSAddressesSumTheirTerms(t *testing.T) {
	prog := &isa.Program{NumRegs: 8, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	rng := rand.New(rand.NewPCG(60, 32))
	w := New(0, 0, prog, FullMask, Env{})
	for i := 0; i < 200; i++ {
		for r := range w.regs[:8] {
			for l := range w.regs[r] {
				w.regs[r][l] = rng.Uint64()
			}
		}
		o := isa.Operand{Kind: isa.KAddr, Reg: int32(rng.IntN(8) - 1), Imm: rng.Uint64(), Index: int32(rng.IntN(8))}
		if o.Reg == 7 || rng.IntN(2) == 0 {
			o.Mod |= isa.MIndex
		}
		if o.Reg >= 0 && o.Reg < 7 && rng.IntN(2) == 0 {
			o.Mod |= isa.MPair
		}
		got := *w.sassAddr(&o, 1)
		for l := 0; l < Lanes; l++ {
			want := o.Imm
			if o.Reg >= 0 {
				want += w.regs[o.Reg][l] & 0xffffffff
				if o.Mod.Has(isa.MPair) {
					want += w.regs[o.Reg+1][l] << 32
				}
			}
			if o.Mod.Has(isa.MIndex) {
				want += w.regs[o.Index][l] & 0xffffffff
			}
			if got[l] != want {
				t.Fatalf("%+v lane %d: %#x, want %#x", o, l, got[l], want)
			}
		}
	}
}
