package sass

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// encWords matches the encoding comments of a cuobjdump listing: the low word after the ';' and
// the line of the high word.
var encWords = regexp.MustCompile(`(?m)\s*/\* 0x[0-9a-f]{16} \*/$`)

// withoutOneEncoding removes the encoding of the instruction on line n (1-based) of a cuobjdump
// listing: the low word at the end of the line and the high word's line after it.
func withoutOneEncoding(t *testing.T, src []byte, n int) []byte {
	t.Helper()
	lines := strings.Split(string(src), "\n")
	if n < 1 || n >= len(lines) || !encWords.MatchString(lines[n-1]) || !encWords.MatchString(lines[n]) {
		t.Fatalf("line %d is not an instruction with its encoding", n)
	}
	lines[n-1] = encWords.ReplaceAllString(lines[n-1], "")
	return []byte(strings.Join(append(lines[:n], lines[n+1:]...), "\n"))
}

// TestListingWithoutEncodingsNeedsTheCubin: the control bits that time a SASS program are in its
// instructions' encodings. A listing printed without them (cuobjdump text stripped of its hex
// words, nvdisasm -c) runs with its cubin, which gives every word; without the cubin it is refused
// at the first instruction lacking its encoding, with how to get the words, rather than run with
// every stall count 0 and no scoreboard. LoadFunctional takes it for functional checks only.
func TestListingWithoutEncodingsNeedsTheCubin(t *testing.T) {
	const listing = "testdata/cubin/attrs.sass"
	full, cubin := readFile(t, listing), readFile(t, "testdata/cubin/attrs.cubin")
	stripped := encWords.ReplaceAll(full, nil)
	probe := "../../calibration/h200/wgmma_probe.sass" // committed without encodings, with its cubin
	probeSrc, probeCubin := readFile(t, probe), readFile(t, strings.TrimSuffix(probe, ".sass")+".cubin")
	f, err := Parse(listing, full)
	if err != nil {
		t.Fatal(err)
	}
	ref := map[string]Control{} // "FUNCTION 0xADDR": the control bits of its encoding
	for _, fn := range f.Functions {
		for _, in := range fn.Instructions {
			ref[fmt.Sprintf("%s 0x%x", fn.Name, in.Addr)] = in.Ctrl
		}
	}
	fix := "dump the cubin with `cuobjdump -sass attrs.cubin`, which prints every instruction's encoding, or put the cubin beside the listing as attrs.cubin"
	for _, c := range []struct {
		name       string
		file       string
		src, cubin []byte
		functional bool
		want       string // the error's message starts so; "" when the listing loads
		wantLine   int    // the error's line
	}{
		{name: "cuobjdump without encodings", file: listing, src: stripped, wantLine: 7,
			want: "the listing has no instruction encodings (LDC at 0x0 of attr_call is its first instruction); smsim times SASS by the control bits"},
		{name: "nvdisasm -c", file: "testdata/cubin/attrs.nvdisasm", src: readFile(t, "testdata/cubin/attrs.nvdisasm"), wantLine: 15,
			want: "the listing has no instruction encodings (LDC at 0x0 of attr_call is its first instruction)"},
		{name: "one instruction without its encoding", file: listing, src: withoutOneEncoding(t, full, 9), wantLine: 9,
			want: "S2R at 0x10 of attr_call has no encoding, unlike other instructions of the listing; smsim times SASS"},
		{name: "the last instruction without its encoding", file: listing, src: withoutOneEncoding(t, full, 367), wantLine: 367,
			want: "NOP at 0x2f0 of attr_cluster has no encoding, unlike other instructions of the listing"},
		{name: "wgmma_probe without its cubin", file: probe, src: probeSrc, wantLine: 5,
			want: "the listing has no instruction encodings (LDC at 0x0 of tm_s8_s32_n128_ss is its first instruction)"},
		{name: "with its encodings", file: listing, src: full},
		{name: "without encodings, with the cubin", file: listing, src: stripped, cubin: cubin},
		{name: "one without its encoding, with the cubin", file: listing, src: withoutOneEncoding(t, full, 9), cubin: cubin},
		{name: "nvdisasm -c with the cubin", file: "testdata/cubin/attrs.nvdisasm", src: readFile(t, "testdata/cubin/attrs.nvdisasm"), cubin: cubin},
		{name: "wgmma_probe with its cubin", file: probe, src: probeSrc, cubin: probeCubin},
		{name: "functional only", file: listing, src: stripped, functional: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var m *Module
			var err error
			if c.functional {
				m, err = LoadFunctional(c.file, c.src)
			} else {
				m, err = Load(c.file, c.src, c.cubin)
			}
			if c.want != "" {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("got %v, want a located error", err)
				}
				if e.File != c.file || e.Line != c.wantLine || e.Col < 20 || !strings.HasPrefix(e.Msg, c.want) {
					t.Errorf("got %v\nwant %s:%d:COL: %s...", err, c.file, c.wantLine, c.want)
				}
				if c.file == listing && !strings.HasSuffix(e.Msg, fix) {
					t.Errorf("got %q, want it to end %q", e.Msg, fix)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// The schedule is the encodings': the listing's own or the cubin's, the same words;
			// none for LoadFunctional.
			for _, fn := range m.File.Functions {
				for _, in := range fn.Instructions {
					want, ok := ref[fmt.Sprintf("%s 0x%x", fn.Name, in.Addr)]
					if c.functional {
						want, ok = Control{WriteSB: NoScoreboard, ReadSB: NoScoreboard}, true
					}
					if ok && in.Ctrl != want {
						t.Fatalf("%s 0x%x: ctrl %+v, want %+v", fn.Name, in.Addr, in.Ctrl, want)
					}
				}
			}
			if c.cubin == nil || c.file != listing && c.file != probe {
				return // attrs' kernels are extern "C" (their parameters need the cubin); nvdisasm's RETs do not lower
			}
			for _, fn := range m.Kernels() {
				if _, err := m.Lower(fn); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestStrippedListingsTakeTheCubinsWords: every committed cuobjdump listing of the lowering corpus,
// stripped of its encodings, loads with its cubin to the same control bits, and is refused without.
func TestStrippedListingsTakeTheCubinsWords(t *testing.T) {
	for _, path := range loweringCorpus(t)[:4] {
		src := readFile(t, path)
		cb := readFile(t, strings.TrimSuffix(path, ".sass")+".cubin")
		want, err := Load(path, src, nil)
		if err != nil {
			t.Fatal(err)
		}
		stripped := encWords.ReplaceAll(src, nil)
		if bytes.Equal(stripped, src) {
			t.Fatalf("%s: no encodings to strip", path)
		}
		if _, err := Load(path, stripped, nil); err == nil || !strings.Contains(err.Error(), "has no instruction encodings") {
			t.Errorf("%s stripped, without its cubin: got %v, want the missing-encodings error", path, err)
		}
		got, err := Load(path, stripped, cb)
		if err != nil {
			t.Fatal(err)
		}
		for i, fn := range got.File.Functions {
			for j, in := range fn.Instructions {
				if w := want.File.Functions[i].Instructions[j]; in.Ctrl != w.Ctrl || in.Enc != w.Enc {
					t.Fatalf("%s %s 0x%x: ctrl %+v, want %+v", path, fn.Name, in.Addr, in.Ctrl, w.Ctrl)
				}
			}
		}
	}
}
