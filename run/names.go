package run

import (
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// CXXName is what a PTX linker name says in the terms of the CUDA C++ source
// it came from (Itanium C++ ABI mangling, which nvcc uses).
type CXXName struct {
	Title string // the whole declaration: void k_ws<2>(CUtensorMap_st, int, long long*)
	Short string // the qualified name without return type and parameters: k_ws<2>
	// Params are the C++ types of the parameters, in order; nil when the
	// name has no signature (an extern "C" kernel, or a name that is not
	// mangled or does not demangle).
	Params []string
}

// demangleKernel reads a kernel's linker name. A name that is not a mangled
// C++ function name stands for itself.
func demangleKernel(link string) CXXName {
	n := CXXName{Title: link, Short: link}
	ast, err := demangle.ToAST(link)
	if err != nil {
		return n
	}
	n.Title = demangle.ASTToString(ast)
	n.Short = plainName(ast)
	if t, ok := ast.(*demangle.Typed); ok {
		if ft, ok := t.Type.(*demangle.FunctionType); ok {
			n.Params = []string{}
			for _, a := range ft.Args {
				s := demangle.ASTToString(a)
				if s == "void" && len(ft.Args) == 1 { // f(void): no parameters
					break
				}
				n.Params = append(n.Params, s)
			}
		}
	}
	return n
}

// demangleVar names a variable after its source: a static local of a
// function, _ZZ10pipe_benchE4full, reads pipe_bench::full (the function
// without its parameter list, which the kernel's own name already gives);
// a namespace-scope variable its qualified name; anything that does not
// demangle, itself.
func demangleVar(link string) string {
	ast, err := demangle.ToAST(link)
	if err != nil {
		return link
	}
	return plainName(ast)
}

// plainName prints a demangled name without the return types and parameter
// lists of the functions in it.
func plainName(a demangle.AST) string {
	switch x := a.(type) {
	case *demangle.Typed:
		if _, ok := x.Type.(*demangle.FunctionType); ok {
			return plainName(x.Name)
		}
	case *demangle.Qualified:
		return plainName(x.Scope) + "::" + plainName(x.Name)
	}
	return demangle.ASTToString(a)
}

// IsTensorMapType reports whether a C++ parameter type is a CUtensorMap
// (the driver's typedef of struct CUtensorMap_st; CUTLASS's
// cute::TmaDescriptor is the same typedef, so it mangles the same).
func IsTensorMapType(t string) bool {
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSuffix(t, " const"), "const "))
	return t == "CUtensorMap_st" || t == "CUtensorMap"
}
