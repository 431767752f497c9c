package run

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/warp"
)

// The fast paths of a converged warp (the in-place integer forms, the
// packed float lanes, the lane kernels) compute what the lane-by-lane
// paths of a divergent one do: every register-to-register instruction of
// the kernels nvcc wrote that this repository keeps (PTX as the compiler
// model lowers it, and SASS), run on a full warp by ExecALU and by its
// lane kernel (warp.DecodeKernel, as the SM issues it), and by ExecALU on
// its two halves one after the other, from the same random registers,
// writes the same destinations. A three-input add (compiler.FuseAdds)
// whose full-warp path dropped a term is what this catches.
func TestFullWarpFastPathsMatchHalfWarps(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every ALU instruction of the corpus three times")
	}
	var files []string
	for _, glob := range []string{"../calibration/h200/*.ptx", "../apps/h200/*.ptx", "../testdata/cuda/*.ptx",
		"../calibration/h200/*.sass", "../apps/h200/*.sass", "../testdata/cuda/*.sass"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	var checked int
	for _, f := range files {
		src, err := Load(f)
		if err != nil {
			continue // a file this frontend does not take is another test's matter
		}
		for _, k := range src.Kernels {
			p, err := src.Kernel(k.Name)
			if err != nil {
				continue
			}
			checked += halvesAgree(t, fmt.Sprintf("%s %s", filepath.Base(f), k.Name), p, rng)
		}
	}
	t.Logf("%d instructions of %d files", checked, len(files))
	if checked < 10000 {
		t.Errorf("checked %d instructions; the corpus should give more", checked)
	}
}

// halvesAgree runs each ALU instruction of p as described above and
// returns how many it compared.
func halvesAgree(t *testing.T, name string, p *isa.Program, rng *rand.Rand) int {
	t.Helper()
	ws := [3]*warp.Warp{} // the full warp by ExecALU, by its kernel, and the two halves
	for i := range ws {
		ws[i] = warp.New(0, 0, p, warp.FullMask, warp.Env{})
	}
	full, kern, half := ws[0], ws[1], ws[2]
	uniR, uniP := int32(p.NumRegs), int32(p.NumPreds)
	if p.UniformRegs > 0 {
		uniR = p.UniformRegs
	}
	if p.UniformPreds > 0 {
		uniP = p.UniformPreds
	}
	n := 0
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if !laneWise(in, uniR, uniP) {
			continue
		}
		freshOperands(in.Ops[in.NDst:], p, rng, ws[:]...)
		errFull := full.ExecALU(in, warp.FullMask, 0)
		errLo := half.ExecALU(in, 0x0000ffff, 0)
		errHi := half.ExecALU(in, 0xffff0000, 0)
		if errFull != nil || errLo != nil || errHi != nil {
			if (errFull == nil) != (errLo == nil) {
				t.Errorf("%s pc %d %v: full warp %v, half warps %v", name, i, in.Op, errFull, errLo)
			}
			continue
		}
		if k := warp.DecodeKernel(p, in); !k.Resolved() || !kern.Exec(&k, warp.FullMask) {
			if err := kern.ExecALU(in, warp.FullMask, 0); err != nil {
				t.Fatal(err)
			}
		}
		n++
		if diff := destsDiffer(in, p, full, kern, half); diff != "" {
			t.Errorf("%s pc %d %v.%v %v: %s", name, i, in.Op, in.Type, in.Ops, diff)
			freshOperands(in.Ops[:in.NDst], p, rng, ws[:]...) // the same again for what follows
		}
	}
	return n
}

// destsDiffer says which destination of in differs between the full warp
// (by ExecALU and by its kernel) and the halves ("": none).
func destsDiffer(in *isa.Instr, p *isa.Program, full, kern, half *warp.Warp) string {
	for _, o := range in.Ops[:in.NDst] {
		for _, r := range operandRegs(o, p) {
			if *full.Reg(r) != *half.Reg(r) || *kern.Reg(r) != *half.Reg(r) {
				return fmt.Sprintf("r%d differs: full warp %x…, its kernel %x…, halves %x…", r, full.Reg(r)[:2], kern.Reg(r)[:2], half.Reg(r)[:2])
			}
		}
		if o.Kind == isa.KPred && o.Reg < int32(p.NumPreds) && (full.Pred(o.Reg) != half.Pred(o.Reg) || kern.Pred(o.Reg) != half.Pred(o.Reg)) {
			return fmt.Sprintf("p%d differs: full warp %#x, its kernel %#x, halves %#x", o.Reg, full.Pred(o.Reg), kern.Pred(o.Reg), half.Pred(o.Reg))
		}
	}
	return ""
}

// freshOperands gives the registers and predicates of ops new random
// values, the same in every warp of ws. Before each instruction its
// sources get them: the earlier instructions' results (a conversion's
// infinities, say) would otherwise feed it values of one kind.
func freshOperands(ops []isa.Operand, p *isa.Program, rng *rand.Rand, ws ...*warp.Warp) {
	for _, o := range ops {
		for _, r := range operandRegs(o, p) {
			for l := 0; l < warp.Lanes; l++ {
				v := randomOperand(rng)
				for _, w := range ws {
					w.Reg(r)[l] = v
				}
			}
		}
		if o.Kind == isa.KPred && o.Reg < int32(p.NumPreds) {
			v := rng.Uint32()
			for _, w := range ws {
				w.SetPred(o.Reg, warp.FullMask, v)
			}
		}
	}
}

// operandRegs is the general registers operand o names in p: its register,
// and the next for a pair.
func operandRegs(o isa.Operand, p *isa.Program) []int32 {
	if o.Kind != isa.KReg {
		return nil
	}
	n := int32(1)
	if o.Mod&isa.MPair != 0 {
		n = 2
	}
	var rs []int32
	for r := o.Reg; r < o.Reg+n && r < int32(p.NumRegs); r++ {
		rs = append(rs, r)
	}
	return rs
}

// laneWise reports whether in is a register-to-register instruction whose
// lanes do not depend on each other or on the mask: not warp-collective,
// no uniform destination (SASS writes the first lane of the mask to all)
// and no special register.
func laneWise(in *isa.Instr, uniR, uniP int32) bool {
	if in.NDst == 0 || in.Op.IsMbarrier() {
		return false
	}
	switch name := in.Op.String(); {
	case strings.HasPrefix(name, "vote"), strings.HasPrefix(name, "elect"), strings.HasPrefix(name, "match"),
		strings.HasPrefix(name, "shfl"), strings.HasPrefix(name, "redux"), strings.HasPrefix(name, "activemask"):
		return false // warp-collective: a lane's result depends on the others
	}
	for i, o := range in.Ops {
		switch {
		case o.Kind == isa.KSpecial:
			return false
		case i < int(in.NDst) && (o.Kind == isa.KReg && o.Reg >= uniR || o.Kind == isa.KPred && o.Reg >= uniP):
			return false
		case o.Kind == isa.KAddr, o.Kind == isa.KConst && strings.Contains(in.Op.String(), "ld"):
			return false
		}
	}
	return true
}

// randomOperand is a register value: random bits, or a float's special
// values and near neighbours, in the low word or the whole.
func randomOperand(rng *rand.Rand) uint64 {
	specials := []uint64{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 1, 0x00800000, 0x3f800000, 0x7c00, 0xfc00, 0x3c00, 0x7e00}
	switch rng.IntN(4) {
	case 0:
		return specials[rng.IntN(len(specials))]
	case 1:
		return uint64(rng.Uint32())
	case 2:
		return uint64(rng.Uint32() & 0x3fffffff)
	}
	return rng.Uint64()
}
