package run

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/smsim/smsim/memory"
)

// examples/wgmma_gemm.ptx, the warp-specialised GEMM docs/guide.md walks
// through: C = A·Bᵀ from f16int inputs, whose products and sums are exact, so
// every element of C must equal the integer matrix product bit for bit (a
// wrong swizzle, descriptor, fragment layout or stage hand-over moves some);
// and its barriers' report must show what the guide says it shows: the
// consumer warps waiting on full, the producer on empty.
func TestWgmmaGemmExample(t *testing.T) {
	const m, n, seedA, seedB = 128, 128, 1, 2
	for _, tc := range []struct{ stages, ktiles int }{{1, 3}, {2, 8}, {4, 8}, {3, 7}} {
		t.Run(fmt.Sprintf("S=%d,KT=%d", tc.stages, tc.ktiles), func(t *testing.T) {
			k := 64 * tc.ktiles
			tensor := func(seed int) string {
				return fmt.Sprintf("tensormap:f16,%dx128,box=64x128,swizzle=128B,fill=f16int:%d", k, seed)
			}
			j, err := Spec{Smem: fmt.Sprintf("%dKiB", 32*tc.stages+1), Launches: 1, Config: "h200", Args: []string{
				"tmA=" + tensor(seedA), "tmB=" + tensor(seedB), "C=buf:64KiB:byte:0xff",
				fmt.Sprintf("stages=%d", tc.stages), fmt.Sprintf("ktiles=%d", tc.ktiles)}}.Job("../examples/wgmma_gemm.ptx")
			if err != nil {
				t.Fatal(err)
			}
			out, err := Execute(j)
			if err != nil {
				t.Fatal(err)
			}
			if out.Err != nil {
				t.Fatal(out.Err)
			}
			got := make([]byte, m*n*4)
			if err := out.Global.Read(out.Params.Bufs["C"].Addr, got); err != nil {
				t.Fatal(err)
			}
			wrong := 0
			for r := 0; r < m; r++ {
				for c := 0; c < n; c++ {
					sum := 0 // A and B are stored K innermost: element (row, kk) is half-word row*k + kk
					for kk := 0; kk < k; kk++ {
						sum += memory.F16Int(seedA, uint64(r*k+kk)) * memory.F16Int(seedB, uint64(c*k+kk))
					}
					if g := math.Float32frombits(binary.LittleEndian.Uint32(got[4*(r*n+c):])); g != float32(sum) {
						if wrong++; wrong <= 5 {
							t.Errorf("C[%d][%d] = %v, want %d", r, c, g, sum)
						}
					}
				}
			}
			if wrong > 0 {
				t.Fatalf("%d of %d elements of C wrong", wrong, m*n)
			}
			waits := map[string]map[int]bool{"full": {}, "empty": {}}
			for _, b := range out.Result.Barriers {
				kind, _, _ := strings.Cut(b.Name, "[")
				for _, p := range b.Phases {
					for _, w := range p.Waits {
						if w.Cycles > 0 {
							waits[kind][w.Warp] = true
						}
					}
				}
			}
			for w := range waits["full"] {
				if w < 4 {
					t.Errorf("warp %d, a producer warp, waited on full", w)
				}
			}
			if len(waits["full"]) != 8 {
				t.Errorf("%d consumer warps waited on full, want all 8: %v", len(waits["full"]), waits["full"])
			}
			if len(waits["empty"]) != 1 || !waits["empty"][0] {
				t.Errorf("warps %v waited on empty, want the producer's warp 0 alone", waits["empty"])
			}
		})
	}
}
