package sharedmem

import (
	"math/rand/v2"
	"testing"
)

// strided returns lane addresses lane*stride 4-byte words apart.
func strided(strideWords uint32) *[WarpSize]uint32 {
	var a [WarpSize]uint32
	for i := range a {
		a[i] = uint32(i) * strideWords * 4
	}
	return &a
}

const allLanes = ^uint32(0)

// The probe.csv smem_load_chain rows: cycles per dependent load by stride,
// minus the conflict-free 29.12 cycles, give the extra cycles per access.
func TestWavefrontsReproduceMeasuredStrides(t *testing.T) {
	cfg := DefaultConfig()
	tests := []struct {
		name        string
		strideWords uint32
		wavefronts  int
		extra       int // probe.csv cycles_per_load - 29.12
	}{
		{"stride 0 is a broadcast of one word", 0, 1, 0},
		{"stride 1 touches every bank once", 1, 1, 0},
		{"stride 2 puts two words in each even bank", 2, 2, 2},
		{"stride 4 puts four words in each bank used", 4, 4, 6},
		{"stride 8 puts eight words in each bank used", 8, 8, 14},
		{"stride 16 puts sixteen words in two banks", 16, 16, 30},
		{"stride 32 puts all 32 words in bank 0", 32, 32, 62},
		{"stride 33 is conflict free again", 33, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := cfg.Wavefronts(strided(tt.strideWords), allLanes, 4)
			if w != tt.wavefronts {
				t.Errorf("wavefronts: got %d, want %d", w, tt.wavefronts)
			}
			if got := cfg.ExtraCycles(w); got != tt.extra {
				t.Errorf("extra cycles: got %d, want %d", got, tt.extra)
			}
		})
	}
}

func TestWavefrontsPatterns(t *testing.T) {
	cfg := DefaultConfig()
	same := func(addr uint32) *[WarpSize]uint32 {
		var a [WarpSize]uint32
		for i := range a {
			a[i] = addr
		}
		return &a
	}
	bytesApart := func(n uint32) *[WarpSize]uint32 {
		var a [WarpSize]uint32
		for i := range a {
			a[i] = uint32(i) * n
		}
		return &a
	}
	tests := []struct {
		name   string
		addrs  *[WarpSize]uint32
		active uint32
		width  int
		want   int
	}{
		{"no active lanes need no wavefront", strided(32), 0, 4, 0},
		{"one active lane is one wavefront", strided(32), 1 << 7, 4, 1},
		{"inactive lanes do not conflict", strided(32), 0x1, 4, 1},
		{"two active lanes in bank 0 conflict", strided(32), 0x3, 4, 2},
		{"bytes of one word broadcast", bytesApart(0) /* all 0 */, allLanes, 1, 1},
		{"byte access of consecutive bytes shares 8 words", bytesApart(1), allLanes, 1, 1},
		{"2-byte access of consecutive halves is conflict free", bytesApart(2), allLanes, 2, 1},
		{"8-byte contiguous access takes two half-warp passes", bytesApart(8), allLanes, 8, 2},
		{"16-byte contiguous access takes four quarter-warp passes", bytesApart(16), allLanes, 16, 4},
		{"uniform 8-byte load is one wavefront", same(64), allLanes, 8, 1},
		{"uniform 16-byte load is one wavefront", same(128), allLanes, 16, 1},
		{"8-byte access with only the low half warp active is one pass", bytesApart(8), 0x0000ffff, 8, 1},
		{"8-byte stride-256B access conflicts within each half", bytesApart(256), allLanes, 8, 32},
		{"16-byte stride-32B access: two words per bank in each quarter", bytesApart(32), allLanes, 16, 8},
		{"width above 16 is treated as 16", bytesApart(16), allLanes, 64, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := cfg.Wavefronts(tt.addrs, tt.active, tt.width); got != tt.want {
				t.Errorf("got %d wavefronts, want %d", got, tt.want)
			}
		})
	}
}

func TestExtraCyclesScalesWithConfig(t *testing.T) {
	tests := []struct {
		name            string
		perConflict, wf int
		want            int
	}{
		{"zero wavefronts cost nothing", 2, 0, 0},
		{"one wavefront costs nothing", 2, 1, 0},
		{"bank conflict of 2 costs one extra step", 2, 2, 2},
		{"what-if: 3 cycles per conflict", 3, 4, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.ConflictCycles = tt.perConflict
			if got := cfg.ExtraCycles(tt.wf); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
}

func BenchmarkWavefronts(b *testing.B) {
	cfg := DefaultConfig()
	patterns := []*[WarpSize]uint32{strided(1), strided(2), strided(32), strided(33)}
	b.ReportAllocs()
	sum := 0
	for i := 0; b.Loop(); i++ {
		sum += cfg.Wavefronts(patterns[i%len(patterns)], allLanes, 4)
	}
	if sum == 0 {
		b.Fatal("no wavefronts")
	}
}

func BenchmarkWavefronts8Byte(b *testing.B) {
	cfg := DefaultConfig()
	var a [WarpSize]uint32
	for i := range a {
		a[i] = uint32(i) * 8
	}
	b.ReportAllocs()
	for b.Loop() {
		cfg.Wavefronts(&a, allLanes, 8)
	}
}

// wordWavefronts is Wavefronts counted word by word (conflictFree and
// maxWordsPerBank), whatever the alignment: what alignedWavefronts must give.
func (c Config) wordWavefronts(addrs *[WarpSize]uint32, active uint32, width int) int {
	if active == 0 {
		return 0
	}
	if c.conflictFree(addrs, active, width) {
		return 1
	}
	lanesPerPass := max(1, min(WarpSize, c.Banks/wordsPerLane(width, c.BankBytes)))
	total := 0
	for first := 0; first < WarpSize; first += lanesPerPass {
		switch mask := active & passMask(first, lanesPerPass); {
		case mask == 0:
		case c.conflictFree(addrs, mask, width):
			total++
		default:
			total += c.maxWordsPerBank(addrs, mask, width)
		}
	}
	return total
}

// Aligned accesses counted by chunks take as many wavefronts as counted
// word by word, for every width, random aligned addresses (few distinct
// chunks, so that broadcasts and conflicts both occur), random masks and
// bank geometries.
func TestAlignedWavefrontsCountWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 60))
	for i := 0; i < 20000; i++ {
		c := DefaultConfig()
		c.Banks = []int{2, 4, 16, 32, 64}[rng.IntN(5)]
		c.BankBytes = []int{4, 8}[rng.IntN(2)]
		width := []int{1, 2, 4, 8, 16}[rng.IntN(5)]
		var a [WarpSize]uint32
		span := 1 + rng.IntN(64)
		for l := range a {
			a[l] = uint32(rng.IntN(span)) * uint32(width)
		}
		active := rng.Uint32()
		if rng.IntN(2) == 0 {
			active = allLanes
		}
		if !c.aligned(&a, active, width) {
			if width <= c.Banks*c.BankBytes {
				t.Fatalf("aligned addresses %v of width %d not taken as aligned", a, width)
			}
			continue
		}
		if got, want := c.Wavefronts(&a, active, width), c.wordWavefronts(&a, active, width); got != want {
			t.Fatalf("banks %d×%d B, width %d, mask %#x, addresses %v: %d wavefronts, want %d", c.Banks, c.BankBytes, width, active, a, got, want)
		}
	}
}
