package main

import (
	"strings"

	"github.com/ianlancetaylor/demangle"
)

// cxxName is what a PTX linker name says in the terms of the CUDA C++ source
// it came from (Itanium C++ ABI mangling, which nvcc uses).
type cxxName struct {
	title string // the whole declaration: void k_ws<2>(CUtensorMap_st, int, long long*)
	short string // the qualified name without return type and parameters: k_ws<2>
	// params are the C++ types of the parameters, in order; nil when the
	// name has no signature (an extern "C" kernel, or a name that is not
	// mangled or does not demangle).
	params []string
}

// demangleKernel reads a kernel's linker name. A name that is not a mangled
// C++ function name stands for itself.
func demangleKernel(link string) cxxName {
	n := cxxName{title: link, short: link}
	ast, err := demangle.ToAST(link)
	if err != nil {
		return n
	}
	n.title = demangle.ASTToString(ast)
	n.short = plainName(ast)
	if t, ok := ast.(*demangle.Typed); ok {
		if ft, ok := t.Type.(*demangle.FunctionType); ok {
			n.params = []string{}
			for _, a := range ft.Args {
				s := demangle.ASTToString(a)
				if s == "void" && len(ft.Args) == 1 { // f(void): no parameters
					break
				}
				n.params = append(n.params, s)
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

// isTensorMapType reports whether a C++ parameter type is a CUtensorMap
// (the driver's typedef of struct CUtensorMap_st; CUTLASS's
// cute::TmaDescriptor is the same typedef, so it mangles the same).
func isTensorMapType(t string) bool {
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimSuffix(t, " const"), "const "))
	return t == "CUtensorMap_st" || t == "CUtensorMap"
}
