package run

import (
	"strings"

	"github.com/smsim/smsim/isa"
)

// Placeholders of a kernel's parameters: --arg values that launch, for a
// user to edit (smsim list's run line).
const (
	BufPlaceholder = "buf:4096"
	MapPlaceholder = "tensormap:f16,1024x1024,box=64x64"
)

// Block is the block the kernel declares: the one .reqntid fixes (or the
// .sms file's), else the largest .maxntid allows; zero when it declares
// none.
func (k *Kernel) Block(p *isa.Program) [3]int {
	d := p.Block
	if d[0] == 0 {
		for i, v := range k.MaxNTID {
			d[i] = int(v)
		}
	}
	return d
}

// ParamType is parameter i's type: the C++ type from the demangled
// signature with the PTX type after it, or the PTX type alone where the
// name has no signature (an extern "C" kernel).
func (k *Kernel) ParamType(i int) string {
	pt := ParamType(k.Params[i])
	if k.CXX.Params != nil {
		return k.CXX.Params[i] + " (" + pt + ")"
	}
	return pt
}

// Placeholder is a value --arg accepts for parameter i: a tensor map for a
// CUtensorMap (or, without a signature, a 128-byte .b8 parameter aligned to
// at least 64 as CUtensorMap is), a buffer for a pointer (or, without a
// signature, for a .u64/.b64, which nvcc writes for pointers as for 64-bit
// integers), 0 for any other scalar. A larger parameter (a structure) has
// none.
func (k *Kernel) Placeholder(i int) (string, bool) {
	q := k.Params[i]
	ct := ""
	if k.CXX.Params != nil {
		ct = k.CXX.Params[i]
	}
	switch {
	case IsTensorMapType(ct) || (ct == "" && q.Type == isa.B8 && q.Size == 128 && q.Align >= 64):
		return MapPlaceholder, true
	case q.Size == 8 && (strings.HasSuffix(ct, "*") || q.Ptr || (ct == "" && (q.Type == isa.U64 || q.Type == isa.B64))):
		return BufPlaceholder, true
	case q.Size <= 8:
		return "0", true
	}
	return "", false
}

// Selector is the shortest -k value that selects k: its demangled name
// without return type and parameters when that picks k alone, else its
// mangled name.
func (s *Source) Selector(k *Kernel) string {
	if f, err := s.Find(k.CXX.Short); err == nil && f == k {
		return k.CXX.Short
	}
	return k.Name
}

// DynamicShared reports whether y is the dynamic shared region: the one
// shared symbol that reaches past the static part.
func DynamicShared(p *isa.Program, y isa.Symbol) bool {
	return y.Space == isa.Shared && y.Offset+y.Size > uint64(p.SharedStatic)
}
