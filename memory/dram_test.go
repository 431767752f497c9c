package memory

import (
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// A bulk read's L2 misses queue at the DRAM channel their span of
// DRAMChannelBytes maps to; spans on different channels are served side by
// side, so a read is as slow as its fullest span (microbench.csv: 49
// B/cycle within one 16 KiB span).
func TestDRAMChannelsServeSpansSideBySide(t *testing.T) {
	const span, rate = 16 << 10, 49
	tests := []struct {
		name      string
		off, size int
		fullest   int // bytes of the read in its fullest span
	}{
		{"16 KiB in one span", 0, 16 << 10, 16 << 10},
		{"16 KiB across two spans", 8 << 10, 16 << 10, 8 << 10},
		{"4 KiB", 0, 4 << 10, 4 << 10},
		{"16 B", 0, 16, 32}, // a whole sector misses
	}
	fast := func(c *Config) { c.L2BytesPerCycle, c.DRAMBytesPerCycle = 1<<20, 1<<20 }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			with := newTestHierarchy(t, func(c *Config) { fast(c); c.DRAMChannelBytes, c.DRAMChannelBytesPerCycle = span, rate })
			without := newTestHierarchy(t, func(c *Config) { fast(c); c.DRAMChannelBytes = 0 })
			a := isa.HeapBase + uint64(tt.off)
			with.translate(a, tt.size) // warm TLBs: only DRAM differs
			without.translate(a, tt.size)
			const at = 1000
			got, _ := with.Stream(at, a, tt.size)
			base, _ := without.Stream(at, a, tt.size)
			want := base - 1 + sim.Cycle((tt.fullest+rate-1)/rate)
			if got != want {
				t.Errorf("ready at %d, want %d (without channels %d)", got, want, base)
			}
		})
	}
}

// Channels are this SM's: another read of the same span waits for the
// first, one of another span does not.
func TestDRAMChannelQueues(t *testing.T) {
	h := newTestHierarchy(t, func(c *Config) { c.L2BytesPerCycle, c.DRAMBytesPerCycle = 1<<20, 1<<20 })
	cfg := h.Config()
	a := isa.HeapBase
	h.translate(a, 2*cfg.DRAMChannelBytes)
	first, _ := h.Stream(0, a, 8<<10)
	same, _ := h.Stream(0, a+8<<10, 8<<10)                         // the rest of the span: queues behind it
	other, _ := h.Stream(0, a+uint64(cfg.DRAMChannelBytes), 8<<10) // the next channel: does not
	if same <= first || other != first {
		t.Errorf("first %d, same span %d (want later), next span %d (want %d)", first, same, other, first)
	}
}
