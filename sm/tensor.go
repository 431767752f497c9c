package sm

import (
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// TensorSpec is the tensor cores' spec: each sub-partition has one tensor
// pipe, which a warp's share of a wgmma.mma_async (its 16 rows of the
// warpgroup's 64) holds for its dense operations over the pipe's rate, in
// issue order; the share's results are complete Latency cycles after the
// pipe is done with it. docs/wgmma.md gives the measurement.
type TensorSpec struct {
	// Dense operations (2 per multiply-add) per cycle of the SM, its four
	// tensor pipes together, by input type (tensor.*_ops).
	F16Ops  int // .f16 and .bf16
	TF32Ops int // .tf32
	FP8Ops  int // .e4m3 and .e5m2
	Int8Ops int // .s8 and .u8
	// Latency is the cycles from the pipe finishing a warp's share to its
	// accumulators being complete (tensor.latency).
	Latency int
}

// opsPerCycle is the SM's dense rate for inputs of type t.
func (t *TensorSpec) opsPerCycle(a isa.MMAType) int {
	switch a {
	case isa.MMATF32:
		return t.TF32Ops
	case isa.MMAE4M3, isa.MMAE5M2:
		return t.FP8Ops
	case isa.MMAS8, isa.MMAU8:
		return t.Int8Ops
	}
	return t.F16Ops
}

// tensorPipe is one sub-partition's tensor pipe: when it is free.
type tensorPipe struct {
	free sim.Cycle
}

// mmaGroups is a warp's wgmma groups (wgmma.commit_group, wait_group): the
// completion cycle of the open group's operations and of each committed
// group, oldest first.
type mmaGroups struct {
	open      sim.Cycle
	openFrom  sim.Cycle // the open group's first wgmma's issue
	openN     int       // wgmma.mma_async in the open group
	committed []sim.Cycle
	pending   *mmaPending // the warp's wgmmas the workers have not computed yet (mma_workers.go)
}

// shareCycles is how long one warp's share of a wgmma (16 rows of m64nNkK)
// holds its sub-partition's tensor pipe: 2·16·N·K operations at a quarter
// of the SM's rate, at least one cycle.
func (t *TensorSpec) shareCycles(a isa.MMAType, n, k, subPartitions int) sim.Cycle {
	ops := 2 * 16 * n * k
	per := max(t.opsPerCycle(a)/subPartitions, 1)
	return sim.Cycle(max((ops+per-1)/per, 1))
}
