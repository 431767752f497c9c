package compiler

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/smsim/smsim/isa"
)

// waitLoopProg is k_arrive_wait's main loop in PTX: arrive; the try_wait
// retry loop on parity r3; the parity flip, the counter and its test; the
// back edge. tail is what follows the wait loop.
func waitLoopProg(tail ...isa.Instr) []isa.Instr {
	arrive := isa.Instr{Op: isa.OpMbarArrive, NDst: 1, Ops: []isa.Operand{isa.R(9), isa.Addr(-1, 0)}, Class: isa.ClassSyncs}
	tw := isa.Instr{Op: isa.OpMbarTryWait, Flags: isa.FParity, NDst: 1, Ops: []isa.Operand{isa.P(0), isa.Addr(-1, 0), isa.R(3)}, Class: isa.ClassSyncs}
	retry := isa.Instr{Op: isa.OpBra, Guard: isa.NotP(0), Target: 1, Class: isa.ClassBranch}
	prog := []isa.Instr{arrive, tw, retry}
	prog = append(prog, tail...)
	return append(prog, isa.Instr{Op: isa.OpExit, Class: isa.ClassBranch})
}

func TestArithmeticAfterAWaitLoopMovesAboveIt(t *testing.T) {
	flip := isa.Instr{Op: isa.OpXor, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(3), isa.R(3), isa.Imm(1)}, Class: isa.ClassALU} // the wait reads r3
	count := aluI(4, 4)
	test := isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(1), isa.R(4), isa.R(5)}, Class: isa.ClassALU}
	back := isa.Instr{Op: isa.OpBra, Guard: isa.P(1), Target: 0, Class: isa.ClassBranch}
	useWaitResult := isa.Instr{Op: isa.OpSelp, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(6), isa.Imm(1), isa.Imm(0), isa.P(0)}, Class: isa.ClassALU}
	tests := []struct {
		name string
		prog []isa.Instr
		want []isa.Op
	}{
		{"the counter and its test move, the parity flip stays",
			waitLoopProg(flip, count, test, back),
			[]isa.Op{isa.OpMbarArrive, isa.OpAdd, isa.OpSetp, isa.OpMbarTryWait, isa.OpBra, isa.OpXor, isa.OpBra, isa.OpExit}},
		{"what reads the wait's predicate stays, and what follows it in order",
			waitLoopProg(useWaitResult, count, back),
			[]isa.Op{isa.OpMbarArrive, isa.OpAdd, isa.OpMbarTryWait, isa.OpBra, isa.OpSelp, isa.OpBra, isa.OpExit}},
		{"nothing passes a clock read",
			waitLoopProg(clock(7), count, back),
			[]isa.Op{isa.OpMbarArrive, isa.OpMbarTryWait, isa.OpBra, isa.OpMov, isa.OpAdd, isa.OpBra, isa.OpExit}},
		{"nothing passes a memory operation",
			waitLoopProg(isa.Instr{Op: isa.OpLd, Space: isa.Shared, NDst: 1, Ops: []isa.Operand{isa.R(8), isa.Addr(5, 0)}, Class: isa.ClassShared}, count, back),
			[]isa.Op{isa.OpMbarArrive, isa.OpMbarTryWait, isa.OpBra, isa.OpLd, isa.OpAdd, isa.OpBra, isa.OpExit}},
		{"arithmetic passes a barrier arrive, which stays behind the wait",
			// wspipe.cu's producer: arm the full barrier, then the next tile's coordinates
			waitLoopProg(isa.Instr{Op: isa.OpMbarArrive, Flags: isa.FExpectTx, NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.Addr(-1, 8), isa.R(8)}, Class: isa.ClassSyncs},
				isa.Instr{Op: isa.OpRem, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(10), isa.R(4), isa.R(5)}, Class: isa.ClassIDiv}, count, back),
			[]isa.Op{isa.OpMbarArrive, isa.OpRem, isa.OpAdd, isa.OpMbarTryWait, isa.OpBra, isa.OpMbarArrive, isa.OpBra, isa.OpExit}},
		{"arithmetic that reads what the arrive writes stays behind it",
			waitLoopProg(isa.Instr{Op: isa.OpMbarArrive, NDst: 1, Ops: []isa.Operand{isa.R(11), isa.Addr(-1, 8)}, Class: isa.ClassSyncs},
				aluI(12, 11), count, back),
			[]isa.Op{isa.OpMbarArrive, isa.OpAdd, isa.OpMbarTryWait, isa.OpBra, isa.OpMbarArrive, isa.OpAdd, isa.OpBra, isa.OpExit}},
		{"a guarded instruction stays",
			waitLoopProg(isa.Instr{Op: isa.OpAdd, Type: isa.U32, Guard: isa.P(2), NDst: 1, Ops: []isa.Operand{isa.R(4), isa.R(4), isa.Imm(1)}, Class: isa.ClassALU}, back),
			[]isa.Op{isa.OpMbarArrive, isa.OpMbarTryWait, isa.OpBra, isa.OpAdd, isa.OpBra, isa.OpExit}},
		{"arithmetic passes a full-mask __syncwarp(), a NOP in SASS",
			// syncwarp.cu's MODE 2: the loop's compare stays before the TRYWAIT
			waitLoopProg(isa.Instr{Op: isa.OpBarWarpSync, Ops: []isa.Operand{isa.Imm(0xffffffff)}, Class: isa.ClassWarpSync}, count, test, back),
			[]isa.Op{isa.OpMbarArrive, isa.OpAdd, isa.OpSetp, isa.OpMbarTryWait, isa.OpBra, isa.OpBarWarpSync, isa.OpBra, isa.OpExit}},
		{"nothing passes a __syncwarp(mask) with a run-time mask (WARPSYNC R)",
			waitLoopProg(isa.Instr{Op: isa.OpBarWarpSync, Ops: []isa.Operand{isa.R(13)}, Class: isa.ClassWarpSync}, count, back),
			[]isa.Op{isa.OpMbarArrive, isa.OpMbarTryWait, isa.OpBra, isa.OpBarWarpSync, isa.OpAdd, isa.OpBra, isa.OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: tc.prog}
			isa.Reconverge(p, nil)
			apply(HoistPastWaitLoops, p)
			got := opsOf(p)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i, op := range tc.want {
				if got[i] != op {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
			// The retry branch still targets the try_wait, the back edge the arrive.
			for i := range p.Instrs {
				in := &p.Instrs[i]
				if in.Op != isa.OpBra {
					continue
				}
				if tgt := p.Instrs[in.Target].Op; in.Guard.Neg && tgt != isa.OpMbarTryWait || !in.Guard.Neg && tgt != isa.OpMbarArrive {
					t.Errorf("branch %d targets %v", i, tgt)
				}
			}
		})
	}
}

// A wait loop inside an if-then region — `@p bra S; parity and address;
// L: try_wait; @!q bra L; S: ...` — is what ptxpipe.cu's producer makes of
// `if (t >= S) while (!mbarrier_try_wait_parity(...)) {}`: the arithmetic at
// S's head runs on both paths, and ptxas computes it (the next tile's
// coordinates, two divisions) before the branch (ptxpipe.sass, k_ptx).
func TestArithmeticAfterAGuardedWaitLoopMovesAboveTheGuard(t *testing.T) {
	skip := isa.Instr{Op: isa.OpBra, Guard: isa.P(2), Target: 5, Class: isa.ClassBranch}
	parity := isa.Instr{Op: isa.OpAnd, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(3), isa.R(7), isa.Imm(1)}, Class: isa.ClassALU}
	tw := isa.Instr{Op: isa.OpMbarTryWait, Flags: isa.FParity, NDst: 1, Ops: []isa.Operand{isa.P(0), isa.Addr(-1, 0), isa.R(3)}, Class: isa.ClassSyncs}
	retry := isa.Instr{Op: isa.OpBra, Guard: isa.NotP(0), Target: 3, Class: isa.ClassBranch}
	rem := isa.Instr{Op: isa.OpRem, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(10), isa.R(7), isa.R(5)}, Class: isa.ClassIDiv}
	arm := isa.Instr{Op: isa.OpMbarArrive, Flags: isa.FExpectTx, NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.Addr(-1, 8), isa.R(8)}, Class: isa.ClassSyncs}
	usesParity := isa.Instr{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(11), isa.R(3), isa.Imm(1)}, Class: isa.ClassALU}
	writesGuard := isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(2), isa.R(4), isa.R(5)}, Class: isa.ClassALU}
	tests := []struct {
		name string
		tail []isa.Instr
		want []isa.Op
	}{
		{"the division moves above the guard, the arrive stays behind the wait",
			[]isa.Instr{rem, arm},
			[]isa.Op{isa.OpSetp, isa.OpRem, isa.OpBra, isa.OpAnd, isa.OpMbarTryWait, isa.OpBra, isa.OpMbarArrive, isa.OpExit}},
		{"what reads the preamble's result stays",
			[]isa.Instr{usesParity, rem},
			[]isa.Op{isa.OpSetp, isa.OpRem, isa.OpBra, isa.OpAnd, isa.OpMbarTryWait, isa.OpBra, isa.OpAdd, isa.OpExit}},
		{"what writes the guard's predicate stays, a division after it moves",
			[]isa.Instr{writesGuard, rem},
			[]isa.Op{isa.OpSetp, isa.OpRem, isa.OpBra, isa.OpAnd, isa.OpMbarTryWait, isa.OpBra, isa.OpSetp, isa.OpExit}},
		{"cheap arithmetic alone stays behind the wait (prodonly.cu's offset)",
			[]isa.Instr{aluI(12, 7), arm},
			[]isa.Op{isa.OpSetp, isa.OpBra, isa.OpAnd, isa.OpMbarTryWait, isa.OpBra, isa.OpAdd, isa.OpMbarArrive, isa.OpExit}},
		{"cheap arithmetic moves with a division",
			[]isa.Instr{aluI(12, 7), rem, arm},
			[]isa.Op{isa.OpSetp, isa.OpAdd, isa.OpRem, isa.OpBra, isa.OpAnd, isa.OpMbarTryWait, isa.OpBra, isa.OpMbarArrive, isa.OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			test := isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(2), isa.R(7), isa.Imm(2)}, Class: isa.ClassALU}
			prog := append([]isa.Instr{test, skip, parity, tw, retry}, tc.tail...)
			prog = append(prog, isa.Instr{Op: isa.OpExit, Class: isa.ClassBranch})
			p := &isa.Program{Instrs: prog}
			isa.Reconverge(p, nil)
			apply(HoistPastWaitLoops, p)
			got := opsOf(p)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			// The guard still skips to the first instruction after the loop,
			// the retry branch still targets the try_wait.
			for i := range p.Instrs {
				in := &p.Instrs[i]
				if in.Op != isa.OpBra {
					continue
				}
				switch {
				case in.Guard.Neg && p.Instrs[in.Target].Op != isa.OpMbarTryWait:
					t.Errorf("retry branch %d targets %v", i, p.Instrs[in.Target].Op)
				case !in.Guard.Neg && (in.Target < 1 || p.Instrs[in.Target-1].Op != isa.OpBra || !p.Instrs[in.Target-1].Guard.Neg):
					t.Errorf("guard branch %d targets %d, not the loop's successor", i, in.Target)
				}
			}
		})
	}
}

// A wait loop that another branch enters, or whose successor another branch
// reaches over more than arithmetic (here a barrier arrive), is left alone:
// moving code there would change those paths.
func TestWaitLoopsWithOtherEntriesAreLeftAlone(t *testing.T) {
	count := aluI(4, 4)
	for name, prog := range map[string][]isa.Instr{
		"loop entered by a jump": append([]isa.Instr{{Op: isa.OpBra, Guard: isa.P(2), Target: 2, Class: isa.ClassBranch}}, waitLoopProg(count)...),
		"successor reached by a jump": func() []isa.Instr {
			p := waitLoopProg(count)
			return append([]isa.Instr{{Op: isa.OpBra, Guard: isa.P(2), Target: 4, Class: isa.ClassBranch}}, p...)
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			p := &isa.Program{Instrs: prog}
			for i := range p.Instrs[1:] { // waitLoopProg's targets are relative to its start
				if in := &p.Instrs[i+1]; in.Op == isa.OpBra {
					in.Target++
				}
			}
			isa.Reconverge(p, nil)
			before := opsOf(p)
			apply(HoistPastWaitLoops, p)
			after := opsOf(p)
			for i := range before {
				if before[i] != after[i] {
					t.Fatalf("moved: %v -> %v", before, after)
				}
			}
		})
	}
}

// ptxas schedules the elected loop, `if (lane == 0) arrive; __syncwarp();`
// then the wait, as `ARRIVE; NOP; UIADD3; TRYWAIT; ISETP; BRA`: the
// counter's add before the wait, its compare behind the TRYWAIT. With a count
// operand on the arrive (ART0) it keeps the converged order, compare first
// (calibration/h200/README.md; microbench.cu's elected loops).
func TestElectedLoopKeepsItsCompareBehindTheTryWait(t *testing.T) {
	plain := isa.Instr{Op: isa.OpMbarArrive, Guard: isa.NotP(5), NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.Addr(-1, 0)}, Class: isa.ClassSyncs}
	counted := isa.Instr{Op: isa.OpMbarArrive, Guard: isa.NotP(5), NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.Addr(-1, 0), isa.Imm(32)}, Class: isa.ClassSyncs}
	sync := isa.Instr{Op: isa.OpBarWarpSync, Ops: []isa.Operand{isa.Imm(0xffffffff)}, Class: isa.ClassWarpSync}
	prog := func(head ...isa.Instr) []isa.Instr {
		w := int32(len(head))
		tw := isa.Instr{Op: isa.OpMbarTryWait, Flags: isa.FParity, NDst: 1, Ops: []isa.Operand{isa.P(0), isa.Addr(-1, 0), isa.R(3)}, Class: isa.ClassSyncs}
		out := append(append([]isa.Instr(nil), head...), tw,
			isa.Instr{Op: isa.OpBra, Guard: isa.NotP(0), Target: w, Class: isa.ClassBranch},
			isa.Instr{Op: isa.OpXor, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(3), isa.R(3), isa.Imm(1)}, Class: isa.ClassALU},
			aluI(4, 4),
			isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(1), isa.R(4), isa.R(5)}, Class: isa.ClassALU},
			isa.Instr{Op: isa.OpBra, Guard: isa.P(1), Target: 0, Class: isa.ClassBranch})
		return append(out, isa.Instr{Op: isa.OpExit, Class: isa.ClassBranch})
	}
	tests := []struct {
		name string
		prog []isa.Instr
		want []isa.Op
	}{
		{"the elected arrive and __syncwarp(): the compare goes behind the try_wait",
			prog(plain, sync),
			[]isa.Op{isa.OpMbarArrive, isa.OpBarWarpSync, isa.OpAdd, isa.OpMbarTryWait, isa.OpSetp, isa.OpBra, isa.OpXor, isa.OpBra, isa.OpExit}},
		{"an arrive with a count: the converged order",
			prog(counted, sync),
			[]isa.Op{isa.OpMbarArrive, isa.OpBarWarpSync, isa.OpAdd, isa.OpSetp, isa.OpMbarTryWait, isa.OpBra, isa.OpXor, isa.OpBra, isa.OpExit}},
		{"no __syncwarp(): the converged order",
			prog(plain),
			[]isa.Op{isa.OpMbarArrive, isa.OpAdd, isa.OpSetp, isa.OpMbarTryWait, isa.OpBra, isa.OpXor, isa.OpBra, isa.OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: tc.prog}
			isa.Reconverge(p, nil)
			apply(HoistPastWaitLoops, p)
			if got := opsOf(p); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range p.Instrs {
				in := &p.Instrs[i]
				if in.Op != isa.OpBra {
					continue
				}
				if tgt := p.Instrs[in.Target].Op; in.Guard.Neg && tgt != isa.OpMbarTryWait || !in.Guard.Neg && tgt != isa.OpMbarArrive {
					t.Errorf("branch %d targets %v", i, tgt)
				}
			}
		})
	}
}
