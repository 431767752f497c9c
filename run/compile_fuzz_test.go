package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/frontend/ptx"
	"github.com/smsim/smsim/isa"
)

// FuzzCompilePTX runs the PTX frontend and every ptxas transformation
// (applyPTXPasses) on every kernel of arbitrary input: none may panic, and what they leave must
// still be a program a warp can run — it ends in an ending instruction and
// every direct branch targets an instruction of it.
func FuzzCompilePTX(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("..", "calibration", "h200", "*.ptx"))
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		parts := strings.Split(string(src), "\n.visible .entry")
		head := parts[0]
		for _, k := range parts[1:] {
			if len(k) < 6000 { // whole small kernels with the file's declarations
				f.Add([]byte(head + "\n.visible .entry" + k))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		u, err := ptx.Load("fuzz.ptx", src)
		if err != nil {
			return
		}
		for _, f := range u.Kernels() {
			p, err := u.Lower(f)
			if err != nil {
				continue
			}
			applyPTXPasses(p)
			n := int32(len(p.Instrs))
			if n == 0 {
				t.Fatalf("%s: no instructions", p.Name)
			}
			if last := p.Instrs[n-1]; !last.Op.Ends() || last.Guard.Kind != isa.KNone {
				t.Fatalf("%s can run past its last instruction %s", p.Name, &last)
			}
			for i := range p.Instrs {
				if in := &p.Instrs[i]; in.Op == isa.OpBra && (in.Target < 0 || in.Target >= n) {
					t.Fatalf("%s: instruction %d branches to %d of %d", p.Name, i, in.Target, n)
				}
			}
		}
	})
}
