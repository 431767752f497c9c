package sms

import (
	"strings"

	"github.com/smsim/smsim/isa"
)

// waitArgs lowers the operands shared by test_wait, try_wait and wait: the
// barrier, then exactly one of "parity P" or "token T", then an optional
// "hint NS" (try_wait and wait only). It returns the source operands after
// the predicate and the flags.
func (g *gen) waitArgs(s *opStmt, hint bool) ([]isa.Operand, isa.Flags, error) {
	keys := []string{"parity", "token"}
	if hint {
		keys = append(keys, "hint")
	}
	kws, err := g.shape(s, 1, 1, keys...)
	if err != nil {
		return nil, 0, err
	}
	par, tok := kws["parity"], kws["token"]
	if (par == nil) == (tok == nil) {
		return nil, 0, errAt(s.pos, "%s needs exactly one of \"parity P\" or \"token T\" after the barrier (usage: %s)",
			s.name, lookupOp(strings.SplitN(s.name, ".", 2)[0]).usage)
	}
	bar, err := g.barArg(s.args[0])
	if err != nil {
		return nil, 0, err
	}
	var flags isa.Flags
	x := tok
	if par != nil {
		flags, x = isa.FParity, par
		if c, ok, _ := g.evalConst(par); ok && c != 0 && c != 1 {
			return nil, 0, errAt(par.at(), "parity must be 0 or 1, found %d", c)
		}
	}
	xo, err := g.operand(x)
	if err != nil {
		return nil, 0, err
	}
	ops := []isa.Operand{bar, xo}
	if h := kws["hint"]; h != nil {
		ho, err := g.operand(h)
		if err != nil {
			return nil, 0, err
		}
		ops = append(ops, ho)
		flags |= isa.FHint
	}
	return ops, flags, nil
}

// opTestWait lowers test_wait and try_wait: p, [bar], token|parity [, hint].
// As a value it is 1 where the phase has completed and 0 elsewhere.
func (g *gen) opTestWait(s *opStmt, mods []string, dst int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	try := strings.HasPrefix(s.name, "try_wait")
	ops, flags, err := g.waitArgs(s, try)
	if err != nil {
		return err
	}
	op := isa.OpMbarTestWait
	if try {
		op = isa.OpMbarTryWait
	}
	p := g.preds.temp()
	g.mbar(op, flags, 1, append([]isa.Operand{isa.P(p)}, ops...)...)
	if dst >= 0 {
		g.selp(dst, isa.P(p))
	}
	return nil
}

// opPendingCount lowers pending_count: d, token.
func (g *gen) opPendingCount(s *opStmt, mods []string, dst int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	if _, err := g.shape(s, 1, 1); err != nil {
		return err
	}
	tok, err := g.valArg(s.args[0], "a token from arrive.noComplete")
	if err != nil {
		return err
	}
	g.emit(isa.Instr{Op: isa.OpMbarPendingCount, Type: isa.B64, NDst: 1, Ops: []isa.Operand{isa.R(g.dest(dst)), tok}})
	return nil
}

// opWait lowers the wait loop PTX code uses:
//
//	L:  try_wait p, [bar], x
//	    @!p bra L
func (g *gen) opWait(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	ops, flags, err := g.waitArgs(s, true)
	if err != nil {
		return err
	}
	g.waitLoop(ops, flags)
	return nil
}

func (g *gen) waitLoop(ops []isa.Operand, flags isa.Flags) {
	top := len(g.code)
	p := g.preds.temp()
	g.mbar(isa.OpMbarTryWait, flags, 1, append([]isa.Operand{isa.P(p)}, ops...)...)
	back := g.branch(isa.NotP(p))
	g.code[back].Target = int32(top)
}

// opArriveAndWait lowers cuda::barrier::arrive_and_wait: arrive for a token,
// then the wait loop on that token.
func (g *gen) opArriveAndWait(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	kws, err := g.shape(s, 1, 1, "hint")
	if err != nil {
		return err
	}
	bar, err := g.barArg(s.args[0])
	if err != nil {
		return err
	}
	tok := g.regs.temp()
	g.mbar(isa.OpMbarArrive, 0, 1, isa.R(tok), bar)
	ops, flags := []isa.Operand{bar, isa.R(tok)}, isa.Flags(0)
	if h := kws["hint"]; h != nil {
		ho, err := g.operand(h)
		if err != nil {
			return err
		}
		ops, flags = append(ops, ho), isa.FHint
	}
	g.waitLoop(ops, flags)
	return nil
}
