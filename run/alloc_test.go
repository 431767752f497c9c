package run_test

import (
	"fmt"
	"math/bits"
	"path/filepath"
	"testing"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// allocClasses are the kernels of testdata/alloc_classes.ptx, one class of
// instruction each.
var allocClasses = []string{"k_int", "k_f32", "k_f64", "k_half", "k_cvt", "k_mufu", "k_shared", "k_global", "k_local",
	"k_mbar", "k_barsync", "k_shfl", "k_cpasync", "k_bulk", "k_wgmma"}

// phaseRecordAllocs bounds the allocations of a run's report records: every
// barrier phase is a record of the report, with a list of the warps that
// waited on it, which grows by doubling. Those are the run's output, made
// per phase, not per instruction.
func phaseRecordAllocs(r *sm.Result) float64 {
	n := 0
	for _, b := range r.Barriers {
		for _, p := range b.Phases {
			n++ // the phase's share of its barrier's growing list of phases
			if w := len(p.Waits); w > 0 {
				n += bits.Len(uint(w-1)) + 1 // capacities 1, 2, 4, ... up to w
			}
		}
	}
	return float64(n)
}

// TestNoAllocationPerInstruction runs a kernel of each class of instruction
// (integer, f32, f64 with every rounding, f16x2 and bf16x2, conversions,
// MUFU; shared, global and local memory; mbarrier arrive/try_wait, bar.sync,
// shuffles and votes; cp.async, cp.async.bulk loads and stores) for 16 and
// for 128 loop trips. What the machine and the launch allocate is the same
// for both; anything more in the long run, beyond the report's records of
// its extra barrier phases, is allocated per instruction.
func TestNoAllocationPerInstruction(t *testing.T) {
	src, err := run.Load(filepath.Join("testdata", "alloc_classes.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range allocClasses {
		t.Run(k, func(t *testing.T) {
			runTrips := func(trips int) (allocs, records float64, instrs uint64) {
				l := nvccLaunch{kernel: k, block: 128, args: []string{fmt.Sprint(trips), "buf:32768:seq"}}
				j := l.job(t, src)
				allocs = testing.AllocsPerRun(2, func() {
					out := runJob(t, j)
					instrs, records = out.WarpInstrs, phaseRecordAllocs(out.Result)
				})
				return allocs, records, instrs
			}
			shortA, shortR, shortI := runTrips(16)
			longA, longR, longI := runTrips(128)
			if extra := (longA - longR) - (shortA - shortR); extra > 0 {
				t.Errorf("%s: %v allocations for %d warp instructions (%v of them phase records), %v for %d (%v): %.3f a warp instruction",
					k, shortA, shortI, shortR, longA, longI, longR, extra/float64(longI-shortI))
			}
		})
	}
}
