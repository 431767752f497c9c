package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// In a loop holding a 64-bit remainder (a subroutine call in SASS), a
// barrier or copy operation that a path from the call reaches first is
// preceded by a reload of the shared window; one that follows another in
// the same stretch (the arrive after the wait) is not. A wait's retry branch
// still goes back to the wait, the loop's own back edge to the reload. A
// loop without a call is left alone.
func TestReloadSharedWindowInCallLoops(t *testing.T) {
	wait := isa.Instr{Op: isa.OpMbarTryWait, NDst: 1, Ops: []isa.Operand{isa.P(1), isa.Addr(-1, 0), isa.Imm(0)}, Class: isa.ClassSyncs}
	rem64 := isa.Instr{Op: isa.OpRem, Type: isa.U64, NDst: 1, Ops: []isa.Operand{isa.R(3), isa.R(3), isa.R(4)}, Class: isa.ClassIDiv64}
	arrive := isa.Instr{Op: isa.OpMbarArrive, NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.Addr(-1, 0)}, Class: isa.ClassSyncs}
	prog := func(body isa.Instr) []isa.Instr {
		return []isa.Instr{
			wait,                 // 0: loop head, the wait's retry loop
			gbra(isa.NotP(1), 0), // 1: retry
			arrive,               // 2
			body,                 // 3
			gbra(isa.P(2), 0),    // 4: the loop's back edge
			{Op: isa.OpExit},     // 5
		}
	}
	p := &isa.Program{Instrs: prog(rem64), NumRegs: 5, NumPreds: 3}
	apply(ReloadSharedWindowInCallLoops, p)
	want := []isa.Op{isa.OpDelay, isa.OpMbarTryWait, isa.OpBra, isa.OpMbarArrive, isa.OpRem, isa.OpBra, isa.OpExit}
	got := opsOf(p)
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if !p.Instrs[0].Sched.Has(isa.SchedReloadWindow) {
		t.Errorf("delay at 0 not marked SchedReloadWindow")
	}
	if tgt := p.Instrs[2].Target; tgt != 1 {
		t.Errorf("retry branch targets %d, want the wait (1)", tgt)
	}
	if tgt := p.Instrs[5].Target; tgt != 0 {
		t.Errorf("back edge targets %d, want the reload before the wait (0)", tgt)
	}
	q := &isa.Program{Instrs: prog(aluI(3, 3)), NumRegs: 5, NumPreds: 3}
	n := len(q.Instrs)
	apply(ReloadSharedWindowInCallLoops, q)
	if len(q.Instrs) != n {
		t.Errorf("loop without a call: %d -> %d instructions, want it unchanged", n, len(q.Instrs))
	}
}
