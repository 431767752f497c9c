package memory

import (
	"math/bits"

	"github.com/smsim/smsim/sim"
)

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
// at most in gpcshare.cu's rings; 72 CTAs of eight warps streaming 16 lines
// each about as many), in sets of flightWays chosen by a hash of the line:
// SMs streaming in step read lines a power of two apart at once, which a
// table indexed by the line's low bits would put in one slot, each
// delivery evicting the other's.
const (
	flightSlots = 1 << 14
	flightWays  = 4
)

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
	set := flightSet(line)
	for i := set; i < set+flightWays; i++ {
		if h.gpc.line[i] == line+1 && h.gpc.at[i] > t {
			return h.gpc.at[i], true
		}
	}
	return 0, false
}

// flightSet is the first slot of line's set.
func flightSet(line uint64) uint64 {
	return mix64(line) % (flightSlots / flightWays) * flightWays
}

// deliver notes that line reaches the SM's GPC at cycle at: in its set, the
// slot of the same line, else the one whose delivery arrives first (an
// arrived one before any still on its way).
func (h *Hierarchy) deliver(line uint64, at sim.Cycle) {
	h.enter()
	if h.gpc == nil {
		return
	}
	set := flightSet(line)
	v := set
	for i := set; i < set+flightWays; i++ {
		if h.gpc.line[i] == line+1 {
			v = i
			break
		}
		if h.gpc.at[i] < h.gpc.at[v] {
			v = i
		}
	}
	h.gpc.line[v], h.gpc.at[v] = line+1, at
}

// fromL2 is the latency of a load's line that reached L2, cost cycles from
// now on the SM's own path, with what the GPU's SMs share: when the line's
// delivery to the SM's GPC is in flight and the load may join it (join), its
// arrival; else the wait at the partition part (and DRAM), then its
// sectors' turn on the GPC's delivery, then DRAM refresh, and the delivery
// noted for the GPC. The delivery is booked in the order of the requests,
// when the partition serves them: its one backlog cannot take bookings out
// of order, as bookings at the data's arrival (after a refresh) would be.
func (h *Hierarchy) fromL2(now sim.Cycle, line uint64, cost, part int, mask uint8, fromDRAM bool, join bool) int {
	if at, ok := h.inFlight(line, now); ok && join {
		return max(cost, int(at-now))
	}
	late := h.shared(now, part, mask, fromDRAM)
	if h.gpc != nil && h.cfg.GPCL2BytesPerCycle > 0 {
		late += wait(&h.gpc.free, now+late, bits.OnesCount8(mask)*h.cfg.SectorBytes, h.cfg.GPCL2BytesPerCycle)
	}
	if fromDRAM {
		late += h.refresh.wait(now+late, line*uint64(h.cfg.LineBytes))
	}
	cost += int(late)
	h.deliver(line, now+sim.Cycle(cost))
	return cost
}
