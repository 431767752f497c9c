package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// In a loop that sleeps (libcu++'s wait backs off with nanosleep), each mov
// of a shared variable's address re-reads the window; a loop without a
// nanosleep, or one with a call (ReloadSharedWindowInCallLoops's), does not.
func TestReloadSharedWindowInSleepLoops(t *testing.T) {
	sym := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.Imm(16)}, Source: isa.HintSharedSym, Class: isa.ClassALU}
	sleep := isa.Instr{Op: isa.OpNanosleep, Ops: []isa.Operand{isa.Imm(100)}, Class: isa.ClassSleep}
	rem64 := isa.Instr{Op: isa.OpRem, Type: isa.U64, NDst: 1, Ops: []isa.Operand{isa.R(3), isa.R(3), isa.R(4)}, Class: isa.ClassIDiv64}
	prog := func(extra isa.Instr) []isa.Instr {
		return []isa.Instr{
			sym,               // 0: loop head
			extra,             // 1
			gbra(isa.P(2), 0), // 2: back edge
			{Op: isa.OpExit},  // 3
		}
	}
	p := &isa.Program{Instrs: prog(sleep), NumRegs: 5, NumPreds: 3}
	apply(ReloadSharedWindowInSleepLoops, p)
	if got := opsOf(p); len(got) != 5 || got[0] != isa.OpDelay || !p.Instrs[0].Sched.Has(isa.SchedReadWindow) || p.Instrs[0].Sched.Has(isa.SchedReloadWindow) || got[1] != isa.OpMov {
		t.Fatalf("sleeping loop: got %v, want a window read (latency.window_read, not the call loops' reload) before the mov", got)
	}
	if tgt := p.Instrs[3].Target; tgt != 0 {
		t.Errorf("back edge targets %d, want the reload (0)", tgt)
	}
	for _, tc := range []struct {
		name  string
		extra isa.Instr
	}{{"no sleep", aluI(3, 3)}, {"sleep and a call", rem64}} {
		body := prog(tc.extra)
		if tc.name == "sleep and a call" {
			body = append([]isa.Instr{sym, sleep}, body[1:]...)
		}
		q := &isa.Program{Instrs: body, NumRegs: 5, NumPreds: 3}
		n := len(q.Instrs)
		apply(ReloadSharedWindowInSleepLoops, q)
		if len(q.Instrs) != n {
			t.Errorf("%s: got %v, want no reload", tc.name, opsOf(q))
		}
	}
}
