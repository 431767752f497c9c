package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// A warp waits for its wgmmas before an instruction that names one of
// their registers: a register, a pair that covers one, or an address's
// base or index register.
func TestPendingWgmmaRegistersAreTheOnesTouched(t *testing.T) {
	var m mmaPending
	for _, r := range []int32{24, 25, 26, 27, 100} {
		m.mark(r)
	}
	for _, tc := range []struct {
		name string
		op   isa.Operand
		want bool
	}{
		{"an accumulator", isa.R(25), true},
		{"a register below them", isa.R(23), false},
		{"a pair ending on one", isa.RPair(23), true},
		{"a pair ending below them", isa.RPair(22), false},
		{"a register past them", isa.R(28), false},
		{"a register in another word", isa.R(100), true},
		{"a register beyond the set", isa.R(1000), false},
		{"an address's base", isa.Addr(26, 8), true},
		{"an address with no base", isa.Addr(-1, 8), false},
		{"an address's index", isa.Operand{Kind: isa.KAddr, Reg: 4, Index: 27, Mod: isa.MIndex}, true},
		{"an index the address does not use", isa.Operand{Kind: isa.KAddr, Reg: 4, Index: 27}, false},
		{"a predicate of the same number", isa.P(24), false},
		{"an immediate", isa.Imm(24), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := &isa.Instr{Op: isa.OpMov, NDst: 1, Ops: []isa.Operand{isa.R(5), tc.op}}
			if got := m.touches(in); got != tc.want {
				t.Errorf("touches %v: %v, want %v", tc.op, got, tc.want)
			}
		})
	}
	m.any = true
	m.join()
	if m.touches(&isa.Instr{Op: isa.OpMov, NDst: 1, Ops: []isa.Operand{isa.R(25)}}) {
		t.Error("after join the set still holds r25")
	}
}

// A panic on a worker (a bug in the arithmetic) is raised again where the
// warp joins its wgmmas, on the simulation's goroutine, as it would have
// been without workers.
func TestWorkerPanicSurfacesAtJoin(t *testing.T) {
	mmaJobHold = func() { panic("boom") }
	defer func() { mmaJobHold = nil }()
	p := NewMMAWorkers(2)
	defer p.Close()
	var pw mmaPending
	pw.any = true
	p.submit(0, mmaJob{g: p.frame(), pending: &pw})
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("join raised %v, want the worker's panic", r)
		}
	}()
	pw.join()
	t.Error("join returned after the job panicked")
}
