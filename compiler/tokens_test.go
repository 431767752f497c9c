package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// An arrive's token that nothing reads is discarded (ptxas writes it to RZ);
// one that a wait reads is kept.
func TestDropUnusedTokensKeepsOnlyReadTokens(t *testing.T) {
	arrive := func(d int) isa.Instr {
		return isa.Instr{Op: isa.OpMbarArrive, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.Addr(-1, 0)}, Class: isa.ClassSyncs}
	}
	wait := isa.Instr{Op: isa.OpMbarTryWait, NDst: 1, Ops: []isa.Operand{isa.P(1), isa.Addr(-1, 0), isa.R(2)}, Class: isa.ClassSyncs}
	p := &isa.Program{Instrs: []isa.Instr{arrive(1), arrive(2), wait, {Op: isa.OpExit}}, NumRegs: 4, NumPreds: 2}
	apply(DropUnusedTokens, p)
	if k := p.Instrs[0].Ops[0].Kind; k != isa.KSink {
		t.Errorf("unread token: operand kind %v, want the sink", k)
	}
	if o := p.Instrs[1].Ops[0]; o.Kind != isa.KReg || o.Reg != 2 {
		t.Errorf("token the wait reads: %+v, want r2 kept", o)
	}
}
