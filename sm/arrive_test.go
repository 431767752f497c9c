package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// arriveWaitLoop builds microbench.cu's k_arrive_wait: thread 0 inits the
// barrier for all threads, then every warp does iters rounds of
// "arrive (mode); wait parity".
//
// Registers: r0 = iteration, r1 = parity, r2 = token, r3 = lane loop.
func arriveWaitLoop(mode string, threads, iters int) *isa.Program {
	a := newAsm(8, 4)
	bar := isa.Addr(-1, 0)
	a.emit(setp(isa.CmpEq, isa.U32, 0, isa.Spec(isa.STidX), isa.Imm(0)))
	a.bra("skipinit", isa.NotP(0))
	a.emit(mbar(isa.OpMbarInit, 0, 0, bar, isa.Imm(uint64(threads))))
	a.label("skipinit")
	a.emit(barSyncI)
	a.label("loop")
	switch mode {
	case "converged":
		a.emit(mbar(isa.OpMbarArrive, 0, 1, isa.R(2), bar))
	case "half":
		a.emit(setp(isa.CmpLt, isa.U32, 1, isa.Spec(isa.SLaneID), isa.Imm(16)))
		a.bra("hi", isa.NotP(1))
		a.emit(mbar(isa.OpMbarArrive, 0, 1, isa.R(2), bar))
		a.bra("join", isa.Operand{})
		a.label("hi")
		a.emit(mbar(isa.OpMbarArrive, 0, 1, isa.R(2), bar))
		a.label("join")
	case "lanes":
		a.emit(alu(isa.OpMov, isa.U32, isa.R(3), isa.Imm(0)))
		a.label("lane")
		a.emit(setp(isa.CmpNe, isa.U32, 1, isa.Spec(isa.SLaneID), isa.R(3)))
		a.bra("skip", isa.P(1))
		a.emit(mbar(isa.OpMbarArrive, 0, 1, isa.R(2), bar))
		a.label("skip")
		a.emit(syncAll)
		a.emit(alu(isa.OpAdd, isa.U32, isa.R(3), isa.R(3), isa.Imm(1)))
		a.emit(setp(isa.CmpLt, isa.U32, 1, isa.R(3), isa.Imm(32)))
		a.bra("lane", isa.P(1))
	}
	a.label("wait")
	a.emit(mbar(isa.OpMbarTryWait, isa.FParity, 1, isa.P(2), bar, isa.R(1)))
	a.bra("wait", isa.NotP(2))
	a.emit(alu(isa.OpXor, isa.B32, isa.R(1), isa.R(1), isa.Imm(1)))
	a.emit(alu(isa.OpAdd, isa.U32, isa.R(0), isa.R(0), isa.Imm(1)))
	a.emit(setp(isa.CmpLt, isa.U32, 3, isa.R(0), isa.Imm(uint64(iters))))
	a.bra("loop", isa.P(3))
	a.emit(exit)
	p := a.done()
	p.Symbols = []isa.Symbol{{Name: "bar", Space: isa.Shared, Offset: 0, Size: 8}}
	return p
}

func TestEntanglementUpdatesPerPhase(t *testing.T) {
	var cycles []uint64
	for _, tc := range []struct {
		mode    string
		updates uint64
	}{{"converged", 1}, {"half", 2}, {"lanes", 32}} {
		t.Run(tc.mode, func(t *testing.T) {
			r := mustRun(t, arriveWaitLoop(tc.mode, 32, 20), 32, nil)
			if len(r.Barriers) != 1 {
				t.Fatalf("got %d barriers, want 1", len(r.Barriers))
			}
			b := r.Barriers[0]
			if len(b.Phases) != 20 {
				t.Fatalf("got %d phases, want 20: %s", len(b.Phases), fmtPhases(b))
			}
			for _, p := range b.Phases {
				if p.Updates != tc.updates || p.Arrivals != 32 || p.CompletedBy != "arrivals" {
					t.Fatalf("phase %d: got %d updates %d arrivals by %q, want %d, 32, arrivals", p.Phase, p.Updates, p.Arrivals, p.CompletedBy, tc.updates)
				}
			}
			cycles = append(cycles, r.Cycles)
			t.Logf("%s: %d cycles, %.1f per phase", tc.mode, r.Cycles, float64(r.Cycles)/20)
		})
	}
	if len(cycles) == 3 && !(cycles[0] < cycles[1] && cycles[1] < cycles[2]) {
		t.Errorf("got cycles %v, want converged < half < lanes", cycles)
	}
}
