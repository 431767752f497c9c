package isa

import (
	"fmt"
	"io"
	"strings"
)

// String formats an operand the way diagnostics print it.
func (o Operand) String() string {
	if o.Mod != 0 {
		return o.modString()
	}
	switch o.Kind {
	case KReg:
		return fmt.Sprintf("r%d", o.Reg)
	case KPred:
		if o.Neg {
			return fmt.Sprintf("!p%d", o.Reg)
		}
		return fmt.Sprintf("p%d", o.Reg)
	case KImm:
		return fmt.Sprintf("%d", int64(o.Imm))
	case KSpecial:
		return o.Special.String()
	case KAddr:
		if o.Reg < 0 {
			return fmt.Sprintf("[0x%x]", o.Imm)
		}
		if off := int64(o.Imm); off != 0 {
			return fmt.Sprintf("[r%d%+d]", o.Reg, off)
		}
		return fmt.Sprintf("[r%d]", o.Reg)
	case KSink:
		return "_"
	case KConst:
		return o.constString()
	}
	return "?"
}

// constString prints a constant-bank operand as SASS does: c[0x0][0x210],
// c[0x2][r6+0x18].
func (o Operand) constString() string {
	at := fmt.Sprintf("0x%x", o.Imm)
	if o.Reg >= 0 {
		at = fmt.Sprintf("r%d+0x%x", o.Reg, o.Imm)
	}
	return fmt.Sprintf("c[0x%x][%s]", o.Bank, at)
}

// modString prints an operand with SASS modifiers: the pair as r4.64, the
// index register of an address, negation, complement, absolute value and
// half selection.
func (o Operand) modString() string {
	p := o
	p.Mod = 0
	s := p.String()
	if o.Kind == KReg && o.Mod.Has(MPair) {
		s += ".64"
	}
	if o.Kind == KAddr && o.Reg >= 0 && (o.Mod.Has(MPair) || o.Mod.Has(MIndex)) {
		idx := ""
		if o.Mod.Has(MIndex) {
			idx = fmt.Sprintf("+r%d", o.Index)
		}
		pair := ""
		if o.Mod.Has(MPair) {
			pair = ".64"
		}
		s = fmt.Sprintf("[r%d%s%s%+d]", o.Reg, pair, idx, int64(o.Imm))
	}
	switch {
	case o.Mod&(MH0H0) != 0:
		s += ".h0_h0"
	case o.Mod&(MH1H1) != 0:
		s += ".h1_h1"
	case o.Mod&MH1 != 0:
		s += ".h1"
	}
	if o.Mod&(MFAbs|MHAbs) != 0 {
		s = "|" + s + "|"
	}
	switch {
	case o.Mod&(MNeg|MFNeg|MHNeg) != 0:
		s = "-" + s
	case o.Mod&MNot != 0:
		s = "~" + s
	}
	return s
}

// String disassembles the instruction (register numbers, not source names).
func (in *Instr) String() string {
	var b strings.Builder
	if in.Guard.Kind == KPred {
		b.WriteString("@" + in.Guard.String() + " ")
	}
	b.WriteString(in.Op.String())
	if in.Op == OpBarRed { // the reduction: SASS BAR.RED's own modifier (the PTX frontend lowers bar.red otherwise)
		switch in.Atom {
		case AtomPopc:
			b.WriteString(".popc")
		case AtomAnd:
			b.WriteString(".and")
		case AtomOr:
			b.WriteString(".or")
		}
	}
	for _, f := range flagNames {
		if in.Flags.Has(f.f) {
			b.WriteString("." + f.name)
		}
	}
	for _, h := range hintNames {
		if h.src != 0 && in.Source.Has(h.src) || h.sched != 0 && in.Sched.Has(h.sched) {
			b.WriteString("." + h.name)
		}
	}
	if in.Cmp != CmpNone {
		b.WriteString("." + cmpNames[in.Cmp])
	}
	if in.Dim != 0 {
		fmt.Fprintf(&b, ".%dd", in.Dim)
	}
	if in.Vec > 1 {
		fmt.Fprintf(&b, ".v%d", in.Vec)
	}
	if in.Space != Generic {
		b.WriteString("." + in.Space.String())
	}
	if in.Space2 != Generic {
		b.WriteString("." + in.Space2.String())
	}
	if in.Type != TNone {
		b.WriteString("." + in.Type.String())
	}
	if in.Type2 != TNone {
		b.WriteString("." + in.Type2.String())
	}
	for i, o := range in.Ops {
		if i == 0 {
			b.WriteString(" ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(o.String())
	}
	if in.Op.IsBranch() {
		fmt.Fprintf(&b, " -> %d", in.Target)
		if in.Reconv != NoReconv {
			fmt.Fprintf(&b, " (reconverge %d)", in.Reconv)
		}
	}
	return b.String()
}

var flagNames = []struct {
	f    Flags
	name string
}{
	{FHi, "hi"}, {FLo, "lo"}, {FWide, "wide"}, {FSat, "sat"}, {FFtz, "ftz"}, {FApprox, "approx"}, {FUni, "uni"},
	{FCC, "cc"}, {FCarryIn, "carry"}, {FDrop, "drop"}, {FNoComplete, "noComplete"}, {FExpectTx, "expect_tx"},
	{FParity, "parity"}, {FNoInc, "noinc"}, {FMulticast, "multicast"}, {FStore, "store"}, {FRead, "read"},
	{FTo, "to"}, {FClamp, "clamp"}, {FVolatile, "volatile"}, {FNoncoherent, "nc"}, {FProxyAsync, "proxy.async"},
	{FMbarInitFence, "mbarrier_init"}, {FProxyTensormap, "proxy.tensormap"}, {FAligned, "aligned"}, {FHint, "hint"},
	{FRemote, "remote"}, {FIm2col, "im2col"}, {FBypassL1, "l2only"},
	{FSyncs, "syncs"},
}

// hintNames spell the source and scheduling hints after the flags, as
// modifiers of their own (.nounroll, .bsync, ...).
var hintNames = []struct {
	src   SourceHints
	sched SchedHints
	name  string
}{
	{src: HintNoUnroll, name: "nounroll"}, {sched: SchedConverge, name: "bsync"}, {sched: SchedVecAddr, name: "vaddr"},
	{sched: SchedReloadWindow, name: "window"}, {src: HintSharedSym, name: "smem_sym"}, {sched: SchedReadWindow, name: "window_read"},
	{sched: SchedFoldedAddr, name: "in_addr"}, {sched: SchedMoveUniform, name: "r2ur"}, {sched: SchedMoveUniformLoop, name: "r2ur_loop"},
}

var cmpNames = [...]string{CmpNone: "", CmpEq: "eq", CmpNe: "ne", CmpLt: "lt", CmpLe: "le", CmpGt: "gt", CmpGe: "ge",
	CmpLo: "lo", CmpLs: "ls", CmpHi: "hi", CmpHs: "hs", CmpEqu: "equ", CmpNeu: "neu", CmpLtu: "ltu", CmpLeu: "leu",
	CmpGtu: "gtu", CmpGeu: "geu", CmpNum: "num", CmpNan: "nan"}

// Disasm writes the program, one numbered instruction per line with its
// source position and timing class.
func (p *Program) Disasm(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "// %s (%s): %d instructions, %d regs, %d preds, %d B static shared\n",
		p.Name, p.File, len(p.Instrs), p.NumRegs, p.NumPreds, p.SharedStatic); err != nil {
		return err
	}
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if _, err := fmt.Fprintf(w, "%5d  %-60s // %s %s\n", i, in.String(), in.Class, in.Pos); err != nil {
			return err
		}
	}
	return nil
}
