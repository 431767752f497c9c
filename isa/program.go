package isa

// The simulator's address map. Shared, local and param addresses in their own
// state spaces are small offsets (as on hardware, where cvta.to.shared yields
// a 32-bit offset); generic addresses into them lie in fixed windows, and
// global memory lives below the windows.
const (
	GlobalDataBase uint64 = 0x0000_0100_0000_0000 // module-scope .global variables
	ConstDataBase  uint64 = 0x0000_0200_0000_0000 // module-scope .const variables (generic view)
	HeapBase       uint64 = 0x0000_7000_0000_0000 // buffers allocated for kernel arguments
	ParamWindow    uint64 = 0x0000_7d00_0000_0000 // generic window onto the kernel-parameter space
	SharedWindow   uint64 = 0x0000_7e00_0000_0000 // generic window onto the executing CTA's shared memory
	LocalWindow    uint64 = 0x0000_7f00_0000_0000 // generic window onto the executing thread's local memory
	WindowSize     uint64 = 0x0000_0100_0000_0000
)

// Param is one kernel parameter, laid out in the .param space at Offset.
type Param struct {
	Name   string
	Type   Type // element type (B8 for byte arrays such as a CUtensorMap)
	Size   int  // bytes
	Align  int
	Offset int
	Ptr    bool // declared .ptr (a pointer); frontends may also infer it
	// CType is the parameter's type in the kernel's source language where
	// the input says it (a demangled C++ signature: "long long*"); empty
	// otherwise (an extern "C" kernel's PTX gives only Type).
	CType string
	// Default is the value used when the launch gives none, in the command
	// line's --arg spelling ("buf:65536:seq", "tensormap:...", "42"). The .sms
	// frontend declares its buffers this way; PTX parameters have none.
	Default string
}

// Symbol names a range of a state space, for diagnostics and reports
// ("barrier full[2]" rather than "shared+0x40").
type Symbol struct {
	Name   string // as the source spells it (for PTX the linker name, mangled for C++)
	Space  Space
	Offset uint64 // offset within the space (absolute address for Global/Const)
	Size   uint64
	Pos    Pos
	// Elem is the size of one element when the symbol is an array whose
	// offsets read best as indices (full[1] rather than full+8); 0 names
	// offsets in bytes.
	Elem uint64
	// Display is the name reports use when it differs from Name (the
	// demangled source name, pipe_bench::full for _ZZ10pipe_benchE4full).
	Display string
	// Bank is the constant bank that holds a SASS program's __constant__
	// variable (c[Bank][Offset]); 0 for every other symbol.
	Bank int
}

// Data is initialised module data (.global/.const with an initializer).
type Data struct {
	Space Space
	Addr  uint64 // absolute address (GlobalDataBase/ConstDataBase + offset)
	Bytes []byte
}

// Program is one kernel, ready to run.
type Program struct {
	Name string // entry name (mangled for PTX)
	File string // source file, for diagnostics
	// Display is the name reports use when it differs from Name (the
	// demangled C++ signature of a PTX entry).
	Display string
	Instrs  []Instr

	NumRegs int // 64-bit general registers per thread
	// RegsPerThread is the 32-bit registers ptxas gave each thread (a
	// cubin's EIATTR_REGCOUNT), which bound how many CTAs an SM holds;
	// 0 when the source does not say (PTX).
	RegsPerThread int
	// WgmmaSerialized says ptxas serialized the kernel's wgmma (its report's
	// notes C7509-C7520): each waits for the one before to complete
	// (compiler.SerializeWgmma; a SASS program carries the waits itself).
	WgmmaSerialized bool
	NumPreds        int      // predicate registers per thread
	RegNames        []string // source names, by index (diagnostics, --dump of registers)
	PredNames       []string

	Params     []Param
	ParamBytes int

	SharedStatic int // bytes of static shared memory (symbols from offset 0)
	// SharedReserved is the part of SharedStatic at its start that the CUDA
	// runtime reserves per block (1 KiB on sm_90, where SASS addresses
	// variables after it); it does not count against a block's limit.
	SharedReserved int
	DynSmemAlign   int // alignment of the dynamic (extern) shared region, which starts at the aligned end of the static part
	LocalBytes     int // bytes of local memory (stack) per thread
	Symbols        []Symbol
	Data           []Data // initialised global/const data, written before the first launch

	// Block is the block shape the source fixes (.sms block, or .reqntid); zero when the launch decides.
	Block [3]int
	// Grid is the grid shape the source fixes (.sms); zero when the launch decides.
	Grid [3]int
	// Cluster is the thread-block cluster shape the source fixes (PTX
	// .reqnctapercluster, the cubin's EIATTR_CTA_PER_CLUSTER); zero when the
	// launch decides (--cluster), which .explicitcluster then requires.
	Cluster [3]int
	// ExplicitCluster: the kernel must be launched with a cluster shape
	// (PTX .explicitcluster, EIATTR_EXPLICIT_CLUSTER).
	ExplicitCluster bool
	// DynSmem is the dynamic shared memory the source asks for (.sms); the launch may override it.
	DynSmem int

	// Scheduled says the instructions carry a compiler's schedule (Instr.Ctrl,
	// from SASS control bits): the SM issues by their stall counts and
	// scoreboards instead of its own register scoreboard.
	Scheduled bool

	// ExplicitReconv says the program reconverges only where it says so
	// (SASS: BSYNC on a convergence barrier, WARPSYNC): its branches carry no
	// reconvergence point (Reconv is NoReconv) and push no frame when they
	// split a warp.
	ExplicitReconv bool
	// RankedShared says the program's shared::cluster and generic shared
	// addresses name their CTA as the hardware's do (SASS): the rank in bits
	// 24 and up, so that zero there is rank 0 (calibration/h200/cluster.csv
	// sreg). Without it (PTX) the CTA's own addresses are bare offsets and
	// mapa marks rank 0 apart.
	RankedShared bool
	// UniformRegs and UniformPreds, when nonzero, are the first general and
	// predicate registers that exist once per warp (SASS UR0-UR62 and
	// UP0-UP6): a write of some lanes stores the first written lane's value
	// into every lane, so every lane reads the warp's one value.
	UniformRegs, UniformPreds int32
	// Banks are the constant banks by number (SASS c[N][...]; nil where the
	// program has none). Bank 0's driver part and parameters are laid out
	// per launch (BankParams); Banks[0] is not used.
	Banks [][]byte
	// AddrStep, when nonzero, is the size of an instruction in bytes:
	// instruction i lies at byte address i*AddrStep (SASS, whose indirect
	// jumps, OpJmx, compute byte addresses).
	AddrStep int32
}

// DynSmemBase is the offset where dynamic shared memory starts.
func (p *Program) DynSmemBase() int {
	a := p.DynSmemAlign
	if a < 16 {
		a = 16
	}
	return (p.SharedStatic + a - 1) / a * a
}

// SymbolAt returns the symbol of space s that contains offset off, if any.
func (p *Program) SymbolAt(s Space, off uint64) (Symbol, bool) {
	for _, y := range p.Symbols {
		if y.Space == s && off >= y.Offset && off < y.Offset+max(y.Size, 1) {
			return y, true
		}
	}
	return Symbol{}, false
}

// Param returns the parameter with the given name or index spelled as a
// decimal number, and its index.
func (p *Program) Param(name string) (Param, int, bool) {
	for i, q := range p.Params {
		if q.Name == name {
			return q, i, true
		}
	}
	n := 0
	for _, c := range name {
		if c < '0' || c > '9' || n > 1<<20 {
			return Param{}, -1, false
		}
		n = n*10 + int(c-'0')
	}
	if name != "" && n < len(p.Params) {
		return p.Params[n], n, true
	}
	return Param{}, -1, false
}
