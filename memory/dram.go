package memory

import "github.com/smsim/smsim/sim"

// DRAM channels. HBM serves consecutive addresses from one channel for a
// span (Config.DRAMChannelBytes) before the next span goes to the next
// channel, and a channel delivers DRAMChannelBytesPerCycle. A bulk read of
// a few KiB from DRAM therefore queues at one channel, where a larger one
// spreads over several and is bound by the SM's share (DRAMBytesPerCycle)
// instead: the H200's bulk copies from DRAM take 94 more cycles from 1 to
// 4 KiB, 254 from 4 to 16 KiB and 387 from 16 to 64 KiB (calibration/h200
// microbench.csv bulk_copy_latency), about 49 B/cycle within one 16 KiB
// span and twice that beyond it. Each SM books the channels for its own
// copies; the GPU's DRAM bandwidth as a whole is the fabric's (fabric.go).

// newChannels returns idle channels for cfg, or none without a channel limit.
func newChannels(cfg Config) []fixed {
	if cfg.DRAMChannelBytes <= 0 {
		return nil
	}
	return make([]fixed, cfg.DRAMChannels)
}

// channels books the bytes a read of [addr, addr+size) missed in L2
// (missed, spread evenly over the range) on the channels their spans map
// to, from cycle t, and returns when the last channel has served its part
// (t when there is no channel limit).
func (h *Hierarchy) channels(t sim.Cycle, addr uint64, size, missed int) sim.Cycle {
	if len(h.chanFree) == 0 || size <= 0 || missed <= 0 {
		return t
	}
	span := uint64(h.cfg.DRAMChannelBytes)
	end := addr + uint64(size)
	last := t
	for a := addr; a < end; {
		next := min((a/span+1)*span, end)
		if n := int(uint64(missed) * (next - a) / uint64(size)); n > 0 {
			last = max(last, occupy(&h.chanFree[(a/span)%uint64(len(h.chanFree))], t, n, h.cfg.DRAMChannelBytesPerCycle))
		}
		a = next
	}
	return last
}
