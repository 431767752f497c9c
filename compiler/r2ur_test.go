package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// Which 1-D bulk copies ptxas issues from vector registers (R2UR before the
// copy): those whose operands may differ between lanes or are carried by a
// loop that spins on a barrier inside lane-dependent control, not those
// computed in uniform code (calibration/h200 waterfall.sass, pipeline.sass,
// libcopy.sass, smemshare.sass, epilogue.sass).
func TestMoveCopyOperandsToUniformMarksVectorCopies(t *testing.T) {
	load := isa.Instr{Op: isa.OpBulkCopy, Space: isa.Shared, Space2: isa.Global, Ops: []isa.Operand{isa.Addr(4, 0), isa.Addr(5, 0), isa.R(6), isa.Addr(7, 0)}, Class: isa.ClassTMA}
	store := isa.Instr{Op: isa.OpBulkCopy, Space: isa.Global, Space2: isa.Shared, Ops: []isa.Operand{isa.Addr(5, 0), isa.Addr(4, 0), isa.R(6)}, Class: isa.ClassTMA}
	reduce := isa.Instr{Op: isa.OpBulkReduce, Atom: isa.AtomAdd, Type: isa.U32, Space: isa.Global, Space2: isa.Shared, Ops: []isa.Operand{isa.Addr(5, 0), isa.Addr(4, 0), isa.R(6)}, Class: isa.ClassTMA}
	tensor := isa.Instr{Op: isa.OpBulkTensor, Dim: 2, Ops: []isa.Operand{isa.Addr(4, 0), isa.Addr(9, 0), isa.R(5), isa.R(8), isa.Addr(7, 0)}, Class: isa.ClassTMA}
	lane := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.Spec(isa.SLaneID)}, Class: isa.ClassALU}
	tid := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.Spec(isa.STidX)}, Class: isa.ClassALU}
	onlyThread0 := isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpNe, NDst: 1, Ops: []isa.Operand{isa.P(0), isa.R(1), isa.Imm(0)}, Class: isa.ClassALU}
	fromLane := add(isa.U64, 5, isa.R(9), isa.R(1))    // the global address plus a lane's value
	fromParam := add(isa.U64, 5, isa.R(9), isa.R(8))   // the global address from uniform values
	counter := add(isa.U32, 3, isa.R(3), isa.Imm(1))   // a loop counter
	fromCounter := add(isa.U64, 5, isa.R(9), isa.R(3)) // the global address from it
	more := isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(1), isa.R(3), isa.R(8)}, Class: isa.ClassALU}
	tests := []struct {
		name string
		prog []isa.Instr
		want map[int]isa.SchedHints // index (after insertion) of each delay, and its flag
	}{
		{"uniform code", []isa.Instr{fromParam, load, store, {Op: isa.OpExit}}, nil},
		{"a load from a lane-dependent address", []isa.Instr{lane, fromLane, load, {Op: isa.OpExit}}, map[int]isa.SchedHints{2: isa.SchedMoveUniform}},
		{"a store from a lane-dependent address", []isa.Instr{lane, fromLane, store, {Op: isa.OpExit}}, map[int]isa.SchedHints{2: isa.SchedMoveUniformLoop}},
		{"a reduction from a lane-dependent address", []isa.Instr{lane, fromLane, reduce, {Op: isa.OpExit}}, map[int]isa.SchedHints{2: isa.SchedMoveUniformLoop}},
		{"not a tensor copy", []isa.Instr{lane, fromLane, tensor, {Op: isa.OpExit}}, nil},
		// pipeline.cu's producer: a loop under `lane == 0` that spins on a
		// barrier and whose counter feeds the address (pipeline.sass:
		// `@P1 R2UR UR14, R4` after ELECT) ...
		{"a spinning loop's counter under a lane-dependent branch", []isa.Instr{laneSetp(0), gbra(isa.NotP(0), 9), tryWait(2),
			gbra(isa.NotP(2), 2), counter, fromCounter, load, more, gbra(isa.P(1), 2), aluI(2, 2), {Op: isa.OpExit}},
			map[int]isa.SchedHints{6: isa.SchedMoveUniform}},
		// ... where a loop with no wait in it keeps its counter uniform
		// (smemshare.sass: a store loop under `lane == 0` counts in UR4).
		{"a loop with no wait under a lane-dependent branch", []isa.Instr{laneSetp(0), gbra(isa.NotP(0), 7), counter, fromCounter,
			load, more, gbra(isa.P(1), 2), aluI(2, 2), {Op: isa.OpExit}}, nil},
		// libcopy.cu: the address computed in uniform code, the copy under
		// `if (rank == 0)` (libcopy.sass: UIADD3.64, then ELECT; UBLKCP).
		{"operands computed before a lane-dependent branch", []isa.Instr{fromParam, laneSetp(0), gbra(isa.NotP(0), 4), load,
			aluI(2, 2), {Op: isa.OpExit}}, nil},
		// waterfall.cu's `if (threadIdx.x == 32)`: one thread, uniform.
		{"a loop only one thread runs", []isa.Instr{tid, onlyThread0, gbra(isa.P(0), 10), tryWait(2), gbra(isa.NotP(2), 3), counter,
			fromCounter, store, more, gbra(isa.P(1), 3), aluI(2, 2), {Op: isa.OpExit}}, nil},
		{"a spinning loop under a lane-dependent branch", []isa.Instr{lane, laneSetp(0), gbra(isa.NotP(0), 10), tryWait(2),
			gbra(isa.NotP(2), 3), counter, fromCounter, store, more, gbra(isa.P(1), 3), aluI(2, 2), {Op: isa.OpExit}},
			map[int]isa.SchedHints{7: isa.SchedMoveUniformLoop}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: append([]isa.Instr(nil), tc.prog...), NumPreds: 3, NumRegs: 10}
			isa.Reconverge(p, nil)
			apply(MoveCopyOperandsToUniform, p)
			delays := map[int]isa.SchedHints{}
			for i := range p.Instrs {
				if in := &p.Instrs[i]; in.Op == isa.OpDelay {
					delays[i] = in.Sched
					if i+1 >= len(p.Instrs) || !isLinearCopy(&p.Instrs[i+1]) {
						t.Errorf("delay at %d is not before a copy", i)
					}
				}
			}
			if len(delays) != len(tc.want) {
				t.Fatalf("delays %v, want %v", delays, tc.want)
			}
			for i, f := range tc.want {
				if delays[i] != f {
					t.Errorf("delay at %d: flags %v, want %v (all: %v)", i, delays[i], f, delays)
				}
			}
		})
	}
}

// A branch to a copy that gets a delay goes through the delay: the loop's
// back edge re-runs the moves each trip.
func TestMoveCopyOperandsToUniformBranchesThroughTheMoves(t *testing.T) {
	lane := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.Spec(isa.SLaneID)}, Class: isa.ClassALU}
	load := isa.Instr{Op: isa.OpBulkCopy, Space: isa.Shared, Space2: isa.Global, Ops: []isa.Operand{isa.Addr(4, 0), isa.Addr(1, 0), isa.R(6), isa.Addr(7, 0)}, Class: isa.ClassTMA}
	more := isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(1), isa.R(3), isa.R(8)}, Class: isa.ClassALU}
	p := &isa.Program{Instrs: []isa.Instr{lane, load, more, gbra(isa.P(1), 1), {Op: isa.OpExit}}, NumPreds: 2, NumRegs: 10}
	isa.Reconverge(p, nil)
	apply(MoveCopyOperandsToUniform, p)
	if p.Instrs[1].Op != isa.OpDelay || p.Instrs[2].Op != isa.OpBulkCopy {
		t.Fatalf("want the delay at 1 and the copy at 2, got %v and %v", p.Instrs[1].Op, p.Instrs[2].Op)
	}
	if br := &p.Instrs[4]; br.Op != isa.OpBra || br.Target != 1 {
		t.Errorf("back edge %v targets %d, want 1 (the delay)", br.Op, br.Target)
	}
}
