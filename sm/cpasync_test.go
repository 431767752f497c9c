package sm

import (
	"encoding/binary"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sim"
)

// cpAsyncProg: every lane copies 16 bytes from src+16*lane into shared memory
// at 64+16*lane, then either waits for its group (wait_all) or arrives on the
// barrier through cp.async.mbarrier.arrive and waits on it; then lane 0
// stores shared word lane*4 of each lane's copy to dst.
func cpAsyncProg(viaBarrier, noinc bool, initCount uint64) *isa.Program {
	a := newAsm(8, 4)
	bar := isa.Addr(-1, 0)
	a.emit(alu(isa.OpMov, isa.U32, isa.R(0), isa.Spec(isa.SLaneID)))
	a.emit(alu(isa.OpShl, isa.B32, isa.R(1), isa.R(0), isa.Imm(4))) // r1 = lane*16
	a.emit(alu(isa.OpAdd, isa.U64, isa.R(2), isa.R(1), isa.Imm(0x1000)))
	a.emit(alu(isa.OpAdd, isa.U32, isa.R(3), isa.R(1), isa.Imm(64)))
	if viaBarrier {
		a.emit(setp(isa.CmpEq, isa.U32, 0, isa.R(0), isa.Imm(0)))
		a.bra("noinit", isa.NotP(0))
		a.emit(mbar(isa.OpMbarInit, 0, 0, bar, isa.Imm(initCount)))
		a.label("noinit")
		a.emit(syncAll)
	}
	a.emit(isa.Instr{Op: isa.OpCpAsync, Space: isa.Shared, Space2: isa.Global,
		Ops: []isa.Operand{isa.Addr(3, 0), isa.Addr(2, 0), isa.Imm(16)}})
	if viaBarrier {
		var f isa.Flags
		if noinc {
			f = isa.FNoInc
		}
		a.emit(isa.Instr{Op: isa.OpCpAsyncMbarArrive, Space: isa.Shared, Flags: f, Ops: []isa.Operand{bar}})
		if !noinc {
			a.emit(mbar(isa.OpMbarArrive, 0, 1, isa.Sink(), bar))
		}
		a.label("w")
		a.emit(mbar(isa.OpMbarTryWait, isa.FParity, 1, isa.P(1), bar, isa.Imm(0)))
		a.bra("w", isa.NotP(1))
	} else {
		a.emit(isa.Instr{Op: isa.OpCpAsyncCommit})
		a.emit(isa.Instr{Op: isa.OpCpAsyncWait})
	}
	a.emit(isa.Instr{Op: isa.OpLd, Space: isa.Shared, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(4), isa.Addr(3, 0)}})
	a.emit(alu(isa.OpShl, isa.B32, isa.R(5), isa.R(0), isa.Imm(2)))
	a.emit(alu(isa.OpAdd, isa.U64, isa.R(5), isa.R(5), isa.Imm(0x9000)))
	a.emit(isa.Instr{Op: isa.OpSt, Space: isa.Global, Type: isa.U32, Ops: []isa.Operand{isa.Addr(5, 0), isa.R(4)}})
	a.emit(exit)
	p := a.done()
	p.SharedStatic = 64 + 16*32
	return p
}

func runCp(t *testing.T, p *isa.Program) (*fakeMem, error) {
	t.Helper()
	mem := &fakeMem{b: map[uint64]byte{}}
	for i := 0; i < 32*16; i += 4 {
		var w [4]byte
		binary.LittleEndian.PutUint32(w[:], uint32(1000+i/4))
		_ = mem.Write(0x1000+uint64(i), w[:])
	}
	s, err := New(DefaultConfig(), sim.New(), mem, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Run(&Launch{Prog: p, Block: [3]int{32, 1, 1}, Grid: [3]int{1, 1, 1}, MaxCycles: 1_000_000})
	return mem, err
}

func checkCopied(t *testing.T, mem *fakeMem) {
	t.Helper()
	for l := 0; l < 32; l++ {
		var w [4]byte
		_ = mem.Read(0x9000+uint64(4*l), w[:])
		if got, want := binary.LittleEndian.Uint32(w[:]), uint32(1000+4*l); got != want {
			t.Fatalf("lane %d: got %d, want %d", l, got, want)
		}
	}
}

func TestCpAsyncCopiesLandBeforeWaitAllReturns(t *testing.T) {
	mem, err := runCp(t, cpAsyncProg(false, false, 0))
	if err != nil {
		t.Fatal(err)
	}
	checkCopied(t, mem)
}

// cp.async.mbarrier.arrive (without .noinc): the count covers only the
// threads' own arrivals; the instruction adds one and the asynchronous
// arrival removes it when the copies have landed.
func TestCpAsyncMbarrierArriveCompletesAfterCopiesLand(t *testing.T) {
	mem, err := runCp(t, cpAsyncProg(true, false, 32))
	if err != nil {
		t.Fatal(err)
	}
	checkCopied(t, mem)
}

// With .noinc the init count must include the asynchronous arrivals.
func TestCpAsyncMbarrierArriveNoIncCountsInInit(t *testing.T) {
	mem, err := runCp(t, cpAsyncProg(true, true, 32))
	if err != nil {
		t.Fatal(err)
	}
	checkCopied(t, mem)
}

// Catalogue #11: the immediate increment of cp.async.mbarrier.arrive must
// not push the pending count past 2^20-1.
func TestCatalogue11_CpAsyncArriveIncrementOverflowIsMisuse(t *testing.T) {
	_, err := runCp(t, cpAsyncProg(true, false, 1<<20-1))
	d, ok := err.(*Diag)
	if !ok || d.Kind != DiagMisuse || d.Code != "pending-overflow" {
		t.Fatalf("got %v, want a pending-overflow misuse diagnostic", err)
	}
}

// recordingPath is a MemoryPath that counts which entry each access took.
type recordingPath struct{ l1, l2only int }

func (p *recordingPath) Access(sim.Cycle, uint64, int, bool) (sim.Cycle, memory.Level) {
	p.l1++
	return 40, memory.L1
}

func (p *recordingPath) AccessL2(sim.Cycle, uint64, int) (sim.Cycle, memory.Level) {
	p.l2only++
	return 300, memory.L2
}

// ld.global.cg and cp.async.cg go past L1 (MemoryPath.AccessL2); the plain
// forms look up L1. A converged warp's 32 contiguous words are one line.
func TestCacheGlobalOperatorBypassesL1(t *testing.T) {
	for _, tc := range []struct {
		name       string
		flags      isa.Flags
		cp         bool
		l1, l2only int
	}{
		{"ld.global", 0, false, 1, 0},
		{"ld.global.cg", isa.FBypassL1, false, 0, 1},
		{"cp.async.ca", 0, true, 32, 0},
		{"cp.async.cg", isa.FBypassL1, true, 0, 32},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAsm(8, 1)
			a.emit(alu(isa.OpMov, isa.U32, isa.R(0), isa.Spec(isa.SLaneID)))
			a.emit(alu(isa.OpShl, isa.B32, isa.R(1), isa.R(0), isa.Imm(2)))
			a.emit(alu(isa.OpAdd, isa.U64, isa.R(2), isa.R(1), isa.Imm(0x1000)))
			if tc.cp {
				a.emit(alu(isa.OpShl, isa.B32, isa.R(3), isa.R(0), isa.Imm(4)))
				a.emit(alu(isa.OpShl, isa.B32, isa.R(2), isa.R(0), isa.Imm(4)))
				a.emit(alu(isa.OpAdd, isa.U64, isa.R(2), isa.R(2), isa.Imm(0x1000)))
				a.emit(isa.Instr{Op: isa.OpCpAsync, Space: isa.Shared, Space2: isa.Global, Flags: tc.flags,
					Ops: []isa.Operand{isa.Addr(3, 0), isa.Addr(2, 0), isa.Imm(16)}})
				a.emit(isa.Instr{Op: isa.OpCpAsyncCommit})
				a.emit(isa.Instr{Op: isa.OpCpAsyncWait})
			} else {
				a.emit(isa.Instr{Op: isa.OpLd, Space: isa.Global, Type: isa.U32, NDst: 1, Flags: tc.flags,
					Ops: []isa.Operand{isa.R(4), isa.Addr(2, 0)}})
			}
			a.emit(exit)
			p := a.done()
			p.SharedStatic = 16 * 32
			path := &recordingPath{}
			s, err := New(DefaultConfig(), sim.New(), &fakeMem{b: map[uint64]byte{}}, path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Run(&Launch{Prog: p, Block: [3]int{32, 1, 1}, Grid: [3]int{1, 1, 1}, MaxCycles: 100_000}); err != nil {
				t.Fatal(err)
			}
			if path.l1 != tc.l1 || path.l2only != tc.l2only {
				t.Errorf("%d L1 lookups and %d L2-only accesses, want %d and %d", path.l1, path.l2only, tc.l1, tc.l2only)
			}
		})
	}
}
