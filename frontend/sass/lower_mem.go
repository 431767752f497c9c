package sass

import (
	"github.com/smsim/smsim/isa"
)

// Loads, stores, atomics and address-space queries.

// memHints are the modifiers of loads and stores that change ordering,
// caching or timing but not the bytes moved.
func memHints() []string {
	return []string{"E", "CONSTANT", "STRONG", "GPU", "SM", "SYS", "CTA", "EF", "EL", "LU", "EN", "NA",
		"LTC64B", "LTC128B", "LTC256B", "PRIVATE", "BYPASS", "WEAK", "MMIO"}
}

// accessType reads the width of a load or store: a 32-bit word by default,
// .U8/.S8/.U16/.S16 narrower, .64 and .128 two and four words.
func (l *lowerer) accessType() (isa.Type, int) {
	switch {
	case l.has("U8"):
		return isa.U8, 1
	case l.has("S8"):
		return isa.S8, 1
	case l.has("U16"):
		return isa.U16, 1
	case l.has("S16"):
		return isa.S16, 1
	case l.has("64"):
		return isa.B32, 2
	case l.has("128"):
		return isa.B32, 4
	}
	return isa.B32, 1
}

// spaceOf is the state space a memory opcode addresses.
func spaceOf(op string) isa.Space {
	switch op {
	case "LDG", "STG", "ATOMG", "REDG", "LDGSTS":
		return isa.Global
	case "LDS", "STS", "ATOMS":
		return isa.Shared
	case "LDL", "STL":
		return isa.Local
	}
	return isa.Generic
}

// addr converts the address operand of a memory instruction in space sp:
// global and generic addresses of the .E forms are 64-bit register pairs.
func (l *lowerer) addr(o *Operand, sp isa.Space) (isa.Operand, error) {
	pair := l.has("E") && (sp == isa.Global || sp == isa.Generic)
	return l.mem(o, pair)
}

// semantics fills the ordering of .STRONG accesses (timing and the hazard
// checker; the functional model is sequentially consistent).
func (l *lowerer) semantics() {
	if l.has("STRONG") {
		l.out.Sem = isa.SemRelaxed
		switch {
		case l.has("GPU"):
			l.out.Scope = isa.ScopeGPU
		case l.has("SYS"):
			l.out.Scope = isa.ScopeSys
		case l.has("SM"), l.has("CTA"):
			l.out.Scope = isa.ScopeCTA
		}
	}
	if l.has("CONSTANT") {
		l.out.Flags |= isa.FNoncoherent
	}
}

// words expands register r of an access into n consecutive registers (RZ:
// sinks for destinations, zeros for sources).
func (l *lowerer) words(o *Operand, n int, isDst bool) ([]isa.Operand, error) {
	if o.Kind != KindReg || (o.Reg.File != GPR && o.Reg.File != UGPR) {
		if !isDst && n == 1 {
			v, err := l.src(o, wInt)
			return []isa.Operand{v}, err
		}
		return nil, l.bad("operand %s: want a register", o.String())
	}
	if n > 1 && !o.Reg.IsZero() && o.Reg.Num%uint8(min(n, 4)) != 0 {
		return nil, l.bad("%s cannot start a %d-register vector", o.Reg.String(), n)
	}
	out := make([]isa.Operand, n)
	for i := range out {
		switch {
		case o.Reg.IsZero() && isDst:
			out[i] = isa.Sink()
		case o.Reg.IsZero():
			out[i] = isa.Imm(0)
		default:
			out[i] = isa.R(regIndex(o.Reg) + i)
		}
	}
	return out, nil
}

// lowerLoad: LDG / LD / LDS / LDL[.width][hints] d, [addr].
func lowerLoad(l *lowerer) error {
	if err := l.mods(append([]string{"U8", "S8", "U16", "S16", "64", "128"}, memHints()...)...); err != nil {
		return err
	}
	if err := l.nops(2); err != nil {
		return err
	}
	sp := spaceOf(l.in.Op)
	t, n := l.accessType()
	ds, err := l.words(l.op(0), n, true)
	if err != nil {
		return err
	}
	a, err := l.addr(l.op(1), sp)
	if err != nil {
		return err
	}
	l.set(isa.OpLd, t, n, append(ds, a)...)
	l.out.Vec, l.out.Space = uint8(n), sp
	l.semantics()
	if sp == isa.Global && (l.out.Scope == isa.ScopeGPU || l.out.Scope == isa.ScopeSys) {
		// A strong load of GPU or system scope must see other SMs' writes,
		// which the SM's L1 does not keep coherent: its line comes from L2.
		// ptxas makes ld.global.cg (and ld.relaxed.gpu, ld.volatile) such
		// an LDG.E.STRONG.GPU: gmem.csv's pages_l2 chases take ~290 cycles
		// a load wherever the line was before.
		l.out.Flags |= isa.FBypassL1
	}
	return nil
}

// lowerStore: STG / ST / STS / STL[.width][hints] [addr], s.
func lowerStore(l *lowerer) error {
	if err := l.mods(append([]string{"U8", "S8", "U16", "S16", "64", "128"}, memHints()...)...); err != nil {
		return err
	}
	if err := l.nops(2); err != nil {
		return err
	}
	sp := spaceOf(l.in.Op)
	t, n := l.accessType()
	a, err := l.addr(l.op(0), sp)
	if err != nil {
		return err
	}
	ss, err := l.words(l.op(1), n, false)
	if err != nil {
		return err
	}
	l.set(isa.OpSt, t, 0, append([]isa.Operand{a}, ss...)...)
	l.out.Vec, l.out.Space = uint8(n), sp
	l.semantics()
	return nil
}

// atomOf reads an atomic operation modifier.
func atomOf(m string) (isa.AtomOp, bool) {
	switch m {
	case "ADD":
		return isa.AtomAdd, true
	case "MIN":
		return isa.AtomMin, true
	case "MAX":
		return isa.AtomMax, true
	case "INC":
		return isa.AtomInc, true
	case "DEC":
		return isa.AtomDec, true
	case "AND":
		return isa.AtomAnd, true
	case "OR":
		return isa.AtomOr, true
	case "XOR":
		return isa.AtomXor, true
	case "EXCH":
		return isa.AtomExch, true
	case "CAS":
		return isa.AtomCas, true
	}
	return isa.AtomNone, false
}

// atomType reads an atomic's operation and element type: 32-bit unsigned
// by default, .S32, .64 (u64), .F32 (with .FTZ.RN, the only f32 form).
func (l *lowerer) atomType() (isa.AtomOp, isa.Type, error) {
	op := isa.AtomNone
	t := isa.U32
	for _, m := range l.in.Mods {
		if a, ok := atomOf(m); ok {
			op = a
			continue
		}
		switch m {
		case "S32":
			t = isa.S32
		case "U32":
			t = isa.U32
		case "64", "U64":
			t = isa.U64
		case "S64":
			t = isa.S64
		case "F32":
			t = isa.F32
		case "FTZ", "RN":
		default:
			ok := false
			for _, h := range memHints() {
				ok = ok || m == h
			}
			if !ok {
				return 0, 0, l.unsupported("modifier .%s", m)
			}
		}
	}
	if op == isa.AtomNone {
		return 0, 0, l.unsupported("an atomic without an operation")
	}
	if t == isa.F32 && op != isa.AtomAdd {
		return 0, 0, l.unsupported("an f32 atomic other than ADD")
	}
	return op, t, nil
}

// lowerAtom: ATOMS.op[.type] d, [addr], b [, c]; ATOM / ATOMG.E.op[.type]
// p, d, [addr], b [, c] (p: the operation was done, which smsim always
// does); ATOMS.CAST.SPIN[.64] d, [addr], b, c (store c where [addr] holds b;
// d = 1 if it did).
func lowerAtom(l *lowerer) error {
	if l.has("CAST") {
		return lowerCast(l)
	}
	atom, t, err := l.atomType()
	if err != nil {
		return err
	}
	ops := l.in.Operands
	sp := spaceOf(l.in.Op)
	k := 0
	var p isa.Operand
	if sp != isa.Shared {
		if len(ops) < 1 || !isPred(&ops[0]) {
			return l.bad("want a predicate destination first")
		}
		if p, err = l.predDst(&ops[0]); err != nil {
			return err
		}
		k = 1
	}
	want := 3
	if atom == isa.AtomCas {
		want = 4
	}
	if len(ops) != k+want {
		return l.bad("%d operands", len(ops))
	}
	wide := t.Bits() == 64
	kind := wInt
	if wide {
		kind = wPair
	}
	d, err := l.dst(&ops[k], wide)
	if err != nil {
		return err
	}
	a, err := l.addr(&ops[k+1], sp)
	if err != nil {
		return err
	}
	out := []isa.Operand{d}
	if k == 1 {
		out = append(out, p)
	}
	out = append(out, a)
	for i := k + 2; i < len(ops); i++ {
		v, err := l.src(&ops[i], kind)
		if err != nil {
			return err
		}
		out = append(out, v)
	}
	l.set(isa.OpAtom, t, 1+k, out...)
	l.out.Atom, l.out.Space = atom, sp
	l.semantics()
	return nil
}

// lowerCast: ATOMS.CAST.SPIN[.64] d, [addr], b, c.
func lowerCast(l *lowerer) error {
	if err := l.mods("CAST", "SPIN", "64"); err != nil {
		return err
	}
	if err := l.nops(4); err != nil {
		return err
	}
	wide := l.has("64")
	kind, t := wInt, isa.B32
	if wide {
		kind, t = wPair, isa.B64
	}
	d, err := l.dst(l.op(0), wide)
	if err != nil {
		return err
	}
	a, err := l.addr(l.op(1), isa.Shared)
	if err != nil {
		return err
	}
	s, err := l.srcs(kind, l.op(2), l.op(3))
	if err != nil {
		return err
	}
	l.set(isa.OpCast, t, 1, d, a, s[0], s[1])
	l.out.Atom, l.out.Space = isa.AtomCas, isa.Shared
	l.out.Class = isa.ClassShared
	return nil
}

// lowerRed: REDG / RED.E.op[.type][hints] [addr], b.
func lowerRed(l *lowerer) error {
	atom, t, err := l.atomType()
	if err != nil {
		return err
	}
	if err := l.nops(2); err != nil {
		return err
	}
	if atom == isa.AtomCas {
		return l.unsupported("RED.CAS")
	}
	sp := spaceOf(l.in.Op)
	a, err := l.addr(l.op(0), sp)
	if err != nil {
		return err
	}
	kind := wInt
	if t.Bits() == 64 {
		kind = wPair
	}
	b, err := l.src(l.op(1), kind)
	if err != nil {
		return err
	}
	l.set(isa.OpRed, t, 0, a, b)
	l.out.Atom, l.out.Space = atom, sp
	l.semantics()
	return nil
}

// lowerQspc: QSPC.E.{S,G,L} p, RZ, [addr]: whether a generic address lies
// in shared, global or local memory.
func lowerQspc(l *lowerer) error {
	if err := l.mods("E", "S", "G", "L"); err != nil {
		return err
	}
	if err := l.nops(3); err != nil {
		return err
	}
	sp := isa.Shared
	switch {
	case l.has("G"):
		sp = isa.Global
	case l.has("L"):
		sp = isa.Local
	}
	if o := l.op(1); !(o.Kind == KindReg && o.Reg.IsZero()) {
		return l.unsupported("QSPC with a register result")
	}
	p, err := l.predDst(l.op(0))
	if err != nil {
		return err
	}
	a, err := l.mem(l.op(2), true)
	if err != nil {
		return err
	}
	l.set(isa.OpQspc, isa.Pred, 1, p, a)
	l.out.Space = sp
	l.out.Class = isa.ClassALU
	return nil
}
