package run

import (
	"encoding/binary"
	"math"
	"strconv"
	"testing"
)

// Branch probes of one warp, from their SASS, against the H200
// (testdata/cuda/branch): each row's mode (first column) is the kernel's
// first argument, its cycles (second) must come within tol(mode) of the
// H200's and its result x (third) be the H200's bit for bit unless
// skipX(mode).
//
//   - brx_probe.cu: a dependent chain through a loop-carried switch (the jump
//     table's constant load and BRX a trip), an indexed __constant__ table
//     (mode 2: its x is not checked, the launch cannot fill the table), a
//     data-dependent if/else and the loop alone, within 4 %;
//   - bsync_probe.cu: trips that reconverge (BSSY/BSYNC) after a
//     data-dependent inner loop, from one lane of a warp whose others
//     exited, the whole warp converged, the whole warp diverging (within
//     8 %: smsim 6.6 % fast there) and one lane without the inner loop,
//     within 4 %.
func TestBranchProbesMatchH200(t *testing.T) {
	for _, p := range []struct {
		name, kernel string
		tol          func(mode string) float64
		skipX        func(mode string) bool
	}{
		{"brx_probe", "_Z9brx_probeijPxPj", func(string) float64 { return 0.04 }, func(m string) bool { return m == "2" }},
		{"bsync_probe", "_Z11bsync_probeijPxPj", func(m string) float64 {
			if m == "2" {
				return 0.08
			}
			return 0.04
		}, func(string) bool { return false }},
	} {
		file := "../testdata/cuda/branch/" + p.name + ".sass"
		for _, r := range csvRows(t, "../testdata/cuda/branch/"+p.name+".csv") {
			mode := r[0]
			want, _ := strconv.ParseInt(r[1], 10, 64)
			t.Run(p.name+"/mode"+mode, func(t *testing.T) {
				spec := Spec{Kernel: p.kernel, Block: "32", Grid: "1", Launches: 3, Config: "h200",
					Args: []string{mode, "12345", "buf:8", "buf:4"}}
				got := int64(binary.LittleEndian.Uint64(runBuffer(t, spec, file, "2", 8)))
				if e := float64(got-want) / float64(want); math.Abs(e) > p.tol(mode) {
					t.Errorf("%d cycles, the H200 %d (%+.1f %%): want within %.0f %%", got, want, 100*e, 100*p.tol(mode))
				}
				if p.skipX(mode) {
					return
				}
				x := binary.LittleEndian.Uint32(runBuffer(t, spec, file, "3", 4))
				if s := strconv.FormatUint(uint64(x), 10); s != r[2] {
					t.Errorf("x = %s, the H200 %s", s, r[2])
				}
			})
		}
	}
}
