package sass

import (
	"fmt"
	"strings"

	"github.com/smsim/smsim/isa"
)

// The warpgroup MMA instructions (docs/wgmma.md): HGMMA (f16, bf16, tf32),
// QGMMA (e4m3/e5m2) and IGMMA (s8/u8) are wgmma.mma_async, WARPGROUP.ARRIVE
// is wgmma.fence and WARPGROUP.DEPBAR.LE gsb0, N is wgmma.wait_group N. An
// xGMMA marked gsb0 closes the warp's group (commit_group after it). They
// lower to the same OpWgmma operands as the PTX form: the accumulators as
// destinations and sources, A (four registers or the descriptor pair
// URn:URn+1 of gdesc[URn]), B's descriptor URn+2:URn+3, scale-d, then
// imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b.

// lowerWarpgroup: WARPGROUP.ARRIVE and WARPGROUP.DEPBAR.LE gsb0, N.
func lowerWarpgroup(l *lowerer) error {
	switch strings.Join(l.in.Mods, ".") {
	case "ARRIVE":
		if err := l.nops(0); err != nil {
			return err
		}
		l.set(isa.OpWgmmaFence, isa.TNone, 0)
	case "DEPBAR.LE":
		if err := l.nops(2); err != nil {
			return err
		}
		if g, n := l.op(0), l.op(1); g.Kind != KindUnknown || g.Name != "gsb0" || n.Kind != KindInt || n.Int < 0 {
			return l.bad("want gsb0 and a group count, found %s, %s", g.String(), n.String())
		}
		l.set(isa.OpWgmmaWait, isa.TNone, 0, isa.Imm(uint64(l.op(1).Int)))
	default:
		return l.unsupported("WARPGROUP.%s", strings.Join(l.in.Mods, "."))
	}
	l.out.Class = isa.ClassMMA
	return nil
}

// lowerSetMaxReg: USETMAXREG.TRY_ALLOC.CTAPOOL UPn, count and
// USETMAXREG.DEALLOC.CTAPOOL count, setmaxnreg.inc and .dec: a warpgroup
// takes registers from or gives them back to its CTA's pool, TRY_ALLOC
// setting UPn when the pool had them (ptxas loops on it until it does).
// smsim's register file is no shared resource (as for the PTX form), so an
// allocation always succeeds; the count is checked as the ISA constrains
// it (24 to 256, a multiple of 8).
func lowerSetMaxReg(l *lowerer) error {
	mode := strings.Join(l.in.Mods, ".")
	if mode != "TRY_ALLOC.CTAPOOL" && mode != "DEALLOC.CTAPOOL" {
		return l.unsupported("USETMAXREG.%s", mode)
	}
	alloc := mode == "TRY_ALLOC.CTAPOOL"
	n := 1
	if alloc {
		n = 2
	}
	if err := l.nops(n); err != nil {
		return err
	}
	if c := l.op(n - 1); c.Kind != KindInt || c.Int < 24 || c.Int > 256 || c.Int%8 != 0 {
		return l.unsupported("USETMAXREG with the register count %s (24 to 256, a multiple of 8)", c.String())
	}
	l.out.Class = isa.ClassALU
	if !alloc {
		l.set(isa.OpNop, isa.TNone, 0)
		return nil
	}
	p, err := l.predDst(l.op(0))
	if err != nil {
		return err
	}
	l.set(isa.OpPLop3, isa.Pred, 2, p, isa.Sink(), isa.Imm(1), isa.Imm(1), isa.Imm(1), isa.Imm(0xff), isa.Imm(0))
	return nil
}

// gmmaTypes reads the shape and the types of an xGMMA from its modifiers.
func (l *lowerer) gmmaTypes() (n, k int, acc isa.Type, a, b isa.MMAType, sat bool, err error) {
	mods := l.in.Mods
	var m int
	if len(mods) < 2 {
		return 0, 0, 0, 0, 0, false, l.unsupported("%s without a shape and types", l.in.Op)
	}
	if _, e := fmt.Sscanf(mods[0], "%dx%dx%d", &m, &n, &k); e != nil || m != 64 {
		return 0, 0, 0, 0, 0, false, l.unsupported("%s shape %s", l.in.Op, mods[0])
	}
	typ := func(s string) isa.MMAType { t, _ := isa.ParseMMAType(strings.ToLower(s)); return t }
	rest := mods[1:]
	switch l.in.Op {
	case "HGMMA", "QGMMA":
		acc = map[string]isa.Type{"F32": isa.F32, "F16": isa.F16}[rest[0]]
		a, b = isa.MMAF16, isa.MMAF16
		switch {
		case l.in.Op == "HGMMA" && len(rest) == 2:
			a, b = typ(rest[1]), typ(rest[1])
		case l.in.Op == "QGMMA" && len(rest) == 3:
			a, b = typ(rest[1]), typ(rest[2])
		case l.in.Op == "QGMMA" || len(rest) != 1:
			acc = isa.TNone
		}
	case "IGMMA":
		acc = isa.S32
		if len(rest) == 3 && rest[2] == "SAT" {
			sat, rest = true, rest[:2]
		}
		if len(rest) != 2 {
			acc = isa.TNone
		} else {
			a, b = typ(rest[0]), typ(rest[1])
		}
	}
	if acc == isa.TNone || a == isa.MMANone || b == isa.MMANone || k != a.K() || n < 8 || n > 256 || n%8 != 0 {
		return 0, 0, 0, 0, 0, false, l.unsupported("%s.%s", l.in.Op, strings.Join(mods, "."))
	}
	return n, k, acc, a, b, sat, nil
}

// lowerGMMA: HGMMA/QGMMA/IGMMA.64xNxK.types D, [A,] gdesc[URn][.negA.negB.tnspA.tnspB], C, [scale-d,] [gsb0].
func lowerGMMA(l *lowerer) error {
	n, _, acc, a, b, sat, err := l.gmmaTypes()
	if err != nil {
		return err
	}
	ops := l.in.Operands
	if len(ops) > 0 && ops[len(ops)-1].Kind == KindUnknown && ops[len(ops)-1].Name == "gsb0" {
		l.out.Flags |= isa.FCommitGroup
		ops = ops[:len(ops)-1]
	}
	scaleD := isa.Imm(1)
	if len(ops) > 0 && isPred(&ops[len(ops)-1]) {
		scaleD = l.pred(&ops[len(ops)-1])
		ops = ops[:len(ops)-1]
	}
	if len(ops) != 3 && len(ops) != 4 {
		return l.bad("%d operands before scale-d (want D, [A,] gdesc, C)", len(ops))
	}
	d, desc, c := &ops[0], &ops[len(ops)-2], &ops[len(ops)-1]
	if desc.Kind != KindMem || desc.Name != "gdesc" {
		return l.bad("operand %s: want gdesc[URn]", desc.String())
	}
	nd := n / 2
	if acc == isa.F16 {
		nd = n / 4
	}
	x := l.out
	x.Op, x.Type, x.Mode, x.Aux, x.NDst, x.Space, x.Class = isa.OpWgmma, acc, isa.WgmmaMode(a, b), int32(n), uint8(nd), isa.Shared, isa.ClassMMA
	if sat {
		x.Flags |= isa.FSat
	}
	if !d.IsReg(GPR) || !c.IsReg(GPR) || d.Reg.IsZero() && !c.Reg.IsZero() ||
		!d.Reg.IsZero() && (!c.Reg.IsZero() && d.Reg.Num != c.Reg.Num || int(d.Reg.Num)+nd > RZ) {
		return l.bad("accumulators %s, %s: want one range of %d registers", d.String(), c.String(), nd)
	}
	if c.Reg.IsZero() { // C = RZ: no accumulator input, D = A·B whatever the scale-d operand says
		scaleD = isa.Imm(0)
	}
	x.Ops = x.Ops[:0]
	if d.Reg.IsZero() { // a group marker: no accumulators
		x.NDst, nd = 0, 0
	}
	for i := 0; i < nd; i++ {
		x.Ops = append(x.Ops, isa.R(regIndex(d.Reg)+i))
	}
	x.Ops = append(x.Ops, x.Ops[:nd]...)
	negA := strings.Contains(desc.Suffix, ".negA")
	if len(ops) == 4 {
		ar := &ops[1]
		if !ar.IsReg(GPR) || int(ar.Reg.Num)+4 > RZ {
			return l.bad("operand %s: want A's four registers", ar.String())
		}
		negA = negA || ar.Mods&ModNeg != 0
		for j := 0; j < 4; j++ {
			x.Ops = append(x.Ops, isa.R(regIndex(ar.Reg)+j))
		}
	} else {
		x.Ops = append(x.Ops, descPair(desc, 0))
	}
	x.Ops = append(x.Ops, descPair(desc, 2), scaleD, imm(negA, ^uint64(0), 1), imm(strings.Contains(desc.Suffix, ".negB"), ^uint64(0), 1),
		imm(strings.Contains(desc.Suffix, ".tnspA"), 1, 0), imm(strings.Contains(desc.Suffix, ".tnspB"), 1, 0))
	return nil
}

// descPair is the 64-bit descriptor in URn+off:URn+off+1 of gdesc[URn] (URZ: zero).
func descPair(o *Operand, off int) isa.Operand {
	if o.Desc.IsZero() {
		return isa.Imm(0)
	}
	return isa.RPair(regIndex(o.Desc) + off)
}

func imm(c bool, yes, no uint64) isa.Operand {
	if c {
		return isa.Imm(yes)
	}
	return isa.Imm(no)
}

// lowerMatrix: LDSM.16.M88{,.2,.4} Rd, [addr] and STSM.16.M88{,.2,.4} [addr], Rs
// (MT88: transposed) are ldmatrix and stmatrix .m8n8 .b16 (sm/matrix.go):
// registers Rd (Rs) to Rd+n-1, one a matrix.
func lowerMatrix(l *lowerer) error {
	mods := l.in.Mods
	if len(mods) < 2 || mods[0] != "16" || mods[1] != "M88" && mods[1] != "MT88" || len(mods) > 3 {
		return l.unsupported("%s.%s", l.in.Op, strings.Join(mods, "."))
	}
	n := 1
	if len(mods) == 3 {
		switch mods[2] {
		case "2":
			n = 2
		case "4":
			n = 4
		default:
			return l.unsupported("%s.%s", l.in.Op, strings.Join(mods, "."))
		}
	}
	if err := l.nops(2); err != nil {
		return err
	}
	op, r, at := isa.OpLdmatrix, l.op(0), l.op(1)
	if l.in.Op == "STSM" {
		op, r, at = isa.OpStmatrix, l.op(1), l.op(0)
	}
	if !r.IsReg(GPR) || r.Reg.IsZero() || int(r.Reg.Num)+n > RZ {
		return l.bad("operand %s: want the first of %d registers", r.String(), n)
	}
	a, err := l.mem(at, false)
	if err != nil {
		return err
	}
	regs := make([]isa.Operand, n)
	for i := range regs {
		regs[i] = isa.R(regIndex(r.Reg) + i)
	}
	if op == isa.OpLdmatrix {
		l.set(op, isa.B16, n, append(regs, a)...)
	} else {
		l.set(op, isa.B16, 0, append([]isa.Operand{a}, regs...)...)
	}
	l.out.Space = isa.Shared
	if mods[1] == "MT88" {
		l.out.Mode = 1
	}
	return nil
}
