package memory

import "math"

// RefClockMHz is the SM clock at which every cycle count and bandwidth of a
// Config was measured: the H200's 1980 MHz, which its probes run at
// (calibration/h200/clockdom.csv, idle rows: 1.98 clock64 cycles a
// %globaltimer ns).
const RefClockMHz = 1980

// AtClock returns c for SMs clocked at clockMHz (0: RefClockMHz). The L2
// and DRAM run on clocks of their own: calibration/h200/clockdom.cu times
// one SM's chase through L2 and DRAM while other SMs' tensor cores pull the
// SM clock down from 1.98 to 1.80 and 1.66 cycles a ns, and an L2 hit
// comes out as 137.3 SM cycles plus 71.4 ns (278.5 cycles at 1.98, 265.7
// at 1.80, 256.0 at 1.66), a DRAM line as 147.8 cycles plus 272.8 ns. So
// the nanoseconds of L2Cycles (L2Ns) and of DRAMCycles (DRAMNs) and
// L2FarCycles (L2FarNs), and of WriteAckCycles (the L2's part of the
// round trip, L2Ns), take f/RefClockMHz as many cycles. The L2's and
// DRAM's bandwidths (GPUL2BytesPerCycle, GPUDRAMBytesPerCycle,
// DRAMChannelBytesPerCycle) and a GPC's delivery from L2
// (GPCL2BytesPerCycle) carry RefClockMHz/f as many bytes a cycle:
// calibration/h200/clockbw.csv, eight SMs of a GPC copy 1226 B/ns beside
// idle SMs at 1.98 and 1225 B/ns beside tensor work at 1.78 (620 and 689
// B/cycle). The SM's own link to L2 (L2BytesPerCycle) keeps its bytes a
// cycle: one SM copies 93.0 B/cycle at 1.98 and 93.1 at 1.80. So does its
// share of DRAM (DRAMBytesPerCycle), not measured apart.
//
// c must be at the reference clock: a Config AtClock returned is returned
// as it is.
func (c Config) AtClock(clockMHz float64) Config {
	if clockMHz <= 0 || clockMHz == RefClockMHz || c.atMHz != 0 {
		return c
	}
	c.atMHz = clockMHz
	ghz := (clockMHz - RefClockMHz) / 1000 // cycles a ns more (or fewer) than at the reference
	more := func(cycles *int, ns float64) {
		*cycles = max(*cycles+int(math.Round(ns*ghz)), 0)
	}
	more(&c.L2Cycles, c.L2Ns)
	more(&c.WriteAckCycles, c.L2Ns)
	more(&c.DRAMCycles, c.DRAMNs)
	more(&c.L2FarCycles, c.L2FarNs)
	per := func(bytes *int) {
		if *bytes > 0 {
			*bytes = max(int(math.Round(float64(*bytes)*RefClockMHz/clockMHz)), 1)
		}
	}
	per(&c.GPUL2BytesPerCycle)
	per(&c.GPUDRAMBytesPerCycle)
	per(&c.DRAMChannelBytesPerCycle)
	per(&c.GPCL2BytesPerCycle)
	return c
}
