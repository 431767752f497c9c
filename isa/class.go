package isa

import "fmt"

// Class is an instruction's timing class: which pipe issues it and which
// latency parameter of the machine configuration applies. The mapping from
// PTX opcode and type to Class lives in ClassOf, so both frontends and the
// documentation agree on it.
type Class uint8

// Timing classes. Comments name the SASS they correspond to on sm_90.
const (
	ClassNone      Class = iota
	ClassALU             // IADD3, LOP3, ISETP, SEL, SHF, MOV, PRMT, ...: integer pipe
	ClassIMAD            // IMAD, IMAD.WIDE, IMUL: the FMA-heavy integer multiply
	ClassFMA             // FFMA, FADD, FMUL, HFMA2: fp32/fp16 pipe
	ClassFP64            // DFMA, DADD, DMUL
	ClassSFU             // MUFU (rcp, sqrt, sin, ex2, ...), and slow conversions (F2F.F64, I2F.F64)
	ClassConv            // I2F, F2I, F2F (32-bit and narrower)
	ClassDiv             // f32 division (also div.approx: MUFU.RCP with range checks), IEEE square root and reciprocal
	ClassDiv64           // IEEE f64 division, square root and reciprocal: a DFMA/MUFU.RCP64H sequence
	ClassIDiv            // 32-bit integer division/remainder: no hardware divider; ~18 SASS instructions (I2F, MUFU.RCP, F2I, IMAD.HI, ...)
	ClassIDivInv         // ClassIDiv whose divisor is loop-invariant: ptxas computes the reciprocal outside the loop
	ClassIDiv64          // 64-bit integer division/remainder: a run-time test, then a 32-bit sequence or a subroutine
	ClassIDiv64Inv       // ClassIDiv64 whose divisor is loop-invariant
	ClassSpecial         // S2R / S2UR / CS2R: special-register reads (%tid, %clock64)
	ClassBranch          // BRA, BSSY, BSYNC, WARPSYNC, EXIT
	ClassShared          // LDS/STS/ATOMS: shared memory through the MIO queue
	ClassGlobal          // LDG/STG/ATOMG/RED through L1TEX
	ClassLocal           // LDL/STL (stack)
	ClassConst           // LDC / constant-bank operands
	ClassParam           // kernel parameters (constant bank 0)
	ClassSyncs           // SYNCS.*: mbarrier operations through the barrier unit
	ClassBar             // BAR.SYNC / BAR.ARV: CTA barrier
	ClassWarpSync        // WARPSYNC / VOTE / SHFL / MATCH / REDUX: warp-level
	ClassFence           // MEMBAR / FENCE.VIEW.ASYNC
	ClassTMA             // UBLKCP / UTMALDG / UTMASTG / UBLKRED issue
	ClassSleep           // NANOSLEEP
	ClassCompute         // .sms compute pseudo-op (FMA pipe)
	ClassDelay           // .sms delay pseudo-op
	numClasses
)

var classNames = [...]string{
	ClassNone: "none", ClassALU: "alu", ClassIMAD: "imad", ClassFMA: "fma", ClassFP64: "fp64", ClassSFU: "sfu",
	ClassConv: "conv", ClassDiv: "div", ClassDiv64: "div64", ClassIDiv: "idiv", ClassIDivInv: "idiv_inv",
	ClassIDiv64: "idiv64", ClassIDiv64Inv: "idiv64_inv", ClassSpecial: "special", ClassBranch: "branch", ClassShared: "shared",
	ClassGlobal: "global", ClassLocal: "local", ClassConst: "const", ClassParam: "param", ClassSyncs: "syncs",
	ClassBar: "bar", ClassWarpSync: "warpsync", ClassFence: "fence", ClassTMA: "tma", ClassSleep: "sleep",
	ClassCompute: "compute", ClassDelay: "delay",
}

// NumClasses is the number of timing classes (for per-class tables).
const NumClasses = int(numClasses)

// String names the class (used as configuration keys: latency.<class>).
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return fmt.Sprintf("class(%d)", uint8(c))
}

// ClassOf derives the timing class of an instruction from its opcode, types
// and state space. Frontends call it after filling in the instruction.
func ClassOf(in *Instr) Class {
	switch in.Op {
	case OpPopc, OpClz, OpBrev, OpBfind:
		return ClassSFU // POPC, FLO and BREV run on the variable-latency (MUFU) pipe: 17 cycles measured for POPC
	case OpMov, OpAdd, OpSub, OpMin, OpMax, OpAbs, OpNeg, OpAnd, OpOr, OpXor, OpNot, OpCnot, OpShl, OpShr,
		OpShf, OpBfe, OpBfi, OpPrmt, OpLop3, OpSetp, OpSet, OpSelp, OpSlct,
		OpSad, OpCopysign, OpTestp, OpCvta, OpMapa, OpIsspacep, OpNop, OpActivemask, OpElect, OpGriddepctl:
		if in.Type.Float() && in.Op != OpMov && in.Op != OpSelp && in.Op != OpAnd && in.Op != OpOr &&
			in.Op != OpXor && in.Op != OpNot {
			return floatClass(in.Type)
		}
		if in.Op == OpMov && len(in.Ops) > 1 && in.Ops[1].Kind == KSpecial {
			return ClassSpecial
		}
		return ClassALU
	case OpMul, OpMad, OpMul24, OpMad24, OpDp4a, OpDp2a:
		if in.Type.Float() {
			return floatClass(in.Type)
		}
		return ClassIMAD
	case OpFma:
		return floatClass(in.Type)
	case OpDiv, OpRem:
		switch {
		case in.Type == F64:
			return ClassDiv64
		case in.Type.Float():
			return ClassDiv
		case in.NSrc() >= 2 && in.Src(1).Kind == KImm:
			return ClassIMAD // by a constant: a multiply-high and shifts (what nvcc and ptxas emit)
		case in.Type.Bits() == 64:
			return ClassIDiv64
		}
		return ClassIDiv
	case OpRcp, OpSqrt, OpRsqrt, OpSin, OpCos, OpLg2, OpEx2, OpTanh:
		if (in.Op == OpRcp || in.Op == OpSqrt) && !in.Flags.Has(FApprox) {
			if in.Type == F64 {
				return ClassDiv64
			}
			return ClassDiv
		}
		return ClassSFU
	case OpCvt:
		switch {
		case in.Type == F64 || in.Type2 == F64:
			return ClassSFU
		case in.Type.Float() && in.Type2.Float():
			return ClassFMA // F2FP / HADD2.F32: f16, bf16 and f32 conversions run on the FMA pipe
		case !in.Type.Float() && !in.Type2.Float():
			return ClassALU // integer widening and narrowing are moves and shifts
		}
		return ClassConv
	case OpLd, OpSt, OpAtom, OpRed, OpPrefetch, OpLdmatrix, OpStmatrix:
		return memClass(in.Space)
	case OpFence:
		return ClassFence
	case OpBra, OpBrx, OpCall, OpRet, OpExit, OpTrap, OpBrkpt:
		return ClassBranch
	case OpBarSync, OpBarArrive, OpBarRed:
		return ClassBar
	case OpBarWarpSync, OpVote, OpShfl, OpMatch, OpRedux:
		return ClassWarpSync
	case OpNanosleep:
		return ClassSleep
	case OpCpAsync, OpCpAsyncCommit, OpCpAsyncWait:
		return ClassShared
	case OpBulkCopy, OpBulkTensor, OpBulkPrefetch, OpBulkReduce, OpBulkCommit, OpBulkWait, OpTensormapReplace:
		return ClassTMA
	case OpCompute:
		return ClassCompute
	case OpDelay:
		return ClassDelay
	}
	if in.Op.IsMbarrier() {
		return ClassSyncs
	}
	return ClassALU
}

func floatClass(t Type) Class {
	if t == F64 {
		return ClassFP64
	}
	return ClassFMA
}

func memClass(s Space) Class {
	switch s {
	case Shared, Cluster:
		return ClassShared
	case Local:
		return ClassLocal
	case Const:
		return ClassConst
	case ParamSpace:
		return ClassParam
	}
	return ClassGlobal
}
