package run

import (
	"encoding/binary"
	"math"
	"strconv"
	"testing"
)

// Bulk-copy streams of every size and count a stage, alone, against the
// H200 (testdata/cuda/wgmma/copy_wgmma.cu, from its SASS): 1 MiB through a
// ring of four slots, paced by the copying thread's loop (a stage's copies
// are in flight about 1,500 cycles). Beside a wgmma stream the H200 slows each such
// stream by about 2,100 cycles, its stages' cadence by a quarter
// (copy_wgmma2.csv: 443 → 551 cycles); smsim does not (docs/model.md,
// "Beside a wgmma stream"), so only the copies alone are held.
func TestCopyStreamsAloneMatchH200(t *testing.T) {
	for _, r := range wgmmaCSV(t, "copy_wgmma.csv") {
		wg, fill := r[0], r[4]
		if wg != "0" || fill != "1" {
			continue
		}
		want, _ := strconv.ParseInt(r[6], 10, 64)
		t.Run("tensor"+r[1]+"_size"+r[2]+"_cps"+r[3], func(t *testing.T) {
			b := runBuffer(t, Spec{Kernel: "copy_wgmma", Block: "256", Grid: "1", Smem: "157696", Launches: 3, Config: "h200",
				Args: []string{
					"tensormap:f16,1024x512,box=64x64,swizzle=128B,l2=none,buf=2",
					"tensormap:f16,1024x512,box=64x128,swizzle=128B,l2=none,buf=2",
					"buf:1048576:byte:1", "0", r[1], r[2], r[3], "buf:16", "buf:8"}},
				"../testdata/cuda/wgmma/copy_wgmma.sass", "7", 16)
			got := int64(binary.LittleEndian.Uint64(b[8:]))
			if e := float64(got-want) / float64(want); math.Abs(e) > 0.04 {
				t.Errorf("copy stream: %d cycles, the H200 %d (%+.1f %%): want within 4 %%", got, want, 100*e)
			}
		})
	}
}
