package sass

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestParamTypes derives parameter types from mangled kernel names of the repository and from
// hand-made names for the remaining builtin cases.
func TestParamTypes(t *testing.T) {
	tests := []struct{ name, want string }{
		{"_Z6k_spinxPi", "scalar long long 8/8, pointer int* 8/8"},
		{"_Z7k_alignILi1ELi9EEviPx", "scalar int 4/4, pointer long long* 8/8"},
		{"_Z6k_partILi4EEvPK4int4iiiiPx", "pointer int4 const* 8/8, scalar int 4/4, scalar int 4/4, scalar int 4/4, scalar int 4/4, pointer long long* 8/8"},
		{"_Z6k_desc14CUtensorMap_stS_iiiiiPx", "tensormap CUtensorMap_st 128/128, tensormap CUtensorMap_st 128/128, scalar int 4/4, scalar int 4/4, scalar int 4/4, scalar int 4/4, scalar int 4/4, pointer long long* 8/8"},
		{"_Z4k_bwILi3EEvPKhmjiiPx", "pointer unsigned char const* 8/8, scalar unsigned long 8/8, scalar unsigned int 4/4, scalar int 4/4, scalar int 4/4, pointer long long* 8/8"},
		{"_Z1kbcasfdDF16_", "scalar bool 1/1, scalar char 1/1, scalar signed char 1/1, scalar short 2/2, scalar float 4/4, scalar double 8/8, scalar _Float16 2/2"},
		{"_Z1kPVvPPf", "pointer void volatile* 8/8, pointer float** 8/8"},
		{"_Z1k4int2Ri", "other int2 0/0, other int& 0/0"},
		{"_Z1kv", ""},
		{"kspin", "error: not an Itanium C++ mangled name"},
		{"_Z1kQ", "error: _Z1kQ: expected at least one type in type list at 4"},
	}
	kinds := map[TypeKind]string{TypeScalar: "scalar", TypePointer: "pointer", TypeTensorMap: "tensormap", TypeOther: "other"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := ParamTypes(tc.name)
			var parts []string
			for _, ct := range ts {
				parts = append(parts, fmt.Sprintf("%s %s %d/%d", kinds[ct.Kind], ct.C, ct.Size, ct.Align))
			}
			got := strings.Join(parts, ", ")
			if err != nil {
				got = "error: " + err.Error()
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	if _, err := ParamTypes("step_latency"); !errors.Is(err, ErrNotMangled) {
		t.Errorf("extern \"C\" name: got %v, want ErrNotMangled", err)
	}
}

// TestLayoutParamsMatchCubin lays out the parameters of every mangled kernel of the committed
// cubins from its name alone and wants the layout the cubin records. A kernel taking a struct of
// its own (constcache.cu's k_param) cannot be laid out from its name and is left out; the cubin
// gives its layout.
func TestLayoutParamsMatchCubin(t *testing.T) {
	n := 0
	for _, rc := range corpusCubins(t) {
		for i := range rc.c.Funcs {
			f := &rc.c.Funcs[i]
			ts, err := ParamTypes(f.Name)
			if errors.Is(err, ErrNotMangled) {
				continue
			}
			if err != nil {
				t.Errorf("%s: %v", f.Name, err)
				continue
			}
			if hasUnsized(ts) {
				continue
			}
			ps, err := LayoutParams(ts)
			if err != nil {
				t.Errorf("%s: %v", f.Name, err)
				continue
			}
			got, want := layoutString(ps), layoutString(f.Params)
			if got != want {
				t.Errorf("%s: from the name %s, the cubin %s", f.Name, got, want)
			}
			n++
		}
	}
	if n < 300 {
		t.Errorf("compared %d kernels", n)
	}
}

// hasUnsized says whether a parameter's size is not known from the name (a struct of the program's own).
func hasUnsized(ts []CType) bool {
	for _, t := range ts {
		if t.Size == 0 {
			return true
		}
	}
	return false
}

func layoutString(ps []Param) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "[%d: 0x%x+%d c[0x0][0x%x]]", p.Ordinal, p.Offset, p.Size, p.CBankOffset)
	}
	return b.String()
}

// TestLayoutParams pins the alignment rule on hand-made lists.
func TestLayoutParams(t *testing.T) {
	i32 := CType{Kind: TypeScalar, C: "int", Size: 4, Align: 4}
	ptr := CType{Kind: TypePointer, C: "int*", Size: 8, Align: 8}
	tm := CType{Kind: TypeTensorMap, C: "CUtensorMap_st", Size: 128, Align: 128}
	tests := []struct {
		name  string
		types []CType
		want  string
	}{
		{"int then pointer pads to 8", []CType{i32, ptr}, "[0: 0x0+4 c[0x0][0x210]][1: 0x8+8 c[0x0][0x218]]"},
		{"tensor map aligns the bank address to 128", []CType{tm, i32}, "[0: 0x70+128 c[0x0][0x280]][1: 0xf0+4 c[0x0][0x300]]"},
		{"empty", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps, err := LayoutParams(tc.types)
			if err != nil {
				t.Fatal(err)
			}
			if got := layoutString(ps); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	if _, err := LayoutParams([]CType{{Kind: TypeOther, C: "int2"}}); err == nil || err.Error() != "parameter 0 (int2): its size is not known from the name" {
		t.Errorf("got %v", err)
	}
}
