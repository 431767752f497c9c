package memory

import "fmt"

// Config holds the timing model of the path from one SM to memory. Latencies
// are SM cycles; where each value comes from is in the field's comment and in
// docs/tma.md.
type Config struct {
	LineBytes   int // cache line (128)
	SectorBytes int // fill and transfer granule (32)

	L1Bytes int // the SM's L1 data cache until a launch sets it (NewLaunch): 256 KiB minus the shared-memory carve-out (see L1BytesFor)
	L1Ways  int
	L2Bytes int // the whole chip's L2 (60 MiB on H200), split evenly between its L2Partitions
	L2Ways  int

	// L1HitCycles is the load-to-use latency of an L1 hit. Derived from the
	// probe's 16 KiB pointer chase (49.88 cycles per load): 64 of its 2000
	// loads miss once, so (64·L2 + 1936·L1)/2000 = 49.88 gives L1 ≈ 39.
	L1HitCycles int
	// L1MissCycles is what the load path adds to L2Cycles on an L1 miss (tag
	// check, miss queue, fill, return through L1). L1MissCycles + L2Cycles is
	// the L2-hit load latency: calibration/h200/sassprobe.csv's chases that
	// miss L1 (random over 48-240 KiB with a 28 KiB L1, or in address order
	// over 2 MiB) take 245 cycles more a load than the same chase hitting L1,
	// and as long as ld.global.cg chases that bypass it (rnd_cg, seq_cg).
	L1MissCycles int
	// L2Cycles is the round trip from the SM's memory port to L2 and back on
	// a hit, as a bulk copy sees it (it bypasses L1). Derived from the 16 B
	// L2-hit bulk copy (347 cycles) minus the TMA unit's own setup and
	// completion and the kernel's mbarrier overhead (docs/tma.md).
	L2Cycles int
	// DRAMCycles is the extra latency of an L2 miss for a load: measured as
	// calibration/h200/gmem.csv dram_pages8 (664.7 cycles per load, every
	// load an L2 miss in 8 translated pages) minus the L2-hit load latency.
	DRAMCycles int
	// StreamDRAMCycles is what a bulk read (Stream, the TMA unit's path)
	// waits beyond DRAMCycles when its bytes come from DRAM: a 16 B bulk
	// copy from DRAM takes 385 cycles longer than from L2 (microbench.csv
	// bulk_copy_latency), a load 303. Fitted with the TMA parameters.
	StreamDRAMCycles int

	// TLB: fully associative, LRU. Reach = TLBEntries × TLBPageBytes. 2 MiB
	// pages (what the CUDA allocator maps). gmem.csv bounds the rest: L2-hit
	// ld.global.cg chases over 1 to 8192 pages (16 GiB) all take 283–308
	// cycles, with no step, and DRAM chases with every load in a new page
	// take 10 cycles more than within 8 pages: translation misses are cheap.
	TLBPageBytes  int
	TLBEntries    int
	TLBMissCycles int

	// WriteAckCycles is a store's acknowledgement from a line whose home is
	// the near L2 partition, counted from its turn on the request path (what
	// a GPU-scope membar waits for). Measured (calibration/h200/
	// fencecost.csv mode 1): a fence after one st.global a thread takes 463-477
	// cycles in the rounds whose lines' home is near, 598-633 in the others,
	// against 307 alone: a write's acknowledgement comes sooner than a
	// read's data (L1MissCycles + L2Cycles).
	WriteAckCycles int

	// L2FarCycles is what a read adds when its line is not in the SM's
	// near L2 partition and crosses from the line's home (l2.go), and a
	// write's acknowledgement from a home in the far partition: measured
	// (calibration/h200/l2near.csv) as the gap between the two latencies of
	// one thread's chase, 528 and 350 cycles a load from L2, 802 and 619
	// from DRAM.
	L2FarCycles int

	// L2Ns, DRAMNs and L2FarNs are the nanoseconds of L2Cycles, DRAMCycles
	// and L2FarCycles spent on the L2's and DRAM's own clocks, which an SM
	// clock other than RefClockMHz does not change (AtClock).
	L2Ns, DRAMNs, L2FarNs float64
	atMHz                 float64 // the SM clock AtClock put the cycles at (0: RefClockMHz, not converted)

	// L2BytesPerCycle is the SM↔L2 link (per direction): the slope of bulk
	// copy latency with size between 16 KiB and 128 KiB (≈100 B/cycle), and
	// the 16 KiB-chunk L2 bandwidth row (98.9).
	L2BytesPerCycle int
	// DRAMBytesPerCycle is the rate at which L2 misses of this SM are served
	// from DRAM: a compromise between the 16 KiB-chunk DRAM bandwidth row
	// (72 B/cycle) and the 64/128 KiB DRAM copy latencies (≈110 B/cycle
	// slope), fitted by the replay in tma/calibration_test.go (docs/tma.md).
	DRAMBytesPerCycle int
	// DRAMChannelBytes, DRAMChannelBytesPerCycle and DRAMChannels: DRAM
	// serves consecutive addresses DRAMChannelBytes at a time from one
	// channel (of DRAMChannels, the addresses interleaved across them),
	// each at DRAMChannelBytesPerCycle, so one copy's misses within one
	// such span queue at one channel (calibration/h200 microbench.csv
	// bulk_copy_latency from DRAM: 1 to 4 KiB +94 cycles, 4 to 16 KiB +254,
	// 16 to 64 KiB +387). 0 bytes: no channel limit.
	DRAMChannelBytes         int
	DRAMChannelBytesPerCycle int
	DRAMChannels             int

	// UpPacketsPerCycle is the SM→L2 request path: every read request (one
	// line a load misses L1 for, one line of a bulk read) and every 32-byte
	// sector a store writes takes one packet of it (calibration/h200/
	// stgport.csv: warp stores of whole lines, four lines or eight sectors in
	// eight lines all leave one sector a cycle from 8-16 warps; bulk copies
	// streaming 0.55 lines a cycle beside stores of 0.47 sectors a cycle
	// fill it together). The sectors of a line a store writes only in part
	// take PartialSectorPackets together (stgport spread: 32 four-byte
	// stores to 32 lines a warp leave every 64 cycles).
	UpPacketsPerCycle    int
	PartialSectorPackets int

	// What the SMs of one GPU share (a lone SM never reaches these limits:
	// see fabric). L2Partitions is how many parts the L2's lines are spread
	// over, each with GPUL2BytesPerCycle / L2Partitions; GPUL2BytesPerCycle
	// is the L2's hit bandwidth to all SMs together and GPUDRAMBytesPerCycle
	// DRAM's (calibration/h200/l2bw.csv).
	L2Partitions         int
	GPUL2BytesPerCycle   int
	GPUDRAMBytesPerCycle int
	// GPCL2BytesPerCycle is what the L2 delivers to one GPC's SMs together
	// (0: no limit): one GPC's 16 SMs bulk-copying lines no other SM reads
	// take 590 B/cycle alone, 2, 4 and 7 such GPCs 562, 558 and 516 each
	// (calibration/h200/gpcbw.csv); streaming them with ld.global, 511 by the
	// slowest CTA and 533 by the median one, 2 and 4 GPCs 499 and 496 each
	// (gpcmap.csv). Loads take turns at it as copies do. A GPC's reads of a
	// line in flight take it once (gpcmerge.go), but an L1-bypassing load
	// (ld.global.cg, cp.async.cg) is delivered on its own: gpcload.cu's
	// float4 stream, which ptxas splits into two loads of each 16 bytes, gets
	// 278-289 B/cycle of its data (gpcload.csv), each sector crossing twice;
	// on an H100 the same stream with one load a sector gets as much as
	// ld.global's (calibration/h100/run2/gpcop.csv).
	GPCL2BytesPerCycle int

	// DRAM refresh (refresh.go): each span of DRAMRefreshSpanBytes
	// consecutive bytes refreshes for DRAMRefreshNs of every
	// DRAMRefreshIntervalNs, out of step with the others, and a read that
	// reaches it meanwhile waits for the end. Zero DRAMRefreshNs: no
	// refresh.
	DRAMRefreshNs, DRAMRefreshIntervalNs float64
	DRAMRefreshSpanBytes                 int
}

// DefaultConfig returns the H200 model without DRAM refresh (the h200
// configuration of package sm adds it, with the latencies it measured).
func DefaultConfig() Config {
	return Config{
		LineBytes:         128,
		SectorBytes:       32,
		L1Bytes:           L1BytesFor(228 << 10),
		L1Ways:            4,
		L2Bytes:           60 << 20,
		L2Ways:            16,
		L1HitCycles:       39,
		L1MissCycles:      86,
		L2Cycles:          200,
		DRAMCycles:        240,
		TLBPageBytes:      2 << 20,
		TLBEntries:        32,
		TLBMissCycles:     100,
		L2FarCycles:       180,
		WriteAckCycles:    188,
		L2BytesPerCycle:   100,
		DRAMBytesPerCycle: 80,

		DRAMChannelBytes:         16 << 10,
		DRAMChannelBytesPerCycle: 49,
		DRAMChannels:             16,
		UpPacketsPerCycle:        1,

		PartialSectorPackets: 2,

		L2Partitions:         2,
		GPUL2BytesPerCycle:   6040,
		GPUDRAMBytesPerCycle: 2254,
		GPCL2BytesPerCycle:   560,
	}
}

// L1BytesFor returns the L1 size left when the shared-memory carve-out is
// the smallest Hopper option that holds smemBytes (0, 8, 16, 32, 64, 100,
// 132, 164, 196 or 228 KiB of the SM's 256 KiB). The SM asks for the
// carve-out the driver picks for a launch (the shared memory of as many of
// its CTAs as the SM's other limits let reside); the default Config assumes
// the largest, as kernels built around TMA pipelines use.
func L1BytesFor(smemBytes int) int {
	const unified = 256 << 10
	for _, kib := range [...]int{0, 8, 16, 32, 64, 100, 132, 164, 196, 228} {
		if smemBytes <= kib<<10 {
			return unified - kib<<10
		}
	}
	return unified - 228<<10
}

// Validate reports the first field that is out of range, by name.
func (c Config) Validate() error {
	pow2 := func(x int) bool { return x > 0 && x&(x-1) == 0 }
	switch {
	case !pow2(c.LineBytes):
		return fmt.Errorf("memory: LineBytes %d must be a positive power of two", c.LineBytes)
	case !pow2(c.SectorBytes) || c.SectorBytes > c.LineBytes || c.LineBytes/c.SectorBytes > 8:
		return fmt.Errorf("memory: SectorBytes %d must be a power of two dividing LineBytes into at most 8 sectors", c.SectorBytes)
	case c.L1Ways <= 0 || c.L1Bytes <= 0 || c.L1Bytes%(c.LineBytes*c.L1Ways) != 0:
		return fmt.Errorf("memory: L1Bytes %d must be a positive multiple of LineBytes × L1Ways (%d)", c.L1Bytes, c.LineBytes*max(c.L1Ways, 1))
	case c.L2Ways <= 0 || c.L2Bytes <= 0 || c.L2Bytes%(c.LineBytes*c.L2Ways) != 0:
		return fmt.Errorf("memory: L2Bytes %d must be a positive multiple of LineBytes × L2Ways (%d)", c.L2Bytes, c.LineBytes*max(c.L2Ways, 1))
	case !pow2(c.TLBPageBytes) || c.TLBEntries <= 0:
		return fmt.Errorf("memory: TLBPageBytes %d must be a power of two and TLBEntries %d positive", c.TLBPageBytes, c.TLBEntries)
	case c.L2BytesPerCycle <= 0:
		return fmt.Errorf("memory: L2BytesPerCycle %d must be positive", c.L2BytesPerCycle)
	case c.DRAMBytesPerCycle <= 0:
		return fmt.Errorf("memory: DRAMBytesPerCycle %d must be positive", c.DRAMBytesPerCycle)
	case c.DRAMChannelBytes < 0 || c.DRAMChannelBytes > 0 && (c.DRAMChannelBytesPerCycle <= 0 || c.DRAMChannels <= 0 || c.DRAMChannels > 1024):
		return fmt.Errorf("memory: DRAMChannelBytes %d needs DRAMChannelBytesPerCycle %d positive and DRAMChannels %d from 1 to 1024",
			c.DRAMChannelBytes, c.DRAMChannelBytesPerCycle, c.DRAMChannels)
	case c.L2Partitions <= 0 || c.L2Partitions > 64:
		return fmt.Errorf("memory: L2Partitions %d must be 1 to 64", c.L2Partitions)
	case c.GPUL2BytesPerCycle < c.L2Partitions:
		return fmt.Errorf("memory: GPUL2BytesPerCycle %d must be at least one byte a cycle per partition (%d)", c.GPUL2BytesPerCycle, c.L2Partitions)
	case c.GPCL2BytesPerCycle < 0:
		return fmt.Errorf("memory: GPCL2BytesPerCycle %d must not be negative", c.GPCL2BytesPerCycle)
	case c.GPUDRAMBytesPerCycle <= 0:
		return fmt.Errorf("memory: GPUDRAMBytesPerCycle %d must be positive", c.GPUDRAMBytesPerCycle)
	case c.DRAMRefreshNs < 0 || c.DRAMRefreshNs > 0 && (c.DRAMRefreshIntervalNs <= c.DRAMRefreshNs || !pow2(c.DRAMRefreshSpanBytes)):
		return fmt.Errorf("memory: DRAMRefreshNs %g needs DRAMRefreshIntervalNs %g above it and DRAMRefreshSpanBytes %d a power of two",
			c.DRAMRefreshNs, c.DRAMRefreshIntervalNs, c.DRAMRefreshSpanBytes)
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"L1HitCycles", c.L1HitCycles}, {"L1MissCycles", c.L1MissCycles}, {"L2Cycles", c.L2Cycles},
		{"DRAMCycles", c.DRAMCycles}, {"StreamDRAMCycles", c.StreamDRAMCycles}, {"TLBMissCycles", c.TLBMissCycles},
		{"L2FarCycles", c.L2FarCycles}, {"WriteAckCycles", c.WriteAckCycles}} {
		if f.v < 0 {
			return fmt.Errorf("memory: %s %d must not be negative", f.name, f.v)
		}
	}
	if c.atMHz != 0 {
		return nil // AtClock folded the nanoseconds into the cycles
	}
	for _, f := range []struct {
		name, of string
		ns       float64
		cycles   int
	}{{"L2Ns", "L2Cycles", c.L2Ns, c.L2Cycles}, {"DRAMNs", "DRAMCycles", c.DRAMNs, c.DRAMCycles},
		{"L2FarNs", "L2FarCycles", c.L2FarNs, c.L2FarCycles}} {
		if f.ns < 0 || f.ns*RefClockMHz/1000 > float64(f.cycles)+0.5 {
			return fmt.Errorf("memory: %s %g must be 0 to the %d cycles of %s at %d MHz (%.1f ns)",
				f.name, f.ns, f.cycles, f.of, RefClockMHz, float64(f.cycles)*1000/RefClockMHz)
		}
	}
	return nil
}
