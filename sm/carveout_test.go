package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sim"
)

// The driver sets aside the shared memory of as many CTAs as the SM's other
// limits let reside (1 KiB reserved each), and L1 gets the rest of the
// 256 KiB: calibration/h200/sassprobe.csv l1cap rows (a one-thread CTA
// without dynamic shared memory: 208 KiB fit, 224 KiB begin to miss; with
// 16, 100 or 200 KiB: 16 KiB fit, 24 KiB begin to miss).
func TestCarveoutLeavesL1(t *testing.T) {
	p := placement{limits: DefaultConfig().Limits, smem: DefaultConfig().Smem.Capacity}
	for _, tc := range []struct {
		name            string
		threads, smem   int
		carveout, l1KiB int
	}{
		{"one thread, no shared memory: 32 CTAs of 1 KiB", 1, 0, 32 << 10, 224},
		{"one thread, 16 KiB: the largest carve-out", 1, 16 << 10, 228 << 10, 28},
		{"256 threads, 128 bytes: 8 CTAs", 256, 128, 8 * (1<<10 + 128), 240},
		{"1024 threads, 8 KiB: 2 CTAs", 1024, 8 << 10, 2 * (9 << 10), 224},
		{"64 threads, 2 KiB: 32 CTAs of 3 KiB", 64, 2 << 10, 96 << 10, 156},
	} {
		nw := (tc.threads + 31) / 32
		got := p.carveout(nw, tc.threads, tc.smem)
		if got != tc.carveout || memory.L1BytesFor(got) != tc.l1KiB<<10 {
			t.Errorf("%s: carve-out %d bytes (L1 %d KiB), want %d (L1 %d KiB)", tc.name, got,
				memory.L1BytesFor(got)>>10, tc.carveout, tc.l1KiB)
		}
	}
}

// A launch gives the memory path an empty L1 of the size its carve-out
// leaves: a second launch of a kernel that loaded a line loads it from L2.
func TestLaunchSizesAndEmptiesL1(t *testing.T) {
	h, err := memory.NewHierarchy(DefaultConfig().Mem)
	if err != nil {
		t.Fatal(err)
	}
	a := newAsm(4, 1)
	a.emit(isa.Instr{Op: isa.OpLd, Space: isa.Global, Type: isa.U32, NDst: 1,
		Ops: []isa.Operand{isa.R(1), isa.Addr(-1, int64(isa.HeapBase))}})
	a.emit(exit)
	prog := a.done()
	prog.SharedStatic = 64
	s, err := New(DefaultConfig(), sim.New(), &fakeMem{b: map[uint64]byte{}}, h)
	if err != nil {
		t.Fatal(err)
	}
	for launch := 1; launch <= 2; launch++ {
		before := h.Stats()
		if _, err := s.Run(&Launch{Prog: prog, Block: [3]int{32, 1, 1}, Grid: [3]int{1, 1, 1}}); err != nil {
			t.Fatal(err)
		}
		if d := h.Stats().Sub(before); d.L1Misses != 1 || d.L1Hits != 0 {
			t.Errorf("launch %d: %d L1 misses and %d hits, want the one line missed", launch, d.L1Misses, d.L1Hits)
		}
		// 32 CTAs of 32 threads with 64 bytes: 32 × 1088 bytes, a 64 KiB carve-out.
		if got := h.Config().L1Bytes; got != 192<<10 {
			t.Errorf("launch %d: L1 of %d KiB, want 192", launch, got>>10)
		}
	}
}
