package sm

import (
	"fmt"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// fakeMem is a flat global memory for tests.
type fakeMem struct{ b map[uint64]byte }

func (m *fakeMem) Read(a uint64, b []byte) error {
	for i := range b {
		b[i] = m.b[a+uint64(i)]
	}
	return nil
}

func (m *fakeMem) Write(a uint64, b []byte) error {
	for i := range b {
		m.b[a+uint64(i)] = b[i]
	}
	return nil
}

// asm builds programs instruction by instruction.
type asm struct {
	p      *isa.Program
	labels map[string]int
	fix    map[int]string
}

func newAsm(regs, preds int) *asm {
	return &asm{p: &isa.Program{Name: "test", File: "test.sms", NumRegs: regs, NumPreds: preds},
		labels: map[string]int{}, fix: map[int]string{}}
}

func (a *asm) label(n string) { a.labels[n] = len(a.p.Instrs) }

func (a *asm) emit(in isa.Instr) *asm {
	in.Pos = isa.Pos{File: "test.sms", Line: int32(len(a.p.Instrs) + 1), Col: 1}
	if in.Class == isa.ClassNone {
		in.Class = isa.ClassOf(&in)
	}
	a.p.Instrs = append(a.p.Instrs, in)
	return a
}

func (a *asm) bra(label string, guard isa.Operand) *asm {
	a.fix[len(a.p.Instrs)] = label
	return a.emit(isa.Instr{Op: isa.OpBra, Guard: guard})
}

func (a *asm) done() *isa.Program {
	for i, l := range a.fix {
		a.p.Instrs[i].Target = int32(a.labels[l])
	}
	isa.Reconverge(a.p, nil)
	return a.p
}

func mbar(op isa.Op, flags isa.Flags, ndst int, ops ...isa.Operand) isa.Instr {
	return isa.Instr{Op: op, Space: isa.Shared, Type: isa.B64, Flags: flags, NDst: uint8(ndst), Ops: ops}
}

func alu(op isa.Op, t isa.Type, ops ...isa.Operand) isa.Instr {
	return isa.Instr{Op: op, Type: t, NDst: 1, Ops: ops}
}

func setp(cmp isa.CmpOp, t isa.Type, p int, a, b isa.Operand) isa.Instr {
	return isa.Instr{Op: isa.OpSetp, Type: t, Cmp: cmp, NDst: 1, Ops: []isa.Operand{isa.P(p), a, b}}
}

var (
	exit     = isa.Instr{Op: isa.OpExit}
	barSyncI = isa.Instr{Op: isa.OpBarSync, Ops: []isa.Operand{isa.Imm(0)}}
	syncAll  = isa.Instr{Op: isa.OpBarWarpSync, Ops: []isa.Operand{isa.Imm(0xffffffff)}}
)

// runProg runs prog on a fresh SM with block threads and returns the result.
func runProg(t *testing.T, prog *isa.Program, threads int, cfg *Config) (*Result, error) {
	t.Helper()
	c := DefaultConfig()
	if cfg != nil {
		c = *cfg
	}
	eng := sim.New()
	s, err := New(c, eng, &fakeMem{b: map[uint64]byte{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if prog.SharedStatic == 0 {
		prog.SharedStatic = 64
	}
	return s.Run(&Launch{Prog: prog, Block: [3]int{threads, 1, 1}, Grid: [3]int{1, 1, 1},
		Params: make([]byte, prog.ParamBytes), MaxCycles: 50_000_000})
}

func mustRun(t *testing.T, prog *isa.Program, threads int, cfg *Config) *Result {
	t.Helper()
	r, err := runProg(t, prog, threads, cfg)
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	return r
}

func fmtPhases(b BarrierReport) string {
	s := ""
	for _, p := range b.Phases {
		s += fmt.Sprintf("[%d u%d a%d %s]", p.Phase, p.Updates, p.Arrivals, p.CompletedBy)
	}
	return s
}
