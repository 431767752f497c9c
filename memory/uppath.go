package memory

import (
	"math/bits"

	"github.com/smsim/smsim/sim"
)

// The SM→L2 request path carries, in packets, every read request (one a
// line) and every store's data (one a 32-byte sector, PartialSectorPackets
// for a sector written in part): calibration/h200/stgport.csv, where warp
// stores of any shape leave one sector a cycle, and bulk copies and warp
// stores streaming together slow each other until their line requests and
// sectors add up to one a cycle. The sectors of a line a store writes only
// in part go as one byte-masked write, PartialSectorPackets. It is booked like the other links: a packet
// sent at now waits until the path is free, and the path stays booked for
// the packets of every earlier request.

// upSource is a sender on the SM→L2 request path. The path takes the LSU's
// packets (load requests and store data) and the copy engine's (its
// requests and its stores' data) in turn: calibration/h200/stgport.csv
// mix_both, where bulk copies beside four warps' stores keep 0.55 line
// requests a cycle and the stores 0.47 sectors, the copies 87 % of their
// pace alone.
type upSource uint8

const (
	upLSU upSource = iota
	upCopy
	upSources
)

// up books n packets from src on the request path from t and returns how
// much later than alone on an idle path the last one leaves: the queueing
// and the packets after the first (an idle path's one packet is part of the
// measured L2 round trip). A path of no rate (UpPacketsPerCycle 0) costs
// nothing.
//
// The n packets are requests of per packets each (a read request is one, a
// store's line its sectors'). The sources take turns, a request each, while
// both have requests waiting: each of src's requests that meets the other
// source's backlog waits for one of the other's requests (of the packets
// the other's last booking had a request) and pushes that backlog out by
// its own packets. testdata/cuda/wgmma/tma_stg.csv: beside four warps'
// stores of two whole lines a warp instruction (four sectors a line), bulk
// copies keep 0.21 line requests a cycle and the stores 0.81 sectors, a
// request each in turn; beside stores of one sector in each of eight lines
// the two split the path evenly. Requests are booked in time order (package
// tma sends a copy's rows as time reaches them), so a backlog is packets
// already waiting, never ones to come.
func (h *Hierarchy) up(src upSource, t sim.Cycle, n, per int) sim.Cycle {
	if h.cfg.UpPacketsPerCycle <= 0 || n <= 0 {
		return 0
	}
	per = min(max(per, 1), n)
	slot := fixed((fixedOne + uint64(h.cfg.UpPacketsPerCycle) - 1) / uint64(h.cfg.UpPacketsPerCycle))
	own, other := &h.upFree[src], &h.upFree[1-src]
	start := max(toFixed(t), *own)
	waited := uint64(0) // the other source's packets src's requests alternate with
	if *other > start {
		backlog := uint64((*other - start) / slot)
		q := uint64(max(h.upPer[1-src], 1))
		turns := min(uint64((n+per-1)/per), (backlog+q-1)/q)
		waited = min(turns*q, backlog)
		*other += fixed(min(turns*uint64(per), uint64(n))) * slot
	}
	*own = start + fixed(uint64(n)+waited)*slot
	h.upPer[src] = per
	end := own.ceil()
	return end - min(end, t+1)
}

// request books a read request for line at now and returns its wait. A
// warp's lanes that a caller times one by one (cp.async) send one request a
// line: a request for the line the previous one asked for, at the same
// cycle, is the same request.
func (h *Hierarchy) request(now sim.Cycle, line uint64) sim.Cycle {
	if now == h.lastReqAt && line == h.lastReqLine && h.lastReqSet {
		return h.lastReqWait
	}
	h.lastReqAt, h.lastReqLine, h.lastReqSet = now, line, true
	h.lastReqWait = h.up(upLSU, now, 1, 1)
	return h.lastReqWait
}

// UpBooked is how far past now the LSU's packets on the request path are
// booked: the backlog a store issued at now would queue behind (the copy
// engine's packets only take turns with it).
func (h *Hierarchy) UpBooked(now sim.Cycle) sim.Cycle {
	end := h.upFree[upLSU].ceil()
	if end <= now {
		return 0
	}
	return end - now
}

// storePackets is the packets of one line of a store that writes the
// sectors of mask, partial of them in part: a packet a whole sector, and
// PartialSectorPackets for the line's byte-masked rest, however many
// sectors that covers (stgport.csv spread, one four-byte word in each of 32
// lines, 64 cycles a warp store; apps/h200 gemm_tma's epilogue, four words
// in each of 32 sectors of 8 lines, far less than 64).
func (h *Hierarchy) storePackets(mask, partial uint8) int {
	n := bits.OnesCount8(mask &^ partial)
	if partial&mask != 0 {
		n += max(h.cfg.PartialSectorPackets, 1)
	}
	return n
}

// sectorsOf returns the sectors of the line at lineStart that [addr,
// addr+size) touches and those of them it covers only in part.
func (h *Hierarchy) sectorsOf(lineStart, addr uint64, size int) (mask, partial uint8) {
	sb := uint64(h.cfg.SectorBytes)
	end := addr + uint64(size)
	for s := uint64(0); s < uint64(h.cfg.LineBytes)/sb; s++ {
		lo, hi := lineStart+s*sb, lineStart+(s+1)*sb
		if end <= lo || addr >= hi {
			continue
		}
		mask |= 1 << s
		if addr > lo || end < hi {
			partial |= 1 << s
		}
	}
	return mask, partial
}

// Store models one line of a warp store issued at now that writes the
// sectors of mask (those of partial only in part) and returns its latency
// to L2's acknowledgement: the sectors' turn on the request path, then
// WriteAckCycles, and L2FarCycles more from a home in the far partition
// (l2.go). L2 allocates the
// sectors (no DRAM read); an L1 copy stays valid.
func (h *Hierarchy) Store(now sim.Cycle, addr uint64, mask, partial uint8) sim.Cycle {
	h.enter()
	h.stats.Stores++
	line := addr / uint64(h.cfg.LineBytes)
	lat := h.translate(addr, h.cfg.LineBytes)
	miss, far := h.l2.write(line, mask, h.near)
	h.countL2(miss)
	h.l1.probe(line, mask)
	packets := h.storePackets(mask, partial)
	queued := max(h.up(upLSU, now, packets, packets), h.shared(now, h.l2.home(line), mask, false))
	if far {
		lat += sim.Cycle(h.cfg.L2FarCycles)
	}
	return lat + queued + sim.Cycle(h.cfg.WriteAckCycles)
}
