package sass

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
)

// Cubin is what ReadCubin takes from an sm_90 cubin (the ELF that ptxas writes).
type Cubin struct {
	Name string
	// SM is the architecture number from .note.nv.cuinfo (90 for sm_90 and sm_90a).
	SM int
	// CUDAAPIVersion is the API version in .note.nv.cuinfo (0x82 = 130 for CUDA 13.0).
	CUDAAPIVersion int
	// Toolkit holds the strings of .note.nv.tkinfo: the tool, its version line, build and options.
	Toolkit []string
	// ELFFlags is the ELF header's e_flags, whose meaning NVIDIA does not document.
	ELFFlags uint32
	// Funcs are the functions with a .text section, in section order.
	Funcs []Func
	// Info holds the records of the global .nv.info section (per-function resources keyed by symbol
	// index, already applied to Funcs).
	Info []Attribute
	// Banks are the module-level constant banks (.nv.constantN without a function suffix).
	Banks []ConstBank
	// GlobalSize is the size of .nv.global (uninitialised module .global variables); GlobalInit
	// the bytes of .nv.global.init.
	GlobalSize uint64
	GlobalInit []byte
	Symbols    []Symbol
	Relocs     []Reloc
}

// Func returns the function with the given (mangled) name, or nil.
func (c *Cubin) Func(name string) *Func {
	for i := range c.Funcs {
		if c.Funcs[i].Name == name {
			return &c.Funcs[i]
		}
	}
	return nil
}

// Func is one function of a cubin: its code, resources and parameter layout.
type Func struct {
	Name string
	// Entry reports a kernel (the symbol's st_other has the 0x10 bit ptxas sets on entries).
	Entry bool
	// Code is the .text section: 16 bytes per instruction, each the Encoding little-endian.
	Code []byte
	// Info holds the records of .nv.info.NAME, decoded into the fields below where understood.
	Info []Attribute

	// Params is the parameter layout in ordinal order (EIATTR_KPARAM_INFO).
	Params []Param
	// ParamBase and ParamSize locate the parameter block in constant bank 0 (EIATTR_PARAM_CBANK):
	// parameters start at c[0x0][ParamBase], 0x210 on sm_90.
	ParamBase, ParamSize uint32

	Registers    int    // EIATTR_REGCOUNT of the global .nv.info
	Barriers     int    // named barriers (EIATTR_NUM_BARRIERS)
	Mbarriers    int    // EIATTR_NUM_MBARRIERS
	FrameSize    uint32 // bytes of local memory per thread (EIATTR_FRAME_SIZE)
	MinStackSize uint32 // EIATTR_MIN_STACK_SIZE
	MaxStackSize uint32 // EIATTR_MAX_STACK_SIZE
	CRSStackSize uint32 // EIATTR_CRS_STACK_SIZE
	MaxRegCount  uint32 // EIATTR_MAXREG_COUNT (0xff when unconstrained)

	// SharedSize and SharedAlign are the size and alignment of .nv.shared.NAME. The section starts
	// with the ReservedShared bytes the CUDA runtime reserves per block on sm_80 and later (1 KiB),
	// so shared variables begin at that offset in SASS addresses; see StaticShared.
	SharedSize, SharedAlign uint64
	ReservedShared          uint64

	// The shared-memory attributes no cubin of the repository carries, read after their names
	// (EIATTR_SHARED_SCRATCH, EIATTR_RESERVED_SMEM_USED, EIATTR_RESERVED_SMEM_0_SIZE): a value from
	// a 16-bit record or a 4-byte payload, a flag from the mere presence of the record. Records of
	// another shape stay in Info only.
	SharedScratch     uint32
	ReservedSmemUsed  bool
	ReservedSmem0Size uint32

	// Banks are this function's constant banks (.nv.constantN.NAME); bank 0 holds the parameters.
	Banks []ConstBank

	MaxThreads        [3]uint32 // EIATTR_MAX_THREADS (PTX .maxntid), zero when absent
	ReqNTID           [3]uint32 // EIATTR_REQNTID (PTX .reqntid), zero when absent
	ClusterDims       [3]uint32 // EIATTR_CTA_PER_CLUSTER (PTX .reqnctapercluster), zero when absent
	ExplicitCluster   bool      // EIATTR_EXPLICIT_CLUSTER (PTX .explicitcluster)
	MaxClusterRank    uint32    // EIATTR_MAX_CLUSTER_RANK (PTX .maxclusterrank), zero when absent
	BlocksAreClusters bool      // EIATTR_BLOCKS_ARE_CLUSTERS

	ExitOffsets        []uint32 // EIATTR_EXIT_INSTR_OFFSETS: byte offsets of the EXITs
	S2RCTAIDOffsets    []uint32 // EIATTR_S2RCTAID_INSTR_OFFSETS
	CoopGroupOffsets   []uint32 // EIATTR_COOP_GROUP_INSTR_OFFSETS: warp-collective instructions
	CoopGroupMaskRegs  []uint32 // EIATTR_COOP_GROUP_MASK_REGIDS, one word per CoopGroupOffsets entry
	IntWarpWideOffsets []uint32 // EIATTR_INT_WARP_WIDE_INSTR_OFFSETS
	MbarrierInstrs     []MbarrierInstr
	IndirectBranches   []IndirectBranch
	// SWWar is the value of EIATTR_SW_WAR, a driver workaround selector whose meaning is not
	// published (8 in every committed cubin).
	SWWar uint32
	// CUDAAPIVersion is EIATTR_CUDA_API_VERSION (0x82 = 130: CUDA 13.0).
	CUDAAPIVersion uint32

	symIndex int
}

// StaticShared is the shared memory the function declares statically: SharedSize less the
// reserved region (ptxas -v prints this number as "bytes smem").
func (f *Func) StaticShared() uint64 { return f.SharedSize - f.ReservedShared }

// NumInstructions is the number of 16-byte instructions in Code.
func (f *Func) NumInstructions() int { return len(f.Code) / 16 }

// Encoding returns the machine word of instruction i (at byte offset 16*i).
func (f *Func) Encoding(i int) Encoding {
	b := f.Code[16*i:]
	return Encoding{Lo: binary.LittleEndian.Uint64(b), Hi: binary.LittleEndian.Uint64(b[8:])}
}

// Bank returns the function's constant bank n.
func (f *Func) Bank(n int) (*ConstBank, bool) {
	for i := range f.Banks {
		if f.Banks[i].Bank == n {
			return &f.Banks[i], true
		}
	}
	return nil, false
}

// ConstBank is one constant-bank section.
type ConstBank struct {
	Bank int
	// Data is the section's initial contents (aliasing the cubin's bytes). Bank 0 of a kernel is
	// the parameter bank: ParamBase+ParamSize bytes of zeros that the launch fills.
	Data []byte
}

// Symbol is one ELF symbol.
type Symbol struct {
	Name    string
	Value   uint64
	Size    uint64
	Info    uint8
	Other   uint8
	Section string // the name of the section it is defined in, "" when undefined
}

// Reloc is one relocation of a .rel or .rela section. Type is NVIDIA's R_CUDA_* number, which
// this package does not name (2 is the 64-bit address that .nv.constant4 holds).
type Reloc struct {
	Section string // the section the relocation applies to
	Offset  uint64
	Type    uint32
	Symbol  string
	Addend  int64
}

// CubinError is a malformed-cubin error: the file, where in it, and what is wrong.
type CubinError struct {
	File string
	Msg  string
}

func (e *CubinError) Error() string { return e.File + ": " + e.Msg }

// maxCubin bounds the file size ReadCubin accepts; the largest cubin in the repository is 170 KiB
// and ptxas output of a few MiB is already unusually large.
const maxCubin = 1 << 30

// ReadCubin decodes a cubin. name is used in errors. Sections and symbols are read from b in
// place (Code, Data and attribute payloads alias it). debug/elf is not hardened against
// adversarial input (its package documentation says so), so every offset is checked against b
// here and a panic inside debug/elf becomes an error.
func ReadCubin(name string, b []byte) (*Cubin, error) {
	if len(b) > maxCubin {
		return nil, &CubinError{name, fmt.Sprintf("%d bytes, more than the %d a cubin may have", len(b), maxCubin)}
	}
	ef, syms, err := openELF(b)
	if err != nil {
		return nil, &CubinError{name, err.Error()}
	}
	r := &cubinReader{name: name, b: b, ef: ef, syms: syms, c: &Cubin{Name: name}}
	if ef.Class == elf.ELFCLASS64 && len(b) >= 0x34 {
		r.c.ELFFlags = binary.LittleEndian.Uint32(b[0x30:]) // e_flags of an ELF64 header
	}
	if err := r.read(); err != nil {
		return nil, err
	}
	return r.c, nil
}

// openELF runs the debug/elf parts of reading: the headers and the symbol table. A panic there
// is turned into an error; the rest of the reader checks its own bounds.
func openELF(b []byte) (ef *elf.File, syms []elf.Symbol, err error) {
	defer func() {
		if r := recover(); r != nil {
			ef, syms, err = nil, nil, fmt.Errorf("malformed ELF: %v", r)
		}
	}()
	if ef, err = elf.NewFile(bytes.NewReader(b)); err != nil {
		return nil, nil, err
	}
	if ef.Class != elf.ELFCLASS64 || ef.Machine != elf.EM_CUDA {
		return nil, nil, fmt.Errorf("not a 64-bit CUDA ELF (class %v, machine %v)", ef.Class, ef.Machine)
	}
	syms, err = ef.Symbols()
	if err != nil && err != elf.ErrNoSymbols {
		return nil, nil, fmt.Errorf("symbol table: %v", err)
	}
	return ef, syms, nil
}

type cubinReader struct {
	name string
	b    []byte
	ef   *elf.File
	c    *Cubin
	syms []elf.Symbol // symbol table index i is syms[i-1]
}

func (r *cubinReader) errf(format string, args ...any) error {
	return &CubinError{r.name, fmt.Sprintf(format, args...)}
}

// data returns a section's bytes from the file, checking that they lie inside it. NOBITS sections
// have none.
func (r *cubinReader) data(s *elf.Section) ([]byte, error) {
	if s.Type == elf.SHT_NOBITS {
		return nil, nil
	}
	if s.Offset > uint64(len(r.b)) || s.Size > uint64(len(r.b))-s.Offset {
		return nil, r.errf("section %s (offset 0x%x, size 0x%x) lies outside the file", s.Name, s.Offset, s.Size)
	}
	return r.b[s.Offset : s.Offset+s.Size : s.Offset+s.Size], nil
}

func (r *cubinReader) read() error {
	r.symbols()
	funcs := map[string]int{}
	for _, s := range r.ef.Sections {
		if fn, ok := strings.CutPrefix(s.Name, ".text."); ok && s.Type == elf.SHT_PROGBITS {
			code, err := r.data(s)
			if err != nil {
				return err
			}
			if len(code)%16 != 0 {
				return r.errf("section %s is %d bytes, not a whole number of 16-byte instructions", s.Name, len(code))
			}
			f := Func{Name: fn, Code: code, symIndex: int(s.Info)}
			if si := int(s.Info); si >= 1 && si <= len(r.syms) && r.syms[si-1].Name == fn {
				f.Entry = r.syms[si-1].Other&0x10 != 0
			}
			funcs[fn] = len(r.c.Funcs)
			r.c.Funcs = append(r.c.Funcs, f)
		}
	}
	for _, s := range r.ef.Sections {
		if err := r.section(s, funcs); err != nil {
			return err
		}
	}
	return r.globalInfo()
}

func (r *cubinReader) symbols() {
	for _, s := range r.syms {
		y := Symbol{Name: s.Name, Value: s.Value, Size: s.Size, Info: s.Info, Other: s.Other}
		if int(s.Section) > 0 && int(s.Section) < len(r.ef.Sections) {
			y.Section = r.ef.Sections[s.Section].Name
		}
		r.c.Symbols = append(r.c.Symbols, y)
	}
}

// section reads one section other than .text.
func (r *cubinReader) section(s *elf.Section, funcs map[string]int) error {
	d, err := r.data(s)
	if err != nil {
		return err
	}
	fn := func(suffix string) *Func {
		if i, ok := funcs[suffix]; ok {
			return &r.c.Funcs[i]
		}
		return nil
	}
	switch {
	case s.Name == ".nv.info":
		r.c.Info, err = parseAttributes(d, s.Name)
		if err != nil {
			return r.errf("%v", err)
		}
	case strings.HasPrefix(s.Name, ".nv.info."):
		return r.funcInfo(fn(s.Name[len(".nv.info."):]), s.Name, d)
	case strings.HasPrefix(s.Name, ".nv.shared."):
		if f := fn(s.Name[len(".nv.shared."):]); f != nil {
			f.SharedSize, f.SharedAlign = s.Size, s.Addralign
		}
	case strings.HasPrefix(s.Name, ".nv.constant"):
		bank, owner, ok := parseBankName(s.Name)
		if !ok {
			return r.errf("section %s: want .nv.constantN or .nv.constantN.FUNCTION", s.Name)
		}
		cb := ConstBank{Bank: bank, Data: d}
		if owner == "" {
			r.c.Banks = append(r.c.Banks, cb)
		} else if f := fn(owner); f != nil {
			f.Banks = append(f.Banks, cb)
		} else {
			return r.errf("section %s names no function of the cubin", s.Name)
		}
	case s.Name == ".nv.global":
		r.c.GlobalSize = s.Size
	case s.Name == ".nv.global.init":
		r.c.GlobalInit = d
	case s.Name == ".note.nv.cuinfo":
		r.cuinfo(d)
	case s.Name == ".note.nv.tkinfo":
		r.c.Toolkit = noteStrings(d)
	case s.Type == elf.SHT_RELA || s.Type == elf.SHT_REL:
		return r.relocs(s, d)
	}
	return nil
}

// globalInfo applies the global .nv.info records that name a function by symbol index: register
// count, frame size and stack sizes (payload: symbol index, value).
func (r *cubinReader) globalInfo() error {
	bySym := map[int]*Func{}
	for i := range r.c.Funcs {
		bySym[r.c.Funcs[i].symIndex] = &r.c.Funcs[i]
	}
	for i := range r.c.Info {
		a := &r.c.Info[i]
		var dst func(f *Func, v uint32)
		switch a.ID {
		case AttrRegCount:
			dst = func(f *Func, v uint32) { f.Registers = int(v) }
		case AttrFrameSize:
			dst = func(f *Func, v uint32) { f.FrameSize = v }
		case AttrMinStackSize:
			dst = func(f *Func, v uint32) { f.MinStackSize = v }
		case AttrMaxStackSize:
			dst = func(f *Func, v uint32) { f.MaxStackSize = v }
		default:
			continue
		}
		w, err := words(a, ".nv.info", 2)
		if err != nil {
			return r.errf("%v", err)
		}
		if f := bySym[int(w[0])]; f != nil {
			dst(f, w[1])
		}
	}
	for i := range r.c.Funcs {
		f := &r.c.Funcs[i]
		if f.SharedSize > 0 && r.hasReservedShared() {
			f.ReservedShared = reservedShared
		}
		if f.ReservedShared > f.SharedSize {
			return r.errf("function %s: .nv.shared is %d bytes, less than the reserved %d", f.Name, f.SharedSize, f.ReservedShared)
		}
	}
	sort.SliceStable(r.c.Relocs, func(i, j int) bool { return r.c.Relocs[i].Section < r.c.Relocs[j].Section })
	return nil
}

// reservedShared is the shared memory the CUDA runtime reserves per block on compute capability
// 8.0 and later (the CUDA C++ Programming Guide's table of technical specifications: 1 KB
// "reserved" of the shared memory per block; cudaDevAttrReservedSharedMemoryPerBlock). ptxas
// 13.0 places it at the start of every .nv.shared.NAME of a cubin that declares it (the
// .nv.shared.reserved.0 section); every .nv.shared section in the repository is exactly this
// much larger than the smem ptxas -v reports (TestCubinMatchesPtxasReport).
const reservedShared = 1024

func (r *cubinReader) hasReservedShared() bool {
	for _, s := range r.ef.Sections {
		if strings.HasPrefix(s.Name, ".nv.shared.reserved.") {
			return true
		}
	}
	return false
}
