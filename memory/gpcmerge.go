package memory

import "github.com/smsim/smsim/sim"

// The SMs of a GPC reach L2 through the GPC, and its requests for a line
// whose data is already on its way to the GPC are served by that delivery:
// the line crosses the L2's partitions once. Measured on the H200
// (calibration/h200/tmagpc.csv, gpcshare.csv): eight SMs of one GPC bulk-
// copying the same 256 KiB at once take 3,785-4,937 cycles, eight of
// different GPCs 6,853 and none sharing 7,764-7,850; readers 250 cycles
// apart keep half the gain and 500 apart none, so it is requests in flight
// that merge, not a cache near the GPC.

// flightSlots is how many lines in flight to one GPC are remembered: more
// than a GPC's SMs keep in flight (18 SMs × 64 KiB of copies = 9,216 lines
// at most in gpcshare.cu's rings), a direct-mapped table by line.
const flightSlots = 1 << 14

// gpcFlight is what is on its way to one GPC, and the GPC's share of the
// L2's delivery (GPCL2BytesPerCycle).
type gpcFlight struct {
	line [flightSlots]uint64    // line index + 1 of the delivery a slot holds; 0: none
	at   [flightSlots]sim.Cycle // when its data reaches the GPC
	free fixed                  // when the GPC's delivery can take the next byte
}

// gpcWait books n bytes of a read on the SM's GPC's delivery from cycle t
// and returns the cycle at which they have passed it (t without a GPC or a
// limit).
func (h *Hierarchy) gpcWait(t sim.Cycle, n int) sim.Cycle {
	h.enter()
	if h.gpc == nil || h.cfg.GPCL2BytesPerCycle <= 0 || n <= 0 {
		return t
	}
	return occupy(&h.gpc.free, t, n, h.cfg.GPCL2BytesPerCycle)
}

// flight returns GPC g's table, making it on first use (at setup).
func (f *fabric) flight(g int) *gpcFlight {
	for len(f.gpcs) <= g {
		f.gpcs = append(f.gpcs, nil)
	}
	if f.gpcs[g] == nil {
		f.gpcs[g] = &gpcFlight{}
	}
	return f.gpcs[g]
}

// SetGPC puts the SM in GPC g of its GPU: its reads merge with the GPC's
// deliveries in flight. A lone SM (no fabric) has no GPC to share.
func (h *Hierarchy) SetGPC(g int) {
	if h.fab != nil && g >= 0 {
		h.gpc = h.fab.flight(g)
	}
}

// inFlight returns when the delivery of line to the SM's GPC arrives, when
// one requested before t is still on its way.
func (h *Hierarchy) inFlight(line uint64, t sim.Cycle) (sim.Cycle, bool) {
	h.enter()
	if h.gpc == nil {
		return 0, false
	}
	i := line % flightSlots
	if h.gpc.line[i] == line+1 && h.gpc.at[i] > t {
		return h.gpc.at[i], true
	}
	return 0, false
}

// deliver notes that line reaches the SM's GPC at cycle at.
func (h *Hierarchy) deliver(line uint64, at sim.Cycle) {
	h.enter()
	if h.gpc == nil {
		return
	}
	i := line % flightSlots
	h.gpc.line[i], h.gpc.at[i] = line+1, at
}

// fromL2 is the latency of a load's line that reached L2, cost cycles from
// now on the SM's own path, with what the GPU's SMs share: when the line's
// delivery to the SM's GPC is in flight, its arrival; else the wait at the
// partition part (and DRAM) added, and the delivery noted for the GPC.
func (h *Hierarchy) fromL2(now sim.Cycle, line uint64, cost, part int, mask uint8, fromDRAM bool) int {
	if at, ok := h.inFlight(line, now); ok {
		return max(cost, int(at-now))
	}
	wait := h.shared(now, part, mask, fromDRAM)
	if fromDRAM {
		wait += h.refresh.wait(now+wait, line*uint64(h.cfg.LineBytes))
	}
	cost += int(wait)
	h.deliver(line, now+sim.Cycle(cost))
	return cost
}
