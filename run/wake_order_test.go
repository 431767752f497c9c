package run

import (
	"encoding/binary"
	"strconv"
	"testing"
)

// The barrier unit answers the try_waits suspended on a phase in the order
// they were issued, not in the warps' order (testdata/cuda/wgmma/
// wake_order.cu, from its SASS): 16 warps wait 300 cycles apart in three
// orders, and on the H200 each resumes 2 cycles after the one that waited
// before it, up to a swap of neighbours. smsim keeps that order for every
// two waits issued at least two apart. Not held: the spread (the H200 30
// cycles from first to last, smsim 39: its schedulers take about 11 cycles
// between two of their warps' wake-ups, sched.wake_interval).
func TestSuspendedWaitsWakeInIssueOrderLikeH200(t *testing.T) {
	type waiter struct{ rank, wake int }
	h200 := map[string][]waiter{}
	for _, r := range wgmmaCSV(t, "wake_order.csv") {
		rank, _ := strconv.Atoi(r[2])
		wake, _ := strconv.Atoi(r[3])
		h200[r[0]] = append(h200[r[0]], waiter{rank, wake})
	}
	inOrder := func(ws []waiter) (int, int, bool) {
		for _, a := range ws {
			for _, b := range ws {
				if b.rank-a.rank >= 2 && b.wake <= a.wake {
					return a.rank, b.rank, false
				}
			}
		}
		return 0, 0, true
	}
	for _, kernel := range []string{"id", "rev", "mix"} {
		if _, _, ok := inOrder(h200[kernel]); !ok || len(h200[kernel]) != 16 {
			t.Fatalf("%s: wake_order.csv is not in issue order", kernel)
		}
		b := runBuffer(t, Spec{Kernel: kernel, Block: "544", Grid: "1", Launches: 1, Config: "h200",
			Args: []string{"buf:320"}}, "../testdata/cuda/wgmma/wake_order.sass", "0", 128)
		got := make([]waiter, 16)
		for w := range got {
			got[w] = waiter{h200[kernel][w].rank, int(binary.LittleEndian.Uint64(b[8*w:]))}
		}
		if a, c, ok := inOrder(got); !ok {
			t.Errorf("%s: the wait issued %dth resumes no sooner than the one issued %dth", kernel, a+1, c+1)
		}
	}
}
