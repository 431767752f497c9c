package memory

import (
	"math/bits"

	"github.com/smsim/smsim/sim"
)

// The bulk paths: what the TMA unit's copies do to L2 and the bandwidth
// they take.

// Stream models a bulk read of size bytes at addr requested at now, as the
// TMA unit issues it (bypassing L1), and returns the cycle at which its last
// byte reaches the SM and how many bytes came from DRAM. The bytes move in
// sectors over the link; sectors missing in L2 are fetched from DRAM first,
// and lines only the far partition holds cross to the near one (l2.go):
//
//	ready = max(linkDone + L2Cycles, dramDone + L2Cycles + DRAMCycles + StreamDRAMCycles) + hop
//
// where linkDone and dramDone are when the link and DRAM finish this
// request's bytes after earlier requests' (see Hierarchy), and hop is what
// is left of L2FarCycles after the near lines requested behind the last far
// one have streamed in (farHop).
func (h *Hierarchy) Stream(now sim.Cycle, addr uint64, size int) (ready sim.Cycle, dramBytes int) {
	if size <= 0 {
		return now, 0
	}
	t := now + h.translate(addr, size)
	moved, missed, far := h.allocate(addr, size, t, false)
	rate := h.cfg.L2BytesPerCycle
	if missed > 0 {
		rate = min(rate, h.cfg.DRAMBytesPerCycle)
	}
	l2 := sim.Cycle(h.cfg.L2Cycles + farHop(far, h.afterFar, rate))
	ready = occupy(&h.linkFree, t, moved, h.cfg.L2BytesPerCycle) + l2
	ready = max(ready, t+h.up(upCopy, t, h.lines(addr, size), 1)+l2)
	fromDRAM := l2 + sim.Cycle(h.cfg.DRAMCycles+h.cfg.StreamDRAMCycles)
	if missed > 0 {
		d := occupy(&h.dramFree, t, missed, h.cfg.DRAMBytesPerCycle)
		d = max(d, h.channels(t, addr, size, missed))
		ready = max(ready, h.refreshed(t, d, missed)+fromDRAM)
	}
	if end, dram := h.sharedRange(t, missed, true); end > 0 {
		ready = max(ready, end+l2)
		if missed > 0 {
			ready = max(ready, h.refreshed(t, dram, missed)+fromDRAM)
		}
	}
	ready = max(ready, h.mergedAt)
	for _, line := range h.newLines {
		h.deliver(line, ready)
	}
	h.stats.Streams++
	h.stats.StreamBytes += uint64(size)
	h.stats.DRAMBytes += uint64(missed)
	return ready, missed
}

// farHop is what the hop of far lines adds to a bulk read's end: the copy
// engine requests its lines in address order, so the near lines requested
// after the last far one (after bytes, streaming in at rate bytes a cycle)
// arrive while that one crosses.
func farHop(far, after, rate int) int {
	if far == 0 {
		return 0
	}
	return max(far-after/max(rate, 1), 0)
}

// allocate walks the sectors of [addr, addr+size) through L2, as reads
// (l2.read) or as writes landing at each line's home (l2.write), counting
// the misses and each partition's bytes (partBytes, for sharedRange), and
// returns the bytes moved, the bytes L2 did not hold (whole sectors) and
// L2FarCycles when a line's data crossed between partitions (else 0). It
// leaves in afterFar the bytes of the lines after the last that crossed,
// and for reads requested at t, in mergedAt and newLines, the latest
// arrival of those already in flight to the SM's GPC and the others.
func (h *Hierarchy) allocate(addr uint64, size int, t sim.Cycle, write bool) (moved, missed, far int) {
	h.enter()
	h.afterFar, h.mergedAt, h.newLines, h.lateSpans = 0, 0, h.newLines[:0], h.lateSpans[:0]
	h.forLines(addr, size, func(line uint64, mask uint8) {
		var miss uint8
		var crossed bool
		part := h.near
		if write {
			miss, crossed = h.l2.write(line, mask, h.near)
			part = h.l2.home(line)
		} else if miss, crossed = h.l2.read(line, mask, h.near); crossed {
			part = h.l2.home(line)
			h.stats.FarReads++
		}
		n := bits.OnesCount8(mask)
		moved += n
		missed += bits.OnesCount8(miss)
		if miss != 0 {
			h.noteRefresh(t, line, missed*h.cfg.SectorBytes)
		}
		if write {
			h.partBytes[part] += n * h.cfg.SectorBytes
		} else if at, ok := h.inFlight(line, t); ok {
			h.mergedAt = max(h.mergedAt, at) // on its way to the GPC already (gpcmerge.go)
		} else {
			h.partBytes[part] += n * h.cfg.SectorBytes
			if h.gpc != nil {
				h.newLines = append(h.newLines, line)
			}
		}
		h.countL2(miss)
		if crossed {
			far, h.afterFar = h.cfg.L2FarCycles, 0
		} else {
			h.afterFar += n * h.cfg.SectorBytes
		}
	})
	return moved * h.cfg.SectorBytes, missed * h.cfg.SectorBytes, far
}

// HitLatency is the round trip of a request L2 answers (L2Cycles): what an
// out-of-bounds row of a tensor copy takes (package tma).
func (h *Hierarchy) HitLatency() sim.Cycle { return sim.Cycle(h.cfg.L2Cycles) }

// StreamWrite models a bulk write of size bytes at addr sent at now (a TMA
// store) and returns the cycle at which the last byte is written in L2: at
// each line's home, acknowledged from there (l2.go). Nothing is read from
// DRAM.
func (h *Hierarchy) StreamWrite(now sim.Cycle, addr uint64, size int) (done sim.Cycle) {
	if size <= 0 {
		return now
	}
	t := now + h.translate(addr, size)
	moved, _, far := h.allocate(addr, size, t, true)
	end, _ := h.sharedRange(t, 0, false)
	h.stats.StreamWrites++
	h.stats.StreamWriteBytes += uint64(size)
	sectors := moved / h.cfg.SectorBytes
	return max(t+h.up(upCopy, t, sectors, h.cfg.LineBytes/h.cfg.SectorBytes), end) + sim.Cycle(h.cfg.L2Cycles+far)
}

// StreamReduce models a bulk reduction of size bytes at addr sent at now
// (cp.reduce.async.bulk, whose read-modify-write happens in L2, at each
// line's home) and returns the cycle at which the last byte has been
// combined in L2 and how many bytes L2 read from DRAM to do it. The bytes
// cross the link as a bulk write's do; sectors L2 does not hold are read
// from DRAM first, at what an atomic that misses L2 pays (DRAMCycles, the
// load path's): the hierarchy gives atomics no other cost (red.global is
// timed as a store).
//
//	done = max(writeDone + L2Cycles, dramDone + L2Cycles + DRAMCycles) (+ L2FarCycles)
func (h *Hierarchy) StreamReduce(now sim.Cycle, addr uint64, size int) (done sim.Cycle, dramBytes int) {
	if size <= 0 {
		return now, 0
	}
	t := now + h.translate(addr, size)
	moved, missed, far := h.allocate(addr, size, t, true)
	l2 := sim.Cycle(h.cfg.L2Cycles + far)
	done = t + h.up(upCopy, t, moved/h.cfg.SectorBytes, h.cfg.LineBytes/h.cfg.SectorBytes) + l2
	fromDRAM := l2 + sim.Cycle(h.cfg.DRAMCycles)
	if missed > 0 {
		d := occupy(&h.dramFree, t, missed, h.cfg.DRAMBytesPerCycle)
		done = max(done, h.refreshed(t, d, missed)+fromDRAM)
	}
	if end, dram := h.sharedRange(t, missed, false); end > 0 {
		done = max(done, end+l2)
		if missed > 0 {
			done = max(done, h.refreshed(t, dram, missed)+fromDRAM)
		}
	}
	h.stats.StreamReduces++
	h.stats.StreamReduceBytes += uint64(size)
	h.stats.DRAMBytes += uint64(missed)
	return done, missed
}

// sharedRange reserves the fabric for the bulk transfer allocate just
// walked (its bytes by partition, partBytes, which it clears), of which
// dramBytes come from DRAM, requested at t, and returns when its last byte
// has passed its L2 partition (and, a read, its GPC's delivery) and when
// DRAM has served its misses: the bulk path's counterparts of the link's
// and the SM's DRAM share's ends (Stream). Zero for one SM alone.
func (h *Hierarchy) sharedRange(t sim.Cycle, dramBytes int, read bool) (l2, dram sim.Cycle) {
	h.enter()
	if h.fab == nil {
		clear(h.partBytes)
		return 0, 0
	}
	total := 0
	for p, n := range h.partBytes {
		if n > 0 {
			l2 = max(l2, occupy(&h.fab.l2Free[p], t, n, h.fab.l2Rate))
			h.partBytes[p] = 0
			total += n
		}
	}
	if read && total > 0 {
		l2 = max(l2, h.gpcWait(t, total)) // the GPC's share of the delivery
	}
	if dramBytes > 0 {
		dram = occupy(&h.fab.dramFree, t, dramBytes, h.fab.dramRate)
	}
	return l2, dram
}
