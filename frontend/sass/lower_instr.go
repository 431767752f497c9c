package sass

import (
	"sort"
	"strings"

	"github.com/smsim/smsim/isa"
)

// lowerFn lowers the instruction in l.in into l.out.
type lowerFn func(l *lowerer) error

// loweringTable maps each base opcode smsim runs to its lowering; the
// lowering checks the modifiers and operand forms it accepts.
func loweringTable() map[string]lowerFn {
	return map[string]lowerFn{
		// integer and logic
		"IADD3": lowerIAdd3, "UIADD3": lowerIAdd3, "IMAD": lowerIMad, "UIMAD": lowerIMad,
		"LEA": lowerLea, "ULEA": lowerLea, "LOP3": lowerLop3, "ULOP3": lowerLop3, "PLOP3": lowerPLop3, "UPLOP3": lowerPLop3,
		"SHF": lowerShf, "USHF": lowerShf, "PRMT": lowerPrmt, "UPRMT": lowerPrmt,
		"SEL": lowerSel, "USEL": lowerSel, "FSEL": lowerSel,
		"ISETP": lowerISetp, "UISETP": lowerISetp, "VIADD": lowerVIAdd, "VIMNMX": lowerVIMnmx, "VIADDMNMX": lowerVIAddMnmx,
		"IABS": lowerIAbs, "FLO": lowerFlo, "UFLO": lowerFlo, "POPC": lowerUnaryBits, "UPOPC": lowerUnaryBits,
		"BREV": lowerUnaryBits, "UBREV": lowerUnaryBits, "BMSK": lowerBmsk, "UBMSK": lowerBmsk, "SGXT": lowerSgxt, "USGXT": lowerSgxt,
		"IDP": lowerIdp, "VABSDIFF": lowerVAbsDiff, "VABSDIFF4": lowerVAbsDiff, "P2R": lowerP2R,
		"MOV": lowerMov, "UMOV": lowerMov, "LDC": lowerLdc, "ULDC": lowerLdc, "S2R": lowerS2R, "S2UR": lowerS2R,
		"CS2R": lowerCS2R, "R2UR": lowerR2UR,
		// floating point
		"FADD": lowerFArith, "FMUL": lowerFArith, "FFMA": lowerFArith, "FMNMX": lowerFMnmx, "FSETP": lowerFSetp,
		"MUFU": lowerMufu, "FCHK": lowerFchk, "FRND": lowerFrnd, "F2I": lowerF2I, "I2F": lowerI2F, "I2FP": lowerI2FP,
		"F2F": lowerF2F, "F2FP": lowerF2FP, "HADD2": lowerHArith, "HMUL2": lowerHArith, "HFMA2": lowerHArith,
		"HMNMX2": lowerHMnmx, "HSETP2": lowerHSetp, "DADD": lowerDArith, "DMUL": lowerDArith, "DFMA": lowerDArith,
		"DSETP": lowerDSetp,
		// memory
		"LDG": lowerLoad, "LD": lowerLoad, "LDS": lowerLoad, "LDL": lowerLoad,
		"STG": lowerStore, "ST": lowerStore, "STS": lowerStore, "STL": lowerStore,
		"ATOMS": lowerAtom, "ATOM": lowerAtom, "ATOMG": lowerAtom, "REDG": lowerRed, "RED": lowerRed,
		"QSPC": lowerQspc, "LDGSTS": lowerLdgsts, "LDGDEPBAR": lowerLdgdepbar, "ARRIVES": lowerArrives,
		"DEPBAR": lowerDepbar, "MEMBAR": lowerFence, "FENCE": lowerFence, "CCTL": lowerFence, "ERRBAR": lowerFence,
		"CGAERRBAR": lowerFence, "UCGABAR_ARV": lowerClusterBarrier, "UCGABAR_WAIT": lowerClusterBarrier,
		"SYNCS": lowerSyncs, "UBLKCP": lowerUBlkCp, "UTMALDG": lowerUTma, "UTMACMDFLUSH": lowerUTmaFlush,
		// warp collectives
		"SHFL": lowerShfl, "VOTE": lowerVote, "VOTEU": lowerVote, "MATCH": lowerMatch, "REDUX": lowerRedux,
		"ELECT": lowerElect,
		"HGMMA": lowerGMMA, "QGMMA": lowerGMMA, "IGMMA": lowerGMMA, "WARPGROUP": lowerWarpgroup,
		"USETMAXREG": lowerSetMaxReg,
		"LDSM":       lowerMatrix, "STSM": lowerMatrix,
		// control
		"BRA": lowerBra, "CALL": lowerCall, "RET": lowerJmx, "BRX": lowerJmx, "EXIT": lowerExit,
		"BSSY": lowerBssy, "BSYNC": lowerBsync, "BREAK": lowerBreak, "BMOV": lowerBmov, "WARPSYNC": lowerWarpsync,
		"ENDCOLLECTIVE": lowerNop, "NOP": lowerNop, "YIELD": lowerYield, "NANOSLEEP": lowerNanosleep, "BAR": lowerBar, "B2R": lowerB2R,
	}
}

// Opcodes lists the base opcodes smsim can lower (each with the modifiers
// and operand forms its lowering accepts; docs/sass.md lists those).
func Opcodes() []string {
	var ops []string
	for op := range loweringTable() {
		ops = append(ops, op)
	}
	sort.Strings(ops)
	return ops
}

// instr lowers instruction i.
func (l *lowerer) instr(i int, in *Instruction, out *isa.Instr) error {
	if l.table == nil {
		l.table = loweringTable()
	}
	l.idx, l.in, l.out = i, in, out
	out.Pos = isa.Pos{File: l.m.File.Name, Line: int32(in.Line), Col: l.m.column(in.Line)}
	out.Ctrl = ctrlOf(in)
	out.Reconv = isa.NoReconv
	fn := l.table[in.Op]
	if fn == nil {
		return l.unsupported("smsim has no semantics for %s", in.Op)
	}
	if g := in.Guard; g.Reg.Valid() {
		if g.Reg.IsTrue() {
			if g.Not { // @!PT: never executes
				out.Op, out.Class = isa.OpNop, isa.ClassALU
				return nil
			}
		} else {
			o := Operand{Kind: KindReg, Reg: g.Reg}
			if g.Not {
				o.Mods = ModLNot
			}
			out.Guard = l.pred(&o)
		}
	}
	if err := fn(l); err != nil {
		return err
	}
	if strings.HasPrefix(in.Op, "U") {
		out.Flags |= isa.FUniform
	}
	if out.Class == isa.ClassNone {
		out.Class = isa.ClassOf(out)
	}
	return nil
}

// ctrlOf converts the instruction's control bits.
func ctrlOf(in *Instruction) isa.Ctrl {
	c := in.Ctrl
	sb := func(v int8) uint8 {
		if v < 0 {
			return isa.NoSB
		}
		return uint8(v)
	}
	return isa.Ctrl{Stall: c.Stall, Yield: c.Yield, WriteSB: sb(c.WriteSB), ReadSB: sb(c.ReadSB), Wait: c.Wait, Reuse: c.Reuse}
}

// mods checks that every modifier of the instruction is one of allowed.
func (l *lowerer) mods(allowed ...string) error {
	for _, m := range l.in.Mods {
		ok := false
		for _, a := range allowed {
			if m == a {
				ok = true
				break
			}
		}
		if !ok {
			return l.unsupported("modifier .%s", m)
		}
	}
	return nil
}

// has reports whether the instruction has modifier m.
func (l *lowerer) has(m string) bool { return l.in.HasMod(m) }

// nops checks the operand count.
func (l *lowerer) nops(n ...int) error {
	for _, k := range n {
		if len(l.in.Operands) == k {
			return nil
		}
	}
	return l.bad("%d operands (want %v)", len(l.in.Operands), n)
}

// set fills the output instruction's opcode, type and operands.
func (l *lowerer) set(op isa.Op, t isa.Type, ndst int, ops ...isa.Operand) {
	l.out.Op, l.out.Type, l.out.NDst, l.out.Ops = op, t, uint8(ndst), ops
}

// srcs converts the operands in[from:] for kind k.
func (l *lowerer) srcs(k want, ops ...*Operand) ([]isa.Operand, error) {
	out := make([]isa.Operand, len(ops))
	for i, o := range ops {
		v, err := l.src(o, k)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// op returns operand i of the instruction.
func (l *lowerer) op(i int) *Operand { return &l.in.Operands[i] }

// uniform marks an instruction of the uniform datapath.
func (l *lowerer) uniform() bool { return len(l.in.Op) > 1 && l.in.Op[0] == 'U' }

// lowerYield: YIELD lets the warp's scheduler run another of the warp's
// paths (Volta's independent thread scheduling); a warp of one path goes on.
func lowerYield(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	l.set(isa.OpYield, isa.TNone, 0)
	l.out.Class = isa.ClassBranch
	return nil
}

func lowerNop(l *lowerer) error {
	if err := l.mods(); err != nil && l.in.Op != "NOP" {
		return err
	}
	l.set(isa.OpNop, isa.TNone, 0)
	l.out.Class = isa.ClassALU
	if l.in.Op == "ENDCOLLECTIVE" {
		l.out.Class = isa.ClassBranch
	}
	return nil
}
