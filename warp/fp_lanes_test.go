package warp

import (
	"math/rand/v2"
	"testing"
)

// f32FmaV (packed lanes where the host has them) gives f32FmaLane's bits in
// every lane and leaves the same lanes to the caller: random operands from
// f32Gen (normal, subnormal, infinite, NaN, midpoint-prone), garbage above
// 32 bits, and the destination apart or the same as each source.
func TestF32FmaVMatchesItsLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 32))
	for trial := 0; trial < 20000; trial++ {
		var ops [3]Vec
		for i := range ops {
			for l := range ops[i] {
				ops[i][l] = f32Gen(rng)
				if l%8 == 7 {
					ops[i][l] |= rng.Uint64() << 32
				}
			}
		}
		var want Vec
		var wantLeft uint32
		for l := range want {
			r, ok := f32FmaLane(ops[0][l], ops[1][l], ops[2][l])
			if !ok {
				wantLeft |= 1 << l
				r = 0xdead // a lane left to the caller is not written
			}
			want[l] = r
		}
		for alias := -1; alias < 3; alias++ {
			a, b, c := ops[0], ops[1], ops[2]
			d := &Vec{}
			src := [3]*Vec{&a, &b, &c}
			if alias >= 0 {
				d = src[alias]
			}
			pre := *d
			left := f32FmaV(&a, &b, &c, d)
			for l := range d {
				w := want[l]
				if wantLeft>>l&1 != 0 {
					w = pre[l]
				}
				if d[l] != w || left != wantLeft {
					t.Fatalf("trial %d alias %d lane %d: %#x*%#x+%#x = %#x (left %#x), want %#x (left %#x)",
						trial, alias, l, ops[0][l], ops[1][l], ops[2][l], d[l], left, w, wantLeft)
				}
			}
		}
	}
}

// On a host with packed lanes (AVX2) they take every group of normal
// operands whose sums are normal and not midpoints.
func TestF32FmaWideTakesNormalSums(t *testing.T) {
	var a, b, c, d Vec
	for l := range a {
		a[l], b[l], c[l] = 0x3fc00000, 0x40000000, uint64(l%8)<<23+0x3f000000 // 1.5 * 2 + 2^(l%8-1): exact
	}
	switch rest := f32FmaWide(&a, &b, &c, &d); rest {
	case allGroups:
		t.Skip("no packed FMA lanes on this host")
	case 0:
		for l := range d {
			if r, _ := f32FmaLane(a[l], b[l], c[l]); d[l] != r {
				t.Errorf("lane %d: %#x, want %#x", l, d[l], r)
			}
		}
	default:
		t.Errorf("normal operands: groups %#x left to the per-lane loop", rest)
	}
}
