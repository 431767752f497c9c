package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// apply runs one pass on p with the default options.
func apply(ps Pass, p *isa.Program) {
	o := DefaultOptions()
	ps.Run(p, &o)
}

func TestPipelineNamesEveryPassOnceWithItsDoc(t *testing.T) {
	seen := map[string]bool{}
	for _, ps := range Pipeline() {
		if ps.Name == "" || ps.Doc == "" || ps.Run == nil {
			t.Errorf("pass %q lacks a name, a doc or a function", ps.Name)
		}
		if seen[ps.Name] {
			t.Errorf("pass %s is in the pipeline twice", ps.Name)
		}
		seen[ps.Name] = true
	}
	if len(seen) != 26 {
		t.Errorf("got %d passes, want 26", len(seen))
	}
}
