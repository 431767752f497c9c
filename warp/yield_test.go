package warp

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// stepTo runs w as runSASS does (cbar_test.go) until its current split
// stands at pc.
func stepTo(t *testing.T, w *Warp, pc int32) {
	t.Helper()
	for steps := 0; ; steps++ {
		s := w.Current()
		if s == nil || steps > 100 {
			t.Fatalf("never reached pc %d; splits %+v", pc, w.Splits())
		}
		if s.PC == pc {
			return
		}
		in := &w.Prog.Instrs[s.PC]
		stepSASS(t, w, in, w.GuardMask(in, s.Mask))
	}
}

var yieldI = isa.Instr{Op: isa.OpYield}

func TestYieldOfAWholeWarpHandsToNoOne(t *testing.T) {
	p := mk(add(0, 1), yieldI, exitI)
	w := New(0, 0, p, FullMask, Env{})
	stepTo(t, w, 1)
	if st, ok := w.Yield(); ok {
		t.Errorf("a warp of one path yielded to a %s path", st)
	}
	if s := w.Current(); s == nil || s.PC != 2 || s.Mask != FullMask {
		t.Errorf("after the yield: %+v, want the whole warp at pc 2", s)
	}
}

func TestYieldHandsToAPathParkedAtAWarpSync(t *testing.T) {
	// 0 setp p0 = lane < 16; 1 @!p0 bra 4; 2 yield; 3 exit; 4 bar.warp.sync; 5 exit
	sync := isa.Instr{Op: isa.OpBarWarpSync, Ops: []isa.Operand{isa.Imm(0xffffffff)}}
	p := mk(setpLaneLt(0, 16), bra(4, isa.NotP(0)), yieldI, exitI, sync, exitI)
	w := New(0, 0, p, FullMask, Env{})
	stepTo(t, w, 4)
	w.WarpSync(FullMask) // lanes 16-31 park
	stepTo(t, w, 2)
	st, ok := w.Yield()
	if !ok || st != AtWarpSync {
		t.Fatalf("yielded to %s (%v), want the path parked at the warp sync", st, ok)
	}
	if s := w.Current(); s == nil || s.PC != 3 || s.Mask != 0x0000ffff {
		t.Errorf("after the yield: %+v, want lanes 0-15 going on at pc 3 (the parked path hands back)", s)
	}
}

func TestYieldSwitchesToAnotherRunnablePath(t *testing.T) {
	// 0 setp p0 = lane < 16; 1 @!p0 bra 4; 2 yield; 3 exit; 4 bra 4 (a spin: its
	// backward branch lets the other path run); 5 exit
	p := mk(setpLaneLt(0, 16), bra(4, isa.NotP(0)), yieldI, exitI, bra(4, isa.Operand{}), exitI)
	p.ExplicitReconv = true // SASS: the paths meet only where the program says
	w := New(0, 0, p, FullMask, Env{})
	stepTo(t, w, 2)
	first := w.Current().Mask
	st, ok := w.Yield()
	if !ok || st != Runnable {
		t.Fatalf("yielded to %s (%v), want the other runnable path", st, ok)
	}
	if s := w.Current(); s == nil || s.Mask == first || s.Mask|first != FullMask {
		t.Errorf("after the yield the current path is %+v, want the other half of the warp", s)
	}
}

func TestYieldPassesOverExitedLanes(t *testing.T) {
	// 0 setp p0 = lane < 16; 1 @!p0 exit; 2 yield; 3 exit
	p := mk(setpLaneLt(0, 16), isa.Instr{Op: isa.OpExit, Guard: isa.NotP(0)}, yieldI, exitI)
	w := New(0, 0, p, FullMask, Env{})
	stepTo(t, w, 2)
	if st, ok := w.Yield(); ok {
		t.Errorf("yielded to a %s path, want none (the other lanes have exited)", st)
	}
}

func TestParkedAtWarpSyncSeesOnlyOtherPaths(t *testing.T) {
	sync := isa.Instr{Op: isa.OpBarWarpSync, Ops: []isa.Operand{isa.Imm(0xffffffff)}}
	p := mk(setpLaneLt(0, 16), bra(4, isa.NotP(0)), add(0, 1), exitI, sync, exitI)
	w := New(0, 0, p, FullMask, Env{})
	if w.ParkedAtWarpSync() {
		t.Fatal("a whole warp has no parked path")
	}
	stepTo(t, w, 4)
	w.WarpSync(FullMask)
	stepTo(t, w, 2)
	if !w.ParkedAtWarpSync() {
		t.Error("lanes 16-31 wait at the warp sync, but the running path does not see them")
	}
}
