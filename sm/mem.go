package sm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sharedmem"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// markBarrier sets or clears the guard of the 8 bytes at off (checked aligned and in bounds by the caller).
func (c *cta) markBarrier(off uint32, on bool) {
	if on {
		_ = c.smem.MarkBarrier(off)
	} else {
		c.smem.UnmarkBarrier(off)
	}
}

// barrierIn reports a live barrier overlapping [off, off+n).
func (c *cta) barrierIn(off, n uint32) (uint32, bool) { return c.smem.IsBarrier(off, int(n)) }

// space resolves a (possibly generic) address to its state space and offset.
func space(sp isa.Space, v uint64) (isa.Space, uint64) {
	if sp != isa.Generic {
		if sp == isa.Shared || sp == isa.Cluster {
			// .shared addresses are 32 bits: [%r+imm] wraps (nvcc folds a
			// negative 32-bit offset into a positive immediate)
			return isa.Shared, uint64(uint32(v))
		}
		return sp, v
	}
	switch {
	case v >= isa.SharedWindow && v < isa.SharedWindow+isa.WindowSize:
		return isa.Shared, v - isa.SharedWindow
	case v >= isa.LocalWindow && v < isa.LocalWindow+isa.WindowSize:
		return isa.Local, v - isa.LocalWindow
	case v >= isa.ParamWindow && v < isa.ParamWindow+isa.WindowSize:
		return isa.ParamSpace, v - isa.ParamWindow
	}
	return isa.Global, v
}

// access is one lane's memory access.
type access struct {
	sp   isa.Space
	off  uint64
	lane int
}

// execMemory executes ld, st, atom and red.
func (s *SM) execMemory(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	t := uint64(now - s.start)
	size := in.Type.Bytes() * max(int(in.Vec), 1)
	if in.Type == isa.B128 {
		size = 16
	}
	if size > maxAccessBytes {
		// The frontends refuse wider vectors (sm_90 has none); a program
		// built another way gets this rather than a short buffer.
		return s.diag(wc, in, DiagInput, "access-width", mask,
			fmt.Sprintf("%s moves %d bytes per thread; sm_90 accesses move at most %d", in.Op, size, maxAccessBytes))
	}
	addrIdx := int(in.NDst)
	if in.Op == isa.OpSt || in.Op == isa.OpRed {
		addrIdx = 0
	}
	av := *wc.w.Operand(&in.Ops[addrIdx], 0, mask, t)
	var lineSet [warp.Lanes]uint64
	var words [sharedmem.WarpSize]uint32
	first, nlines, ok := s.warpAccess(wc, in, &av, mask, size, &words, &lineSet)
	remote := false
	if !ok {
		var err error
		if first, nlines, remote, err = s.laneAccesses(wc, in, &av, mask, size, t, &words, &lineSet); err != nil {
			return err
		}
	}
	lat, why := s.memLatency(now, wc, in, first, mask, &words, &lineSet, nlines, size)
	switch {
	case first == isa.Shared:
		bytes := popcount(mask) * size
		if remote {
			bytes = sectorsTouched(&words, mask, size, s.cfg.Mem.SectorBytes) * s.cfg.Mem.SectorBytes
		}
		lat += s.dsmemLatency(now, in, remote, bytes)
		if in.Op != isa.OpLd {
			// What a CTA-scope membar waits for: the data in the array,
			// sass.smem_store_written after the store reaches it (a load's
			// latency less the way back).
			written := lat - sim.Cycle(s.cfg.Pipes.Latency[isa.ClassShared]) + sim.Cycle(s.cfg.SASS.SmemStoreWritten)
			wc.smemWrote = max(wc.smemWrote, now+max(written, 0))
		}
	case first == isa.Global && in.Op != isa.OpLd:
		wc.writeAck = max(wc.writeAck, now+lat) // what a GPU-scope membar waits for
		wc.fenced = false
	}
	s.dstReady(wc, in, now+lat, why)
	wc.w.Advance()
	return nil
}

// laneAccesses performs a memory instruction a lane at a time, in lane
// order, stopping at the first lane whose access is refused. It returns the
// space of the first active lane, the global lines the lanes touch (their
// store bytes in s.storeBytes) and whether a lane reached another CTA's
// shared memory; words gets the lanes' shared, parameter or constant offsets.
func (s *SM) laneAccesses(wc *wctx, in *isa.Instr, av *warp.Vec, mask uint32, size int, t uint64,
	words *[sharedmem.WarpSize]uint32, lineSet *[warp.Lanes]uint64) (isa.Space, int, bool, error) {
	nlines := 0
	var first isa.Space = 255
	remote := false
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		sp, off := space(in.Space, av[l])
		if first == 255 {
			first = sp
		}
		if sp == isa.Shared {
			peer, o, err := s.remoteCTA(wc, in, off, 1<<l, in.Space == isa.Shared)
			if err != nil {
				return first, 0, false, err
			}
			off = o
			if peer != wc.c {
				s.peer, remote = peer, true
			}
		}
		err := s.laneAccess(wc, in, sp, off, l, size, t)
		s.peer = nil
		if err != nil {
			return first, 0, false, err
		}
		switch sp {
		case isa.Global:
			nlines = s.noteLine(in, lineSet, nlines, off, size)
		case isa.Shared, isa.ParamSpace, isa.Const:
			words[l] = uint32(off)
		}
	}
	return first, nlines, remote, nil
}

// noteLine adds the line of a global access at off to the nlines lines of
// lineSet (in the order the lanes first touch them) and, for a write, its
// size bytes to the line's store bytes; it returns the new count. While the
// lines noted rise (linesRising), a line above the latest is a new one.
func (s *SM) noteLine(in *isa.Instr, lineSet *[warp.Lanes]uint64, nlines int, off uint64, size int) int {
	lb := uint64(s.cfg.Mem.LineBytes) // a power of two (memory.Config.Validate)
	line := off >> bits.TrailingZeros64(lb)
	k := nlines - 1 // a warp's lanes mostly touch its lines in order: the latest first
	switch {
	case k >= 0 && lineSet[k] == line:
	case k < 0 || s.linesRising && line > lineSet[k]:
		k = nlines
	default:
		k = 0
		for k < nlines && lineSet[k] != line {
			k++
		}
	}
	if k == nlines {
		s.linesRising = nlines == 0 || s.linesRising && line > lineSet[nlines-1]
		lineSet[nlines] = line
		s.storeBytes[nlines] = [2]uint64{}
		nlines++
	}
	if in.Op != isa.OpLd {
		markBytes(&s.storeBytes[k], int(off&(lb-1)), size)
	}
	return nlines
}

func (s *SM) memLatency(now sim.Cycle, wc *wctx, in *isa.Instr, sp isa.Space, mask uint32,
	words *[sharedmem.WarpSize]uint32, lines *[warp.Lanes]uint64, nlines, size int) (sim.Cycle, Reason) {
	switch sp {
	case isa.Shared:
		lat, wf := s.lsu.shared(now, &s.sched[wc.sp], words, mask, size, in.Op == isa.OpAtom || in.Op == isa.OpRed)
		s.stats.SmemWavefronts += uint64(wf)
		return lat, ReasonShortScoreboard
	case isa.ParamSpace:
		// ld.param: the parameters sit in constant bank 0 from c[0x0][0x210]
		// on sm_90, where the SASS reads them (constcache.go)
		off := paramBankBase + uint64(words[bits.TrailingZeros32(mask)])
		return sim.Cycle(s.cfg.Pipes.Latency[isa.ClassParam]) + s.consts.read(now, 0, off, false), ReasonWait
	case isa.Const:
		off := uint64(words[bits.TrailingZeros32(mask)])
		return sim.Cycle(s.cfg.Pipes.Latency[isa.ClassConst]) + s.consts.read(now, ptxConstBank, off, false), ReasonWait
	case isa.Local:
		return sim.Cycle(s.cfg.Mem.L1HitCycles), ReasonLongScoreboard
	}
	s.stats.GlobalAccesses++
	write := in.Op == isa.OpSt || in.Op == isa.OpRed
	var written *[warp.Lanes][2]uint64
	if write {
		written = &s.storeBytes
	}
	return s.lsu.global(now, &s.sched[wc.sp], lines, written, nlines, in.Flags.Has(isa.FBypassL1)), ReasonLongScoreboard
}

// maxAccessBytes is the most one thread's access moves on sm_90: a .v4 of
// 32-bit or .v2 of 64-bit elements, or a .b128 (PTX ISA §5.4.2: vectors of
// at most 128 bits; the 256-bit forms are sm_100's).
const maxAccessBytes = 16

// laneAccess performs lane l's part of a memory instruction of size bytes
// (at most maxAccessBytes: execMemory checks).
func (s *SM) laneAccess(wc *wctx, in *isa.Instr, sp isa.Space, off uint64, l, size int, t uint64) error {
	if sp == isa.Global && size <= 16 && off%uint64(size) != 0 {
		// The hardware faults (cudaErrorMisalignedAddress), as for shared memory.
		return s.diag(wc, in, DiagMisuse, "misaligned", 1<<l,
			fmt.Sprintf("%s of %d bytes at global address 0x%x is not %d-byte aligned", in.Op, size, off, size))
	}
	b := s.laneBuf[:size]
	switch in.Op {
	case isa.OpSt:
		s.gather(wc, in, l, b)
		return s.memWrite(wc, in, sp, off, l, b)
	case isa.OpLd:
		if err := s.memRead(wc, in, sp, off, l, b); err != nil {
			return err
		}
		s.scatter(wc, in, l, b)
		return nil
	}
	return s.atomic(wc, in, sp, off, l, b, t)
}

// gather collects lane l's store data (vector elements in order) into b.
func (s *SM) gather(wc *wctx, in *isa.Instr, l int, b []byte) {
	es := in.Type.Bytes()
	if in.Type == isa.B128 {
		es = 16
	}
	n := max(int(in.Vec), 1)
	for i := 0; i < n; i++ {
		o := &in.Ops[1+i]
		v := wc.w.Operand(o, 1, 1<<l, 0)[l]
		putN(b[i*es:], v, es)
	}
}

// scatter writes lane l's loaded bytes into the destination registers.
func (s *SM) scatter(wc *wctx, in *isa.Instr, l int, b []byte) {
	es := in.Type.Bytes()
	n := max(int(in.Vec), 1)
	signed := in.Type.Signed()
	for i := 0; i < n; i++ {
		d := &in.Ops[i]
		if d.Kind != isa.KReg {
			continue
		}
		var v uint64
		switch {
		case es == 4 && !signed: // the common load: a 32-bit word, or a vector of them
			v = uint64(binary.LittleEndian.Uint32(b[i*4:]))
		case signed:
			v = uint64(signExt(getN(b[i*es:], es), es*8))
		default:
			v = getN(b[i*es:], es)
		}
		wc.w.Reg(d.Reg)[l] = v
	}
}

func signExt(v uint64, n int) int64 {
	if n >= 64 {
		return int64(v)
	}
	sh := uint(64 - n)
	return int64(v<<sh) >> sh
}

func putN(b []byte, v uint64, n int) {
	switch n {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}

func getN(b []byte, n int) uint64 {
	switch n {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func (s *SM) memRead(wc *wctx, in *isa.Instr, sp isa.Space, off uint64, l int, b []byte) error {
	n := uint64(len(b))
	switch sp {
	case isa.Shared:
		if s.peer != nil {
			return s.peerRead(wc, in, off, l, b)
		}
		if err := s.sharedCheck(wc, in, wc.c, off, n, l); err != nil {
			return err
		}
		if err := s.readsLanding(wc, in, off, n, l); err != nil {
			return err
		}
		_ = wc.c.smem.Read(uint32(off), b)
	case isa.ParamSpace:
		p := s.launch.Params
		if off+n > uint64(len(p)) {
			return s.diag(wc, in, DiagMisuse, "param-out-of-bounds", 1<<l,
				fmt.Sprintf("ld.param at offset %d (%d bytes) is past the %d-byte parameter block", off, n, len(p)))
		}
		copy(b, p[off:off+n])
	case isa.Local:
		base, err := s.localBase(wc, in, off, n, l)
		if err != nil {
			return err
		}
		copy(b, wc.c.local[base:base+n])
	case isa.Const:
		return s.globalErr(wc, in, l, s.gmem.Read(isa.ConstDataBase+off, b))
	default:
		return s.globalErr(wc, in, l, s.gmem.Read(off, b))
	}
	return nil
}

func (s *SM) memWrite(wc *wctx, in *isa.Instr, sp isa.Space, off uint64, l int, b []byte) error {
	n := uint64(len(b))
	switch sp {
	case isa.Shared:
		if s.peer != nil {
			return s.peerWrite(wc, in, off, l, b)
		}
		if err := s.sharedCheck(wc, in, wc.c, off, n, l); err != nil {
			return err
		}
		if len(s.storeSrc) > 0 {
			if err := s.overwritesStoreSource(wc, in, off, n, l); err != nil {
				return err
			}
		}
		wc.c.markGeneric(off, n)
		_ = wc.c.smem.Write(uint32(off), b)
	case isa.Local:
		base, err := s.localBase(wc, in, off, n, l)
		if err != nil {
			return err
		}
		copy(wc.c.local[base:base+n], b)
	case isa.ParamSpace, isa.Const:
		return s.diag(wc, in, DiagMisuse, "read-only-space", 1<<l, fmt.Sprintf("store to read-only %s space", sp))
	default:
		if len(s.mapUse) > 0 {
			s.globalWrite(off, n)
		}
		return s.globalErr(wc, in, l, s.gmem.Write(off, b))
	}
	return nil
}

func (s *SM) sharedCheck(wc *wctx, in *isa.Instr, c *cta, off, n uint64, l int) error {
	if off+n > uint64(c.smem.Size()) || off+n < off {
		return s.diag(wc, in, DiagMisuse, "shared-out-of-bounds", 1<<l,
			fmt.Sprintf("%s of %d bytes at shared address 0x%x is outside the block's %d bytes of shared memory",
				in.Op, n, off, c.smem.Size()))
	}
	if off%n != 0 && n <= 16 {
		return s.diag(wc, in, DiagMisuse, "misaligned", 1<<l,
			fmt.Sprintf("%s of %d bytes at shared address 0x%x is not %d-byte aligned", in.Op, n, off, n))
	}
	if a, ok := c.barrierIn(uint32(off), uint32(n)); ok {
		d := s.diag(wc, in, DiagMisuse, "access-to-live-barrier", 1<<l,
			fmt.Sprintf("%s at shared address 0x%x overlaps the live mbarrier %s [UB #3]", in.Op, off, s.barrierName(a)))
		d.Barrier = s.barrierName(a)
		return d
	}
	return nil
}

func (s *SM) localBase(wc *wctx, in *isa.Instr, off, n uint64, l int) (uint64, error) {
	per := uint64(s.prog.LocalBytes)
	if off+n > per {
		return 0, s.diag(wc, in, DiagMisuse, "local-out-of-bounds", 1<<l,
			fmt.Sprintf("%s of %d bytes at local offset %d is past the thread's %d-byte stack", in.Op, n, off, per))
	}
	return uint64(wc.w.InCTA*warp.Lanes+l)*per + off, nil
}

func (s *SM) globalErr(wc *wctx, in *isa.Instr, l int, err error) error {
	if err == nil {
		return nil
	}
	var re *memory.ResidentError
	if errors.As(err, &re) {
		return s.diag(wc, in, DiagLimit, "memory-limit", 1<<l, err.Error())
	}
	return s.diag(wc, in, DiagMisuse, "global-out-of-bounds", 1<<l, err.Error())
}
