package tma

import "fmt"

// Config holds the timing parameters of the TMA unit. docs/tma.md derives
// each from the calibration rows and compares the resulting predictions with
// the measurements; the comments here say what each one means.
type Config struct {
	// QueueDepth is how many accepted requests may wait for the unit's
	// front end. Assumed (no row constrains it).
	QueueDepth int
	// IssueInterval is the front end's fixed occupancy per load or
	// prefetch: it starts at most one every IssueInterval cycles, plus the
	// time it takes to generate the request's rows (below). Fitted to the
	// 1 KiB- and 4 KiB-chunk bandwidth rows. A store or reduction occupies it
	// for its rows only: one thread's 256-byte bulk stores from four buffers
	// go every 26.6 cycles, bound by the thread (store.csv).
	IssueInterval int
	// SetupCycles is the latency from the start of a request to its first
	// memory request.
	SetupCycles int
	// DescriptorCycles is the extra setup of a tensor copy: reading its
	// (cached) tensor map and computing the box.
	DescriptorCycles int
	// DescriptorMissCycles is added to the setup of a tensor copy whose
	// tensor map (by address) no earlier copy of the launch used: the unit
	// fetches it. Measured (tmadesc.csv): a second map's first copy takes
	// 469 cycles against 423 for the next copies through either map.
	DescriptorMissCycles int
	// DescriptorFirstCycles is added to the launch's first tensor-map fetch
	// on top of DescriptorMissCycles, for a program that does not read its
	// parameters with instructions of its own (PTX; NewLaunch). The first
	// copy of a launch takes 587 cycles against 423 (tmadesc.csv), whether
	// its box is in L2 or wholly out of bounds: the kernel's parameter line,
	// where the maps sit, read for the first time through the uniform
	// datapath's constant cache. A SASS program's ULDCs pay that through the
	// SM's constant caches (sm/constcache.go) and the fetch adds nothing; a
	// PTX program pays this effective part of it here (fitted).
	DescriptorFirstCycles int
	// RowCycles is the least time the front end spends generating the
	// requests of one box row (a contiguous run along dimension 0; a 1-D copy
	// is one row): a row costs max(RowCycles, rowBytes/RequestBytesPerCycle).
	// Makes narrow rows expensive (box32x32: 64-byte rows).
	RowCycles int
	// RequestBytesPerCycle is the rate at which the front end turns a row's
	// bytes into L2 requests (two 128-byte lines a cycle). Fitted together
	// with IssueInterval.
	RequestBytesPerCycle int
	// SmemBytesPerCycle is the unit's port into shared memory (32 banks × 4
	// bytes). Faster than the L2 link, so it binds only in what-if studies.
	SmemBytesPerCycle int
	// CompletionLatency runs from the last byte written to shared memory to
	// the complete-tx on the barrier (or the bulk group's completion).
	CompletionLatency int
	// TensorDRAMCycles is added to a tensor copy any of whose bytes came from
	// DRAM. The H200's tensor copies from DRAM take 180-310 cycles longer
	// than their rows' bytes do from L2 plus a line's DRAM latency: their
	// rows, 16 KiB apart, each wait for their own channel's refresh and the
	// copy for the slowest (memory/refresh.go), which the h200 configuration
	// models instead (tma.tensor_dram 0).
	TensorDRAMCycles int
	// StoreBytesPerCycle is the rate at which the unit sends a store's bytes
	// out of the SM. Measured (store.csv): one thread's stream of 4 or 16 KiB
	// bulk stores leaves at 31.5–31.9 B/cycle, a third of what bulk loads
	// bring in.
	StoreBytesPerCycle int
	// StoreBufferBytes is how far the unit reads a store's source ahead of
	// the bytes it has sent: a store's source is read (wait_group.read) that
	// much before its last byte leaves. Measured (store.csv): with one
	// buffer the read wait comes 31 cycles (1 KiB at 32 B/cycle) before the
	// write wait for stores of 4 KiB and more.
	StoreBufferBytes int
	// StoreReadBytes is how many bytes of a store's source the unit reads
	// from shared memory per cycle of its data array, the array the warps'
	// shared loads and stores use: while a store streams, its reads take
	// StoreBytesPerCycle / StoreReadBytes of the array (0: none). Measured
	// (smemshare.csv): 16 warps streaming 128-bit shared loads, one
	// wavefront a cycle alone, get half the array while one thread's 4 or
	// 16 KiB bulk stores stream, 32 B/cycle each: 64 bytes an array cycle.
	StoreReadBytes int
	// SmemBytes bounds the shared-memory range of a copy at issue (the SM's
	// capacity); the CTA's own window is checked when the bytes land.
	SmemBytes int
}

// DefaultConfig returns the H200 parameters (docs/tma.md).
func DefaultConfig() Config {
	return Config{
		QueueDepth:            8,
		IssueInterval:         44,
		SetupCycles:           26,
		DescriptorCycles:      10,
		DescriptorMissCycles:  46,
		DescriptorFirstCycles: 80,
		RowCycles:             1,
		RequestBytesPerCycle:  256,
		SmemBytesPerCycle:     128,
		CompletionLatency:     20,
		StoreBytesPerCycle:    32,
		StoreBufferBytes:      1024,
		StoreReadBytes:        64,
		TensorDRAMCycles:      450,
		SmemBytes:             228 << 10,
	}
}

// Validate reports the first field that is out of range, by name.
func (c Config) Validate() error {
	positive := []struct {
		name string
		v    int
	}{{"QueueDepth", c.QueueDepth}, {"RequestBytesPerCycle", c.RequestBytesPerCycle},
		{"SmemBytesPerCycle", c.SmemBytesPerCycle}, {"SmemBytes", c.SmemBytes},
		{"StoreBytesPerCycle", c.StoreBytesPerCycle}}
	for _, f := range positive {
		if f.v <= 0 {
			return fmt.Errorf("tma: %s %d must be positive", f.name, f.v)
		}
	}
	nonNegative := []struct {
		name string
		v    int
	}{{"IssueInterval", c.IssueInterval}, {"SetupCycles", c.SetupCycles}, {"DescriptorCycles", c.DescriptorCycles},
		{"DescriptorMissCycles", c.DescriptorMissCycles}, {"DescriptorFirstCycles", c.DescriptorFirstCycles},
		{"RowCycles", c.RowCycles}, {"CompletionLatency", c.CompletionLatency}, {"TensorDRAMCycles", c.TensorDRAMCycles},
		{"StoreBufferBytes", c.StoreBufferBytes}, {"StoreReadBytes", c.StoreReadBytes}}
	for _, f := range nonNegative {
		if f.v < 0 {
			return fmt.Errorf("tma: %s %d must not be negative", f.name, f.v)
		}
	}
	return nil
}
