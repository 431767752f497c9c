package run

import (
	"encoding/binary"
	"math"
	"strconv"
	"testing"
)

// A dependent chain through a loop-carried switch, against the H200
// (testdata/cuda/branch/brx_probe.cu, from its SASS): the jump table's
// constant load and the indirect branch (BRX) a trip, an indexed constant
// table, a data-dependent if/else and the loop alone, each within 4 % of
// the H200's cycles, and x, the chain's result, the H200's bit for bit
// where it does not read the __constant__ table (which the launch cannot
// fill).
func TestSwitchInALoopMatchesH200(t *testing.T) {
	for _, r := range csvRows(t, "../testdata/cuda/branch/brx_probe.csv") {
		mode := r[0]
		want, _ := strconv.ParseInt(r[1], 10, 64)
		t.Run("mode"+mode, func(t *testing.T) {
			spec := Spec{Kernel: "_Z9brx_probeijPxPj", Block: "32", Grid: "1", Launches: 3, Config: "h200",
				Args: []string{mode, "12345", "buf:8", "buf:4"}}
			b := runBuffer(t, spec, "../testdata/cuda/branch/brx_probe.sass", "2", 8)
			got := int64(binary.LittleEndian.Uint64(b))
			if e := float64(got-want) / float64(want); math.Abs(e) > 0.04 {
				t.Errorf("%d cycles, the H200 %d (%+.1f %%): want within 4 %%", got, want, 100*e)
			}
			if mode == "2" {
				return
			}
			x := runBuffer(t, spec, "../testdata/cuda/branch/brx_probe.sass", "3", 4)
			if got := strconv.FormatUint(uint64(binary.LittleEndian.Uint32(x)), 10); got != r[2] {
				t.Errorf("x = %s, the H200 %s", got, r[2])
			}
		})
	}
}
