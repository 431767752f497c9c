package sm

import (
	"errors"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sim"
)

// One thread's access moves at most 16 bytes on sm_90. A program whose
// load or store is wider (which no frontend produces) stops with an input
// diagnostic at the instruction instead of overrunning the lane buffer.
func TestMemoryAccessWiderThan16BytesIsAnInputError(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   isa.Instr
	}{
		{"ld.global.v4.u64", isa.Instr{Op: isa.OpLd, Space: isa.Global, Type: isa.U64, Vec: 4, NDst: 4,
			Ops: []isa.Operand{isa.R(1), isa.R(2), isa.R(3), isa.R(4), isa.Addr(-1, 0x1000)}}},
		{"st.shared.v8.u32", isa.Instr{Op: isa.OpSt, Space: isa.Shared, Type: isa.U32, Vec: 8,
			Ops: []isa.Operand{isa.Addr(-1, 0), isa.R(1), isa.R(2), isa.R(3), isa.R(4), isa.R(1), isa.R(2), isa.R(3), isa.R(4)}}},
		{"ld.local.v4.f64", isa.Instr{Op: isa.OpLd, Space: isa.Local, Type: isa.F64, Vec: 4, NDst: 4,
			Ops: []isa.Operand{isa.R(1), isa.R(2), isa.R(3), isa.R(4), isa.Addr(-1, 0)}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAsm(8, 2)
			a.emit(tc.in)
			a.emit(exit)
			p := a.done()
			p.LocalBytes = 64
			_, err := runProg(t, p, 32, nil)
			var d *Diag
			if !errors.As(err, &d) || d.Kind != DiagInput || d.Code != "access-width" {
				t.Fatalf("got %v, want an input diagnostic access-width", err)
			}
			if d.Pos.Line != 1 || d.Warp != 0 {
				t.Errorf("diagnostic at %v warp %d, want line 1 warp 0", d.Pos, d.Warp)
			}
		})
	}
}

// fullMem is a global memory that has no room left for new pages.
type fullMem struct{ fakeMem }

func (m *fullMem) Write(uint64, []byte) error { return &memory.ResidentError{Limit: 8 << 30} }

// A store that would take the host's global memory past its limit stops the
// run with a limit diagnostic at the store (exit status 6), not a misuse.
func TestStorePastTheResidentLimitIsALimit(t *testing.T) {
	a := newAsm(4, 1)
	a.emit(isa.Instr{Op: isa.OpSt, Space: isa.Global, Type: isa.U32, Ops: []isa.Operand{isa.Addr(-1, 0x1000), isa.Imm(1)}})
	a.emit(exit)
	p := a.done()
	p.SharedStatic = 64
	s, err := New(DefaultConfig(), sim.New(), &fullMem{fakeMem{b: map[uint64]byte{}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Run(&Launch{Prog: p, Block: [3]int{32, 1, 1}, Grid: [3]int{1, 1, 1}, MaxCycles: 1_000_000})
	var d *Diag
	if !errors.As(err, &d) || d.Kind != DiagLimit || d.Code != "memory-limit" || d.Pos.Line != 1 {
		t.Fatalf("got %v, want a limit diagnostic memory-limit at line 1", err)
	}
}
