package memory

import (
	"math"

	"github.com/smsim/smsim/sim"
)

// DRAM refresh. HBM refreshes its cells periodically: for tRFC once every
// tREFI a channel serves no reads, and a read that reaches it meanwhile
// waits until the refresh ends. Measured (calibration/h200/dramtail.csv,
// one thread's chase of random lines from DRAM, each load timed alone): a
// load takes its line's usual latency (598 cycles near, 776 far: medians)
// or that plus a wait spread evenly from 0 to about 568 cycles (287 ns at
// 1980 MHz), for about one load in seven (0.147: 10.4 % of far loads wait
// more than 166 cycles and 5.8 % of near ones more than 344, the two tails'
// cut-offs); two lines of one page loaded together wait together. A channel
// refreshing 287 ns of every 1950 ns (HBM3's tREFI of 3.9 µs halved, its
// rate at high temperature) gives both. The channels refresh out of step,
// so no period shows in a chase's issue times.
//
// Consecutive addresses lie in one channel DRAMRefreshSpanBytes at a time,
// and each span's phase in the refresh interval is a hash of its number: a
// read's wait depends on when it reaches DRAM and where it reads,
// deterministically. A bulk copy of contiguous bytes then waits about as
// often as a line (microbench.csv bulk_copy_latency from DRAM, 1 to 64
// KiB), where a tensor copy's rows, one span each at the probe's 16 KiB
// pitch, wait for the slowest of theirs (tensor2d_copy_latency from DRAM:
// 180-310 cycles longer than its rows' bytes take).

// refreshClock is the refresh's timing in SM cycles at the hierarchy's
// clock (tRFC and tREFI run on DRAM's own clock).
type refreshClock struct {
	busy, every uint64 // cycles a span refreshes, and the interval
	spanShift   uint   // log2 of DRAMRefreshSpanBytes
}

func newRefreshClock(c Config) refreshClock {
	if c.DRAMRefreshNs <= 0 {
		return refreshClock{}
	}
	mhz := c.atMHz
	if mhz == 0 {
		mhz = RefClockMHz
	}
	cycles := func(ns float64) uint64 { return uint64(math.Round(ns * mhz / 1000)) }
	r := refreshClock{busy: cycles(c.DRAMRefreshNs), every: cycles(c.DRAMRefreshIntervalNs)}
	r.every = max(r.every, r.busy+1)
	for 1<<r.spanShift < c.DRAMRefreshSpanBytes {
		r.spanShift++
	}
	return r
}

// wait is what a read of the byte at addr that reaches DRAM at t waits for
// its span's refresh: the rest of the refresh when it is under way, else 0.
func (r refreshClock) wait(t sim.Cycle, addr uint64) sim.Cycle {
	if r.busy == 0 {
		return 0
	}
	at := (uint64(t) + mix64(addr>>r.spanShift)) % r.every
	if at < r.busy {
		return sim.Cycle(r.busy - at)
	}
	return 0
}

// A bulk transfer's missed bytes come from DRAM in address order, evenly
// from its request to when DRAM has served them all. The bytes of a span
// that is refreshing come when the refresh ends while the other spans' keep
// coming: a wait delays the transfer's end only by what it outlasts the
// bytes after that span's.

// lateSpan is a line of a bulk transfer whose span was refreshing: the
// transfer's missed bytes up to and including it, and its wait.
type lateSpan struct {
	missed int
	wait   sim.Cycle
}

// noteRefresh takes the line of a bulk transfer requested at t that missed
// L2, with missed the transfer's missed bytes up to and including it
// (allocate walks the lines in address order).
func (h *Hierarchy) noteRefresh(t sim.Cycle, line uint64, missed int) {
	if w := h.refresh.wait(t, line*uint64(h.cfg.LineBytes)); w > 0 {
		h.lateSpans = append(h.lateSpans, lateSpan{missed, w})
	}
}

// refreshed is when DRAM has served the missed bytes of a bulk transfer
// requested at t that would all have come by end without refresh.
func (h *Hierarchy) refreshed(t, end sim.Cycle, missed int) sim.Cycle {
	if len(h.lateSpans) == 0 || end < t || missed <= 0 {
		return end
	}
	d := uint64(end - t)
	last := end
	for _, s := range h.lateSpans {
		last = max(last, t+sim.Cycle((uint64(s.missed)*d+uint64(missed)-1)/uint64(missed))+s.wait)
	}
	return last
}
