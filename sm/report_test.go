package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sim"
)

// runLimited runs prog over grid CTAs of threads each with the given report
// limits and returns the result and the SM.
func runLimited(t *testing.T, prog *isa.Program, threads, grid int, lim reportLimits) (*Result, *SM) {
	t.Helper()
	s, err := New(DefaultConfig(), sim.New(), &fakeMem{b: map[uint64]byte{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.limits = lim
	if prog.SharedStatic == 0 {
		prog.SharedStatic = 64
	}
	r, err := s.Run(&Launch{Prog: prog, Block: [3]int{threads, 1, 1}, Grid: [3]int{grid, 1, 1},
		Params: make([]byte, prog.ParamBytes), MaxCycles: 50_000_000})
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	return r, s
}

// totalPhases counts a barrier record's completed phases, listed or not.
func totalPhases(b BarrierReport) uint64 {
	n := b.Unlisted.Completed
	for _, p := range b.Phases {
		if p.Completed >= 0 {
			n++
		}
	}
	return n
}

// A barrier lists its first phases (up to the per-barrier limit and the
// launch's budget) and counts the others: the report holds a bounded
// number of phase records however many phases the kernel runs, and its
// totals still cover every phase.
func TestPhasesPastTheLimitsAreCountedNotListed(t *testing.T) {
	const iters = 40
	for _, tc := range []struct {
		name       string
		lim        reportLimits
		grid       int
		wantListed int // listed completed phases over all barrier records
	}{
		{"all listed within the limits", reportLimits{phases: 100, budget: 1000, ctas: 10, barriers: 10}, 1, iters},
		{"per-barrier limit", reportLimits{phases: 10, budget: 1000, ctas: 10, barriers: 10}, 1, 10},
		{"launch budget over two CTAs", reportLimits{phases: 100, budget: 50, ctas: 10, barriers: 10}, 2, 50},
		{"per-barrier limit and budget over three CTAs", reportLimits{phases: 20, budget: 45, ctas: 10, barriers: 10}, 3, 45},
		{"per-barrier limit below the budget over three CTAs", reportLimits{phases: 10, budget: 45, ctas: 10, barriers: 10}, 3, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := runLimited(t, arriveWaitLoop("converged", 64, iters), 64, tc.grid, tc.lim)
			if len(r.Barriers) != tc.grid {
				t.Fatalf("got %d barrier records, want %d", len(r.Barriers), tc.grid)
			}
			all := 0
			for i, b := range r.Barriers {
				listed := 0
				for _, p := range b.Phases {
					if p.Completed >= 0 {
						listed++
					}
				}
				all += listed
				if listed > tc.lim.phases {
					t.Errorf("barrier %d (CTA %d): %d phases listed, more than %d", i, b.CTA, listed, tc.lim.phases)
				}
				if got := totalPhases(b); got != iters {
					t.Errorf("barrier %d (CTA %d): %d phases counted in all, want %d", i, b.CTA, got, iters)
				}
				for k, p := range b.Phases {
					if p.Phase != uint64(k) {
						t.Errorf("barrier %d: listed phase %d is phase %d, want the first phases in order", i, k, p.Phase)
						break
					}
				}
				if b.Unlisted.Completed > 0 && (b.Unlisted.Arrivals != 64*b.Unlisted.Completed || b.Unlisted.Cycles == 0) {
					t.Errorf("barrier %d: unlisted totals %+v, want 64 arrivals a phase and their cycles", i, b.Unlisted)
				}
			}
			if all != tc.wantListed {
				t.Errorf("%d phases listed in all, want %d", all, tc.wantListed)
			}
		})
	}
}

// The barriers and warps of CTAs past the limit are folded: one barrier
// record per address and one warp record per warp of the block, whose
// counts add up to everything the folded CTAs did.
func TestCTAsPastTheLimitAreFolded(t *testing.T) {
	const iters, grid = 5, 7
	lim := reportLimits{phases: 100, budget: 1000, ctas: 3, barriers: 100}
	r, s := runLimited(t, arriveWaitLoop("converged", 64, iters), 64, grid, lim)
	if len(r.Barriers) != 4 {
		t.Fatalf("got %d barrier records, want 3 listed and 1 folded", len(r.Barriers))
	}
	for i, b := range r.Barriers[:3] {
		if b.CTA != i || b.CTAs != 1 || len(b.Phases) != iters {
			t.Errorf("record %d: CTA %d (%d CTAs) with %d phases, want CTA %d with %d", i, b.CTA, b.CTAs, len(b.Phases), i, iters)
		}
	}
	f := r.Barriers[3]
	if f.CTA != -1 || f.CTAs != grid-3 || len(f.Phases) != 0 || f.Unlisted.Completed != iters*(grid-3) || f.Name != "bar" {
		t.Errorf("folded record %+v, want CTA -1 standing for %d CTAs with %d phases counted", f, grid-3, iters*(grid-3))
	}
	listed, folded := 0, 0
	per := map[int]uint64{} // instructions of warp k of a listed CTA (every CTA runs the same)
	for _, w := range r.Warps {
		switch {
		case w.CTA >= 0:
			listed++
			per[w.InCTA] = w.Instructions
		case w.Warps != grid-3 || w.Warp != -1:
			t.Errorf("folded warp record %+v, want one for each of %d CTAs", w, grid-3)
		default:
			folded++
			if want := per[w.InCTA] * (grid - 3); w.Instructions != want {
				t.Errorf("folded warp %d issued %d instructions, want %d", w.InCTA, w.Instructions, want)
			}
		}
	}
	if listed != 3*2 || folded != 2 {
		t.Errorf("%d warp records listed and %d folded, want 6 and 2", listed, folded)
	}
	if len(s.barList) != 0 {
		t.Errorf("%d barriers of retired CTAs are still held", len(s.barList))
	}
}

// The bulk-group bookkeeping of a CTA's threads goes when the CTA exits, so
// a grid of CTAs that commit groups (waiting only for their sources to be
// read) leaves none behind, in the SM or in the copy engine.
func TestExitedCTAsLeaveNoBulkGroups(t *testing.T) {
	gm := memory.NewGlobal()
	dst, err := gm.Alloc(4096, 0, "dst")
	if err != nil {
		t.Fatal(err)
	}
	path, err := memory.NewHierarchy(memory.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(DefaultConfig(), sim.New(), gm, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AttachTMA(gm, path); err != nil {
		t.Fatal(err)
	}
	a := newAsm(4, 2)
	a.emit(setp(isa.CmpNe, isa.U32, 0, isa.Spec(isa.STidX), isa.Imm(0)))
	a.bra("out", isa.P(0))
	a.emit(isa.Instr{Op: isa.OpBulkCopy, Space: isa.Global, Space2: isa.Shared,
		Ops: []isa.Operand{isa.Imm(dst), isa.Imm(0), isa.Imm(16)}})
	a.emit(isa.Instr{Op: isa.OpBulkCommit})
	a.emit(isa.Instr{Op: isa.OpBulkWait, Flags: isa.FRead, Ops: []isa.Operand{isa.Imm(0)}})
	a.label("out")
	a.emit(exit)
	p := a.done()
	p.SharedStatic = 64
	if _, err := s.Run(&Launch{Prog: p, Block: [3]int{64, 1, 1}, Grid: [3]int{5, 1, 1}, MaxCycles: 1_000_000}); err != nil {
		t.Fatal(err)
	}
	if n, m, g := len(s.commits), len(s.storeSrc), s.copy.(copyEngine).u.Groups(); n+m+g != 0 {
		t.Errorf("after the run: %d threads' commits, %d store sources, %d threads' groups in the copy engine; want none", n, m, g)
	}
}
