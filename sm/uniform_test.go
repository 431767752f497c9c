package sm

import (
	"testing"

	"github.com/smsim/smsim/warp"
)

// uniformOn and uniform see a lane that differs wherever it is, and only
// on the lanes of the mask.
func TestUniformLanesSeeEveryLane(t *testing.T) {
	var v warp.Vec
	for l := range v {
		v[l] = 0x1234_5678_9abc
	}
	for _, mask := range []uint32{^uint32(0), 0x0000ffff, 0x80000001, 1 << 7} {
		if !uniformOn(&v, mask) || !uniform(&v, mask) {
			t.Errorf("mask %#x: equal lanes not uniform", mask)
		}
		for l := range warp.Lanes {
			w := v
			w[l] ^= 1 << 40
			in := mask>>l&1 != 0
			if got := uniformOn(&w, mask); got == in && mask&^(1<<l) != 0 {
				t.Errorf("mask %#x, lane %d differs: uniform %v", mask, l, got)
			}
			a := laneAddrs{each: &[warp.Lanes]uint32{}}
			a.each[l] = 8
			if got := a.uniformOn(mask); got == in && mask&^(1<<l) != 0 {
				t.Errorf("mask %#x, lane %d's address differs: uniform %v", mask, l, got)
			}
		}
	}
	if uniform(&v, 0) || !uniformOn(&v, 0) || !(laneAddrs{one: 8}).uniformOn(^uint32(0)) {
		t.Error("an empty mask: uniform gives false, uniformOn true; one address is uniform")
	}
}
