package warp

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// SharedReader loads the little-endian value of n (1, 2 or 4) bytes at a
// shared-memory address of the CTA, for a wgmma's descriptors (the SM
// checks the bounds).
type SharedReader interface {
	LoadShared(addr uint32, n int) (uint64, error)
}

// MaxAccRegs is the most accumulator registers a thread holds for one
// wgmma.mma_async (m64n256 with .f32 or .s32 accumulators).
const MaxAccRegs = 128

// Wgmma is one wgmma.mma_async as one warp of its warpgroup executes it: the
// warp's share is the 16 rows of D its rank (0-3) in the warpgroup names.
// The SM keeps one and reuses it, so that no instruction allocates.
type Wgmma struct {
	A, B   isa.MMAType
	N, K   int
	Acc    isa.Type // F16, F32 or S32
	ADesc  bool     // A from a shared-memory descriptor (else from registers)
	TransA bool     // imm-trans-a 1: A is M-major in shared memory
	TransB bool     // imm-trans-b 1: B is N-major in shared memory
	NegA   bool     // imm-scale-a -1
	NegB   bool     // imm-scale-b -1
	ScaleD bool     // D = A·B + D (else D = A·B)
	Sat    bool     // .satfinite: integer results clamp to the s32 range
	DescA  MatrixDesc
	DescB  MatrixDesc
	// ARegs are A's four registers of each lane (A from registers).
	ARegs [Lanes][4]uint32
	// Regs are the accumulator registers of each lane: the old values
	// going in, D coming out. NRegs of them are used.
	Regs  [Lanes][MaxAccRegs]uint32
	NRegs int

	a  [16][32]float64  // the warp's 16 rows of A
	b  [256][32]float64 // B by column
	ae [16][32]int32    // their exponents as the tensor core aligns them (Exponents)
	be [256][32]int32
}

// ErrWgmmaOperand is wrapped by errors about a wgmma's operands that are
// not uniform across the warp.
var ErrWgmmaOperand = errors.New("wgmma operand")

// DecodeWgmma reads the warp's operands of an OpWgmma into g: its
// descriptors and scale-d must be the same in every lane of mask (they are
// the warpgroup's).
func (w *Warp) DecodeWgmma(in *isa.Instr, mask uint32, t uint64, g *Wgmma) error {
	g.N, g.Acc, g.NRegs, g.Sat = in.WgmmaN(), in.Type, int(in.NDst), in.Flags.Has(isa.FSat)
	g.A, g.B = in.WgmmaTypes()
	g.K = g.A.K()
	g.ADesc = in.WgmmaARegs() == 0
	for j := 0; j < g.NRegs; j++ {
		r := &w.regs[in.Src(j).Reg]
		for l := 0; l < Lanes; l++ {
			g.Regs[l][j] = uint32(r[l])
		}
	}
	at := g.NRegs
	if g.ADesc {
		d, err := w.uniform(in.Src(at), mask, t, "the A descriptor")
		if err != nil {
			return err
		}
		g.DescA = DecodeMatrixDesc(d)
		at++
	} else {
		for j := 0; j < 4; j++ {
			v := w.Operand(in.Src(at+j), 0, mask, t)
			for l := 0; l < Lanes; l++ {
				g.ARegs[l][j] = uint32(v[l])
			}
		}
		at += 4
	}
	d, err := w.uniform(in.Src(at), mask, t, "the B descriptor")
	if err != nil {
		return err
	}
	g.DescB = DecodeMatrixDesc(d)
	sd := in.Src(at + 1)
	p := w.PredOperand(sd)
	if p&mask != 0 && p&mask != mask {
		return fmt.Errorf("%w: scale-d differs across the warp's lanes", ErrWgmmaOperand)
	}
	g.ScaleD = p&mask != 0
	g.NegA = int64(in.Src(at+2).Imm) < 0
	g.NegB = int64(in.Src(at+3).Imm) < 0
	g.TransA = in.Src(at+4).Imm != 0
	g.TransB = in.Src(at+5).Imm != 0
	return nil
}

// uniform returns operand o's value, which must be the same in every lane
// of mask.
func (w *Warp) uniform(o *isa.Operand, mask uint32, t uint64, what string) (uint64, error) {
	v := w.Operand(o, 0, mask, t)
	first := bits.TrailingZeros32(mask)
	for l := 0; l < Lanes; l++ {
		if mask>>l&1 != 0 && v[l] != v[first] {
			return 0, fmt.Errorf("%w: %s differs across the warp's lanes (lane %d: %#x, lane %d: %#x)",
				ErrWgmmaOperand, what, first, v[first], l, v[l])
		}
	}
	return v[first], nil
}

// WriteWgmma writes the accumulators g computed to the warp's registers.
func (w *Warp) WriteWgmma(in *isa.Instr, g *Wgmma) {
	for j := 0; j < g.NRegs; j++ {
		d := in.Dst(j)
		if d.Kind != isa.KReg {
			continue
		}
		r := &w.regs[d.Reg]
		for l := 0; l < Lanes; l++ {
			r[l] = uint64(g.Regs[l][j])
		}
	}
}

// Run computes the warp's 16 rows of D = A·B (+ D) into g.Regs; rank is the
// warp's index in its warpgroup.
func (g *Wgmma) Run(rank int, read SharedReader, m *MMAModel) error {
	if err := g.loadA(rank, read, m); err != nil {
		return err
	}
	if err := g.loadB(read, m); err != nil {
		return err
	}
	for r := range g.ae {
		Exponents(g.A, g.a[r][:g.K], g.ae[r][:g.K])
	}
	for n := 0; n < g.N; n++ {
		Exponents(g.B, g.b[n][:g.K], g.be[n][:g.K])
	}
	for l := 0; l < Lanes; l++ {
		for j := 0; j < g.NRegs; j++ {
			g.Regs[l][j] = g.element(m, rank, l, j, g.Regs[l][j])
		}
	}
	return nil
}

// element computes accumulator register j of lane l from its old bits c.
func (g *Wgmma) element(m *MMAModel, rank, l, j int, c uint32) uint32 {
	if g.Acc == isa.F16 {
		var h [2]uint16
		for half := 0; half < 2; half++ {
			row, col := AccPos(rank, l, 2*j+half)
			var cb uint16
			if g.ScaleD {
				cb = uint16(c >> (16 * half))
			}
			r := row - 16*rank
			h[half] = m.Dot16Exp(g.A, g.a[r][:g.K], g.b[col][:g.K], g.ae[r][:g.K], g.be[col][:g.K], cb, g.ScaleD)
		}
		return uint32(h[0]) | uint32(h[1])<<16
	}
	row, col := AccPos(rank, l, j)
	ar, bc := g.a[row-16*rank][:g.K], g.b[col][:g.K]
	if g.Acc == isa.S32 {
		s := int64(0)
		if g.ScaleD {
			s = int64(int32(c))
		}
		for k := range ar {
			s += int64(ar[k]) * int64(bc[k])
		}
		if g.Sat {
			s = max(math.MinInt32, min(math.MaxInt32, s))
		}
		return uint32(s)
	}
	if !g.ScaleD {
		c = 0
	}
	r := row - 16*rank
	return m.DotExp(g.A, ar, bc, g.ae[r][:g.K], g.be[col][:g.K], c, g.ScaleD)
}

// loadA fills the warp's 16 rows of A, K values each.
func (g *Wgmma) loadA(rank int, read SharedReader, m *MMAModel) error {
	bitsPer := g.A.Bits()
	if !g.ADesc {
		per := 32 / bitsPer
		for l := 0; l < Lanes; l++ {
			for j := 0; j < 4; j++ {
				v := uint64(g.ARegs[l][j])
				for e := 0; e < per; e++ {
					row, col := AFragPos(rank, l, j, e, bitsPer)
					x := v >> (e * bitsPer) & (1<<bitsPer - 1)
					g.a[row-16*rank][col] = g.value(m, g.A, x, g.NegA)
				}
			}
		}
		return nil
	}
	for r := 0; r < 16; r++ {
		for k := 0; k < g.K; k++ {
			x, err := read.LoadShared(g.DescA.ElemAddr(16*rank+r, k, bitsPer/8, g.TransA), bitsPer/8)
			if err != nil {
				return err
			}
			g.a[r][k] = g.value(m, g.A, x, g.NegA)
		}
	}
	return nil
}

// loadB fills B by column: N columns of K values.
func (g *Wgmma) loadB(read SharedReader, m *MMAModel) error {
	bytesPer := g.B.Bits() / 8
	for n := 0; n < g.N; n++ {
		for k := 0; k < g.K; k++ {
			x, err := read.LoadShared(g.DescB.ElemAddr(n, k, bytesPer, g.TransB), bytesPer)
			if err != nil {
				return err
			}
			g.b[n][k] = g.value(m, g.B, x, g.NegB)
		}
	}
	return nil
}

// value decodes an element; neg flips its sign (imm-scale -1).
func (g *Wgmma) value(m *MMAModel, t isa.MMAType, x uint64, neg bool) float64 {
	v := m.MMAValue(t, x)
	if neg {
		return -v
	}
	return v
}
