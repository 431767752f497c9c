package ptx

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// calibDir holds the real nvcc output the simulator is calibrated against.
const calibDir = "../../calibration/h200"

func readCalib(tb testing.TB, name string) []byte {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join(calibDir, name))
	if err != nil {
		tb.Fatalf("calibration PTX missing: %v", err)
	}
	return src
}

func parseCalib(tb testing.TB, name string) *Module {
	tb.Helper()
	m, err := Parse(name, readCalib(tb, name))
	if err != nil {
		tb.Fatalf("Parse(%s): %v", name, err)
	}
	return m
}

// sig renders a parameter as "[alignN ]TYPE[[N]]".
func sig(d *VarDecl) string {
	s := d.Type
	if d.Align != 0 {
		s = "align" + strconv.Itoa(d.Align) + " " + s
	}
	for _, n := range d.Array {
		s += "[" + strconv.Itoa(n) + "]"
	}
	return s
}

func sigs(ds []*VarDecl) string {
	var out []string
	for _, d := range ds {
		out = append(out, sig(d))
	}
	return strings.Join(out, ", ")
}

type entryWant struct {
	name   string
	params string
	instrs int
}

func TestCalibrationEntries(t *testing.T) {
	tests := []struct {
		file    string
		entries []entryWant
	}{
		{"microbench.ptx", []entryWant{
			{"_Z5k_latiPx", "u32, u64", 146},
			{"_Z10k_bulk_latPKhmjmiPx", "u64, u64, u32, u64, u32, u64", 40},
			{"_Z9k_bulk_bwPKhmjiiPx", "u64, u64, u32, u32, u32, u64", 143},
			{"_Z11k_tma2d_lat14CUtensorMap_stiiiiiPx", "align128 b8[128], u32, u32, u32, u32, u32, u64", 43},
			{"_Z6k_wakeILb1EEviPx", "u32, u64", 50},
			{"_Z6k_wakeILb0EEviPx", "u32, u64", 50},
			{"_Z13k_arrive_waitILi0EEviPx", "u32, u64", 78},
			{"_Z13k_arrive_waitILi1EEviPx", "u32, u64", 118},
			{"_Z13k_arrive_waitILi2EEviPx", "u32, u64", 263},
			{"_Z13k_arrive_waitILi3EEviPx", "u32, u64", 100},
			{"_Z13k_arrive_waitILi4EEviPx", "u32, u64", 108},
		}},
		{"hwprobe.ptx", []entryWant{
			{"_Z13p_late_expectPx", "u64", 63},
			{"_Z5p_oob14CUtensorMap_stjiiPx", "align128 b8[128], u32, u32, u32, u64", 35},
			{"_Z17p_trywait_timeoutjPx", "u32, u64", 139},
			{"_Z15p_smem_conflictiiPx", "u32, u32, u64", 97},
			{"_Z5p_aluifiPx", "u32, f32, u32, u64", 99},
			{"_Z8p_gchasePKjiPx", "u64, u32, u64", 238},
			{"_Z9p_barsynciPx", "u32, u64", 32},
			{"_Z19p_arrive_throughputILb0EEvPx", "u64", 81},
			{"_Z19p_arrive_throughputILb1EEvPx", "u64", 305},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			m := parseCalib(t, tt.file)
			if m.Version != "9.0" || !reflect.DeepEqual(m.Target, []string{"sm_90a"}) || m.AddressSize != 64 {
				t.Errorf("header = %q %q %d", m.Version, m.Target, m.AddressSize)
			}
			if sm := m.Decl("sm"); sm == nil || sm.Linkage != "extern" || sm.Space != "shared" ||
				sm.Align != 1024 || sm.Type != "b8" || !reflect.DeepEqual(sm.Array, []int{-1}) {
				t.Errorf("extern smem decl = %+v", sm)
			}
			entries := m.Entries()
			if len(entries) != len(tt.entries) {
				t.Fatalf("%d entries, want %d", len(entries), len(tt.entries))
			}
			for i, w := range tt.entries {
				e := entries[i]
				if e.Name != w.name || m.Func(w.name) != e || !e.Entry || e.Linkage != "visible" {
					t.Errorf("entry %d = %s (entry=%v linkage=%q), want %s", i, e.Name, e.Entry, e.Linkage, w.name)
				}
				if got := sigs(e.Params); got != w.params {
					t.Errorf("%s params = %s, want %s", w.name, got, w.params)
				}
				for j, p := range e.Params {
					if want := w.name + "_param_" + strconv.Itoa(j); p.Name != want || p.Space != "param" {
						t.Errorf("%s param %d = %s %s, want param %s", w.name, j, p.Space, p.Name, want)
					}
				}
				if got := len(e.Instrs()); got != w.instrs {
					t.Errorf("%s has %d instructions, want %d", w.name, got, w.instrs)
				}
			}
		})
	}
}

func TestCalibrationOpcodes(t *testing.T) {
	set := map[string]bool{}
	for _, f := range []string{"microbench.ptx", "hwprobe.ptx"} {
		for _, e := range parseCalib(t, f).Funcs {
			for _, in := range e.Instrs() {
				set[in.Op] = true
			}
		}
	}
	var got []string
	for op := range set {
		got = append(got, op)
	}
	sort.Strings(got)
	want := strings.Fields("add and bar bra cp cvt cvta div fence fma ld mad max mbarrier mov mul ret selp setp shl shr st sub xor")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("opcodes = %v\nwant %v", got, want)
	}
}

// findInstr returns the first instruction of f whose String() starts with prefix.
func findInstr(t *testing.T, f *Func, prefix string) *Instr {
	t.Helper()
	for _, in := range f.Instrs() {
		if strings.HasPrefix(in.String(), prefix) {
			return in
		}
	}
	t.Fatalf("%s: no instruction %q", f.Name, prefix)
	return nil
}
