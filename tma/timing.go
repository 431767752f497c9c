package tma

import "github.com/smsim/smsim/sim"

// fixed is a time in 1/256 cycle, so per-row and per-byte costs below one
// cycle add up without rounding.
type fixed uint64

const fixedOne = 256

func toFixed(c sim.Cycle) fixed { return fixed(c) * fixedOne }

// ceil is the first whole cycle at or after f.
func (f fixed) ceil() sim.Cycle { return sim.Cycle((f + fixedOne - 1) / fixedOne) }

// perByte is the time n bytes take at rate bytes per cycle.
func perByte(n uint32, rate int) fixed {
	return fixed((uint64(n)*fixedOne + uint64(rate) - 1) / uint64(rate))
}

// The timing of one request, as an ASCII timeline:
//
//	issue ─queue─▶ start ─SetupCycles(+DescriptorCycles)─▶ t ─ rows: one Stream per row,
//	               │                                         row i at t + i·rowCost
//	               ╰─ front end busy: IssueInterval + rows·rowCost,
//	                  rowCost = max(RowCycles, rowBytes/RequestBytesPerCycle)
//	data ready (last row's last byte, Hierarchy.Stream) ─ (+TensorDRAMCycles if DRAM) ─▶
//	written to shared memory (port: bytes/SmemBytesPerCycle after it is free) ─CompletionLatency─▶ done
//
// The front end is FIFO, so requests start in issue order; their memory
// traffic overlaps.

// begin takes a request of rows rows of rowBytes bytes (a 1-D copy is one
// row) into the front end and returns the cycle it starts.
func (u *Unit) begin(now sim.Cycle, rows int, rowBytes uint32) sim.Cycle {
	return u.beginEvery(now, rows, rowBytes, u.cfg.IssueInterval)
}

// beginEvery is begin with the front end's fixed occupancy per request
// given: IssueInterval for loads, none for stores.
func (u *Unit) beginEvery(now sim.Cycle, rows int, rowBytes uint32, interval int) sim.Cycle {
	if u.AcceptAt(now) > now {
		u.stats.QueueFullIssues++
	}
	start := max(toFixed(now), u.feFree)
	busy := toFixed(sim.Cycle(interval)) + fixed(rows)*u.rowCost(rowBytes)
	u.feFree = start + busy
	u.busy += busy
	s := start.ceil()
	u.starts[u.next] = s
	u.next = (u.next + 1) % len(u.starts)
	return s
}

// rowCost is the front end's time to generate the requests of one row of n
// bytes: at least RowCycles, and no faster than RequestBytesPerCycle.
func (u *Unit) rowCost(n uint32) fixed {
	return max(toFixed(sim.Cycle(u.cfg.RowCycles)), perByte(n, u.cfg.RequestBytesPerCycle))
}

// stream is what a request's memory traffic does.
type stream uint8

const (
	streamRead   stream = iota // MemPath.Stream: loads and prefetches
	streamWrite                // MemPath.StreamWrite: stores
	streamReduce               // MemPath.StreamReduce: reductions
)

// streamRows issues one memory request per box row, row i at t + i·rowCost,
// and returns when the last byte is back or performed (not before the last
// request is issued) and the bytes that came from DRAM. Out-of-bounds rows
// of stores and reductions touch nothing.
func (u *Unit) streamRows(t sim.Cycle, m *Map, coords [MaxRank]int32, kind stream) (sim.Cycle, int) {
	cost := u.rowCost(uint32(m.InnerBytes()))
	ready, dram := t, 0
	it := m.unswizzled(coords)
	for r, ok := it.Next(); ok; r, ok = it.Next() {
		at := (toFixed(t) + fixed(r.Row)*cost).ceil()
		if !r.InBounds {
			// Nothing is read or written, but the row's zeros come back
			// no sooner than an L2 hit's bytes (tmadesc.csv: a box
			// wholly out of bounds takes as long as one in L2).
			if kind == streamRead {
				ready = max(ready, at+u.path.HitLatency())
			}
			continue
		}
		switch kind {
		case streamWrite:
			ready = max(ready, u.path.StreamWrite(at, r.Global, int(r.Bytes)))
		case streamReduce:
			rd, d := u.path.StreamReduce(at, r.Global, int(r.Bytes))
			ready, dram = max(ready, rd), dram+d
		default:
			rd, d := u.path.Stream(at, r.Global, int(r.Bytes))
			ready, dram = max(ready, rd), dram+d
		}
	}
	return max(ready, (toFixed(t) + fixed(m.Rows())*cost).ceil()), dram
}

// port reserves the shared-memory port for n bytes from t (or from when it
// is free) and returns when the bytes are written: not before the port has
// moved them, and not before ready, when the last of them arrives. Like the
// L2 link in package memory, the port is reserved when a request enters it,
// so it binds only when copies together outrun it.
func (u *Unit) port(t, ready sim.Cycle, n uint32) sim.Cycle {
	u.smemFree = max(u.smemFree, toFixed(t)) + perByte(n, u.cfg.SmemBytesPerCycle)
	return max(ready, u.smemFree.ceil())
}

// timeStore returns when a store issued at now has read its source (read)
// and when its writes are done (done). m is nil for 1-D stores. A store's
// bytes leave the SM at StoreBytesPerCycle (a path its stores share, from
// the end of setup); the unit reads the source at most StoreBufferBytes
// ahead of them, and the bulk group counts as written once the last byte has
// left, not when L2 has it (store.csv: wait_group is the read wait's DEPBAR
// on the stores' scoreboard plus an L1 invalidation, 12–31 cycles later, no
// L2 round trip). Neither waits for CompletionLatency, the way to a barrier's
// complete-tx:
//
//	issue ─queue─▶ start ─setup─▶ t ─ bytes leave at StoreBytesPerCycle ─▶ sent = done
//	                              ╰─ source read (smem port), no sooner than sent − StoreBufferBytes' time ─▶ read
//
// While it reads, the store takes size / StoreReadBytes cycles of the SM's
// shared-memory data array (ArrayUser), which the warps' accesses share.
//
// The writes still reach L2 (MemPath.StreamWrite: its lines and DRAM
// traffic). A reduction (reduce) takes the store's path through the unit and
// completes as a store does; L2 combines its bytes after
// (MemPath.StreamReduce: the DRAM reads of sectors it lacks).
func (u *Unit) timeStore(now sim.Cycle, dst uint64, size uint32, m *Map, coords [MaxRank]int32, desc uint64, reduce bool) (read, done sim.Cycle) {
	rows, rowBytes, setup := 1, size, u.cfg.SetupCycles
	if m != nil {
		rows, rowBytes, setup = m.Rows(), uint32(m.InnerBytes()), setup+u.cfg.DescriptorCycles+int(u.descriptor(desc))
	}
	t := u.beginEvery(now, rows, rowBytes, 0) + sim.Cycle(setup)
	from := max(u.sendFree, toFixed(t)).ceil()
	u.sendFree = max(u.sendFree, toFixed(t)) + perByte(size, u.cfg.StoreBytesPerCycle)
	sent := u.sendFree.ceil()
	ahead := perByte(uint32(u.cfg.StoreBufferBytes), u.cfg.StoreBytesPerCycle)
	read = u.port(t, t, size)
	if u.sendFree > ahead {
		read = max(read, (u.sendFree - ahead).ceil())
	}
	if a, ok := u.smem.(ArrayUser); ok && u.cfg.StoreReadBytes > 0 && read > from {
		a.ShareArray(from, read, int(size)/u.cfg.StoreReadBytes)
	}
	kind := streamWrite
	if reduce {
		kind = streamReduce
	}
	var dram int
	switch {
	case m != nil:
		_, dram = u.streamRows(t, m, coords, kind)
	case reduce:
		_, dram = u.path.StreamReduce(t, dst, int(size))
	default:
		u.path.StreamWrite(t, dst, int(size))
	}
	u.stats.DRAMBytes += uint64(dram)
	return read, max(sent, read)
}
