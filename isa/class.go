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
	ClassFMA             // FFMA, FADD, FMUL (and scalar f16/bf16 arithmetic): fp32/fp16 pipe
	ClassFP64            // DFMA, DADD, DMUL
	ClassSFU             // MUFU (rcp, sqrt, sin, ex2, ...) and the conversions that share its unit (F2I, I2F.U16, F2F.F64, I2F.F64)
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
	ClassHalf2           // HFMA2, HADD2, HMUL2, HMNMX2 on f16x2/bf16x2: the FMA pipe
	ClassHalf2MMA        // HFMA2.MMA: a packed-half FMA ptxas puts on the tensor pipe (compiler.Half2Pipes)
	ClassCvtFloat        // F2FP, HADD2.F32: conversions among f32, f16 and bf16, on the FMA pipe
	ClassMMA             // HGMMA/IGMMA/QGMMA/BGMMA: warpgroup MMA issue (its work is the tensor pipe's, docs/wgmma.md)
	numClasses
)

var classNames = [...]string{
	ClassNone: "none", ClassALU: "alu", ClassIMAD: "imad", ClassFMA: "fma", ClassFP64: "fp64", ClassSFU: "sfu",
	ClassDiv: "div", ClassDiv64: "div64", ClassIDiv: "idiv", ClassIDivInv: "idiv_inv",
	ClassIDiv64: "idiv64", ClassIDiv64Inv: "idiv64_inv", ClassSpecial: "special", ClassBranch: "branch", ClassShared: "shared",
	ClassGlobal: "global", ClassLocal: "local", ClassConst: "const", ClassParam: "param", ClassSyncs: "syncs",
	ClassBar: "bar", ClassWarpSync: "warpsync", ClassFence: "fence", ClassTMA: "tma", ClassSleep: "sleep",
	ClassCompute: "compute", ClassDelay: "delay", ClassHalf2: "half2", ClassHalf2MMA: "half2_mma",
	ClassCvtFloat: "cvt_float", ClassMMA: "mma",
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
		return cvtClass(in)
	case OpLd, OpSt, OpAtom, OpRed, OpPrefetch, OpLdmatrix, OpStmatrix:
		return memClass(in.Space)
	case OpFence, OpTensormapCopy:
		return ClassFence
	case OpBra, OpBrx, OpCall, OpRet, OpExit, OpTrap, OpBrkpt:
		return ClassBranch
	case OpBarSync, OpBarArrive, OpBarRed, OpClusterArrive, OpClusterWait:
		return ClassBar
	case OpBarResult: // B2R: a read of the barrier unit's state, as S2R reads a special register
		return ClassSpecial
	case OpShfl:
		return ClassShared // SHFL runs in the shared-memory pipe: 24 cycles, one every 4.00 a sub-partition (calibration/h200 ldg.csv)
	case OpBarWarpSync, OpVote, OpMatch, OpRedux:
		return ClassWarpSync
	case OpNanosleep:
		return ClassSleep
	case OpCpAsync, OpCpAsyncCommit, OpCpAsyncWait:
		return ClassShared
	case OpBulkCopy, OpBulkTensor, OpBulkPrefetch, OpBulkReduce, OpBulkCommit, OpBulkWait, OpTensormapReplace:
		return ClassTMA
	case OpWgmma, OpWgmmaFence, OpWgmmaCommit, OpWgmmaWait:
		return ClassMMA
	case OpMovmatrix:
		return ClassWarpSync // a register exchange across the warp, like shfl
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
	switch t {
	case F64:
		return ClassFP64
	case F16x2, BF16x2:
		return ClassHalf2
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

// cvtClass is the timing class of a conversion (calibration/h200 convert.csv
// and convert.sass):
//
//   - f32 from a 32-bit integer, rounded to nearest, is I2FP.F32.U32/S32, on
//     the integer pipe: 4 cycles, 2.07 a warp instruction, 2.06 alternating
//     with LOP3 and 1.13 with IMAD — so ClassALU;
//   - float to integer (F2I) and f32 from a narrower integer (I2F.U16) run
//     on the MUFU unit: 17 cycles, 8.0 a warp instruction, 8.0 alternating
//     with MUFU.EX2 — so ClassSFU. A narrow source that a load extended is
//     an exception ptxas makes (compiler.NarrowConversionsOfLoads);
//   - f16/bf16/f32 among themselves are F2FP and HADD2.F32 on the FMA pipe
//     (2.06 a pair of them), 5 cycles each (ClassCvtFloat: ptxas's stalls in
//     pipeline.cu's f2f chain, and 10.15-10.19 cycles a pair in it and in
//     convert.csv's one-chain f2h rows);
//   - integer to integer is a move, a shift or nothing.
//
// Conversions with f64 on either side, from 64-bit integers and to f16 from
// integers are assumed to be the MUFU unit's too; no row measures them.
func cvtClass(in *Instr) Class {
	dt, st := in.Type, in.Type2
	switch {
	case dt == F64 || st == F64:
		return ClassSFU
	case dt.Float() && st.Float():
		return ClassCvtFloat
	case !dt.Float() && !st.Float():
		return ClassALU
	case dt == F32 && st.Bits() == 32 && (in.Rnd == RNone || in.Rnd == RN):
		return ClassALU
	}
	return ClassSFU
}
