package sass

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// TypeKind classifies a kernel parameter type.
type TypeKind uint8

// Parameter type kinds.
const (
	TypeScalar    TypeKind = iota + 1 // a C arithmetic type: int, float, unsigned long long...
	TypePointer                       // any pointer
	TypeTensorMap                     // CUtensorMap (struct CUtensorMap_st) passed by value
	TypeOther                         // a class, array or other type whose layout the name does not give
)

// CType is a kernel parameter's C type as the mangled name spells it.
type CType struct {
	Kind TypeKind
	// C is the type as c++filt prints it ("int", "int const*", "CUtensorMap_st").
	C string
	// Size and Align are the bytes the parameter occupies and its alignment in the parameter block
	// (the C ABI of the x86-64 host, which CUDA kernel parameters follow); 0 for TypeOther.
	Size, Align uint32
}

// ErrNotMangled is returned by ParamTypes for names that are not Itanium C++ mangled names, such
// as those of extern "C" kernels: their parameter types are not in the name.
var ErrNotMangled = errors.New("not an Itanium C++ mangled name")

// ParamTypes derives a kernel's parameter types from its mangled name ("_Z6k_spinxPi" → long
// long, int*). It returns ErrNotMangled for extern "C" names. Without a cubin this is the only
// source of the parameter layout; LayoutParams turns the types into offsets.
func ParamTypes(name string) ([]CType, error) {
	if !strings.HasPrefix(name, "_Z") {
		return nil, ErrNotMangled
	}
	ast, err := demangle.ToAST(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ft := functionType(ast)
	if ft == nil {
		return nil, fmt.Errorf("%s: not a function name", name)
	}
	var out []CType
	for _, a := range ft.Args {
		t := classify(a)
		if t.Kind == 0 {
			continue // a lone "void" parameter list
		}
		out = append(out, t)
	}
	return out, nil
}

func functionType(a demangle.AST) *demangle.FunctionType {
	switch t := a.(type) {
	case *demangle.Typed:
		ft, _ := t.Type.(*demangle.FunctionType)
		return ft
	case *demangle.FunctionType:
		return t
	}
	return nil
}

// classify maps one parameter's AST to its kind and layout. Qualifiers (const, volatile) do not
// change the layout.
func classify(a demangle.AST) CType {
	t := CType{C: demangle.ASTToString(a)}
	for {
		q, ok := a.(*demangle.TypeWithQualifiers)
		if !ok {
			break
		}
		a = q.Base
	}
	switch b := a.(type) {
	case *demangle.PointerType:
		t.Kind, t.Size, t.Align = TypePointer, 8, 8
	case *demangle.BuiltinType:
		if b.Name == "void" {
			return CType{}
		}
		size, ok := scalarSize(b.Name)
		if !ok {
			t.Kind = TypeOther
			break
		}
		t.Kind, t.Size, t.Align = TypeScalar, size, size
	case *demangle.BinaryFP:
		// _FloatN (mangled DFN_): N bits, aligned to its size.
		if b.Suffix == "" && b.Bits%8 == 0 && b.Bits >= 8 && b.Bits <= 128 {
			t.Kind, t.Size, t.Align = TypeScalar, uint32(b.Bits/8), uint32(b.Bits/8)
		} else {
			t.Kind = TypeOther
		}
	case *demangle.Name:
		if b.Name == "CUtensorMap_st" || b.Name == "CUtensorMap" {
			// CUtensorMap is cuda.h's opaque struct of 16 u64 (128 bytes). nvcc 13.0 declares every
			// such parameter ".param .align 128 .b8 p[128]" (all 14 in the committed PTX), and
			// the cubins place it at a 128-byte-aligned constant-bank address.
			t.Kind, t.Size, t.Align = TypeTensorMap, 128, 128
		} else {
			t.Kind = TypeOther
		}
	default:
		t.Kind = TypeOther
	}
	return t
}

// scalarSize gives the size of the C arithmetic types that mangled names encode as builtins, on
// the LP64 host ABI that CUDA follows (long is 8 bytes).
func scalarSize(name string) (uint32, bool) {
	switch name {
	case "bool", "char", "signed char", "unsigned char", "char8_t":
		return 1, true
	case "short", "unsigned short", "char16_t", "half":
		return 2, true
	case "int", "unsigned int", "float", "wchar_t", "char32_t":
		return 4, true
	case "long", "unsigned long", "long long", "unsigned long long", "double":
		return 8, true
	case "__int128", "unsigned __int128", "__float128", "long double":
		return 16, true
	}
	return 0, false
}

// LayoutParams lays out parameters of the given types the way ptxas places them in the parameter
// block that starts at c[0x0][ParamBaseSM90]: each at the next constant-bank address aligned to its
// type, so a 128-byte-aligned CUtensorMap first in the list lands at block offset 0x70
// (c[0x0][0x280]), as every cubin with one shows. It fails for TypeOther parameters, whose size the
// name does not give.
func LayoutParams(types []CType) ([]Param, error) {
	out := make([]Param, len(types))
	addr := uint32(ParamBaseSM90)
	for i, t := range types {
		if t.Size == 0 {
			return nil, fmt.Errorf("parameter %d (%s): its size is not known from the name", i, t.C)
		}
		addr = (addr + t.Align - 1) / t.Align * t.Align
		out[i] = Param{Ordinal: i, Offset: addr - ParamBaseSM90, Size: t.Size, CBankOffset: addr, InCBank: true}
		addr += t.Size
	}
	return out, nil
}
