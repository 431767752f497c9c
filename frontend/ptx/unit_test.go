package ptx

import (
	"strings"
	"testing"
)

// TestLoadRejectsDuplicateDefinitions: kernels and device functions share
// one namespace in which each name is defined once; a second definition is
// an error at its name, naming the first one's line. Declarations without
// a body may repeat.
func TestLoadRejectsDuplicateDefinitions(t *testing.T) {
	const entry = ".visible .entry k()\n{\n\tret;\n}\n"
	const fn = ".func f()\n{\n\tret;\n}\n"
	tests := []struct {
		name, src, want string // want "" for no error
	}{
		{"two kernels of one name", entry + entry, "d.ptx:5:17: duplicate kernel k: an .entry of that name is already defined at line 1"},
		{"two functions of one name", fn + fn, "d.ptx:5:7: duplicate function f: a .func of that name is already defined at line 1"},
		{"a kernel and a function of one name", entry + ".func k()\n{\n\tret;\n}\n",
			"d.ptx:5:7: k is defined twice, as a kernel (.entry) and as a function (.func); the first definition is at line 1"},
		{"mangled kernels of one name", strings.ReplaceAll(entry+entry, " k(", " _Z1kv("), "d.ptx:5:17: duplicate kernel _Z1kv"},
		{"prototype then definition", ".func f();\n" + fn, ""},
		{"extern declaration then definition", ".extern .func f();\n" + fn + ".extern .func f();\n", ""},
		{"two kernels of two names", entry + strings.Replace(entry, " k(", " k2(", 1), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load("d.ptx", []byte(tt.src))
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("got %v, want no error", err)
			case tt.want != "" && err == nil:
				t.Fatalf("no error, want %q", tt.want)
			case tt.want != "" && !strings.HasPrefix(err.Error(), tt.want):
				t.Fatalf("got %q, want %q", err, tt.want)
			}
			if _, err2 := Compile("d.ptx", []byte(tt.src)); (err == nil) != (err2 == nil) {
				t.Errorf("Compile: %v, Load: %v; want the same outcome", err2, err)
			}
		})
	}
}

// mixedModule has a kernel smsim runs between two it cannot: one with a
// Blackwell tcgen05 fence and one that calls a function holding one.
const mixedModule = `.version 8.4
.target sm_90a
.address_size 64
.func uses_tcgen05()
{
	tcgen05.fence::before_thread_sync;
	ret;
}
.visible .entry k_tcgen05()
{
	tcgen05.fence::before_thread_sync;
	ret;
}
.visible .entry k_ok(.param .u64 out)
{
	.reg .b32 %r<2>;
	mov.u32 %r1, WARP_SZ;
	ret;
}
.visible .entry k_calls()
{
	call uses_tcgen05, ();
	ret;
}
`

// TestUnitLowersKernelsOneAtATime: an unsupported instruction is an error
// of the kernels that reach it, at its line; the module still loads and
// its other kernel lowers. Compile, which wants every kernel, fails.
func TestUnitLowersKernelsOneAtATime(t *testing.T) {
	u, err := Load("m.ptx", []byte(mixedModule))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	want := map[string]string{
		"k_tcgen05": "m.ptx:11:2: unsupported instruction tcgen05.fence::before_thread_sync",
		"k_ok":      "",
		"k_calls":   "m.ptx:6:2: unsupported instruction tcgen05.fence::before_thread_sync",
	}
	var names []string
	for _, f := range u.Kernels() {
		names = append(names, f.Name)
		p, err := u.Lower(f)
		w := want[f.Name]
		switch {
		case w == "" && (err != nil || p == nil || p.Name != f.Name):
			t.Errorf("%s: got %v, want a program", f.Name, err)
		case w != "" && (err == nil || !strings.HasPrefix(err.Error(), w)):
			t.Errorf("%s: got %v, want %q", f.Name, err, w)
		}
	}
	if got := strings.Join(names, " "); got != "k_tcgen05 k_ok k_calls" {
		t.Errorf("kernels %q, want them in source order", got)
	}
	if _, err := Compile("m.ptx", []byte(mixedModule)); err == nil || !strings.HasPrefix(err.Error(), want["k_tcgen05"]) {
		t.Errorf("Compile: got %v, want the first kernel's error", err)
	}
}
