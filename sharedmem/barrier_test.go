package sharedmem

import "testing"

func TestBarrierGuard(t *testing.T) {
	m := New(4096)
	for _, off := range []uint32{0x40, 0x200, 0xff8} {
		if err := m.MarkBarrier(off); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name string
		off  uint32
		size int
		want uint32
		ok   bool
	}{
		{"store of 4 bytes into a barrier's low half", 0x40, 4, 0x40, true},
		{"store of 4 bytes into a barrier's high half", 0x44, 4, 0x40, true},
		{"store just below the barrier", 0x3c, 4, 0, false},
		{"store just above the barrier", 0x48, 8, 0, false},
		{"16-byte store straddling into the barrier", 0x38, 16, 0x40, true},
		{"large copy reports the first barrier", 0, 4096, 0x40, true},
		{"copy across a bitmap word boundary", 0x1f0, 0x20, 0x200, true},
		{"range past the window is clipped", 0xff0, 64, 0xff8, true},
		{"range of barrier-free memory", 0x400, 0x800, 0, false},
		{"empty range", 0x40, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := m.IsBarrier(tt.off, tt.size)
			if ok != tt.ok || got != tt.want {
				t.Errorf("got (%#x, %v), want (%#x, %v)", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestBarrierMarkRules(t *testing.T) {
	m := New(64)
	if err := m.MarkBarrier(4); err == nil {
		t.Error("misaligned barrier accepted")
	}
	if err := m.MarkBarrier(64); err == nil {
		t.Error("barrier outside the window accepted")
	}
	_ = m.MarkBarrier(8)
	_ = m.MarkBarrier(8) // marking twice counts once
	if m.LiveBarriers() != 1 {
		t.Errorf("got %d live barriers, want 1", m.LiveBarriers())
	}
	m.UnmarkBarrier(8)
	m.UnmarkBarrier(8)
	m.UnmarkBarrier(3)
	if _, ok := m.IsBarrier(0, 64); ok || m.LiveBarriers() != 0 {
		t.Error("barrier still reported after UnmarkBarrier")
	}
}

func BenchmarkIsBarrierNoneLive(b *testing.B) {
	m := New(228 << 10)
	b.ReportAllocs()
	for b.Loop() {
		m.IsBarrier(0x100, 16)
	}
}
