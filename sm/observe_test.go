package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// runObserved runs prog (PTX-like: no control bits) on a fresh SM with
// threads threads and returns the report and every issue the observer saw.
func runObserved(t *testing.T, prog *isa.Program, threads int, cfg *Config) (*Result, *ctrlObs) {
	t.Helper()
	c := DefaultConfig()
	if cfg != nil {
		c = *cfg
	}
	s, err := New(c, sim.New(), &fakeMem{b: map[uint64]byte{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	obs := &ctrlObs{s: s}
	s.SetObserver(obs)
	if prog.SharedStatic == 0 {
		prog.SharedStatic = 64
	}
	r, err := s.Run(&Launch{Prog: prog, Block: [3]int{threads, 1, 1}, Grid: [3]int{1, 1, 1},
		Params: make([]byte, prog.ParamBytes), MaxCycles: 1_000_000})
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	return r, obs
}
