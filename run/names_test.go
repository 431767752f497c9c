package run

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testdata/names.ptx (as cmd/smsim's) holds a template kernel with a
// CUtensorMap and static shared barrier arrays, an extern "C" kernel with
// dynamic shared memory, a wgmma kernel smsim cannot run and a kernel
// taking a structure.

func TestDemangleKernel(t *testing.T) {
	tests := []struct {
		link, title, short string
		params             []string // nil: no signature
	}{
		{"_Z4k_wsILi2EEv14CUtensorMap_stiiiiPx", "void k_ws<2>(CUtensorMap_st, int, int, int, int, long long*)", "k_ws<2>",
			[]string{"CUtensorMap_st", "int", "int", "int", "int", "long long*"}},
		{"_Z10k_bulk_latPKhmjmiPx", "k_bulk_lat(unsigned char const*, unsigned long, unsigned int, unsigned long, int, long long*)", "k_bulk_lat",
			[]string{"unsigned char const*", "unsigned long", "unsigned int", "unsigned long", "int", "long long*"}},
		{"_Z6k_wakeILb1EEviPx", "void k_wake<true>(int, long long*)", "k_wake<true>", []string{"int", "long long*"}},
		{"_ZN4demo6k_nameEv", "demo::k_name()", "demo::k_name", []string{}},
		{"_Z8k_struct6Params", "k_struct(Params)", "k_struct", []string{"Params"}},
		{"pipe_bench", "pipe_bench", "pipe_bench", nil},          // extern "C": no signature
		{"_Znot_mangled", "_Znot_mangled", "_Znot_mangled", nil}, // does not demangle: itself
	}
	for _, tt := range tests {
		n := demangleKernel(tt.link)
		if n.Title != tt.title || n.Short != tt.short || !slices.Equal(n.Params, tt.params) || (n.Params == nil) != (tt.params == nil) {
			t.Errorf("%s: got %q %q %q, want %q %q %q", tt.link, n.Title, n.Short, n.Params, tt.title, tt.short, tt.params)
		}
	}
}

func TestDemangleVar(t *testing.T) {
	tests := []struct{ link, want string }{
		{"_ZZ10pipe_benchE4full", "pipe_bench::full"}, // a static local of an extern "C" kernel
		{"_ZZ4k_wsILi2EEv14CUtensorMap_stiiiiPxE5empty", "k_ws<2>::empty"},
		{"_ZZN7cutlass4gemmEvE3bar", "cutlass::gemm::bar"},
		{"_ZN3cub6detail5EmptyE", "cub::detail::Empty"},
		{"smem", "smem"},
		{"full", "full"},
	}
	for _, tt := range tests {
		if got := demangleVar(tt.link); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.link, got, tt.want)
		}
	}
	for _, ty := range []string{"CUtensorMap_st", "CUtensorMap", "CUtensorMap_st const"} {
		if !IsTensorMapType(ty) {
			t.Errorf("%q is a tensor map", ty)
		}
	}
	for _, ty := range []string{"CUtensorMap_st*", "CUtensorMap_st const*", "int", ""} {
		if IsTensorMapType(ty) {
			t.Errorf("%q is no tensor map passed by value", ty)
		}
	}
}

// -k selects by the mangled name, the demangled one, or a substring of
// either that picks one kernel.
func TestKernelSelection(t *testing.T) {
	src, err := Load(filepath.Join("testdata", "names.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, want, err string }{
		{"_Z6k_pipeILi2EEv14CUtensorMap_stiPx", "_Z6k_pipeILi2EEv14CUtensorMap_stiPx", ""},
		{"void k_pipe<2>(CUtensorMap_st, int, long long*)", "_Z6k_pipeILi2EEv14CUtensorMap_stiPx", ""},
		{"k_pipe<2>", "_Z6k_pipeILi2EEv14CUtensorMap_stiPx", ""},
		{"k_pipeILi2", "_Z6k_pipeILi2EEv14CUtensorMap_stiPx", ""},   // a substring of the mangled name
		{"<2>(CUtensor", "_Z6k_pipeILi2EEv14CUtensorMap_stiPx", ""}, // of the demangled one
		{"pipe_c", "pipe_c", ""},
		{"k_struct", "_Z8k_struct6Params", ""},
		{"float*", "_Z7k_wgmmaPf", ""},
		{"pipe", "", `"pipe" matches 2 kernels`},
		{"no_such", "", `no kernel in testdata/names.ptx matches "no_such"`},
		{"", "", "has 4 kernels; pick one with --kernel"},
	}
	for _, tt := range tests {
		k, err := src.Find(tt.name)
		switch {
		case tt.err == "" && (err != nil || k.Name != tt.want):
			t.Errorf("%q: got %v %v, want %s", tt.name, k, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !errors.As(err, new(*UsageError))):
			t.Errorf("%q: got %v, want a usage error containing %q", tt.name, err, tt.err)
		}
	}
}
