package warp

import (
	"fmt"
	"testing"

	"github.com/smsim/smsim/isa"
)

// runSASS interprets a SASS-shaped program on one warp until every lane
// exits, as the SM would: convergence barriers, warp syncs, branches,
// exits and ALU operations. It returns the (pc, mask) of each issue.
func runSASS(t *testing.T, w *Warp) []string {
	t.Helper()
	prog := w.Prog
	var trace []string
	for steps := 0; !w.Done(); steps++ {
		if steps > 10000 {
			t.Fatalf("no progress; trace %v", trace[max(0, len(trace)-20):])
		}
		s := w.Current()
		if s == nil {
			t.Fatalf("no runnable split; splits %+v", w.Splits())
		}
		in := &prog.Instrs[s.PC]
		mask := w.GuardMask(in, s.Mask)
		trace = append(trace, fmt.Sprintf("%d:%08x", s.PC, s.Mask))
		stepSASS(t, w, in, mask)
	}
	return trace
}

// stepSASS executes in for the lanes of mask as runSASS does.
func stepSASS(t *testing.T, w *Warp, in *isa.Instr, mask uint32) {
	t.Helper()
	switch in.Op {
	case isa.OpBra:
		w.Branch(in, mask)
	case isa.OpExit:
		w.Exit(mask)
	case isa.OpBarWarpSync:
		w.WarpSync(uint32(w.Scalar(in.Src(0), mask, 0)))
	case isa.OpBssy:
		w.Advance()
		w.AddToBarrier(int(in.Src(0).Imm), mask)
	case isa.OpBsync:
		w.Bsync(int(in.Src(0).Imm))
	case isa.OpBreak:
		w.Advance()
		w.Break(int(in.Src(0).Imm), mask)
	default:
		if err := w.ExecALU(in, mask, 0); err != nil {
			t.Fatal(err)
		}
		w.Advance()
	}
}

func laneLt(p, n int) isa.Instr {
	return isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(p), isa.Spec(isa.SLaneID), isa.Imm(uint64(n))}}
}

func addImm(r int, v uint64) isa.Instr {
	return isa.Instr{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(r), isa.R(r), isa.Imm(v)}}
}

func jmp(target int32, guard isa.Operand) isa.Instr {
	return isa.Instr{Op: isa.OpBra, Target: target, Reconv: isa.NoReconv, Guard: guard}
}

func barOp(op isa.Op, b uint64) isa.Instr { return isa.Instr{Op: op, Ops: []isa.Operand{isa.Imm(b)}} }

// An if/else under BSSY B0 / BSYNC B0 runs as two paths and leaves the
// BSYNC as one.
func TestBsyncReconvergesAnIfElse(t *testing.T) {
	w := sassWarp(
		barOp(isa.OpBssy, 0),  // 0
		laneLt(0, 8),          // 1
		jmp(5, isa.P(0)),      // 2
		addImm(0, 1),          // 3  lanes 8..31
		jmp(6, isa.Operand{}), // 4
		addImm(0, 2),          // 5  lanes 0..7
		barOp(isa.OpBsync, 0), // 6
		addImm(0, 10),         // 7  all lanes, once
		isa.Instr{Op: isa.OpExit},
	)
	trace := runSASS(t, w)
	n := 0
	for _, e := range trace {
		if e == "7:ffffffff" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the instruction after BSYNC issued %d times with every lane, want once; trace %v", n, trace)
	}
	if w.Reg(0)[0] != 12 || w.Reg(0)[31] != 11 {
		t.Errorf("r0 lanes 0, 31 = %d, %d; want 12, 11", w.Reg(0)[0], w.Reg(0)[31])
	}
}

// Lane 0 spins in a loop while the others wait at the BSYNC: the waiting
// path does not keep the spinning one from running (no deadlock), and
// they meet at the BSYNC.
func TestBsyncWaitsForASpinningLane(t *testing.T) {
	w := sassWarp(
		barOp(isa.OpBssy, 0), // 0
		laneLt(0, 1),         // 1
		jmp(6, isa.NotP(0)),  // 2: lanes 1..31 skip the loop
		addImm(1, 1),         // 3: lane 0: r1++
		isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(1), isa.R(1), isa.Imm(50)}}, // 4
		jmp(3, isa.P(1)),      // 5: loop back 50 times
		barOp(isa.OpBsync, 0), // 6
		isa.Instr{Op: isa.OpExit},
	)
	trace := runSASS(t, w)
	if w.Reg(1)[0] != 50 || trace[len(trace)-1] != "7:ffffffff" {
		t.Errorf("r1 = %d, last issue %s; want 50 and the exit with every lane", w.Reg(1)[0], trace[len(trace)-1])
	}
}

// Lanes that leave a loop early with BREAK B0 are no longer waited for at
// the loop's BSYNC B0; lanes that exit are not either.
func TestBreakAndExitLeaveTheBarrier(t *testing.T) {
	w := sassWarp(
		barOp(isa.OpBssy, 0), // 0
		laneLt(0, 4),         // 1
		isa.Instr{Op: isa.OpBreak, Ops: []isa.Operand{isa.Imm(0)}, Guard: isa.P(0)}, // 2: lanes 0..3 leave B0
		jmp(8, isa.P(0)), // 3: ... and jump past the BSYNC
		laneLt(1, 8),     // 4
		isa.Instr{Op: isa.OpExit, Guard: isa.P(1)}, // 5: lanes 4..7 exit
		barOp(isa.OpBsync, 0),                      // 6: lanes 8..31 meet here without waiting for 0..7
		addImm(0, 1),                               // 7
		barOp(isa.OpBarWarpSync, 0),                // 8: placeholder replaced below
		isa.Instr{Op: isa.OpExit},                  // 9
	)
	w.Prog.Instrs[8] = isa.Instr{Op: isa.OpBarWarpSync, Ops: []isa.Operand{isa.Imm(0xffffff0f)}}
	trace := runSASS(t, w)
	found := false
	for _, e := range trace {
		if e == "7:ffffff00" {
			found = true
		}
	}
	if !found || w.Reg(0)[8] != 1 || w.Reg(0)[0] != 0 {
		t.Errorf("want lanes 8..31 past the BSYNC together; trace %v", trace)
	}
}

// WARPSYNC releases the lanes of its mask once all of them reach a
// WARPSYNC of the same mask: a path at another warp sync does not count.
func TestWarpsyncWaitsForTheSameMask(t *testing.T) {
	full := isa.Instr{Op: isa.OpBarWarpSync, Ops: []isa.Operand{isa.Imm(0xffffffff)}}
	w := sassWarp(
		laneLt(0, 20),       // 0
		jmp(4, isa.NotP(0)), // 1: lanes 20..31 go to the full sync
		isa.Instr{Op: isa.OpBarWarpSync, Ops: []isa.Operand{isa.Imm(0xfffff)}}, // 2: lanes 0..19 among themselves
		addImm(0, 1), // 3
		full,         // 4
		isa.Instr{Op: isa.OpSVote, Mode: isa.SVoteAny, NDst: 2, Ops: []isa.Operand{isa.R(1), isa.Sink(), isa.Imm(1)}}, // 5: ballot
		isa.Instr{Op: isa.OpExit},
	)
	runSASS(t, w)
	if got := w.Reg(1)[0]; got != 0xffffffff {
		t.Errorf("ballot after WARPSYNC.ALL = %#x, want every lane (the paths met there)", got)
	}
}

// Jump sends lanes to their own targets (RET, BRX), as separate paths
// that a later BSYNC joins.
func TestJumpToPerLaneTargets(t *testing.T) {
	w := sassWarp(
		barOp(isa.OpBssy, 0), // 0
		isa.Instr{Op: isa.OpNop},
		addImm(0, 1), // 2
		addImm(0, 2), // 3
		barOp(isa.OpBsync, 0),
		isa.Instr{Op: isa.OpExit},
	)
	var tgt [Lanes]int32
	for l := range tgt {
		tgt[l] = int32(2 + l%2)
	}
	w.Advance() // past the BSSY, by hand to set B0
	w.SetBarrier(0, FullMask)
	w.Jump(FullMask, &tgt)
	if n := len(w.Splits()); n != 2 {
		t.Fatalf("%d paths after the jump, want 2", n)
	}
	runSASS(t, w)
	if w.Reg(0)[0] != 3 || w.Reg(0)[1] != 2 {
		t.Errorf("r0 lanes 0, 1 = %d, %d; want 3 (from 2) and 2 (from 3)", w.Reg(0)[0], w.Reg(0)[1])
	}
}

// Two paths of a warp run the same BSSY..BSYNC region, one entering after
// the other started: BSSY adds lanes to the barrier (it does not replace
// them), so neither waits at the BSYNC for lanes that already left.
func TestTwoPathsShareARegion(t *testing.T) {
	w := sassWarp(
		laneLt(0, 16),         // 0
		jmp(4, isa.P(0)),      // 1: lanes 0..15 jump straight in
		addImm(1, 5),          // 2: lanes 16..31 first do something else
		addImm(1, 5),          // 3
		barOp(isa.OpBssy, 0),  // 4
		laneLt(1, 8),          // 5
		jmp(8, isa.P(1)),      // 6: a divergent branch inside the region
		addImm(0, 1),          // 7
		barOp(isa.OpBsync, 0), // 8
		addImm(0, 1),          // 9
		isa.Instr{Op: isa.OpExit},
	)
	runSASS(t, w)
	if w.Reg(0)[0] != 1 || w.Reg(0)[8] != 2 || w.Reg(0)[31] != 2 || w.Reg(1)[31] != 10 {
		t.Errorf("r0 lanes 0, 8, 31 = %d, %d, %d; r1 lane 31 = %d", w.Reg(0)[0], w.Reg(0)[8], w.Reg(0)[31], w.Reg(1)[31])
	}
}
