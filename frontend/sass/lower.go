package sass

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/smsim/smsim/isa"
)

// Module is a SASS input ready to run: a parsed listing and, when one was
// given, the cubin it was disassembled from. Its kernels are lowered to
// isa programs one at a time, when used (Lower).
type Module struct {
	File  *File
	Cubin *Cubin // nil without one
	src   []byte
	lines []int // byte offset of each line's start
}

// Register numbering of a lowered program (isa.Program): R0-R254 are
// registers 0-254, UR0-UR62 are 256-318 (the uniform file, one value per
// warp), P0-P6 predicates 0-6 and UP0-UP6 predicates 8-14. RZ, URZ, PT and
// UPT are not registers: they read as immediates and a write to them is a
// sink.
const (
	urBase   = 256
	upBase   = 8
	numRegs  = urBase + URZ + 1
	numPreds = upBase + PT + 1
	instrLen = 16 // bytes per sm_90 instruction
)

// Load reads a listing (cuobjdump -sass or nvdisasm) and, when cubin is not
// nil, the cubin it comes from, whose parameter layout, resources and
// constant banks are authoritative. Every function of the listing that has
// instructions must then be in the cubin with the same code; an instruction
// printed without its encoding takes it from there (Func.CheckText).
// Without a cubin every instruction must have its encoding: its control
// bits time the program, so a listing without them is an *Error at the
// first instruction lacking one (LoadFunctional accepts it).
func Load(name string, listing, cubin []byte) (*Module, error) {
	return load(name, listing, cubin, false)
}

// LoadFunctional is Load without a cubin for a listing whose instructions
// may lack their encodings (hand-written SASS): such an instruction lowers
// with a schedule of no stall and no scoreboard, so a run computes what
// the listing computes but its timing means nothing. It is for functional
// checks only; the command line never uses it.
func LoadFunctional(name string, listing []byte) (*Module, error) {
	return load(name, listing, nil, true)
}

func load(name string, listing, cubin []byte, functional bool) (*Module, error) {
	f, err := Parse(name, listing)
	if err != nil {
		return nil, err
	}
	m := &Module{File: f, src: listing}
	if cubin != nil {
		c, err := ReadCubin(strings.TrimSuffix(name, ".sass")+".cubin", cubin)
		if err != nil {
			return nil, err
		}
		for i := range f.Functions {
			fn := &f.Functions[i]
			cf := c.Func(fn.Name)
			if cf == nil {
				return nil, &Error{File: name, Line: fn.Line, Col: 1, Msg: fmt.Sprintf("function %s is not in %s", fn.Name, c.Name)}
			}
			if err := cf.CheckText(fn); err != nil {
				return nil, &Error{File: name, Line: fn.Line, Col: 1, Msg: fmt.Sprintf("the listing does not match %s: %v", c.Name, err)}
			}
		}
		m.Cubin = c
	}
	m.lines = append(m.lines, 0)
	for i, b := range listing {
		if b == '\n' {
			m.lines = append(m.lines, i+1)
		}
	}
	switch {
	case cubin != nil:
	case functional:
		for i := range f.Functions {
			for j := range f.Functions[i].Instructions {
				if in := &f.Functions[i].Instructions[j]; !in.HasEnc {
					in.Ctrl = Control{WriteSB: NoScoreboard, ReadSB: NoScoreboard}
				}
			}
		}
	default:
		if err := m.checkEncodings(); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// checkEncodings requires every instruction of a listing without its cubin
// to carry its encoding, whose control bits (stall count, yield,
// scoreboards) time the program: without them every instruction would issue
// a cycle after the last and no load would be waited for. The error names
// the first instruction lacking one and how to get the words.
func (m *Module) checkEncodings() error {
	some := false
	var first *Instruction
	var in *Function
	for i := range m.File.Functions {
		fn := &m.File.Functions[i]
		for j := range fn.Instructions {
			if fn.Instructions[j].HasEnc {
				some = true
			} else if first == nil {
				first, in = &fn.Instructions[j], fn
			}
		}
	}
	if first == nil {
		return nil
	}
	what := fmt.Sprintf("the listing has no instruction encodings (%s at 0x%x of %s is its first instruction)", first.Mnemonic, first.Addr, in.Name)
	if some {
		what = fmt.Sprintf("%s at 0x%x of %s has no encoding, unlike other instructions of the listing", first.Mnemonic, first.Addr, in.Name)
	}
	base := filepath.Base(strings.TrimSuffix(m.File.Name, filepath.Ext(m.File.Name)))
	return m.errAt(first, "%s; smsim times SASS by the control bits of the encodings (stall counts, yield, scoreboards): "+
		"dump the cubin with `cuobjdump -sass %s.cubin`, which prints every instruction's encoding, or put the cubin beside the listing as %s.cubin",
		what, base, base)
}

// Kernels returns the kernels of the module: the listing's functions that
// are entries (the cubin says which; without one, every function).
func (m *Module) Kernels() []*Function {
	var ks []*Function
	for i := range m.File.Functions {
		fn := &m.File.Functions[i]
		if m.Cubin != nil {
			if cf := m.Cubin.Func(fn.Name); cf != nil && !cf.Entry {
				continue
			}
		}
		ks = append(ks, fn)
	}
	return ks
}

// Params returns a kernel's parameters laid out in the parameter block (the
// block starts at c[0x0][0x210]): from the cubin when there is one, with the
// C types of the mangled name where it has them; else from the mangled name
// alone. The names are nvcc's PTX names, KERNEL_param_N.
func (m *Module) Params(fn *Function) ([]isa.Param, int, error) {
	types, terr := ParamTypes(fn.Name)
	var ps []Param
	size := 0
	if cf := m.cubinFunc(fn); cf != nil {
		ps, size = cf.Params, int(cf.ParamSize)
		if terr == nil && len(types) != len(ps) {
			types = nil // the name does not describe these parameters
		}
	} else {
		if terr != nil {
			if errors.Is(terr, ErrNotMangled) {
				return nil, 0, m.fnErr(fn, "the parameters of extern \"C\" kernel %s are not in its name: give the cubin beside the listing", fn.Name)
			}
			return nil, 0, m.fnErr(fn, "%v", terr)
		}
		var err error
		if ps, err = LayoutParams(types); err != nil {
			return nil, 0, m.fnErr(fn, "%s: %v; give the cubin beside the listing", fn.Name, err)
		}
		for _, p := range ps {
			size = max(size, int(p.Offset+p.Size))
		}
	}
	out := make([]isa.Param, len(ps))
	for i, p := range ps {
		q := isa.Param{Name: fmt.Sprintf("%s_param_%d", fn.Name, i), Size: int(p.Size), Offset: int(p.Offset),
			Align: paramAlign(p), Type: bitsType(int(p.Size))}
		if types != nil {
			t := types[i]
			q.CType = t.C
			switch t.Kind {
			case TypePointer:
				q.Type, q.Ptr = isa.U64, true
			case TypeTensorMap:
				q.Type, q.Align = isa.B8, 128
			case TypeScalar:
				q.Type = scalarType(t.C, int(p.Size))
			}
		}
		out[i] = q
	}
	return out, size, nil
}

// paramAlign is the alignment a parameter's constant-bank address shows
// (at most its size, at most 128).
func paramAlign(p Param) int {
	at := p.Offset + ParamBaseSM90
	a := uint32(1)
	for a < 128 && at%(2*a) == 0 && 2*a <= max(p.Size, 1) {
		a *= 2
	}
	return int(a)
}

// bitsType is the untyped isa type of a parameter of n bytes (an array of
// bytes when it is not a scalar's size).
func bitsType(n int) isa.Type {
	switch n {
	case 1:
		return isa.B8
	case 2:
		return isa.B16
	case 4:
		return isa.B32
	case 8:
		return isa.B64
	}
	return isa.B8
}

// scalarType maps a C arithmetic type to an isa type.
func scalarType(c string, n int) isa.Type {
	switch strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(c), "const")) {
	case "float":
		return isa.F32
	case "double":
		return isa.F64
	case "half", "_Float16":
		return isa.F16
	case "bool", "unsigned char", "unsigned short", "unsigned int", "unsigned long", "unsigned long long", "char8_t",
		"char16_t", "char32_t":
		switch n {
		case 1:
			return isa.U8
		case 2:
			return isa.U16
		case 4:
			return isa.U32
		case 8:
			return isa.U64
		}
	case "char", "signed char", "short", "int", "long", "long long", "wchar_t":
		switch n {
		case 1:
			return isa.S8
		case 2:
			return isa.S16
		case 4:
			return isa.S32
		case 8:
			return isa.S64
		}
	}
	return bitsType(n)
}

func (m *Module) cubinFunc(fn *Function) *Func {
	if m.Cubin == nil {
		return nil
	}
	return m.Cubin.Func(fn.Name)
}

// fnErr is an error located at a function's header.
func (m *Module) fnErr(fn *Function, format string, args ...any) error {
	return &Error{File: m.File.Name, Line: fn.Line, Col: 1, Msg: fmt.Sprintf(format, args...)}
}

// column is the column of the instruction text (after its /*ADDR*/) on line.
func (m *Module) column(line int) int32 {
	if line < 1 || line > len(m.lines) {
		return 1
	}
	s := m.src[m.lines[line-1]:]
	if n := bytes.IndexByte(s, '\n'); n >= 0 {
		s = s[:n]
	}
	i := bytes.Index(s, []byte("*/"))
	if i < 0 {
		return 1
	}
	i += 2
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return int32(i + 1)
}

// Lower lowers a kernel to a program: one isa instruction per SASS
// instruction (instruction i at byte address 16*i), each with the
// listing's control bits as its schedule (Instr.Ctrl) and its position.
// The first instruction smsim cannot run stops it with an *Error naming it
// and its address.
func (m *Module) Lower(fn *Function) (*isa.Program, error) {
	params, psize, err := m.Params(fn)
	if err != nil {
		return nil, err
	}
	p := &isa.Program{Name: fn.Name, File: m.File.Name, Params: params, ParamBytes: psize,
		NumRegs: numRegs, NumPreds: numPreds, UniformRegs: urBase, UniformPreds: upBase,
		Scheduled: true, ExplicitReconv: true, RankedShared: true, AddrStep: instrLen}
	p.RegNames = regNames()
	p.PredNames = predNames()
	if err := m.resources(fn, p); err != nil {
		return nil, err
	}
	l := &lowerer{m: m, fn: fn, prog: p, pairedInc: map[int]bool{}}
	p.Instrs = make([]isa.Instr, len(fn.Instructions))
	for i := range fn.Instructions {
		in := &fn.Instructions[i]
		if in.Addr != uint32(i*instrLen) {
			return nil, m.errAt(in, "instruction at 0x%x: want the function's instructions at consecutive 16-byte addresses from 0 (0x%x)", in.Addr, i*instrLen)
		}
		if err := l.instr(i, in, &p.Instrs[i]); err != nil {
			return nil, err
		}
	}
	if len(p.Instrs) == 0 {
		return nil, m.fnErr(fn, "function %s has no instructions", fn.Name)
	}
	return p, nil
}

// resources fills what the cubin says of a kernel (else what the listing
// gives): static shared memory, the thread's stack, the required block
// shape, the constant banks.
func (m *Module) resources(fn *Function, p *isa.Program) error {
	cf := m.cubinFunc(fn)
	calls := false
	for i := range fn.Instructions {
		switch fn.Instructions[i].Op {
		case "CALL", "LDL", "STL":
			calls = true
		}
	}
	if cf == nil {
		// Without the cubin the static shared memory is unknown: the runtime's
		// reserved 1 KiB, where SASS addresses begin, is all that is sized.
		p.SharedStatic, p.SharedReserved = reservedShared, reservedShared
		p.DynSmemAlign = 16
		if calls {
			p.LocalBytes = defaultStack
		}
		return nil
	}
	p.SharedStatic = int(cf.SharedSize)
	if p.SharedStatic < reservedShared {
		p.SharedStatic = reservedShared // SASS addresses shared memory from 0x400 (the reserved part) on
	}
	p.SharedReserved = reservedShared
	p.DynSmemAlign = max(int(cf.SharedAlign), 16)
	p.RegsPerThread = cf.Registers
	stack := int(max(cf.FrameSize, cf.MaxStackSize, cf.MinStackSize))
	if calls || stack > 0 {
		p.LocalBytes = max(stack, defaultStack)
	}
	for i, n := range cf.ReqNTID {
		p.Block[i] = int(n)
	}
	for i, n := range cf.ClusterDims {
		p.Cluster[i] = int(n)
	}
	p.ExplicitCluster = cf.ExplicitCluster
	for _, b := range m.Cubin.Banks {
		p.Banks = setBank(p.Banks, b)
	}
	for _, b := range cf.Banks {
		if b.Bank != 0 {
			p.Banks = setBank(p.Banks, b)
		}
	}
	p.Symbols = append(p.Symbols, constSymbols(m.Cubin)...)
	return nil
}

// defaultStack is the stack of a thread whose size the cubin does not bound
// (calls, recursion): the CUDA runtime's default cudaLimitStackSize.
const defaultStack = 1024

func setBank(banks [][]byte, b ConstBank) [][]byte {
	if b.Bank < 0 || b.Bank > 17 {
		return banks
	}
	for len(banks) <= b.Bank {
		banks = append(banks, nil)
	}
	banks[b.Bank] = b.Data
	return banks
}

func regNames() []string { return regNamesAt(urBase) }

// regNamesAt names the registers of a file whose uniform registers start
// at base (CompactRegisters): R0 up to base (or RZ), then UR0 to UR62.
func regNamesAt(base int) []string {
	ns := make([]string, base+URZ+1)
	for i := 0; i < min(RZ, base); i++ {
		ns[i] = fmt.Sprintf("R%d", i)
	}
	for i := 0; i < URZ; i++ {
		ns[base+i] = fmt.Sprintf("UR%d", i)
	}
	return ns
}

func predNames() []string {
	ns := make([]string, numPreds)
	for i := 0; i < PT; i++ {
		ns[i] = fmt.Sprintf("P%d", i)
		ns[upBase+i] = fmt.Sprintf("UP%d", i)
	}
	return ns
}

// errAt is an error located at an instruction.
func (m *Module) errAt(in *Instruction, format string, args ...any) error {
	return &Error{File: m.File.Name, Line: in.Line, Col: int(m.column(in.Line)), Msg: fmt.Sprintf(format, args...)}
}
