package run

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"testing"
)

// A wgmma's latency does not grow with the time the tensor pipe has been
// idle (testdata/cuda/wgmma/wgmma_idle.cu on the H200: one m64n8k16 wgmma,
// committed and waited, 130 cycles as the kernel's first and 58 after gaps
// of 0 to a million cycles): smsim gives the first and the later ones
// within 20 % of those, whatever the gap.
func TestWgmmaAfterIdleMatchesH200(t *testing.T) {
	rows := wgmmaCSV(t, "wgmma_idle.csv")
	want := map[string]float64{}
	for _, r := range rows {
		v, _ := strconv.ParseFloat(r[4], 64)
		want[r[1]+","+r[2]] = v
	}
	for _, gap := range []int{0, 1000, 100000} {
		b := runBuffer(t, Spec{Kernel: fmt.Sprintf("_Z6k_idleILi%dEEvPx", gap), Block: "128", Grid: "1", Launches: 2,
			Config: "h200", Args: []string{"buf:64"}}, "../testdata/cuda/wgmma/wgmma_idle.sass", "0", 24)
		for i, which := range []string{"first", "second", "third"} {
			got := float64(binary.LittleEndian.Uint64(b[8*i:]))
			w := want[fmt.Sprintf("gap%d,%s", gap, which)]
			if w == 0 {
				t.Fatalf("gap%d,%s: not in wgmma_idle.csv", gap, which)
			}
			if e := (got - w) / w; math.Abs(e) > 0.2 {
				t.Errorf("gap %d, %s wgmma: %.0f cycles, the H200 %.0f (%+.1f %%)", gap, which, got, w, 100*e)
			}
		}
	}
}
