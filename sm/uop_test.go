package sm

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// An instruction's uop reads its operands on the datapath latePaths gives
// it, which drops the forwarding test where no operand can arrive late: the
// readiness of its scoreboard entries is the same as on its own pipe's
// datapath for any scoreboard a program of those pipes can produce
// (entries of pathNone or of a datapath of a pipe some instruction of it
// issues to, the second pipe of a pair included), and any forward.
func TestLatePathsKeepEveryLateOperand(t *testing.T) {
	rng := rand.New(rand.NewSource(32))
	for _, fwd := range []int{0, 1, 3} {
		for _, n := range []int{1, 2, 4, 12} {
			t.Run(fmt.Sprintf("forward %d, %d instructions", fwd, n), func(t *testing.T) {
				for prog := 0; prog < 300; prog++ {
					cfg := DefaultConfig()
					cfg.Pipes.MUFUForward = fwd
					pipes := make([]pipePair, n)
					for i := range pipes {
						pipes[i] = pipePair{int16(rng.Intn(numPipes)), -1}
						if rng.Intn(3) == 0 {
							pipes[i][1] = int16(rng.Intn(numPipes))
						}
					}
					late := latePaths(pipes, &cfg)
					paths := []uint8{pathNone}
					for _, pp := range pipes {
						for _, p := range pp {
							if p >= 0 {
								paths = append(paths, pipePaths[p])
							}
						}
					}
					b := newRegBoard(8, 0)
					for trial := 0; trial < 20; trial++ {
						for e := range b.ent {
							b.ent[e] = sbEntry{at: sim.Cycle(rng.Intn(12)), why: Reason(rng.Intn(int(numReasons))),
								path: paths[rng.Intn(len(paths))]}
							if rng.Intn(10) == 0 {
								b.ent[e].at = sim.Never
							}
						}
						entries := rng.Perm(len(b.ent))[:1+rng.Intn(len(b.ent))]
						deps := make([]int32, len(entries))
						for k, e := range entries {
							deps[k] = int32(e)
						}
						for _, pp := range pipes {
							own := datapath(int(pp[0]))
							wr, wwhy := b.readyAt(deps, own, sim.Cycle(fwd))
							gr, gwhy := b.readyAt(deps, late[own], sim.Cycle(fwd))
							if gr != wr || gwhy != wwhy {
								t.Fatalf("pipes %v, forward %d, instruction on %v (path %d, read as %d), board %v, entries %v: ready %d (%v), want %d (%v)",
									pipes, fwd, pp, own, late[own], b.ent, deps, gr, gwhy, wr, wwhy)
							}
						}
					}
				}
			})
		}
	}
}

// A program with no MUFU instruction reads its arithmetic operands without
// the forwarding test, and one with MUFU instructions keeps it on both
// sides.
func TestLatePathsOfPrograms(t *testing.T) {
	cfg := DefaultConfig()
	if cfg.Pipes.MUFUForward == 0 {
		t.Fatal("the default configuration forwards MUFU results late")
	}
	arith := []pipePair{{int16(pipeFMALite), int16(pipeFMAHeavy)}, {int16(pipeInt), -1}}
	if got := latePaths(arith, &cfg); got[pathArith] != pathNone {
		t.Errorf("FMA and integer pipes alone: arithmetic read as %d, want pathNone", got[pathArith])
	}
	mixed := append(arith, pipePair{int16(isa.ClassSFU), -1})
	if got := latePaths(mixed, &cfg); got[pathArith] != pathArith || got[pathMUFU] != pathMUFU {
		t.Errorf("with MUFU: read as %v, want each datapath its own", got)
	}
	cfg.Pipes.MUFUForward = 0
	if got := latePaths(mixed, &cfg); got != [3]uint8{} {
		t.Errorf("no forward: read as %v, want pathNone throughout", got)
	}
}
