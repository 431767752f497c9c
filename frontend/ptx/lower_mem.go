package ptx

import (
	"github.com/smsim/smsim/isa"
)

// loadStore lowers ld, ldu and st in every state space, with vectors,
// memory-ordering qualifiers and cache hints (kept as FCacheHint with the
// policy operand last; they change no result).
func (l *lowerer) loadStore(in *Instr, m *mods) error {
	if in.Op == "st" && m.take("async") {
		return l.asyncStore(in, m)
	}
	x, err := l.memMods(in, m)
	if err != nil {
		return err
	}
	store := x.Op == isa.OpSt || x.Op == isa.OpRed
	want := 2
	if x.Flags.Has(isa.FCacheHint) {
		want = 3
	}
	if err := l.nops(in, want); err != nil {
		return err
	}
	data, addr := in.Operands[0], in.Operands[1]
	if store {
		data, addr = addr, data
	}
	if x.Space == isa.ParamSpace {
		if e, off, ok := l.slotOf(addr); ok {
			return l.slotAccess(e.slot, off, x, data)
		}
	}
	a, err := l.mem(addr, x.Space)
	if err != nil {
		return err
	}
	if err := l.memData(&x, a, data); err != nil {
		return err
	}
	if want == 3 {
		p, err := l.val(in.Operands[2], isa.B64)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, p)
	}
	l.emit(x)
	return nil
}

// memMods reads the modifiers of ld/ldu/st into an instruction.
func (l *lowerer) memMods(in *Instr, m *mods) (isa.Instr, error) {
	x := isa.Instr{Op: isa.OpLd}
	if in.Op == "st" {
		x.Op = isa.OpSt
	}
	x.Sem, x.Scope = semScope(m)
	if x.Sem == isa.SemVolatile {
		x.Flags |= isa.FVolatile
	}
	x.Space, _ = space(m)
	if op := m.takeAny("cg", "cv"); op != "" && x.Op == isa.OpLd {
		x.Flags |= isa.FBypassL1 // .cg caches in L2 only; .cv fetches again from L2
	}
	if cacheHints(m) {
		x.Flags |= isa.FCacheHint
	}
	if x.Op == isa.OpLd && m.take("nc") {
		x.Flags |= isa.FNoncoherent
	}
	if in.Op == "ldu" {
		m.take("unified")
	}
	x.Vec = uint8(vec(m))
	t, err := l.typ(m)
	if err != nil {
		return x, err
	}
	if t == isa.Pred || t == isa.B128 {
		return x, l.unsupported("%s of .%s", in.Op, t)
	}
	if err := l.checkVector(int(x.Vec), t); err != nil {
		return x, err
	}
	x.Type = t
	return x, nil
}

// checkVector refuses a vector access wider than sm_90 has.
func (l *lowerer) checkVector(n int, t isa.Type) error {
	if bits := 8 * t.Bytes() * n; n > 4 || bits > maxVectorBits {
		return l.errf("%s: .v%d.%s is a %d-bit vector; sm_90 loads and stores .v2 and .v4 vectors of at most %d bits "+
			"(the 256-bit .v8.b32 and .v4.b64 forms are PTX ISA 8.8, .global only, for sm_100 and later)",
			l.cur.Opcode(), n, t, bits, maxVectorBits)
	}
	return nil
}

// maxVectorBits is the widest vector ld, ldu and st take on sm_90: the PTX
// ISA's vectors are .v2 and .v4 of at most 128 bits (§5.4.2, Vectors); its
// 256-bit .v8 (32-bit elements) and .v4 (64-bit elements) accesses came with
// PTX ISA 8.8 for sm_100 and later and the .global state space only.
const maxVectorBits = 128

// memData adds the address a and the data operands (destinations of a
// load, sources of a store) to x in isa's order.
func (l *lowerer) memData(x *isa.Instr, a isa.Operand, data Operand) error {
	store := x.Op == isa.OpSt || x.Op == isa.OpRed
	vals, err := l.dataOperands(data, x.Type, int(x.Vec), store)
	if err != nil {
		return err
	}
	if store {
		x.Ops = append([]isa.Operand{a}, vals...)
	} else {
		x.NDst = x.Vec
		x.Ops = append(vals, a)
	}
	return nil
}

// dataOperands converts the value operands of a load (destinations, "_"
// allowed) or store (sources): one operand, or a vector of n.
func (l *lowerer) dataOperands(o Operand, t isa.Type, n int, store bool) ([]isa.Operand, error) {
	elems := []Operand{o}
	if v, ok := o.(*Vector); ok {
		elems = v.Elems
	}
	if r, ok := o.(*Reg); ok && n > 1 && !r.Special && r.Comp == "" {
		return l.vectorReg(r, n)
	}
	if len(elems) != n {
		return nil, l.errf("%s has .v%d but %d data operands", l.cur.Opcode(), n, len(elems))
	}
	out := make([]isa.Operand, n)
	for i, e := range elems {
		var err error
		if store {
			out[i], err = l.val(e, t)
		} else {
			out[i], err = l.dst(e)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// vectorReg expands a vector register (.reg .v4 .f32 v) used whole as the
// data of a vector load or store into its n elements.
func (l *lowerer) vectorReg(r *Reg, n int) ([]isa.Operand, error) {
	e, i := l.sc.lookup(r.Name)
	if e == nil || e.kind != entReg || e.decl.Vec != n || e.pred {
		return nil, l.errf("%s has .v%d but %s is not a .v%d register", l.cur.Opcode(), n, r.Name, n)
	}
	out := make([]isa.Operand, n)
	for c := range out {
		reg, err := l.regOf(e, i*n+c, r.Name+"."+"xyzw"[c:c+1])
		if err != nil {
			return nil, err
		}
		out[c] = isa.R(int(reg))
	}
	return out, nil
}

// slotOf reports whether a memory operand names a call argument or
// device-function parameter, and the byte offset into it.
func (l *lowerer) slotOf(o Operand) (*entity, int64, bool) {
	a, ok := o.(*Addr)
	if !ok {
		return nil, 0, false
	}
	s, ok := a.Base.(*Sym)
	if !ok {
		return nil, 0, false
	}
	e, _ := l.sc.lookup(s.Name)
	if e == nil || e.kind != entSlot {
		return nil, 0, false
	}
	return e, a.Offset + s.Offset, true
}

// slotAccess lowers ld.param/st.param on a call slot: register moves for
// scalar slots, local-memory accesses for byte-array slots.
func (l *lowerer) slotAccess(s *slot, off int64, x isa.Instr, data Operand) error {
	if s.mem {
		if off < 0 || uint64(off)+uint64(x.Type.Bytes()*int(x.Vec)) > s.size {
			return l.errf("access at offset %d is outside parameter %s (%d bytes)", off, s.decl.Name, s.size)
		}
		x.Space = isa.Local
		if err := l.memData(&x, isa.Addr(-1, int64(s.off)+off), data); err != nil {
			return err
		}
		l.emit(x)
		return nil
	}
	if off != 0 || x.Vec != 1 || uint64(x.Type.Bytes()) > s.size {
		return l.unsupported("access to scalar parameter %s at offset %d with .v%d.%s", s.decl.Name, off, x.Vec, x.Type)
	}
	if s.reg < 0 {
		r, err := l.newReg(s.decl.Name)
		if err != nil {
			return err
		}
		s.reg = r
	}
	sr := isa.R(int(s.reg))
	if x.Op == isa.OpSt {
		v, err := l.val(data, x.Type)
		if err != nil {
			return err
		}
		l.emit(isa.Instr{Op: isa.OpMov, Type: x.Type, NDst: 1, Ops: []isa.Operand{sr, v}})
		return nil
	}
	d, err := l.dst(data)
	if err != nil {
		return err
	}
	l.emit(slotLoad(x.Type, d, sr))
	return nil
}

// slotLoad reads a scalar slot like a memory load would: narrow types are
// extended (signed ones with their sign).
func slotLoad(t isa.Type, d, sr isa.Operand) isa.Instr {
	if t.Bits() >= 32 {
		return isa.Instr{Op: isa.OpMov, Type: t, NDst: 1, Ops: []isa.Operand{d, sr}}
	}
	ext := isa.U64
	if t.Signed() {
		ext = isa.S64
	}
	return isa.Instr{Op: isa.OpCvt, Type: ext, Type2: t, NDst: 1, Ops: []isa.Operand{d, sr}}
}

// atomOps maps atom/red operations to isa.AtomOp.
var atomOps = map[string]isa.AtomOp{"add": isa.AtomAdd, "min": isa.AtomMin, "max": isa.AtomMax, "inc": isa.AtomInc,
	"dec": isa.AtomDec, "and": isa.AtomAnd, "or": isa.AtomOr, "xor": isa.AtomXor, "exch": isa.AtomExch, "cas": isa.AtomCas}

// atomic lowers atom and red.
func (l *lowerer) atomic(in *Instr, m *mods) error {
	if m.take("async") {
		return l.asyncStore(in, m)
	}
	red := in.Op == "red"
	x := isa.Instr{Op: isa.OpAtom}
	if red {
		x.Op = isa.OpRed
	}
	x.Sem, x.Scope = semScope(m)
	x.Space, _ = space(m)
	x.Atom = atomOf(m)
	if x.Atom == isa.AtomNone {
		return l.unsupported("missing operation")
	}
	if cacheHints(m) {
		x.Flags |= isa.FCacheHint
	}
	if v := vec(m); v > 1 {
		return l.unsupported("vector atomics")
	}
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	x.Type = t
	if err := l.checkAtom(x); err != nil {
		return err
	}
	return l.atomOperands(in, x)
}

// checkAtom rejects operation and type pairs the SM does not define.
func (l *lowerer) checkAtom(x isa.Instr) error {
	t := x.Type
	switch {
	case t == isa.Pred || t == isa.B128 || t.Bits() < 16 || (t.Bits() == 16 && x.Atom != isa.AtomCas):
		return l.unsupported("atomic on .%s", t)
	case t.Float() && x.Atom != isa.AtomAdd && x.Atom != isa.AtomExch:
		return l.unsupported("this atomic operation on .%s", t)
	case t.Float() && t != isa.F32 && t != isa.F64:
		return l.unsupported("atomic add on .%s", t)
	case (x.Atom == isa.AtomInc || x.Atom == isa.AtomDec) && t != isa.U32:
		return l.unsupported("atomic inc/dec on .%s", t)
	}
	return nil
}

// atomOperands converts `atom d, [a], b[, c][, policy]` and `red [a], b[, policy]`.
func (l *lowerer) atomOperands(in *Instr, x isa.Instr) error {
	n := 2
	if x.Op == isa.OpAtom {
		n = 3
	}
	if x.Atom == isa.AtomCas {
		n++
	}
	if x.Flags.Has(isa.FCacheHint) {
		n++
	}
	if err := l.nops(in, n); err != nil {
		return err
	}
	ops := in.Operands
	if x.Op == isa.OpAtom {
		d, err := l.dst(ops[0])
		if err != nil {
			return err
		}
		x.Ops, x.NDst, ops = []isa.Operand{d}, 1, ops[1:]
	}
	a, err := l.mem(ops[0], x.Space)
	if err != nil {
		return err
	}
	x.Ops = append(x.Ops, a)
	for i, o := range ops[1:] {
		t := x.Type
		if x.Flags.Has(isa.FCacheHint) && i == len(ops)-2 {
			t = isa.B64
		}
		v, err := l.val(o, t)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	l.emit(x)
	return nil
}
