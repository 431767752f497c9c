package run

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The frontends are found by extension, case-insensitively; a file of any
// other extension is an input error naming the ones there are.
func TestFrontendByExtension(t *testing.T) {
	if got := Extensions(); !slices.Equal(got, []string{"cubin", "ptx", "sass", "sms"}) {
		t.Errorf("extensions %v, want [cubin ptx sass sms]", got)
	}
	src, err := Load(filepath.Join("testdata", "names.ptx"))
	if err != nil || len(src.Kernels) != 4 {
		t.Fatalf("names.ptx: %v", err)
	}
	p := filepath.Join(t.TempDir(), "K.SMS")
	if err := writeTestFile(p, "kernel k\nblock 32\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err != nil {
		t.Errorf("an upper-case .SMS: %v", err)
	}
	q := filepath.Join(t.TempDir(), "k.cu")
	if err := writeTestFile(q, "__global__ void k() {}\n"); err != nil {
		t.Fatal(err)
	}
	_, err = Load(q)
	var in *InputError
	if !errors.As(err, &in) || !strings.HasSuffix(err.Error(), `: unknown input type ".cu" (want .cubin, .ptx, .sass or .sms)`) {
		t.Errorf("k.cu: got %v, want an input error naming the frontends' extensions", err)
	}
}
