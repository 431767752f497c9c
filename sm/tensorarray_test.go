package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/warp"
)

// A warp's share of a wgmma reads its 16 rows of A (from a descriptor) and a
// quarter of B through the shared-memory data array: 128-byte wavefronts.
func TestWgmmaShareReadsItsOperandsThroughTheArray(t *testing.T) {
	for _, tc := range []struct {
		name  string
		g     warp.Wgmma
		wants int
	}{
		{"m64n128k16 f16, A and B from shared memory", warp.Wgmma{A: isa.MMAF16, B: isa.MMAF16, N: 128, K: 16, ADesc: true}, 12},
		{"m64n128k16 f16, A from registers", warp.Wgmma{A: isa.MMAF16, B: isa.MMAF16, N: 128, K: 16}, 8},
		{"m64n256k32 e4m3", warp.Wgmma{A: isa.MMAE4M3, B: isa.MMAE4M3, N: 256, K: 32, ADesc: true}, 20},
		{"m64n8k8 tf32", warp.Wgmma{A: isa.MMATF32, B: isa.MMATF32, N: 8, K: 8, ADesc: true}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := operandWavefronts(&tc.g); got != tc.wants {
				t.Errorf("%d wavefronts, want %d", got, tc.wants)
			}
		})
	}
}

// A shared access waits in its sub-partition's MIO queue until the data
// array takes it; while smem.queue of them wait there, the sub-partition's
// shared instructions do not issue (calibration/h200/stg_wgmma.cu: STS
// beside a wgmma stream go at the pace of the array cycles the wgmmas
// leave).
func TestAccessesWaitForTheArrayInTheMIOQueue(t *testing.T) {
	u, sc := newTestLSU(nil)
	q := u.spec.smem.Queue
	u.smemFree = 500
	for k := 1; k <= q; k++ {
		u.shared(10, sc, strided(4), warp.FullMask, 4, false)
		full := sc.pipeFree[isa.ClassShared] >= 500
		if full != (k == q) {
			t.Errorf("after %d accesses waiting for the array (queue %d): shared issue at %d", k, q, sc.pipeFree[isa.ClassShared])
		}
	}
	if got := sc.pipeFree[isa.ClassShared]; got != 500 {
		t.Errorf("a full queue: shared issue resumes at %d, want 500, when the array takes the first", got)
	}
	v, sv := newTestLSU(nil)
	v.shared(10, sv, strided(4), warp.FullMask, 4, false)
	if sv.pipeFree[isa.ClassShared] > 11 {
		t.Errorf("an idle array: shared issue at %d, want it not held", sv.pipeFree[isa.ClassShared])
	}
}

// The tensor cores' operand reads take their share of the array from the
// shared pipes' accesses only; a bulk store's reads from every access.
func TestTensorReadsStretchSharedAccessesOnly(t *testing.T) {
	u, _ := newTestLSU(nil)
	u.shareArray(0, 100, 200, 75, true)
	if got := u.arrayCycles(0, 150, 2, true); got != 8 {
		t.Errorf("2 cycles of a shared access beside three quarters of tensor reads: %d, want 8", got)
	}
	if got := u.arrayCycles(0, 150, 2, false); got != 2 {
		t.Errorf("2 cycles of a global access beside tensor reads: %d, want 2", got)
	}
	u.shareArray(0, 100, 200, 50, false)
	if got := u.arrayCycles(0, 150, 2, false); got != 4 {
		t.Errorf("2 cycles of a global access beside a bulk store's half: %d, want 4", got)
	}
}
