package warp

import (
	"math/rand/v2"
	"testing"
)

// The unrolled lane kernels agree with one-lane-at-a-time loops, with the
// destination apart from the sources and aliasing each of them.
func TestUnrolledLaneKernelsMatchPerLaneLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func() Vec {
		var v Vec
		for l := range v {
			v[l] = rng.Uint64()
		}
		return v
	}
	imm, k, m := rng.Uint64(), rng.Uint64(), uint64(0xffffffff)
	type kernel struct {
		name string
		run  func(a, b, r *Vec)
		want func(a, b uint64) uint64
	}
	kernels := []kernel{
		{"addImm", func(a, _, r *Vec) { addImmV(a, imm, r) }, func(a, _ uint64) uint64 { return a + imm }},
		{"subImm", func(a, _, r *Vec) { subImmV(a, imm, r) }, func(a, _ uint64) uint64 { return a - imm }},
		{"andImm", func(a, _, r *Vec) { andImmV(a, imm, r) }, func(a, _ uint64) uint64 { return a & imm }},
		{"orImm", func(a, _, r *Vec) { orImmV(a, imm, r) }, func(a, _ uint64) uint64 { return a | imm }},
		{"xorImm", func(a, _, r *Vec) { xorImmV(a, imm, r) }, func(a, _ uint64) uint64 { return a ^ imm }},
		{"mulImm", func(a, _, r *Vec) { mulImmV(a, imm, r) }, func(a, _ uint64) uint64 { return a * imm }},
		{"madImm", func(a, b, r *Vec) { madImmV(a, imm, b, r) }, func(a, b uint64) uint64 { return a*imm + b }},
		{"madImmImm", func(a, _, r *Vec) { madImmImmV(a, imm, k, r) }, func(a, _ uint64) uint64 { return a*imm + k }},
		{"add", addV, func(a, b uint64) uint64 { return a + b }},
		{"sub", subV, func(a, b uint64) uint64 { return a - b }},
		{"and", andV, func(a, b uint64) uint64 { return a & b }},
		{"or", orV, func(a, b uint64) uint64 { return a | b }},
		{"xor", xorV, func(a, b uint64) uint64 { return a ^ b }},
		{"andMask", func(a, _, r *Vec) { andMaskV(a, m, r) }, func(a, _ uint64) uint64 { return a & m }},
		{"mask", func(a, _, r *Vec) { *r = *a; maskV(r, m) }, func(a, _ uint64) uint64 { return a & m }},
	}
	for _, kn := range kernels {
		for _, alias := range []string{"none", "r=a", "r=b"} {
			a, b := random(), random()
			var want Vec
			for l := range want {
				want[l] = kn.want(a[l], b[l])
			}
			var r Vec
			switch alias {
			case "none":
				kn.run(&a, &b, &r)
			case "r=a":
				kn.run(&a, &b, &a)
				r = a
			case "r=b":
				if kn.name == "mask" {
					continue // maskV works in place only
				}
				kn.run(&a, &b, &b)
				r = b
			}
			if r != want {
				t.Errorf("%s (%s): lanes differ from the per-lane loop", kn.name, alias)
			}
		}
	}
}

// cmpMaskImm's unrolled, branch-free form agrees with a per-lane loop for
// every unsigned order, with and without the sign flip.
func TestCmpMaskImmMatchesPerLaneCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var x Vec
	for l := range x {
		x[l] = rng.Uint64N(8) // small values: many equal to y
	}
	for _, flip := range []uint64{0, 1 << 63} {
		for y := uint64(0); y < 8; y++ {
			for u, f := range map[ucmp]func(a, b uint64) bool{
				uEq: func(a, b uint64) bool { return a == b }, uNe: func(a, b uint64) bool { return a != b },
				uLt: func(a, b uint64) bool { return a < b }, uLe: func(a, b uint64) bool { return a <= b },
				uGt: func(a, b uint64) bool { return a > b }, uGe: func(a, b uint64) bool { return a >= b },
			} {
				var want uint32
				for l := range x {
					if f(x[l]^flip, y) {
						want |= 1 << l
					}
				}
				if got := cmpMaskImm(u, &x, flip, y); got != want {
					t.Errorf("cmp %d flip %x y %d: %08x, want %08x", u, flip, y, got, want)
				}
			}
		}
	}
}
