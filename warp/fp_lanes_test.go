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

// The packed lanes leave a group to the per-lane loop exactly when one of
// its sums is below f32's normal range but not zero (float64 exponent below
// 897), infinite or NaN, or an f32 midpoint: the edges of each test, one
// lane of group 3 at a time; a zero sum, of either sign, is theirs.
func TestF32FmaWideLeavesTheEdges(t *testing.T) {
	const minNormal, one = 0x00800000, 0x3f800000
	cases := []struct {
		name    string
		a, b, c uint64
		left    bool
	}{
		{"smallest normal sum", minNormal, one, 0, false},
		{"half the smallest normal", minNormal, 0x3f000000, 0, true},
		{"just below the smallest normal", 0x00ffffff, 0x3f000000, 0, true},
		{"subnormal operand, normal sum", 0x00000001, one, minNormal, false},
		{"zero", 0, one, 0, false},
		{"negative zero", 0x80000000, one, 0x80000000, false},
		{"cancelling", one, one, 0xbf800000, false},
		{"cancelling to the smallest subnormal", 0x00800001, one, 0x80800000, true},
		{"negative smallest normal", 0x80800000, one, 0, false},
		{"largest product", 0x7f7fffff, 0x7f7fffff, 0, false},
		{"negative largest product", 0xff7fffff, 0x7f7fffff, 0, false},
		{"infinity", 0x7f800000, one, 0, true},
		{"NaN", 0x7fc00000, one, 0, true},
		{"negative infinity", one, 0xff800000, 0, true},
		{"midpoint", one, one, 0x33800000, true},               // 1 + 2^-24
		{"a quarter past", 0x3f800001, one, 0x33000000, false}, // 1 + 2^-23 + 2^-25
	}
	for _, tc := range cases {
		var a, b, c, d Vec
		for l := range a {
			a[l], b[l], c[l] = 0x3fc00000, 0x40000000, 0x3f000000 // 1.5 * 2 + 0.5
		}
		a[13], b[13], c[13] = tc.a, tc.b, tc.c
		rest := f32FmaWide(&a, &b, &c, &d)
		if rest == allGroups {
			t.Skip("no packed FMA lanes on this host")
		}
		want := uint32(0)
		if tc.left {
			want = 1 << 3
		}
		if rest != want {
			t.Errorf("%s: groups %#x left, want %#x", tc.name, rest, want)
		}
		for l := range d {
			if rest>>(l/4)&1 != 0 {
				continue
			}
			if r, ok := f32FmaLane(a[l], b[l], c[l]); !ok || d[l] != r {
				t.Errorf("%s: lane %d: %#x, want %#x", tc.name, l, d[l], r)
			}
		}
	}
}

// f32AddV and f32MulV (packed lanes where the host has them) give the Go
// loops' bits in every lane: random operands from f32Gen (normal,
// subnormal, infinite, NaN with any payload), zeros of either sign,
// garbage above 32 bits, and the destination apart or the same as either
// source.
func TestF32AddMulVMatchTheirLanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 32))
	edges := []uint64{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001, 1, 0x807fffff,
		0x7f7fffff, 0xff7fffff, 0x00800000}
	for _, op := range []struct {
		name        string
		wide, lanes func(a, b, d *Vec)
	}{{"add", f32AddV, f32AddLanes}, {"mul", f32MulV, f32MulLanes}} {
		for trial := 0; trial < 20000; trial++ {
			var a, b Vec
			for l := range a {
				a[l], b[l] = f32Gen(rng), f32Gen(rng)
				if rng.IntN(8) == 0 {
					a[l] = edges[rng.IntN(len(edges))]
				}
				if rng.IntN(8) == 0 {
					b[l] = edges[rng.IntN(len(edges))]
				}
				if l%8 == 7 {
					a[l] |= rng.Uint64() << 32
					b[l] |= rng.Uint64() << 33
				}
			}
			var want Vec
			op.lanes(&a, &b, &want)
			for alias := -1; alias < 2; alias++ {
				x, y := a, b
				d := &Vec{}
				if alias == 0 {
					d = &x
				} else if alias == 1 {
					d = &y
				}
				op.wide(&x, &y, d)
				if *d != want {
					for l := range d {
						if d[l] != want[l] {
							t.Fatalf("%s trial %d alias %d lane %d: %#x, %#x = %#x, want %#x", op.name, trial, alias, l, a[l], b[l], d[l], want[l])
						}
					}
				}
			}
		}
	}
}
