package compiler_test

import (
	"testing"

	"github.com/smsim/smsim/compiler"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sm"
)

// The compiler model's scheduling latencies (compiler.PtxasLatencies) are
// its own parameter, but where the machine has a fixed latency they are the
// machine's defaults: a refit of latency.<class> must decide whether ptxas's
// model follows, not drift from it silently. Global and local loads, whose
// machine latency the memory path decides, are the exception.
func TestCompilerLatenciesAreTheMachinesWhereItHasThem(t *testing.T) {
	cfg := sm.DefaultConfig()
	model := compiler.PtxasLatencies()
	for c := isa.Class(1); int(c) < isa.NumClasses; c++ {
		want := cfg.Pipes.Latency[c]
		if c == isa.ClassGlobal || c == isa.ClassLocal {
			want = compiler.PtxasLoadLatency
		}
		if got := model.Class[c]; got != want {
			t.Errorf("compiler latency of class %s is %d, want %d (latency.%s)", c, got, want, c)
		}
	}
	if model.Pred != cfg.Ptxas.PredLatency {
		t.Errorf("compiler predicate latency %d, want latency.pred %d", model.Pred, cfg.Ptxas.PredLatency)
	}
}
