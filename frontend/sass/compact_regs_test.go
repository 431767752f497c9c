package sass

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// CompactRegisters keeps general registers where they are and moves every
// uniform register, plain, paired, in an address or as an index, down by
// one amount, to a multiple of 8 at least two above the highest general
// register (a pair based on it); the names follow. A program that names a
// general register near 256 keeps the listing's numbers.
func TestCompactRegistersMovesUniformOnesDown(t *testing.T) {
	ur := func(n int) int { return urBase + n }
	idx := isa.Addr(9, 16)
	idx.Mod, idx.Index = isa.MIndex, int32(ur(5))
	p := &isa.Program{NumRegs: numRegs, UniformRegs: urBase, RegNames: regNames(), Instrs: []isa.Instr{
		{Op: isa.OpMov, NDst: 1, Ops: []isa.Operand{isa.R(ur(4)), isa.R(13)}},
		{Op: isa.OpMov, NDst: 1, Ops: []isa.Operand{isa.RPair(ur(6)), isa.RPair(12)}},
		{Op: isa.OpLd, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.Addr(ur(8), 0)}},
		{Op: isa.OpLd, NDst: 1, Ops: []isa.Operand{isa.R(3), idx}},
		{Op: isa.OpMov, NDst: 1, Ops: []isa.Operand{isa.R(1), {Kind: isa.KConst, Reg: int32(ur(2)), Imm: 8}}},
		{Op: isa.OpMov, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.P(ur(1) - urBase)}},
	}}
	CompactRegisters(p)
	base := 16 // R13 and the pair R12, R13: 14, up to a multiple of 8
	if p.UniformRegs != int32(base) || p.NumRegs != base+URZ+1 {
		t.Fatalf("uniform registers from %d of %d, want %d of %d", p.UniformRegs, p.NumRegs, base, base+URZ+1)
	}
	got := []int32{p.Instrs[0].Ops[0].Reg, p.Instrs[0].Ops[1].Reg, p.Instrs[1].Ops[0].Reg, p.Instrs[1].Ops[1].Reg,
		p.Instrs[2].Ops[1].Reg, p.Instrs[3].Ops[1].Reg, p.Instrs[3].Ops[1].Index, p.Instrs[4].Ops[1].Reg, p.Instrs[5].Ops[1].Reg}
	want := []int32{20, 13, 22, 12, 24, 9, 21, 18, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("register %d: %d, want %d (all: %v)", i, got[i], want[i], got)
		}
	}
	if p.RegNames[20] != "UR4" || p.RegNames[13] != "R13" || len(p.RegNames) != p.NumRegs {
		t.Errorf("names: %q and %q of %d", p.RegNames[20], p.RegNames[13], len(p.RegNames))
	}

	high := &isa.Program{NumRegs: numRegs, UniformRegs: urBase, Instrs: []isa.Instr{
		{Op: isa.OpMov, NDst: 1, Ops: []isa.Operand{isa.R(ur(4)), isa.R(250)}},
	}}
	CompactRegisters(high)
	if high.UniformRegs != urBase || high.Instrs[0].Ops[0].Reg != int32(ur(4)) {
		t.Errorf("R250 named: uniform registers moved to %d", high.UniformRegs)
	}
}
