package warp

// Lane kernels of the commonest converged integer operations, unrolled four
// lanes a step: Go does not unroll loops, and a 32-lane loop of one add
// spends more on its own step and test than on the add (a 2.4x difference
// measured on the add alone; docs/performance.md). r may be a or b.

func addImmV(a *Vec, imm uint64, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]+imm, a[l+1]+imm, a[l+2]+imm, a[l+3]+imm
	}
}

func subImmV(a *Vec, imm uint64, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]-imm, a[l+1]-imm, a[l+2]-imm, a[l+3]-imm
	}
}

func andImmV(a *Vec, imm uint64, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]&imm, a[l+1]&imm, a[l+2]&imm, a[l+3]&imm
	}
}

func orImmV(a *Vec, imm uint64, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]|imm, a[l+1]|imm, a[l+2]|imm, a[l+3]|imm
	}
}

func xorImmV(a *Vec, imm uint64, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]^imm, a[l+1]^imm, a[l+2]^imm, a[l+3]^imm
	}
}

func mulImmV(a *Vec, imm uint64, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]*imm, a[l+1]*imm, a[l+2]*imm, a[l+3]*imm
	}
}

// madImmV is r = a*imm + c (c a register).
func madImmV(a *Vec, imm uint64, c, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]*imm+c[l], a[l+1]*imm+c[l+1], a[l+2]*imm+c[l+2], a[l+3]*imm+c[l+3]
	}
}

// madImmImmV is r = a*imm + k.
func madImmImmV(a *Vec, imm, k uint64, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]*imm+k, a[l+1]*imm+k, a[l+2]*imm+k, a[l+3]*imm+k
	}
}

func addV(a, b, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]+b[l], a[l+1]+b[l+1], a[l+2]+b[l+2], a[l+3]+b[l+3]
	}
}

func subV(a, b, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]-b[l], a[l+1]-b[l+1], a[l+2]-b[l+2], a[l+3]-b[l+3]
	}
}

func andV(a, b, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]&b[l], a[l+1]&b[l+1], a[l+2]&b[l+2], a[l+3]&b[l+3]
	}
}

func orV(a, b, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]|b[l], a[l+1]|b[l+1], a[l+2]|b[l+2], a[l+3]|b[l+3]
	}
}

func xorV(a, b, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]^b[l], a[l+1]^b[l+1], a[l+2]^b[l+2], a[l+3]^b[l+3]
	}
}

// maskV keeps the low bits m of every lane.
func maskV(r *Vec, m uint64) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = r[l]&m, r[l+1]&m, r[l+2]&m, r[l+3]&m
	}
}

// andMaskV is r = v & m.
func andMaskV(v *Vec, m uint64, r *Vec) {
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = v[l]&m, v[l+1]&m, v[l+2]&m, v[l+3]&m
	}
}
