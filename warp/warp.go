package warp

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// Lanes is the warp width.
const Lanes = 32

// FullMask has every lane set.
const FullMask uint32 = 0xffffffff

// Vec is one value per lane.
type Vec = [Lanes]uint64

// Env holds the per-warp values of special registers that do not change
// while the warp runs. Clock-like registers are supplied by the caller.
type Env struct {
	Tid      [3]Vec // per lane thread index
	Ntid     [3]uint32
	Ctaid    [3]uint32
	Nctaid   [3]uint32
	WarpID   uint32 // hardware warp slot
	NWarpID  uint32
	SMID     uint32
	NSMID    uint32
	DynSmem  uint32
	TotSmem  uint32
	GridID   uint64
	ClockHz  uint64 // SM clock, for %globaltimer (ns)
	CTAIndex int    // index of the CTA on the SM
	Cluster  ClusterEnv
	// Banks are the constant banks a KConst operand reads (SASS), bank 0
	// laid out for the launch (isa.BuildBank0); nil for other programs.
	Banks [][]byte
}

// ClusterEnv is where a CTA sits in its thread-block cluster (PTX ISA,
// special registers %cluster_*, %clusterid, %nclusterid). A launch without
// a cluster size runs every CTA as a cluster of one (rank 0, Explicit false).
type ClusterEnv struct {
	Rank, NRank   uint32    // %cluster_ctarank, %cluster_nctarank
	ID, NID       [3]uint32 // %clusterid, %nclusterid
	CTAID, NCTAID [3]uint32 // %cluster_ctaid, %cluster_nctaid
	Explicit      bool      // %is_explicit_cluster: the launch gave a cluster size
}

// Warp is the architectural state of one warp.
type Warp struct {
	ID    int // warp index in the SM (scheduling slot)
	InCTA int // warp index within its CTA
	Prog  *isa.Program
	Env   Env

	regs  []Vec    // general registers, NumRegs of them
	preds []uint32 // predicate registers: one bit per lane

	Exited uint32 // lanes that have exited
	Live   uint32 // lanes that exist (a partial last warp has fewer)

	splits []Split
	cur    int
	nextID uint32

	scratch [6]Vec        // operand staging for immediates, specials and modified operands
	carry   uint32        // per-lane carry flag (add.cc / addc)
	exact   *exactScratch // big floats of directed f64 rounding, made on first use

	// uniR and uniP are the first uniform general and predicate registers
	// (isa.Program.UniformRegs, UniformPreds), or beyond the files when the
	// program has none.
	uniR, uniP int32
	// cbar are the convergence-barrier registers B0-B15 of SASS (BSSY,
	// BSYNC, BREAK, BMOV): lane masks.
	cbar [16]uint32
	// mufuWarm keeps a word of the MUFU table blocks a warp instruction
	// read ahead (mufuEx2Lanes), so that the reads are not dropped.
	mufuWarm uint32
}

// New returns a warp for prog whose existing lanes are live, all starting at pc 0.
func New(id, inCTA int, prog *isa.Program, live uint32, env Env) *Warp {
	return newWith(id, inCTA, prog, live, env, nil, nil)
}

// newWith is New with the register files regs and preds (cleared, of the
// program's lengths), or new ones where they are nil.
func newWith(id, inCTA int, prog *isa.Program, live uint32, env Env, regs []Vec, preds []uint32) *Warp {
	w := &Warp{ID: id, InCTA: inCTA, Prog: prog, Env: env, Live: live}
	if regs == nil {
		regs, preds = make([]Vec, prog.NumRegs), make([]uint32, prog.NumPreds)
	}
	w.regs, w.preds = regs, preds
	w.uniR, w.uniP = int32(prog.NumRegs), int32(prog.NumPreds)
	if prog.UniformRegs > 0 {
		w.uniR = prog.UniformRegs
	}
	if prog.UniformPreds > 0 {
		w.uniP = prog.UniformPreds
	}
	w.splits = make([]Split, 1, 4)
	w.splits[0] = Split{PC: 0, Mask: live}
	if live == 0 {
		w.splits = w.splits[:0]
	}
	return w
}

// Reg returns register r (all lanes) for reading or writing.
func (w *Warp) Reg(r int32) *Vec { return &w.regs[r] }

// Pred returns the lane mask of predicate register p.
func (w *Warp) Pred(p int32) uint32 { return w.preds[p] }

// SetPred writes the lanes of mask in predicate p from v. A uniform
// predicate (isa.Program.UniformPreds) takes the first lane's value in every
// lane.
func (w *Warp) SetPred(p int32, mask, v uint32) {
	if p >= w.uniP && mask != 0 {
		if v>>bits.TrailingZeros32(mask)&1 != 0 {
			w.preds[p] = FullMask
		} else {
			w.preds[p] = 0
		}
		return
	}
	w.preds[p] = w.preds[p]&^mask | v&mask
}

// Done reports whether every live lane has exited.
func (w *Warp) Done() bool { return len(w.splits) == 0 }

// GuardMask evaluates an instruction's guard over mask: the lanes that execute it.
func (w *Warp) GuardMask(in *isa.Instr, mask uint32) uint32 {
	if in.Guard.Kind != isa.KPred {
		return mask
	}
	p := w.preds[in.Guard.Reg]
	if in.Guard.Neg {
		p = ^p
	}
	return mask & p
}

// PredOperand evaluates a predicate operand (with negation) as a lane mask.
func (w *Warp) PredOperand(o *isa.Operand) uint32 {
	switch o.Kind {
	case isa.KPred:
		p := w.preds[o.Reg]
		if o.Neg {
			p = ^p
		}
		return p
	case isa.KImm:
		if o.Imm != 0 {
			return FullMask
		}
		return 0
	case isa.KReg:
		var m uint32
		v := &w.regs[o.Reg]
		for l := 0; l < Lanes; l++ {
			if v[l] != 0 {
				m |= 1 << l
			}
		}
		return m
	}
	return 0
}

// Operand returns the per-lane values of operand o. Registers are returned
// in place (no copy); immediates, specials and addresses are staged in one of
// the warp's scratch vectors, slot (0..3), valid until the next call with the
// same slot. now is the current cycle, for clock registers. A plain
// register, the common operand, is returned without a call.
func (w *Warp) Operand(o *isa.Operand, slot int, mask uint32, now uint64) *Vec {
	if o.Kind == isa.KReg && o.Mod == 0 {
		return &w.regs[o.Reg]
	}
	return w.stagedOperand(o, slot, now)
}

// stagedOperand is Operand of anything but a plain register.
func (w *Warp) stagedOperand(o *isa.Operand, slot int, now uint64) *Vec {
	switch o.Kind {
	case isa.KReg:
		if o.Mod != 0 {
			return w.modOperand(o, slot)
		}
		return &w.regs[o.Reg]
	case isa.KConst:
		return w.constOperand(o, slot)
	case isa.KImm:
		s := &w.scratch[slot]
		for l := range s {
			s[l] = o.Imm
		}
		return s
	case isa.KPred:
		s := &w.scratch[slot]
		p := w.PredOperand(o)
		for l := range s {
			s[l] = uint64(p >> l & 1)
		}
		return s
	case isa.KSpecial:
		s := &w.scratch[slot]
		w.special(o.Special, s, now)
		return s
	case isa.KAddr:
		if o.Mod != 0 {
			return w.sassAddr(o, slot)
		}
		s := &w.scratch[slot]
		if o.Reg < 0 {
			for l := range s {
				s[l] = o.Imm
			}
			return s
		}
		r := &w.regs[o.Reg]
		for l := range s {
			s[l] = r[l] + o.Imm
		}
		return s
	}
	s := &w.scratch[slot]
	*s = Vec{}
	return s
}

// Scalar returns operand o's value in the lowest active lane of mask (for
// operands PTX requires to be uniform, such as bar.sync ids).
func (w *Warp) Scalar(o *isa.Operand, mask uint32, now uint64) uint64 {
	l := 0
	for l < Lanes && mask>>l&1 == 0 {
		l++
	}
	if l == Lanes {
		l = 0
	}
	return w.Operand(o, 3, mask, now)[l]
}

// Write stores v into destination operand d for the lanes of mask, masked to
// the width of type t (so registers always hold zero-extended values).
func (w *Warp) Write(d *isa.Operand, mask uint32, v *Vec, t isa.Type) {
	switch d.Kind {
	case isa.KReg:
		if d.Mod != 0 || d.Reg >= w.uniR {
			w.writeSASS(d, mask, v, t)
			return
		}
		r := &w.regs[d.Reg]
		m := widthMask(t)
		if mask == FullMask {
			if m == ^uint64(0) {
				*r = *v
				return
			}
			andMaskV(v, m, r)
			return
		}
		for l := 0; l < Lanes; l++ {
			if mask>>l&1 != 0 {
				r[l] = v[l] & m
			}
		}
	case isa.KPred:
		var p uint32
		for l := 0; l < Lanes; l++ {
			if v[l] != 0 {
				p |= 1 << l
			}
		}
		w.SetPred(d.Reg, mask, p)
	}
}

func widthMask(t isa.Type) uint64 {
	switch t.Bits() {
	case 1:
		return 1
	case 8:
		return 0xff
	case 16:
		return 0xffff
	case 32:
		return 0xffffffff
	}
	return ^uint64(0)
}

// Files keeps the register files of retired warps for the warps that start
// after them: a grid of many CTAs allocates its register files once per
// warp slot rather than once per warp. The zero value is an empty pool.
type Files struct {
	regs  [][]Vec
	preds [][]uint32
}

// New is New with register files from the pool when it has them, cleared:
// a warp starts with every register zero either way.
func (f *Files) New(id, inCTA int, prog *isa.Program, live uint32, env Env) *Warp {
	var regs []Vec
	var preds []uint32
	if n := len(f.regs); n > 0 && cap(f.regs[n-1]) >= prog.NumRegs && cap(f.preds[n-1]) >= prog.NumPreds {
		regs, preds = f.regs[n-1][:prog.NumRegs], f.preds[n-1][:prog.NumPreds]
		f.regs, f.preds = f.regs[:n-1], f.preds[:n-1]
		clear(regs)
		clear(preds)
	}
	return newWith(id, inCTA, prog, live, env, regs, preds)
}

// Free gives w's register files to the pool: w has retired, and reading
// its registers after this panics.
func (f *Files) Free(w *Warp) {
	f.regs = append(f.regs, w.regs)
	f.preds = append(f.preds, w.preds)
	w.regs, w.preds = nil, nil
}
