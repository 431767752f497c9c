package isa

import "fmt"

// Pos is a source position: the .ptx or .sms file, line and column (1-based).
type Pos struct {
	File      string
	Line, Col int32
}

// String formats the position as file:line:col.
func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Kind says what an Operand is.
type Kind uint8

// Operand kinds.
const (
	KNone    Kind = iota
	KReg          // general register Reg
	KPred         // predicate register Reg (Neg: logical not)
	KImm          // immediate: Imm holds the bits (floats as IEEE bits of the instruction's type)
	KSpecial      // special register Special (with component in the enum)
	KAddr         // address: register Reg (or none when Reg < 0) plus Imm offset (plus Index with MIndex)
	KSink         // "_": result discarded
	KConst        // SASS constant-bank word c[Bank][Imm] (plus register Reg when Reg >= 0); see MPair
)

// Operand is one instruction operand. It is a small value: frontends resolve
// names to numbers when they lower, so the executor never looks up a string.
type Operand struct {
	Kind    Kind
	Neg     bool    // predicate negation (!p) or, for KImm, nothing
	Special Special // for KSpecial
	Bank    uint8   // constant bank of KConst
	Reg     int32   // register or predicate index; for KAddr and KConst, -1 means none
	Index   int32   // second register added to a KAddr or KConst address, with MIndex (SASS [R2+UR4])
	Mod     Mod     // SASS operand modifiers; zero for the other frontends
	Imm     uint64  // immediate bits, or address offset for KAddr and KConst
}

// R returns a general-register operand.
func R(i int) Operand { return Operand{Kind: KReg, Reg: int32(i)} }

// P returns a predicate operand.
func P(i int) Operand { return Operand{Kind: KPred, Reg: int32(i)} }

// NotP returns a negated predicate operand.
func NotP(i int) Operand { return Operand{Kind: KPred, Reg: int32(i), Neg: true} }

// Imm returns an immediate operand holding bits.
func Imm(bits uint64) Operand { return Operand{Kind: KImm, Imm: bits} }

// Addr returns an address operand: register reg (or -1 for none) plus off.
func Addr(reg int, off int64) Operand { return Operand{Kind: KAddr, Reg: int32(reg), Imm: uint64(off)} }

// Spec returns a special-register operand.
func Spec(s Special) Operand { return Operand{Kind: KSpecial, Special: s} }

// Sink is the "_" operand.
func Sink() Operand { return Operand{Kind: KSink} }

// Flags are boolean modifiers of an instruction.
type Flags uint64

// Instruction flags.
const (
	FSat            Flags = 1 << iota // .sat
	FFtz                              // .ftz
	FApprox                           // .approx
	FHi                               // .hi
	FLo                               // .lo
	FWide                             // .wide
	FUni                              // .uni (branch or call known uniform)
	FCC                               // .cc (carry out) — add.cc/addc
	FCarryIn                          // addc/subc/madc: uses the carry flag
	FDrop                             // mbarrier.arrive_drop
	FNoComplete                       // mbarrier .noComplete
	FExpectTx                         // mbarrier.arrive.expect_tx
	FParity                           // mbarrier waits: operand is a parity, not a token
	FNoInc                            // cp.async.mbarrier.arrive.noinc
	FMulticast                        // bulk copies with .multicast::cluster
	FStore                            // bulk tensor copy shared -> global
	FRead                             // cp.async.bulk.wait_group.read
	FTo                               // cvta.to.<space> (generic -> space); without it, space -> generic
	FClamp                            // shf.clamp / shfl clamp
	FVolatile                         // ld/st.volatile
	FNoncoherent                      // ld.global.nc
	FProxyAsync                       // fence.proxy.async*
	FMbarInitFence                    // fence.mbarrier_init
	FProxyTensormap                   // fence.proxy.tensormap
	FAligned                          // .aligned (barrier.sync.aligned etc.)
	FHint                             // try_wait has a suspend-time hint operand
	FRemote                           // mbarrier op through a .shared::cluster address
	FAbs                              // .abs on an operand (min/max .abs, etc.)
	FNaN                              // .NaN (min/max propagate NaN)
	FF32Result                        // set.f32: result 1.0f/0.0f
	FShiftAmt                         // bfind.shiftamt
	FIm2col                           // bulk tensor .im2col
	FCacheHint                        // .L2::cache_hint: an extra policy operand
	FFullRange                        // .full (div.full.f32)
	FBypassL1                         // ld.global.cg/.cv, cp.async.cg: cached in L2 only
	FSyncs                            // NANOSLEEP.SYNCS: the sleep ends when the barrier unit answers the warp's try_wait
	FCommitGroup                      // HGMMA ... gsb0: the wgmma closes the warp's group (commit_group after it)
	FUniform                          // a SASS instruction of the uniform datapath (ULDC, UIADD3, ...): its constant operands come through that datapath's own cache
)

// Has reports whether all of f's bits are set in x.
func (x Flags) Has(f Flags) bool { return x&f == f }

// SourceHints are facts of the PTX source that lowering would otherwise
// lose and that only the compiler model (package compiler) reads: they do
// not change what an instruction computes. A frontend sets them.
type SourceHints uint8

// Source hints.
const (
	// HintNoUnroll: the instruction heads a loop marked .pragma "nounroll"
	// (or closes one the compiler model unrolled already): ptxas keeps the
	// loop rolled.
	HintNoUnroll SourceHints = 1 << iota
	// HintSharedSym: a mov of a shared variable's address, which SASS forms
	// from the CTA's shared-memory window (S2UR SR_CgaCtaId).
	HintSharedSym
)

// Has reports whether all of h's bits are set in x.
func (x SourceHints) Has(h SourceHints) bool { return x&h == h }

// SchedHints are what the compiler model records about the SASS ptxas makes
// of an instruction, where that changes its timing but not what it
// computes. They are set only by package compiler and read by the SM's
// issue stage.
type SchedHints uint8

// Scheduling hints.
const (
	// SchedConverge: the instruction ends a lane-dependent if-converted
	// region or retry loop that ptxas closes with a convergence barrier
	// (BSSY/BSYNC); leaving it costs branch.bsync.
	SchedConverge SchedHints = 1 << iota
	// SchedVecAddr: a barrier wait ptxas addresses through a per-thread
	// register, not the uniform datapath (each poll is per-thread checks).
	SchedVecAddr
	// SchedReloadWindow: an OpDelay standing for re-reading the
	// shared-memory window in a loop with a call (latency.window_reload).
	SchedReloadWindow
	// SchedReadWindow: an OpDelay standing for reading the shared-memory
	// window again in a loop that sleeps (latency.window_read).
	SchedReadWindow
	// SchedFoldedAddr: an add ptxas folds into a shared access's address
	// ([R+UR+imm]); its result is ready at once.
	SchedFoldedAddr
	// SchedMoveUniform: an OpDelay standing for moving a bulk copy's
	// operands to uniform registers (R2UR) before an elected lane issues
	// it (latency.copy_r2ur).
	SchedMoveUniform
	// SchedMoveUniformLoop: an OpDelay standing for moving a bulk store's
	// or reduction's operands to uniform registers in a loop over the
	// lanes' distinct values (R2UR.OR: latency.copy_r2ur_loop).
	SchedMoveUniformLoop
)

// Has reports whether all of h's bits are set in x.
func (x SchedHints) Has(h SchedHints) bool { return x&h == h }

// Rounding is a floating-point rounding mode.
type Rounding uint8

// Rounding modes. RNone means the type's default (or none for integers).
const (
	RNone Rounding = iota
	RN             // to nearest even
	RZ             // toward zero
	RM             // toward -inf
	RP             // toward +inf
	RNA            // to nearest, ties away (cvt.rna.tf32)
	RNI            // integer rounding: nearest even
	RZI
	RMI
	RPI
)

// CmpOp is a comparison of setp/set/slct.
type CmpOp uint8

// Comparisons. The U-suffixed ones are unordered float comparisons (true on NaN).
const (
	CmpNone CmpOp = iota
	CmpEq
	CmpNe
	CmpLt
	CmpLe
	CmpGt
	CmpGe
	CmpLo // unsigned <
	CmpLs // unsigned <=
	CmpHi // unsigned >
	CmpHs // unsigned >=
	CmpEqu
	CmpNeu
	CmpLtu
	CmpLeu
	CmpGtu
	CmpGeu
	CmpNum
	CmpNan
)

// BoolOp combines a comparison with a predicate (setp.lt.and).
type BoolOp uint8

// Boolean combiners.
const (
	BoolNone BoolOp = iota
	BoolAnd
	BoolOr
	BoolXor
)

// AtomOp is the operation of atom/red/redux/bar.red/cp.reduce.
type AtomOp uint8

// Atomic operations.
const (
	AtomNone AtomOp = iota
	AtomAdd
	AtomMin
	AtomMax
	AtomInc
	AtomDec
	AtomAnd
	AtomOr
	AtomXor
	AtomExch
	AtomCas
	AtomPopc // bar.red.popc
)

// Sem is a memory-ordering semantic; Scope a visibility scope. They change
// nothing in a sequentially consistent functional model but are kept for the
// hazard checker and for timing (fences, acquire loads).
type Sem uint8

// Semantics.
const (
	SemNone Sem = iota
	SemWeak
	SemRelaxed
	SemAcquire
	SemRelease
	SemAcqRel
	SemSC
	SemVolatile
)

// Scope is a PTX scope.
type Scope uint8

// Scopes.
const (
	ScopeNone Scope = iota
	ScopeCTA
	ScopeCluster
	ScopeGPU
	ScopeSys
)

// Instr is one instruction. Ops holds destinations first (NDst of them) and
// then sources, in PTX order; vector operands are expanded into consecutive
// entries (Vec says how many elements).
type Instr struct {
	Op     Op
	Type   Type  // main type (destination type for cvt)
	Type2  Type  // second type (source type for cvt, etc.)
	Space  Space // state space of the memory operand
	Space2 Space // second space (bulk copy source)
	Flags  Flags // PTX modifiers: what the instruction means
	Rnd    Rounding
	Cmp    CmpOp
	Bool   BoolOp
	Atom   AtomOp
	Sem    Sem
	Scope  Scope
	Mode   uint8 // op-specific sub-mode (vote/shfl/prmt/testp/shf kind), documented per op
	Vec    uint8 // vector width of ld/st (1, 2, 4, 8)
	Dim    uint8 // tensor rank of a bulk tensor copy
	NDst   uint8
	Guard  Operand // KPred with Neg for @!p; KNone when unguarded
	Ops    []Operand
	Target int32 // branch target (instruction index)
	Reconv int32 // reconvergence point of a branch (instruction index), or NoReconv
	Aux    int32 // op-specific index (call target, brx table)
	Class  Class // timing class
	Ctrl   Ctrl  // the compiler's schedule, when Program.Scheduled (SASS)
	Pos    Pos
	// Source holds facts of the source for the compiler model.
	Source SourceHints
	// Sched holds the compiler model's annotations for the SM.
	Sched SchedHints
}

// NoReconv marks a branch whose paths only meet again at exit.
const NoReconv int32 = -1

// Dst returns destination i.
func (in *Instr) Dst(i int) *Operand { return &in.Ops[i] }

// Src returns source i (counting after the destinations).
func (in *Instr) Src(i int) *Operand { return &in.Ops[int(in.NDst)+i] }

// NSrc is the number of source operands.
func (in *Instr) NSrc() int { return len(in.Ops) - int(in.NDst) }
