package isa

import "fmt"

// Op is an opcode. Semantics follow PTX; the comment gives operand order
// (destinations first, as in PTX). "a, b, c" are sources.
type Op uint16

// Opcodes.
const (
	OpNop Op = iota

	// Data movement and integer / bit arithmetic.
	OpMov   // d = a (a may be a special register or an address constant)
	OpAdd   // d = a + b (Sat, float rounding honoured)
	OpSub   // d = a - b
	OpMul   // d = a * b; Hi/Wide select the half / the double-width result for integers
	OpMad   // d = a*b + c; Hi/Wide as Mul
	OpMul24 // d = a[23:0]*b[23:0] (Hi: bits 47..16)
	OpMad24 // d = mul24(a,b) + c
	OpSad   // d = |a-b| + c
	OpDiv   // d = a / b (integer division by zero gives all ones, as hardware does)
	OpRem   // d = a % b
	OpAbs   // d = |a|
	OpNeg   // d = -a
	OpMin   // d = min(a,b)
	OpMax   // d = max(a,b)
	OpAnd   // d = a & b (Pred type: logical)
	OpOr    // d = a | b
	OpXor   // d = a ^ b
	OpNot   // d = ^a
	OpCnot  // d = (a == 0)
	OpShl   // d = a << b (shift amounts >= width give 0)
	OpShr   // d = a >> b (arithmetic for signed types)
	OpShf   // d = funnel shift of (b:a) by c; Mode: 0 left, 1 right; Flags Clamp/Wrap
	OpPopc  // d = popcount(a)
	OpClz   // d = count leading zeros(a)
	OpBrev  // d = bit-reverse(a)
	OpBfind // d = position of most significant non-sign bit (Flags ShiftAmt: shiftamt form)
	OpBfe   // d = bit-field extract of a at b, length c (sign-extending for signed types)
	OpBfi   // d = insert a into b at c, length e (4 sources)
	OpPrmt  // d = byte permute of (b:a) by selector c; Mode selects f4e/b4e/rc8/ecl/ecr/rc16 (0 = default)
	OpLop3  // d = truth table Imm(d) over a, b, c
	OpDp4a  // d = dot product of four bytes of a and b plus c (Type2: b's type)
	OpDp2a  // d = dot product of two halves of a and two bytes of b plus c; Flags Hi/Lo

	// Floating point.
	OpFma   // d = a*b + c, fused, rounding Rnd
	OpRcp   // d = 1/a
	OpSqrt  // d = sqrt(a)
	OpRsqrt // d = 1/sqrt(a)
	OpSin   // approximate
	OpCos   // approximate
	OpLg2   // approximate
	OpEx2   // approximate
	OpTanh  // approximate
	OpCopysign
	OpTestp // d(pred) = test property Mode of a (finite, infinite, number, notanumber, normal, subnormal)

	// Comparison and selection.
	OpSetp // p[, q] = a Cmp b [BoolOp c]; second destination gets the complement
	OpSet  // d = a Cmp b ? all-ones (or 1.0f) : 0 [BoolOp c]
	OpSelp // d = c ? a : b
	OpSlct // d = c >= 0 ? a : b

	// Conversion.
	OpCvt  // d(Type) = convert a(Type2) with rounding Rnd, Sat
	OpCvta // d = address a converted between Space and generic (Flags To: generic->Space)
	OpMapa // d = address a of the same shared variable in CTA b of the cluster
	OpIsspacep

	// Memory.
	OpLd    // d... = [a] in Space; Vec elements
	OpSt    // [a] = b... in Space
	OpAtom  // d = atomic AtomOp on [a] with b (c for cas)
	OpRed   // atomic AtomOp on [a] with b, no result
	OpFence // memory fence; Flags say proxy / mbarrier_init variants; timing only
	OpPrefetch
	OpLdmatrix
	OpStmatrix

	// Control.
	OpBra  // branch to Target; Flags Uni when the frontend guarantees uniformity
	OpBrx  // indirect branch to the a-th entry of the table in Aux
	OpCall // call function Aux (inlined by frontends that can; see Program.Funcs)
	OpRet
	OpExit
	OpTrap // Mode says why a frontend inserted it (TrapUser: the program's own trap)
	OpBrkpt

	// Synchronisation.
	OpBarSync     // bar.sync / barrier.sync a (id) [, b (thread count)]
	OpBarArrive   // bar.arrive a [, b]
	OpBarRed      // bar.red: d = reduction AtomOp over pred c across the CTA at barrier a (SASS BAR.RED: no d; a[, b], c)
	OpBarResult   // d[, p] = the count of true predicates of the warp's last SASS BAR.RED and its reduction (B2R.RESULT)
	OpBarWarpSync // bar.warp.sync a (membermask)
	OpNanosleep   // sleep for about a nanoseconds
	OpVote        // d = vote Mode (all/any/uni/ballot) of pred a over membermask b
	OpShfl        // d[, p] = shfl Mode (up/down/bfly/idx) of a by b with clamp c over membermask e
	OpMatch       // d = match Mode (any/all) of a over membermask b
	OpRedux       // d = redux AtomOp of a over membermask b
	OpActivemask  // d = mask of active lanes
	OpElect       // d, p = elect.sync membermask a
	OpGriddepctl  // griddepcontrol: no effect on one SM

	// mbarrier (addresses in Shared or Cluster space; KAddr operands).
	// Operand conventions (destinations first):
	//   init           [addr], count
	//   inval          [addr]
	//   arrive         token|_, [addr] [, count]          Flags Drop / NoComplete; count defaults to 1
	//   arrive (FExpectTx)  token|_, [addr], txBytes [, count]
	//   expect_tx      [addr], txBytes
	//   complete_tx    [addr], txBytes
	//   test_wait      p, [addr], token   (FParity: parity instead of token)
	//   try_wait       p, [addr], token [, hintNs]   (FParity; FHint when hintNs is present)
	//   pending_count  d, token
	//   cp.async.mbarrier.arrive [addr]   (FNoInc)
	OpMbarInit
	OpMbarInval
	OpMbarArrive
	OpMbarExpectTx
	OpMbarCompleteTx
	OpMbarTestWait
	OpMbarTryWait
	OpMbarPendingCount
	OpCpAsyncMbarArrive

	// Asynchronous copies. Operand conventions:
	//   cp.async              [dst shared], [src global], size
	//   cp.async.bulk         [dst], [src], size, [mbar] [, ctaMask (FMulticast)]   Space=dst space, Space2=src space;
	//                         global->shared completes tx on mbar; shared->global (Space=Global) joins the bulk group
	//   cp.async.bulk.tensor  load:  [dst shared], [tensormap], c0..c(Dim-1), [mbar] [, ctaMask]
	//                         store (FStore): [tensormap], c0..c(Dim-1), [src shared]
	//   cp.async.bulk.wait_group  n   (FRead: only until sources are read)
	//   cp.reduce.async.bulk  1-D:    [dst global], [src shared], size [, policy]   Atom=redOp, Type=element type
	//                         tensor: [tensormap], c0..c(Dim-1), [src shared] [, policy]   Atom=redOp (Dim > 0)
	//   tensormap.replace     [addr], ord, new_val   Mode=field (Tmap*), Space=state space of addr;
	//                         ord is 0 for the fields that have none
	//   tensormap.cp_fenceproxy  [dst global], [src shared], size   (FProxyTensormap, release)
	OpCpAsync
	OpCpAsyncCommit
	OpCpAsyncWait
	OpBulkCopy
	OpBulkTensor
	OpBulkPrefetch
	OpBulkReduce
	OpBulkCommit
	OpBulkWait
	OpTensormapReplace
	OpTensormapCopy

	// Pseudo-operations of the .sms language. They have exact PTX-equivalent
	// semantics but save the frontend from spelling out loops of instructions.
	OpCompute // a warp computes: Imm(a) issue slots through the FMA pipe, result latency Imm(b)
	OpDelay   // the warp waits Imm(a) cycles without issuing (a fixed-latency dependency)

	// SASS operations without a PTX equivalent (frontend/sass; docs/sass.md).
	// Registers are 32 bits; an MPair operand is a register pair. Carry
	// predicates are ordinary predicate operands.
	OpIAdd3     // d[, co0[, co1]] = a + b + c [+ ci0 + ci1 with FCarryIn]; MNeg sources add ~x + 1
	OpIMad      // d[, co] = a*b + c [+ ci with FCarryIn]; Mode IMadLo/IMadHi/IMadWide, Type S32/U32; c is a pair for hi/wide
	OpLea       // d[, co] = (a << s) + b [+ ci]; Mode LeaHi: hi word of (c:a) << s (LeaSX32: c is a's sign); srcs a, b, [c,] s [, ci]
	OpSLop3     // d[, p] = truth table lut over a, b, c; srcs a, b, c, lut, pin; p = (d != 0) OR pin
	OpPLop3     // p, q = truth tables lut1, lut2 over predicates a, b, c; srcs a, b, c, lut1, lut2
	OpSShf      // d = funnel shift of (b:a) by s; srcs a, s, b; Mode ShfLeft|ShfHi|ShfWrap|Shf64|ShfSigned
	OpISetpEx   // p, q = high-word compare of a 64-bit comparison chained on the low word's result e; srcs a, b, pin, e (Bool combines pin)
	OpIAddMnmx  // d = min or max(a + b, c); srcs a, b, c, pmin (true: min)
	OpBmsk      // d = mask of b bits from bit a (clamped at 32)
	OpSgxt      // d = a sign- (or with U32, zero-) extended from its low b bits
	OpP2R       // d = (predicates P0..P6 as bits & mask) | (b &^ mask); srcs b, mask
	OpR2UR      // d (uniform) = a of the first active lane; with a predicate destination p = (a != d) [OR p with Mode 1]
	OpSVote     // [d = ballot of a,] [p = vote Mode (VoteAll/Any/Eq) of a] over the active lanes
	OpSElect    // p = the first active lane with a; d (uniform) = its lane number
	OpCast      // d = 1 if [a] held b and was set to c (shared compare-and-store), else 0; Space, Type
	OpQspc      // p = generic address a lies in state space Space
	OpFchk      // p = the quotient a/b needs the slow path of the division sequence
	OpMufu      // d = the MUFU function Mode of a (MufuRcp64H, MufuRsq64H: the high word of a double; others use Rcp, Ex2... ops)
	OpSHAdd2F32 // d (f32) = a + b of f16 halves (HADD2.F32: the f16 to f32 conversion)
	OpFSin      // d = sin or (Mode 1) cos of 2*pi*a: MUFU.SIN/COS take revolutions
	OpVAbsDiff4 // d = the four bytes |a_i - b_i| (unsigned) plus c's bytes, each modulo 256
	OpBssy      // convergence barrier a (imm) = the active lanes; Target: the reconvergence point
	OpBsync     // wait until every non-exited lane of convergence barrier a has arrived at a BSYNC on it
	OpBreak     // remove the active lanes from convergence barrier a
	OpBmov      // Mode 0: d = barrier a; Mode 1: d = barrier a and clear it; Mode 2: barrier d (imm) = a
	OpJmx       // jump to the byte address a (a pair) + Imm(b), Mode 1: relative to the next instruction; per-lane targets (RET, BRX)
	OpDepbar    // wait until at most a cp.async groups and a bulk groups of the warp are pending (DEPBAR.LE SB0, a)
	OpUBlkCp    // uniform bulk copy: [dst shared + mbar] (pair), [src] (pair), size word (units of 16 B); Mode 1: shared to global
	OpUTma      // uniform tensor copy: [dst shared, mbar, coordinates...] (first register), [tensor map] (pair); Dim
	OpUTmaFlush // commit the warp's bulk group (UTMACMDFLUSH)
	OpYield     // hand the warp to another of its paths, if it has one (SASS YIELD)

	// Thread-block clusters.
	OpClusterArrive // barrier.cluster.arrive: the active threads arrive at the cluster barrier (Sem: release, or relaxed)
	OpClusterWait   // barrier.cluster.wait: wait until every non-exited thread of the cluster has arrived
	// Warpgroup matrix operations (isa/mma.go, docs/wgmma.md).
	OpWgmma       // wgmma.mma_async: D = A*B + D over the warp's 16 rows of the warpgroup's 64 (operands: WgmmaARegs)
	OpWgmmaFence  // wgmma.fence: orders register accesses before the next wgmma.mma_async
	OpWgmmaCommit // wgmma.commit_group: closes the warp's open wgmma group
	OpWgmmaWait   // wgmma.wait_group a: waits until at most a of the warp's wgmma groups are pending
	OpMovmatrix   // movmatrix.sync.aligned.m8n8.trans.b16 d, a: transposes an 8x8 .b16 matrix held across the warp

	numOps
)

var opNames = [...]string{
	OpNop: "nop", OpMov: "mov", OpAdd: "add", OpSub: "sub", OpMul: "mul", OpMad: "mad", OpMul24: "mul24",
	OpMad24: "mad24", OpSad: "sad", OpDiv: "div", OpRem: "rem", OpAbs: "abs", OpNeg: "neg", OpMin: "min",
	OpMax: "max", OpAnd: "and", OpOr: "or", OpXor: "xor", OpNot: "not", OpCnot: "cnot", OpShl: "shl",
	OpShr: "shr", OpShf: "shf", OpPopc: "popc", OpClz: "clz", OpBrev: "brev", OpBfind: "bfind", OpBfe: "bfe",
	OpBfi: "bfi", OpPrmt: "prmt", OpLop3: "lop3", OpDp4a: "dp4a", OpDp2a: "dp2a",
	OpFma: "fma", OpRcp: "rcp", OpSqrt: "sqrt", OpRsqrt: "rsqrt", OpSin: "sin", OpCos: "cos", OpLg2: "lg2",
	OpEx2: "ex2", OpTanh: "tanh", OpCopysign: "copysign", OpTestp: "testp",
	OpSetp: "setp", OpSet: "set", OpSelp: "selp", OpSlct: "slct",
	OpCvt: "cvt", OpCvta: "cvta", OpMapa: "mapa", OpIsspacep: "isspacep",
	OpLd: "ld", OpSt: "st", OpAtom: "atom", OpRed: "red", OpFence: "fence", OpPrefetch: "prefetch",
	OpLdmatrix: "ldmatrix", OpStmatrix: "stmatrix",
	OpBra: "bra", OpBrx: "brx.idx", OpCall: "call", OpRet: "ret", OpExit: "exit", OpTrap: "trap", OpBrkpt: "brkpt",
	OpBarSync: "bar.sync", OpBarArrive: "bar.arrive", OpBarRed: "bar.red", OpBarResult: "b2r.result", OpBarWarpSync: "bar.warp.sync",
	OpNanosleep: "nanosleep", OpVote: "vote", OpShfl: "shfl", OpMatch: "match", OpRedux: "redux",
	OpActivemask: "activemask", OpElect: "elect.sync", OpGriddepctl: "griddepcontrol",
	OpMbarInit: "mbarrier.init", OpMbarInval: "mbarrier.inval", OpMbarArrive: "mbarrier.arrive",
	OpMbarExpectTx: "mbarrier.expect_tx", OpMbarCompleteTx: "mbarrier.complete_tx",
	OpMbarTestWait: "mbarrier.test_wait", OpMbarTryWait: "mbarrier.try_wait",
	OpMbarPendingCount: "mbarrier.pending_count", OpCpAsyncMbarArrive: "cp.async.mbarrier.arrive",
	OpCpAsync: "cp.async", OpCpAsyncCommit: "cp.async.commit_group", OpCpAsyncWait: "cp.async.wait_group",
	OpBulkCopy: "cp.async.bulk", OpBulkTensor: "cp.async.bulk.tensor", OpBulkPrefetch: "cp.async.bulk.prefetch",
	OpBulkReduce: "cp.reduce.async.bulk", OpBulkCommit: "cp.async.bulk.commit_group",
	OpBulkWait: "cp.async.bulk.wait_group", OpTensormapReplace: "tensormap.replace",
	OpTensormapCopy: "tensormap.cp_fenceproxy", OpCompute: "compute", OpDelay: "delay",
	OpIAdd3: "iadd3", OpIMad: "imad", OpLea: "lea", OpSLop3: "lop3.lut", OpPLop3: "plop3.lut", OpSShf: "shf.sass",
	OpISetpEx: "isetp.ex", OpIAddMnmx: "viaddmnmx", OpBmsk: "bmsk", OpSgxt: "sgxt", OpP2R: "p2r", OpR2UR: "r2ur",
	OpSVote: "vote.sass", OpSElect: "elect.sass", OpCast: "atoms.cast", OpQspc: "qspc",
	OpFchk: "fchk", OpMufu: "mufu", OpSHAdd2F32: "hadd2.f32", OpFSin: "mufu.sin", OpVAbsDiff4: "vabsdiff4", OpBssy: "bssy", OpBsync: "bsync",
	OpBreak: "break", OpBmov: "bmov", OpJmx: "jmx", OpDepbar: "depbar", OpUBlkCp: "ublkcp", OpUTma: "utma",
	OpUTmaFlush: "utmacmdflush", OpYield: "yield", OpClusterArrive: "barrier.cluster.arrive", OpClusterWait: "barrier.cluster.wait",
	OpWgmma: "wgmma.mma_async", OpWgmmaFence: "wgmma.fence", OpWgmmaCommit: "wgmma.commit_group",
	OpWgmmaWait: "wgmma.wait_group", OpMovmatrix: "movmatrix",
}

// Sub-modes of the SASS operations (Instr.Mode).
const (
	IMadLo   = 0 // OpIMad: the low word of a*b + c
	IMadHi   = 1 // OpIMad: the high word of a*b + c (c a pair)
	IMadWide = 2 // OpIMad: the pair a*b + c (c a pair)

	LeaHi   = 1 // OpLea: the high word
	LeaSX32 = 2 // OpLea with LeaHi: c is the sign extension of a

	ShfLeft   = 1  // OpSShf: shift left (else right)
	ShfHi     = 2  // OpSShf: the high word of the shifted pair (else the low)
	ShfWrap   = 4  // OpSShf: the amount modulo 32 (else clamped at the width)
	Shf64     = 8  // OpSShf: 64-bit shift (else 32-bit)
	ShfSigned = 16 // OpSShf: arithmetic right shift

	SVoteAll = 0 // OpSVote modes
	SVoteAny = 1
	SVoteEq  = 2

	MufuRcp64H = 1 // OpMufu: 1/x of the double whose high word is a, high word of the result
	MufuRsq64H = 2 // OpMufu: 1/sqrt(x), likewise

	BraAny  = 1 // OpBra: taken by all lanes when the guard holds in any (BRA.U.ANY)
	BraDiv  = 2 // OpBra: taken when a lane of the mask a is not active (BRA.DIV)
	BraConv = 3 // OpBra: taken when every lane of the mask a is active (BRA.CONV)
	BraCall = 4 // OpBra: a call (CALL.REL.NOINC), a jump whose return address the program keeps
	BraAnd  = 5 // OpBra: taken where the guard and the predicate a both hold (BRA P1, target)
)

// Fields of a tensor-map object that tensormap.replace writes (Instr.Mode
// of OpTensormapReplace), as the PTX ISA names them for .tile maps on sm_90a.
const (
	TmapGlobalAddress = 1 + iota // .global_address (b64)
	TmapRank                     // .rank: new_val is the rank − 1
	TmapBoxDim                   // .box_dim[ord]
	TmapGlobalDim                // .global_dim[ord]
	TmapGlobalStride             // .global_stride[ord] (b64, bytes; ord 0 is dimension 1's)
	TmapElementStride            // .element_stride[ord]
	TmapElemType                 // .elemtype: the ISA's numbering (Table "Tensormap new_val validity"), not the driver's
	TmapInterleave               // .interleave_layout
	TmapSwizzle                  // .swizzle_mode
	TmapFillMode                 // .fill_mode
)

// Reasons a frontend inserts a trap (Instr.Mode of OpTrap).
const (
	TrapUser      = 0 // the program's trap instruction
	TrapRecursion = 1 // a call nested deeper than the frontend inlines
	TrapCluster   = 2 // an address of another CTA of the cluster (mapa): clusters of one CTA only

	MapaRank = 1 // OpMapa: d = the cluster rank of the CTA whose shared memory a addresses (getctarank)
)

// String is the PTX-like name of the opcode.
func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", uint16(o))
}

// IsMbarrier reports whether the op is executed by the barrier (SYNCS) unit on an mbarrier.
func (o Op) IsMbarrier() bool { return o >= OpMbarInit && o <= OpCpAsyncMbarArrive }

// IsBranch reports whether the op can transfer control within a function.
func (o Op) IsBranch() bool { return o == OpBra || o == OpBrx }

// Ends reports whether control never falls through to the next instruction.
func (o Op) Ends() bool { return o == OpExit || o == OpRet || o == OpTrap }
