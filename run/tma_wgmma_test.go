package run

import (
	"encoding/binary"
	"math"
	"strconv"
	"testing"
)

// A wgmma stream, the held-out GEMM's copy ring and its epilogue's stores,
// alone and together, against the H200 (testdata/cuda/wgmma/tma_wgmma.cu,
// from its SASS). Held here: the wgmma stream in every mix (the tensor
// pipes are not slowed by the copies or by the stores beyond 6 %), the
// copies alone and beside the stores, and the stores beside the copies.
// Not modelled, so not held (docs/model.md, "Beside a wgmma stream"): on
// the H200 the wgmmas slow the copies by 12 % (tensor boxes) to 21 % (1-D)
// and three warps' one-sector stores by 76 %; smsim slows neither.
func TestCopyRingBesideWgmmaMatchesH200(t *testing.T) {
	h200 := byMode(wgmmaCSV(t, "tma_wgmma.csv"))
	const wgmma, copies, stores = 0, 1, 2
	for _, c := range []struct {
		mode int
		name string
		held []int // the agents' columns held within tol
		tol  float64
	}{
		{1, "wgmma alone", []int{wgmma}, 0.02},
		{2, "1-D copies alone", []int{copies}, 0.05},
		{4, "tensor copies alone", []int{copies}, 0.05},
		{6, "unswizzled tensor copies alone", []int{copies}, 0.05},
		{3, "wgmma beside 1-D copies", []int{wgmma}, 0.05},
		{5, "wgmma beside tensor copies", []int{wgmma}, 0.05},
		{9, "wgmma beside stores", []int{wgmma}, 0.05},
		{12, "tensor copies and stores", []int{copies, stores}, 0.05},
		{13, "wgmma, tensor copies and stores", []int{wgmma, copies}, 0.05},
		{11, "wgmma, 1-D copies and stores", []int{wgmma, copies}, 0.07},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := runBuffer(t, Spec{Kernel: "tma_wgmma", Block: "256", Grid: "1", Smem: "123904", Launches: 3, Config: "h200",
				Args: []string{
					"tensormap:f16,1024x512,box=64x64,swizzle=128B,l2=none,buf=4",
					"tensormap:f16,1024x512,box=64x128,swizzle=128B,l2=none,buf=4",
					"tensormap:f16,1024x512,box=64x64,l2=none,buf=4",
					"tensormap:f16,1024x512,box=64x128,l2=none,buf=4",
					"buf:1048576:byte:1", strconv.Itoa(c.mode), "buf:8388608", "buf:24", "buf:8"}},
				"../testdata/cuda/wgmma/tma_wgmma.sass", "7", 24)
			want := h200[c.mode]
			for _, i := range c.held {
				got := int64(binary.LittleEndian.Uint64(b[8*i:]))
				if e := float64(got-want[i]) / float64(want[i]); math.Abs(e) > c.tol {
					t.Errorf("%s: %d cycles, the H200 %d (%+.1f %%): want within %.0f %%",
						[]string{"wgmma stream", "copy ring", "stores"}[i], got, want[i], 100*e, 100*c.tol)
				}
			}
		})
	}
}
