package isa

import "testing"

// Which 1-D bulk copies ptxas issues from vector registers (R2UR before the
// copy): those whose operands may differ between lanes or are carried by a
// loop that spins on a barrier inside lane-dependent control, not those
// computed in uniform code (calibration/h200 waterfall.sass, pipeline.sass,
// libcopy.sass, smemshare.sass, epilogue.sass).
func TestMoveCopyOperandsToUniformMarksVectorCopies(t *testing.T) {
	load := Instr{Op: OpBulkCopy, Space: Shared, Space2: Global, Ops: []Operand{Addr(4, 0), Addr(5, 0), R(6), Addr(7, 0)}, Class: ClassTMA}
	store := Instr{Op: OpBulkCopy, Space: Global, Space2: Shared, Ops: []Operand{Addr(5, 0), Addr(4, 0), R(6)}, Class: ClassTMA}
	reduce := Instr{Op: OpBulkReduce, Atom: AtomAdd, Type: U32, Space: Global, Space2: Shared, Ops: []Operand{Addr(5, 0), Addr(4, 0), R(6)}, Class: ClassTMA}
	tensor := Instr{Op: OpBulkTensor, Dim: 2, Ops: []Operand{Addr(4, 0), Addr(9, 0), R(5), R(8), Addr(7, 0)}, Class: ClassTMA}
	lane := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(1), Spec(SLaneID)}, Class: ClassALU}
	tid := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(1), Spec(STidX)}, Class: ClassALU}
	onlyThread0 := Instr{Op: OpSetp, Type: U32, Cmp: CmpNe, NDst: 1, Ops: []Operand{P(0), R(1), Imm(0)}, Class: ClassALU}
	fromLane := add(U64, 5, R(9), R(1))    // the global address plus a lane's value
	fromParam := add(U64, 5, R(9), R(8))   // the global address from uniform values
	counter := add(U32, 3, R(3), Imm(1))   // a loop counter
	fromCounter := add(U64, 5, R(9), R(3)) // the global address from it
	more := Instr{Op: OpSetp, Type: U32, Cmp: CmpLt, NDst: 1, Ops: []Operand{P(1), R(3), R(8)}, Class: ClassALU}
	tests := []struct {
		name string
		prog []Instr
		want map[int]Flags // index (after insertion) of each delay, and its flag
	}{
		{"uniform code", []Instr{fromParam, load, store, {Op: OpExit}}, nil},
		{"a load from a lane-dependent address", []Instr{lane, fromLane, load, {Op: OpExit}}, map[int]Flags{2: FMoveUniform}},
		{"a store from a lane-dependent address", []Instr{lane, fromLane, store, {Op: OpExit}}, map[int]Flags{2: FMoveUniformLoop}},
		{"a reduction from a lane-dependent address", []Instr{lane, fromLane, reduce, {Op: OpExit}}, map[int]Flags{2: FMoveUniformLoop}},
		{"not a tensor copy", []Instr{lane, fromLane, tensor, {Op: OpExit}}, nil},
		// pipeline.cu's producer: a loop under `lane == 0` that spins on a
		// barrier and whose counter feeds the address (pipeline.sass:
		// `@P1 R2UR UR14, R4` after ELECT) ...
		{"a spinning loop's counter under a lane-dependent branch", []Instr{laneSetp(0), gbra(NotP(0), 9), tryWait(2),
			gbra(NotP(2), 2), counter, fromCounter, load, more, gbra(P(1), 2), aluI(2, 2), {Op: OpExit}},
			map[int]Flags{6: FMoveUniform}},
		// ... where a loop with no wait in it keeps its counter uniform
		// (smemshare.sass: a store loop under `lane == 0` counts in UR4).
		{"a loop with no wait under a lane-dependent branch", []Instr{laneSetp(0), gbra(NotP(0), 7), counter, fromCounter,
			load, more, gbra(P(1), 2), aluI(2, 2), {Op: OpExit}}, nil},
		// libcopy.cu: the address computed in uniform code, the copy under
		// `if (rank == 0)` (libcopy.sass: UIADD3.64, then ELECT; UBLKCP).
		{"operands computed before a lane-dependent branch", []Instr{fromParam, laneSetp(0), gbra(NotP(0), 4), load,
			aluI(2, 2), {Op: OpExit}}, nil},
		// waterfall.cu's `if (threadIdx.x == 32)`: one thread, uniform.
		{"a loop only one thread runs", []Instr{tid, onlyThread0, gbra(P(0), 10), tryWait(2), gbra(NotP(2), 3), counter,
			fromCounter, store, more, gbra(P(1), 3), aluI(2, 2), {Op: OpExit}}, nil},
		{"a spinning loop under a lane-dependent branch", []Instr{lane, laneSetp(0), gbra(NotP(0), 10), tryWait(2),
			gbra(NotP(2), 3), counter, fromCounter, store, more, gbra(P(1), 3), aluI(2, 2), {Op: OpExit}},
			map[int]Flags{7: FMoveUniformLoop}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: append([]Instr(nil), tc.prog...), NumPreds: 3, NumRegs: 10}
			Reconverge(p, nil)
			MoveCopyOperandsToUniform(p)
			delays := map[int]Flags{}
			for i := range p.Instrs {
				if in := &p.Instrs[i]; in.Op == OpDelay {
					delays[i] = in.Flags
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
	lane := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(1), Spec(SLaneID)}, Class: ClassALU}
	load := Instr{Op: OpBulkCopy, Space: Shared, Space2: Global, Ops: []Operand{Addr(4, 0), Addr(1, 0), R(6), Addr(7, 0)}, Class: ClassTMA}
	more := Instr{Op: OpSetp, Type: U32, Cmp: CmpLt, NDst: 1, Ops: []Operand{P(1), R(3), R(8)}, Class: ClassALU}
	p := &Program{Instrs: []Instr{lane, load, more, gbra(P(1), 1), {Op: OpExit}}, NumPreds: 2, NumRegs: 10}
	Reconverge(p, nil)
	MoveCopyOperandsToUniform(p)
	if p.Instrs[1].Op != OpDelay || p.Instrs[2].Op != OpBulkCopy {
		t.Fatalf("want the delay at 1 and the copy at 2, got %v and %v", p.Instrs[1].Op, p.Instrs[2].Op)
	}
	if br := &p.Instrs[4]; br.Op != OpBra || br.Target != 1 {
		t.Errorf("back edge %v targets %d, want 1 (the delay)", br.Op, br.Target)
	}
}
