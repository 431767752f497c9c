package warp

import (
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// refCmp is the comparison as the PTX ISA defines it, written plainly: the
// signed orders on int64, the unsigned ones (and lo/ls/hi/hs) on uint64.
func refCmp(op isa.CmpOp, x, y uint64, signed bool) bool {
	a, b := int64(x), int64(y)
	switch op {
	case isa.CmpEq:
		return x == y
	case isa.CmpNe:
		return x != y
	case isa.CmpLo:
		return x < y
	case isa.CmpLs:
		return x <= y
	case isa.CmpHi:
		return x > y
	case isa.CmpHs:
		return x >= y
	case isa.CmpLt:
		return signed && a < b || !signed && x < y
	case isa.CmpLe:
		return signed && a <= b || !signed && x <= y
	case isa.CmpGt:
		return signed && a > b || !signed && x > y
	case isa.CmpGe:
		return signed && a >= b || !signed && x >= y
	}
	return false
}

// The integer comparisons (unsigned form, sign bit flipped; scalar and
// lane-parallel) agree with the plain definition for every comparison,
// integer type and a mix of edge and random values.
func TestLaneComparisonsMatchTheScalarDefinition(t *testing.T) {
	ops := []isa.CmpOp{isa.CmpEq, isa.CmpNe, isa.CmpLt, isa.CmpLe, isa.CmpGt, isa.CmpGe,
		isa.CmpLo, isa.CmpLs, isa.CmpHi, isa.CmpHs}
	types := []isa.Type{isa.S8, isa.U8, isa.S16, isa.U16, isa.S32, isa.U32, isa.B32, isa.S64, isa.U64, isa.B64}
	edges := []uint64{0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff,
		1 << 63, 1<<63 - 1, ^uint64(0), 0xdeadbeefcafebabe}
	r := rand.New(rand.NewPCG(1, 2))
	for _, typ := range types {
		e := extOf(typ)
		for _, op := range ops {
			for round := 0; round < 20; round++ {
				var a, b Vec
				for l := range a {
					a[l], b[l] = r.Uint64(), r.Uint64()
					if l < len(edges) {
						a[l] = edges[l]
						b[l] = edges[(l+round)%len(edges)]
					}
				}
				imm := edges[round%len(edges)]
				if round >= len(edges) {
					imm = r.Uint64()
				}
				got, gotImm := cmpLanes(op, &a, &b, e), cmpLanesImm(op, &a, imm, e)
				for l := range a {
					want := refCmp(op, e.of(a[l]), e.of(b[l]), e.signed)
					wantImm := refCmp(op, e.of(a[l]), e.of(imm), e.signed)
					if cmpInt(op, e.of(a[l]), e.of(b[l]), e.signed) != want ||
						got>>l&1 == 1 != want || gotImm>>l&1 == 1 != wantImm {
						t.Fatalf("cmp %d on %s, lane %d: a=%#x b=%#x imm=%#x: got %t/%t, want %t/%t",
							op, typ, l, a[l], b[l], imm, got>>l&1 == 1, gotImm>>l&1 == 1, want, wantImm)
					}
				}
			}
		}
	}
}

// The packed compares (where the host has them) and the Go lane loops of
// cmpShifted agree for every comparison, each shift of an integer type, both
// flips, and lanes equal, one apart and random.
func TestCmpShiftedPackedMatchesTheLaneLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for u := uNone; u <= uGe; u++ {
		for _, sh := range []uint{0, 32, 48, 56} {
			for _, flip := range []uint64{0, 1 << 63} {
				for round := 0; round < 20; round++ {
					var a, b Vec
					for l := range a {
						a[l] = r.Uint64() >> r.IntN(64)
						switch l % 4 {
						case 0:
							b[l] = a[l]
						case 1:
							b[l] = a[l] + 1<<sh>>sh
						default:
							b[l] = r.Uint64() >> r.IntN(64)
						}
					}
					if got, want := cmpShifted(u, &a, &b, sh, flip), cmpShiftedLanes(u, &a, &b, sh, flip); got != want {
						t.Fatalf("compare %d, shift %d, flip %#x: %#x, the lane loops %#x", u, sh, flip, got, want)
					}
				}
			}
		}
	}
}
