package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// pollLoop: thread 0 initialises a barrier for one arrival and arrives;
// then every warp polls the phase with try_wait.parity polls times, most of
// them after it completed.
func pollLoop(polls int) *isa.Program {
	a := newAsm(4, 4)
	bar := isa.Addr(-1, 0)
	a.emit(setp(isa.CmpEq, isa.U32, 0, isa.Spec(isa.STidX), isa.Imm(0)))
	a.bra("skipinit", isa.NotP(0))
	a.emit(mbar(isa.OpMbarInit, 0, 0, bar, isa.Imm(1)))
	a.label("skipinit")
	a.emit(barSyncI)
	a.bra("skiparrive", isa.NotP(0))
	a.emit(mbar(isa.OpMbarArrive, 0, 1, isa.R(2), bar))
	a.label("skiparrive")
	a.emit(alu(isa.OpMov, isa.U32, isa.R(0), isa.Imm(0)))
	a.label("poll")
	a.emit(mbar(isa.OpMbarTryWait, isa.FParity, 1, isa.P(2), bar, isa.Imm(0)))
	a.emit(alu(isa.OpAdd, isa.U32, isa.R(0), isa.R(0), isa.Imm(1)))
	a.emit(setp(isa.CmpLt, isa.U32, 3, isa.R(0), isa.Imm(uint64(polls))))
	a.bra("poll", isa.P(3))
	a.emit(exit)
	p := a.done()
	p.Symbols = []isa.Symbol{{Name: "bar", Space: isa.Shared, Offset: 0, Size: 8}}
	return p
}

// A warp's wait for a phase is one record however often the warp polls the
// phase after it completed: memory does not grow with the polls.
func TestPollsOfACompletedPhaseRecordOneWaitPerWarp(t *testing.T) {
	for _, tc := range []struct {
		name  string
		polls int
	}{{"10 polls", 10}, {"1000 polls", 1000}, {"20000 polls", 20000}} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustRun(t, pollLoop(tc.polls), 128, nil)
			if len(r.Barriers) != 1 || len(r.Barriers[0].Phases) == 0 {
				t.Fatalf("got barriers %+v", r.Barriers)
			}
			waits := r.Barriers[0].Phases[0].Waits
			if len(waits) > 4 {
				t.Fatalf("%d waits recorded for 4 warps", len(waits))
			}
			seen := map[int]bool{}
			for _, w := range waits {
				if seen[w.Warp] {
					t.Errorf("warp %d has more than one wait for phase 0: %v", w.Warp, waits)
				}
				seen[w.Warp] = true
			}
		})
	}
}
