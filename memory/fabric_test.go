package memory

import (
	"testing"

	"github.com/smsim/smsim/sim"
)

// TestFabricSharesBandwidthBetweenSMs: SMs of one GPU take turns at the
// L2 partitions and DRAM (gpu.l2_bytes_per_cycle, gpu.dram_bytes_per_cycle),
// so two SMs streaming at once finish later than one; a lone SM has no
// fabric and keeps the one-SM timing.
func TestFabricSharesBandwidthBetweenSMs(t *testing.T) {
	cfg := DefaultConfig()
	cfg.GPUDRAMBytesPerCycle = 64 // narrower than one SM's link, so that one SM meets it too
	cfg.GPUL2BytesPerCycle = 128
	const size = 64 << 10
	for _, tc := range []struct {
		name     string
		sms      int
		addr     uint64
		wantWait bool
	}{
		{"lone SM, DRAM", 1, 0, false},
		{"two SMs, DRAM", 2, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lone, err := NewHierarchy(cfg)
			if err != nil {
				t.Fatal(err)
			}
			ref, _ := NewHierarchy(cfg) // the same request with no other SM
			want, _ := ref.Stream(0, tc.addr, size)
			hs := []*Hierarchy{lone}
			for len(hs) < tc.sms {
				hs = append(hs, lone.Sibling())
			}
			var last sim.Cycle
			for i, h := range hs {
				r, _ := h.Stream(0, tc.addr+uint64(i)*size, size)
				last = max(last, r)
			}
			if waited := last > want; waited != tc.wantWait {
				t.Errorf("last ready %d, alone %d: waited %v, want %v", last, want, waited, tc.wantWait)
			}
		})
	}
}

// TestFabricWaitIsQueueing: a request waits for the bytes of earlier ones
// at bytes-per-cycle, and not before they arrive.
func TestFabricWaitIsQueueing(t *testing.T) {
	var free fixed
	for _, tc := range []struct {
		t    sim.Cycle
		n    int
		want sim.Cycle
	}{
		{10, 1000, 0},  // busy until 20
		{10, 1000, 10}, // waits for the first, busy until 30
		{50, 100, 0},   // idle again
		{50, 200, 1},
	} {
		if got := wait(&free, tc.t, tc.n, 100); got != tc.want {
			t.Errorf("wait(%d, %d) = %d, want %d", tc.t, tc.n, got, tc.want)
		}
	}
}

// TestSiblingHasTheLoneSMsL1Path: another SM of the GPU gets an L1 and a
// TLB of its own, so a load that hits in its L1
// costs what it costs on a lone SM.
func TestSiblingHasTheLoneSMsL1Path(t *testing.T) {
	lone, err := NewHierarchy(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	sib := lone.Sibling()
	for _, h := range []*Hierarchy{lone, sib} {
		h.Access(0, 1<<20, 4, false) // fill L1 and the TLB
	}
	a, la := lone.Access(1000, 1<<20, 4, false)
	b, lb := sib.Access(1000, 1<<20, 4, false)
	if a != b || la != lb || la != L1 {
		t.Errorf("an L1 hit: lone SM %d cycles (%v), sibling %d (%v)", a, la, b, lb)
	}
}
