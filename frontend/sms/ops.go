package sms

import (
	"strings"

	"github.com/smsim/smsim/isa"
)

// opSpec describes one operation of the language.
type opSpec struct {
	usage string // the syntax, for error messages
	value bool   // produces a value: may stand after let NAME = / NAME =
	lower func(g *gen, s *opStmt, mods []string, dst int) error
}

// lookupOp returns the operation named base (the word before the first dot).
func lookupOp(base string) *opSpec {
	switch base {
	case "init":
		return &opSpec{"init BAR, COUNT", false, (*gen).opInit}
	case "inval":
		return &opSpec{"inval BAR", false, (*gen).opInval}
	case "arrive", "arrive_drop":
		return &opSpec{base + "[.expect_tx][.noComplete] BAR[, TX][, COUNT]", true, (*gen).opArrive}
	case "expect_tx", "complete_tx":
		return &opSpec{base + " BAR, TX", false, (*gen).opTx}
	case "test_wait":
		return &opSpec{"test_wait BAR parity P | test_wait BAR token T", true, (*gen).opTestWait}
	case "try_wait":
		return &opSpec{"try_wait BAR parity P [hint NS] | try_wait BAR token T [hint NS]", true, (*gen).opTestWait}
	case "pending_count":
		return &opSpec{"pending_count TOKEN", true, (*gen).opPendingCount}
	case "wait":
		return &opSpec{"wait BAR parity P [hint NS] | wait BAR token T [hint NS]", false, (*gen).opWait}
	case "arrive_and_wait":
		return &opSpec{"arrive_and_wait BAR [hint NS]", false, (*gen).opArriveAndWait}
	}
	return lookupOtherOp(base)
}

// shape checks the number of positional operands and the keywords of s.
func (g *gen) shape(s *opStmt, minN, maxN int, keys ...string) (map[string]expr, error) {
	spec := lookupOp(strings.SplitN(s.name, ".", 2)[0])
	if n := len(s.args); n < minN || n > maxN {
		want := itoa64(int64(minN))
		switch {
		case maxN == minN+1:
			want += " or " + itoa64(int64(maxN))
		case maxN != minN:
			want += " to " + itoa64(int64(maxN))
		}
		return nil, errAt(s.pos, "%s takes %s operands, found %d (usage: %s)", s.name, want, n, spec.usage)
	}
	kws := map[string]expr{}
	for _, k := range s.kws {
		if !contains(keys, k.key) {
			return nil, errAt(k.pos, "%s does not take %q (usage: %s)", s.name, k.key, spec.usage)
		}
		if kws[k.key] != nil {
			return nil, errAt(k.pos, "%q given twice", k.key)
		}
		kws[k.key] = k.x
	}
	return kws, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// noMods rejects modifiers on operations that take none.
func noMods(s *opStmt, mods []string, allowed ...string) error {
	seen := map[string]bool{}
	for _, m := range mods {
		if !contains(allowed, m) || seen[m] {
			want := "no modifiers"
			if len(allowed) > 0 {
				want = "." + strings.Join(allowed, " or .")
			}
			return errAt(s.pos, "unexpected modifier .%s on %s (expected %s)", m, strings.SplitN(s.name, ".", 2)[0], want)
		}
		seen[m] = true
	}
	return nil
}

// mbar emits an mbarrier instruction on a .shared::cta barrier.
func (g *gen) mbar(op isa.Op, flags isa.Flags, ndst int, ops ...isa.Operand) {
	g.emit(isa.Instr{Op: op, Type: isa.B64, Space: isa.Shared, Flags: flags, NDst: uint8(ndst), Ops: ops})
}

// barArg lowers a barrier operand: NAME, NAME[i] or a raw shared address [EXPR].
func (g *gen) barArg(a arg) (isa.Operand, error) {
	if a.addr {
		return g.address(a.x)
	}
	var name string
	var idx []expr
	switch x := a.x.(type) {
	case *nameExpr:
		name = x.name
	case *indexExpr:
		name, idx = x.name, x.idx
	default:
		return isa.Operand{}, errAt(a.pos, "expected a barrier (NAME, NAME[i] or [ADDRESS]), found an expression")
	}
	s, err := g.resolve(a.pos, name)
	if err != nil {
		return isa.Operand{}, err
	}
	switch {
	case s.kind != symBarrier:
		return isa.Operand{}, errAt(a.pos, "expected a barrier, found %s %s", s.kind, name)
	case s.n == 0 && len(idx) > 0:
		return isa.Operand{}, errAt(a.pos, "barrier %s is not an array, found an index", name)
	case s.n > 0 && len(idx) != 1:
		return isa.Operand{}, errAt(a.pos, "barrier array %s needs one index (%s[i]), found %d", name, name, len(idx))
	case s.n == 0:
		return isa.Addr(-1, s.val), nil
	}
	return g.barElem(s, idx[0])
}

// barElem addresses element i of a barrier array: constant indices are
// checked against the length; others become [r + base] with r = i << 3.
func (g *gen) barElem(s *symbol, i expr) (isa.Operand, error) {
	v, err := g.value(i, -1)
	if err != nil {
		return isa.Operand{}, err
	}
	if v.isConst {
		if v.c < 0 || v.c >= s.n {
			return isa.Operand{}, errAt(i.at(), "barrier index %d out of range: %s has %d elements (0..%d)", v.c, s.name, s.n, s.n-1)
		}
		return isa.Addr(-1, s.val+8*v.c), nil
	}
	t := g.regs.temp()
	g.emit(isa.Instr{Op: isa.OpShl, Type: isa.B64, NDst: 1, Ops: []isa.Operand{isa.R(t), v.operand(), isa.Imm(3)}})
	return isa.Addr(t, s.val), nil
}

// valArg lowers a value operand (not an [address]).
func (g *gen) valArg(a arg, what string) (isa.Operand, error) {
	if a.addr {
		return isa.Operand{}, errAt(a.pos, "expected %s, found an address in brackets", what)
	}
	return g.operand(a.x)
}

// addrArg lowers an [address] operand.
func (g *gen) addrArg(a arg, what string) (isa.Operand, error) {
	if !a.addr {
		return isa.Operand{}, errAt(a.pos, "expected %s in brackets ([EXPR]), found an expression", what)
	}
	return g.address(a.x)
}

func (g *gen) opInit(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	if _, err := g.shape(s, 2, 2); err != nil {
		return err
	}
	bar, err := g.barArg(s.args[0])
	if err != nil {
		return err
	}
	n, err := g.valArg(s.args[1], "an arrival count")
	g.mbar(isa.OpMbarInit, 0, 0, bar, n)
	return err
}

func (g *gen) opInval(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	if _, err := g.shape(s, 1, 1); err != nil {
		return err
	}
	bar, err := g.barArg(s.args[0])
	g.mbar(isa.OpMbarInval, 0, 0, bar)
	return err
}

// opArrive lowers arrive and arrive_drop with their .expect_tx and
// .noComplete forms: token|_, [bar] [, tx] [, count].
func (g *gen) opArrive(s *opStmt, mods []string, dst int) error {
	if err := noMods(s, mods, "expect_tx", "noComplete"); err != nil {
		return err
	}
	var flags isa.Flags
	if strings.HasPrefix(s.name, "arrive_drop") {
		flags |= isa.FDrop
	}
	minN, maxN := 1, 2
	if contains(mods, "expect_tx") {
		flags |= isa.FExpectTx
		minN, maxN = 2, 3
	}
	if contains(mods, "noComplete") { // PTX requires the count with .noComplete
		flags |= isa.FNoComplete
		minN = maxN
	}
	if _, err := g.shape(s, minN, maxN); err != nil {
		return err
	}
	bar, err := g.barArg(s.args[0])
	if err != nil {
		return err
	}
	ops := []isa.Operand{isa.Sink(), bar}
	if dst >= 0 {
		ops[0] = isa.R(dst)
	}
	for i, a := range s.args[1:] {
		what := "an arrival count"
		if i == 0 && flags.Has(isa.FExpectTx) {
			what = "a byte count"
		}
		o, err := g.valArg(a, what)
		if err != nil {
			return err
		}
		ops = append(ops, o)
	}
	g.mbar(isa.OpMbarArrive, flags, 1, ops...)
	return nil
}

// opTx lowers expect_tx and complete_tx: [bar], txBytes.
func (g *gen) opTx(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	if _, err := g.shape(s, 2, 2); err != nil {
		return err
	}
	bar, err := g.barArg(s.args[0])
	if err != nil {
		return err
	}
	tx, err := g.valArg(s.args[1], "a byte count")
	op := isa.OpMbarExpectTx
	if strings.HasPrefix(s.name, "complete_tx") {
		op = isa.OpMbarCompleteTx
	}
	g.mbar(op, 0, 0, bar, tx)
	return err
}

// op lowers an operation statement; dst >= 0 receives its value (let/assign).
func (g *gen) op(s *opStmt, dst int) error {
	base, rest, _ := strings.Cut(s.name, ".")
	spec := lookupOp(base)
	if spec == nil {
		return errAt(s.pos, "unknown operation %s", s.name)
	}
	if dst >= 0 && !spec.value {
		return errAt(s.pos, "%s does not produce a value", base)
	}
	var mods []string
	if rest != "" {
		mods = strings.Split(rest, ".")
	}
	return spec.lower(g, s, mods, dst)
}
