package compiler

import (
	"slices"
	"testing"

	"github.com/smsim/smsim/isa"
)

// A serialized kernel's wgmma each get the SASS's WARPGROUP.ARRIVE before
// and WARPGROUP.DEPBAR.LE gsb0, 0x0 after (fence; wgmma; commit; wait 0);
// a kernel ptxas did not serialize keeps its own.
func TestSerializeWgmmaWaitsForEachOne(t *testing.T) {
	mk := func(serialized bool) *isa.Program {
		wg := isa.Instr{Op: isa.OpWgmma, Class: isa.ClassOf(&isa.Instr{Op: isa.OpWgmma})}
		return &isa.Program{WgmmaSerialized: serialized, Instrs: []isa.Instr{
			{Op: isa.OpWgmmaFence},
			{Op: isa.OpMov, Type: isa.F32, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.Imm(0)}},
			wg, wg,
			{Op: isa.OpWgmmaCommit},
			{Op: isa.OpWgmmaWait, Ops: []isa.Operand{isa.Imm(1)}},
			{Op: isa.OpExit},
		}}
	}
	p := mk(true)
	apply(SerializeWgmma, p)
	want := []isa.Op{isa.OpWgmmaFence, isa.OpMov,
		isa.OpWgmmaFence, isa.OpWgmma, isa.OpWgmmaCommit, isa.OpWgmmaWait,
		isa.OpWgmmaFence, isa.OpWgmma, isa.OpWgmmaCommit, isa.OpWgmmaWait,
		isa.OpWgmmaCommit, isa.OpWgmmaWait, isa.OpExit}
	if got := opsOf(p); !slices.Equal(got, want) {
		t.Fatalf("serialized: %v, want %v", got, want)
	}
	for _, i := range []int{5, 9} {
		if in := p.Instrs[i]; len(in.Ops) != 1 || in.Ops[0].Imm != 0 {
			t.Errorf("instruction %d: %v, want wgmma.wait_group 0", i, in.Ops)
		}
	}
	p = mk(false)
	n := len(p.Instrs)
	apply(SerializeWgmma, p)
	if len(p.Instrs) != n {
		t.Errorf("a kernel ptxas did not serialize changed: %v", opsOf(p))
	}
}
