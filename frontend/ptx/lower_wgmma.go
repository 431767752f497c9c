package ptx

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smsim/smsim/isa"
)

// wgmma lowers the warpgroup MMA instructions of sm_90a (PTX ISA,
// "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions"):
// wgmma.fence, wgmma.commit_group, wgmma.wait_group and every dense
// wgmma.mma_async the ISA lists. A combination the ISA does not list is an
// error naming it; the sparse form (.sp) is refused as unsupported.
func (l *lowerer) wgmma(in *Instr, m *mods) error {
	kind := m.takeAny("fence", "commit_group", "wait_group", "mma_async")
	if kind == "" {
		return l.unsupported("unknown wgmma operation")
	}
	if !m.take("sync") || !m.take("aligned") {
		return l.errf("wgmma.%s needs .sync.aligned", kind)
	}
	switch kind {
	case "fence":
		l.emit(isa.Instr{Op: isa.OpWgmmaFence})
		return l.nops(in, 0)
	case "commit_group":
		l.emit(isa.Instr{Op: isa.OpWgmmaCommit})
		return l.nops(in, 0)
	case "wait_group":
		if err := l.nops(in, 1); err != nil {
			return err
		}
		n, ok := in.Operands[0].(*Imm)
		if !ok || n.Kind != ImmInt || n.Int < 0 {
			return l.errf("wgmma.wait_group takes a non-negative integer constant, found %s", in.Operands[0])
		}
		l.emit(isa.Instr{Op: isa.OpWgmmaWait, Ops: []isa.Operand{isa.Imm(uint64(n.Int))}})
		return nil
	}
	if m.take("sp") {
		return l.unsupported("sparse wgmma.mma_async.sp")
	}
	s, err := l.wgmmaShape(m)
	if err != nil {
		return err
	}
	return l.wgmmaMMA(in, s)
}

// wgmmaForm is a wgmma.mma_async's shape and types, as written.
type wgmmaForm struct {
	name       string // the modifiers as written, for messages
	m, n, k    int
	d          isa.Type
	a, b       isa.MMAType
	sat, popc  bool
	nD, nTrans int // accumulator registers; imm-trans operands (with A from a descriptor)
	scales     bool
}

// wgmmaShape reads and checks the shape, types and modifiers against the
// ISA's table of wgmma.mma_async forms (PTX ISA, "Matrix Shape" and
// "wgmma.mma_async": .f16 with .f16/.f32 accumulators, .bf16 and .tf32
// with .f32, .e4m3/.e5m2 in any pairing with .f16/.f32, .s8/.u8 in any
// pairing with .s32, .b1 with .s32 and .and.popc).
func (l *lowerer) wgmmaShape(m *mods) (wgmmaForm, error) {
	var f wgmmaForm
	var names []string
	for i, x := range m.list {
		if m.used[i] {
			continue
		}
		names = append(names, "."+x)
	}
	f.name = strings.Join(names, "")
	shape := ""
	for i, x := range m.list {
		if !m.used[i] && strings.HasPrefix(x, "m") && strings.Contains(x, "n") && strings.Contains(x, "k") {
			shape, m.used[i] = x, true
			break
		}
	}
	if _, err := fmt.Sscanf(shape, "m%dn%dk%d", &f.m, &f.n, &f.k); err != nil || shape != "m"+strconv.Itoa(f.m)+"n"+strconv.Itoa(f.n)+"k"+strconv.Itoa(f.k) {
		return f, l.errf("wgmma.mma_async%s: missing or malformed shape .m64nNkK", f.name)
	}
	f.sat = m.take("satfinite")
	if m.take("and") {
		if !m.take("popc") {
			return f, l.errf("wgmma.mma_async%s: .b1 needs .and.popc", f.name)
		}
		f.popc = true
	}
	var ts []string
	for i, x := range m.list {
		if m.used[i] {
			continue
		}
		if _, ok := isa.ParseMMAType(x); ok || x == "f32" || x == "s32" {
			m.used[i] = true
			ts = append(ts, x)
		}
	}
	if len(ts) != 3 {
		return f, l.errf("wgmma.mma_async%s: want .dtype.atype.btype, found %d types", f.name, len(ts))
	}
	f.d, _ = isa.ParseType(ts[0])
	f.a, _ = isa.ParseMMAType(ts[1])
	f.b, _ = isa.ParseMMAType(ts[2])
	if msg := f.check(); msg != "" {
		return f, l.errf("wgmma.mma_async%s: %s", f.name, msg)
	}
	if f.a == isa.MMAB1 {
		// sm_90a has it; no H200 measurement backs its layouts (docs/wgmma.md)
		return f, l.unsupported("wgmma.mma_async%s: single-bit .b1 inputs are not implemented", f.name)
	}
	f.nD = f.n / 2
	if f.d == isa.F16 {
		f.nD = f.n / 4
	}
	f.scales = !f.a.Integer()
	if f.a == isa.MMAF16 || f.a == isa.MMABF16 {
		f.nTrans = 2
	}
	return f, nil
}

// check returns why a form is not one the ISA lists ("" if it is).
func (f *wgmmaForm) check() string {
	a, b := f.a, f.b
	fp8 := func(t isa.MMAType) bool { return t == isa.MMAE4M3 || t == isa.MMAE5M2 }
	i8 := func(t isa.MMAType) bool { return t == isa.MMAS8 || t == isa.MMAU8 }
	var dtypes []isa.Type
	switch {
	case a == isa.MMAF16 && b == a:
		dtypes = []isa.Type{isa.F16, isa.F32}
	case (a == isa.MMABF16 || a == isa.MMATF32) && b == a:
		dtypes = []isa.Type{isa.F32}
	case fp8(a) && fp8(b):
		dtypes = []isa.Type{isa.F16, isa.F32}
	case i8(a) && i8(b), a == isa.MMAB1 && b == a:
		dtypes = []isa.Type{isa.S32}
	case a == isa.MMANone || b == isa.MMANone:
		return "A and B need element types"
	default:
		return fmt.Sprintf("A of .%s and B of .%s cannot be multiplied together", a, b)
	}
	okD := false
	for _, d := range dtypes {
		okD = okD || d == f.d
	}
	switch {
	case !okD:
		return fmt.Sprintf(".%s inputs cannot accumulate in .%s", a, f.d)
	case f.m != 64:
		return fmt.Sprintf("M is %d; wgmma computes 64 rows", f.m)
	case f.k != a.K():
		return fmt.Sprintf("K is %d; .%s inputs take K = %d", f.k, a, a.K())
	case f.sat && !i8(a):
		return ".satfinite applies only to .s8/.u8 inputs"
	case f.popc != (a == isa.MMAB1):
		return ".and.popc goes with .b1 inputs and only with them"
	}
	if a.Integer() {
		top := 224 // .s8/.u8: m64n8k32 .. m64n224k32
		if a == isa.MMAB1 {
			top = 256
		}
		if f.n < 8 || f.n > top || f.n%8 != 0 || f.n > 32 && f.n%16 != 0 {
			return fmt.Sprintf("N is %d; .%s inputs take N = 8, 16, 24, 32, then multiples of 16 up to %d", f.n, a, top)
		}
	} else if f.n < 8 || f.n > 256 || f.n%8 != 0 {
		return fmt.Sprintf("N is %d; N must be a multiple of 8 from 8 to 256", f.n)
	}
	return ""
}

// wgmmaMMA lowers the operands: d, a (four registers or a descriptor),
// b-desc, scale-d and the immediates the form has.
func (l *lowerer) wgmmaMMA(in *Instr, f wgmmaForm) error {
	if len(in.Operands) < 3 {
		return l.nops(in, 4)
	}
	aVec, aRegs := in.Operands[1].(*Vector)
	want := 4
	if f.scales {
		want += 2
		if !aRegs {
			want += f.nTrans
		} else if f.nTrans > 0 {
			want++ // imm-trans-b only: A in registers is K-major
		}
	}
	if err := l.nops(in, want); err != nil {
		return err
	}
	dv, ok := in.Operands[0].(*Vector)
	if !ok || len(dv.Elems) != f.nD {
		return l.errf("wgmma.mma_async%s: D is a vector of %d registers, found %s", f.name, f.nD, in.Operands[0])
	}
	x := isa.Instr{Op: isa.OpWgmma, Type: f.d, Mode: isa.WgmmaMode(f.a, f.b), Aux: int32(f.n), NDst: uint8(f.nD), Space: isa.Shared}
	if f.nD > 255 {
		return l.errf("wgmma.mma_async%s: too many accumulator registers", f.name)
	}
	if f.sat {
		x.Flags |= isa.FSat
	}
	var srcs []isa.Operand
	for _, e := range dv.Elems {
		d, err := l.dst(e)
		if err != nil {
			return err
		}
		if d.Kind != isa.KReg {
			return l.errf("wgmma.mma_async%s: an accumulator register cannot be '_'", f.name)
		}
		x.Ops = append(x.Ops, d)
		srcs = append(srcs, d)
	}
	x.Ops = append(x.Ops, srcs...)
	if aRegs {
		if len(aVec.Elems) != 4 {
			return l.errf("wgmma.mma_async%s: A in registers is a vector of 4 registers, found %s", f.name, aVec)
		}
		for _, e := range aVec.Elems {
			v, err := l.val(e, isa.B32)
			if err != nil {
				return err
			}
			x.Ops = append(x.Ops, v)
		}
	} else {
		v, err := l.val(in.Operands[1], isa.B64)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	b, err := l.val(in.Operands[2], isa.B64)
	if err != nil {
		return err
	}
	x.Ops = append(x.Ops, b)
	sd, err := l.wgmmaScaleD(in.Operands[3])
	if err != nil {
		return err
	}
	x.Ops = append(x.Ops, sd)
	imms := []int64{1, 1, 0, 0} // imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b
	rest := in.Operands[4:]
	slots := []int{0, 1, 2, 3}
	if aRegs {
		slots = []int{0, 1, 3}
	}
	for i, o := range rest {
		v, ok := o.(*Imm)
		if !ok || v.Kind != ImmInt {
			return l.errf("wgmma.mma_async%s: operand %d must be an integer constant, found %s", f.name, 5+i, o)
		}
		s := slots[i]
		if s < 2 && v.Int != 1 && v.Int != -1 || s >= 2 && v.Int != 0 && v.Int != 1 {
			return l.errf("wgmma.mma_async%s: %s must be %s, found %d", f.name,
				[]string{"imm-scale-a", "imm-scale-b", "imm-trans-a", "imm-trans-b"}[s],
				map[bool]string{true: "1 or -1", false: "0 or 1"}[s < 2], v.Int)
		}
		imms[s] = v.Int
	}
	for _, v := range imms {
		x.Ops = append(x.Ops, isa.Imm(uint64(v)))
	}
	l.emit(x)
	return nil
}

// wgmmaScaleD lowers scale-d: a predicate (D = A·B + D where it holds) or
// the constant 0 or 1.
func (l *lowerer) wgmmaScaleD(o Operand) (isa.Operand, error) {
	if v, ok := o.(*Imm); ok {
		if v.Kind != ImmInt || v.Int != 0 && v.Int != 1 {
			return isa.Operand{}, l.errf("wgmma.mma_async: scale-d must be a predicate, 0 or 1, found %s", o)
		}
		return isa.Imm(uint64(v.Int)), nil
	}
	return l.psrc(o)
}
