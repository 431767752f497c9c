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
	if len(seen) != 29 {
		t.Errorf("got %d passes, want 29", len(seen))
	}
}

func TestSMSKernelsTakeThePipelineLessTheDeferredPasses(t *testing.T) {
	names := map[string]bool{}
	for _, ps := range Pipeline() {
		names[ps.Name] = true
	}
	for name := range smsDeferred {
		if !names[name] {
			t.Errorf("deferred pass %s is not in the pipeline", name)
		}
	}
	sms := Passes(SMS)
	if got, want := len(sms), len(Pipeline())-len(smsDeferred); got != want {
		t.Errorf("got %d passes for .sms kernels, want %d", got, want)
	}
	for _, ps := range sms {
		if smsDeferred[ps.Name] {
			t.Errorf("a .sms kernel takes deferred pass %s", ps.Name)
		}
	}
	if got := len(Passes(PTX)); got != len(Pipeline()) {
		t.Errorf("got %d passes for PTX kernels, want all %d", got, len(Pipeline()))
	}
}
