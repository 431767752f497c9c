package warp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// SharedReader reads the CTA's shared memory for a wgmma's descriptors (the
// SM checks the bounds): LoadShared the little-endian value of n (1, 2 or
// 4) bytes at addr, ReadChunks the 16 bytes at each addrs[i], a multiple of
// 16 (a row of a core matrix, which every layout keeps whole), into
// b[16i:16i+16], in order, stopping at the first error.
type SharedReader interface {
	LoadShared(addr uint32, n int) (uint64, error)
	ReadChunks(addrs []uint32, b []byte) error
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
	// Regs are the accumulator registers, each for every lane (Regs[j][l]:
	// register j of lane l): the old values going in, D coming out. NRegs
	// of them are used.
	Regs  [MaxAccRegs][Lanes]uint32
	NRegs int

	a  [16 * 32]float64  // the warp's 16 rows of A: element (r, k) at 32r+k
	ae [16 * 32]int32    // their exponents as the tensor core aligns them (Exponents)
	bT [32 * 256]float64 // B by row of K: element (k, n) at 256k+n, so that fusedCols4 reads columns side by side
	eb [32 * 256]int32
	bc [32]float64 // a column of B (column), for the sums fusedCols4 leaves
	ec [32]int32
	// whether a row of A or a column of B holds a NaN or an infinity: its
	// elements take the general sum (dotExp), the rest the fused one
	aSpecial [16]bool
	bSpecial [256]bool
	cols     cols4
	chunk    [16]byte    // a row of a core matrix read from shared memory (kept here: a local would escape)
	row      [16]float64 // its elements' values
	// The bytes of A's and B's core-matrix rows as Load read them, in the
	// order decodeDesc takes them (nil rows: the operand's values are
	// already in a or bT). K·size is 32 bytes for every type.
	rawA     [16 * 32]byte
	rawB     [256 * 32]byte
	addrs    [256 * 32 / 16]uint32 // the rows' addresses, read in one ReadChunks
	opA, opB pendingOperand
}

// pendingOperand is an operand whose bytes Load read and Compute decodes.
type pendingOperand struct {
	o      operand
	mn0, n int
	raw    bool // its bytes wait in rawA or rawB
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

// ReadWgmmaAcc reads the accumulators going in (D's old values) from the
// warp's registers into g.Regs.
func (w *Warp) ReadWgmmaAcc(in *isa.Instr, g *Wgmma) {
	for j := 0; j < g.NRegs; j++ {
		r, d := &w.regs[in.Src(j).Reg], &g.Regs[j]
		for l := range d {
			d[l] = uint32(r[l])
		}
	}
}

// FinishWgmma is the part of a wgmma that reads and writes the warp's
// accumulators: D = A·B (+ D) from the operands g loaded (Load) into the
// registers in's destinations name. It reads no shared memory and decides
// no timing, so it may run after the wgmma issued, on another goroutine,
// as long as nothing else touches those registers in between (sm's
// mmaWorkers).
func (w *Warp) FinishWgmma(in *isa.Instr, g *Wgmma, m *MMAModel) {
	w.ReadWgmmaAcc(in, g)
	g.Compute(m)
	w.WriteWgmma(in, g)
}

// WriteWgmma writes the accumulators g computed to the warp's registers.
func (w *Warp) WriteWgmma(in *isa.Instr, g *Wgmma) {
	for j := 0; j < g.NRegs; j++ {
		d := in.Dst(j)
		if d.Kind != isa.KReg {
			continue
		}
		r, v := &w.regs[d.Reg], &g.Regs[j]
		for l := range r {
			r[l] = uint64(v[l])
		}
	}
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
					g.a[32*(row-16*rank)+col] = g.value(m, g.A, x, g.NegA)
				}
			}
		}
		return nil
	}
	return g.loadDesc(read, m, pendingOperand{o: operand{g.DescA, g.A, g.NegA, g.TransA}, mn0: 16 * rank, n: 16}, &g.opA, g.rawA[:], view{g.a[:], 32, 1})
}

// loadB fills B by column: N columns of K values.
func (g *Wgmma) loadB(read SharedReader, m *MMAModel) error {
	return g.loadDesc(read, m, pendingOperand{o: operand{g.DescB, g.B, g.NegB, g.TransB}, n: g.N}, &g.opB, g.rawB[:], view{g.bT[:], 1, 256})
}

// decode turns the bytes Load read into the operands' values.
func (g *Wgmma) decode(m *MMAModel) {
	if g.opA.raw {
		g.decodeDesc(m, &g.opA, g.rawA[:], view{g.a[:], 32, 1})
	}
	if g.opB.raw {
		g.decodeDesc(m, &g.opB, g.rawB[:], view{g.bT[:], 1, 256})
	}
}

// operand is what names a matrix in shared memory.
type operand struct {
	desc    MatrixDesc
	typ     isa.MMAType
	neg     bool // imm-scale -1
	mnMajor bool // transposed: M or N is the contiguous dimension
}

// view places element (i, k) of a matrix at v[i·si + k·sk].
type view struct {
	v      []float64
	si, sk int
}

func (d view) set(i, k int, x float64) { d.v[i*d.si+k*d.sk] = x }

// loadDesc reads the elements (mn0+i, k), i < n and k < K, of the matrix
// p names: a core matrix's 16-byte rows whole, along K when K-major, along
// M or N when M- or N-major, into raw for decodeDesc, and notes p in *at.
// A shape whose rows of 16 bytes would reach past the operand is read and
// decoded an element at a time, into dst.
func (g *Wgmma) loadDesc(read SharedReader, m *MMAModel, p pendingOperand, at *pendingOperand, raw []byte, dst view) error {
	o := p.o
	bytes := o.typ.Bits() / 8
	per := 16 / bytes // elements a 16-byte row
	*at = p
	if o.mnMajor && (p.n%per != 0 || p.mn0%per != 0) {
		return g.loadEach(read, m, o, p.mn0, p.n, dst)
	}
	at.raw = true
	n := 0
	if !o.mnMajor {
		for i := 0; i < p.n; i++ {
			for k0 := 0; k0 < g.K; k0 += per {
				g.addrs[n] = o.desc.ElemAddr(p.mn0+i, k0, bytes, false)
				n++
			}
		}
	} else {
		for i0 := 0; i0 < p.n; i0 += per {
			for k := 0; k < g.K; k++ {
				g.addrs[n] = o.desc.ElemAddr(p.mn0+i0, k, bytes, true)
				n++
			}
		}
	}
	return read.ReadChunks(g.addrs[:n], raw[:16*n])
}

// decodeDesc fills dst from the rows loadDesc read into raw, in the order
// it read them.
func (g *Wgmma) decodeDesc(m *MMAModel, p *pendingOperand, raw []byte, dst view) {
	o := p.o
	if o.typ == isa.MMAF16 || o.typ == isa.MMABF16 {
		g.decodeHalves(o, p.n, raw, dst)
		return
	}
	per := 16 / (o.typ.Bits() / 8)
	next := 0
	row := func() []float64 {
		g.chunk = [16]byte(raw[next : next+16])
		next += 16
		return g.decodeChunk(m, o)
	}
	if !o.mnMajor {
		for i := 0; i < p.n; i++ {
			for k0 := 0; k0 < g.K; k0 += per {
				for e, x := range row() {
					dst.set(i, k0+e, x)
				}
			}
		}
		return
	}
	for i0 := 0; i0 < p.n; i0 += per {
		for k := 0; k < g.K; k++ {
			for e, x := range row() {
				dst.set(i0+e, k, x)
			}
		}
	}
}

// decodeHalves is decodeDesc for f16 and bf16 operands: each 16-byte row's
// eight halves widened and put into dst together (halvesPut) where the host
// converts halves, else a half at a time (halfValue), along K when K-major,
// along M or N when M- or N-major.
func (g *Wgmma) decodeHalves(o operand, n int, raw []byte, dst view) {
	bf16 := o.typ == isa.MMABF16
	next := 0
	put := func(base, step int) {
		c := (*[16]byte)(raw[next : next+16])
		next += 16
		v := dst.v[base : base+7*step+1]
		if halvesPut(c, v, step, o.neg, bf16) {
			return
		}
		for e := range 8 {
			v[e*step] = halfValue(binary.LittleEndian.Uint16(c[2*e:]), bf16, o.neg)
		}
	}
	if !o.mnMajor {
		for i := 0; i < n; i++ {
			for k0 := 0; k0 < g.K; k0 += 8 {
				put(i*dst.si+k0*dst.sk, dst.sk)
			}
		}
		return
	}
	for i0 := 0; i0 < n; i0 += 8 {
		for k := 0; k < g.K; k++ {
			put(i0*dst.si+k*dst.sk, dst.si)
		}
	}
}

// halfValue is decodeChunk's value of the f16 (or bf16) h, negated if neg:
// a zero or normal f16 widened by its bits (f16WidenCommon), others by
// F16ToF32.
func halfValue(h uint16, bf16, neg bool) float64 {
	var v float64
	switch b, ok := f16WidenCommon(h); {
	case bf16:
		v = float64(BF16ToF32(h))
	case ok:
		v = float64(math.Float32frombits(b))
	default:
		v = float64(F16ToF32(h))
	}
	if neg {
		return -v
	}
	return v
}

// loadEach is loadDesc an element at a time, for a shape whose rows of 16
// bytes would reach past the operand.
func (g *Wgmma) loadEach(read SharedReader, m *MMAModel, o operand, mn0, n int, dst view) error {
	bytes := o.typ.Bits() / 8
	for i := 0; i < n; i++ {
		for k := 0; k < g.K; k++ {
			x, err := read.LoadShared(o.desc.ElemAddr(mn0+i, k, bytes, o.mnMajor), bytes)
			if err != nil {
				return err
			}
			dst.set(i, k, g.value(m, o.typ, x, o.neg))
		}
	}
	return nil
}

// decodeChunk returns the values of the elements in g.chunk, of o's type
// and sign.
func (g *Wgmma) decodeChunk(m *MMAModel, o operand) []float64 {
	c, out := &g.chunk, &g.row
	switch o.typ {
	case isa.MMAF16, isa.MMABF16:
		for e := range 8 {
			h := binary.LittleEndian.Uint16(c[2*e:])
			if o.typ == isa.MMAF16 {
				out[e] = float64(F16ToF32(h))
			} else {
				out[e] = float64(BF16ToF32(h))
			}
		}
		if o.neg {
			for e := range 8 {
				out[e] = -out[e]
			}
		}
		return out[:8]
	}
	bytes := o.typ.Bits() / 8
	per := 16 / bytes
	for e := 0; e < per; e++ {
		out[e] = g.value(m, o.typ, chunkElem(c, e, bytes), o.neg)
	}
	return out[:per]
}

// chunkElem is element e of a 16-byte row of elements of n bytes, little-endian.
func chunkElem(c *[16]byte, e, n int) uint64 {
	switch n {
	case 1:
		return uint64(c[e])
	case 2:
		return uint64(binary.LittleEndian.Uint16(c[2*e:]))
	}
	return uint64(binary.LittleEndian.Uint32(c[4*e:]))
}

// value decodes an element; neg flips its sign (imm-scale -1).
func (g *Wgmma) value(m *MMAModel, t isa.MMAType, x uint64, neg bool) float64 {
	v := m.MMAValue(t, x)
	if neg {
		return -v
	}
	return v
}
