package sm

import (
	"encoding/binary"
	"math/bits"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sharedmem"
	"github.com/smsim/smsim/warp"
)

// The warp-wide path of ld and st: the lanes' accesses checked once, as a
// span, and their data moved between the registers and memory's own bytes,
// with no buffer or copy a lane. It takes only a warp whose every lane's
// access the per-lane path (laneAccesses) would perform without refusing
// any, so that the two leave the same registers, memory, timing inputs and
// diagnostics; any other access — a lane out of bounds or misaligned, a live
// barrier or a landing copy in the span, another CTA's shared memory, lanes
// in several spaces or regions, a global store across a page, a shared store
// while bulk stores' sources are unread, global stores while tensor maps are
// in use, store data that is not a plain register, an atomic, a .b128,
// parameter, constant or local space — goes a lane at a time, where the
// first refused lane is reported as before.

// SpanMemory is a global memory that lends a warp's span of bytes
// (memory.Global is one).
type SpanMemory interface {
	Span(lo, hi uint64, scratch []byte) ([]byte, bool)
	WritableSpan(lo, hi uint64) ([]byte, bool)
}

// warpSpanBytes is the widest span of global memory a warp's load reads at
// once when the span was never written (generated, or copied across a page
// boundary): 32 lanes of 16 bytes, twice over for the gaps of a strided
// access. A wider span goes a lane at a time.
const warpSpanBytes = 2 * warp.Lanes * maxAccessBytes

// warpLanes is a warp access's lanes resolved to one space: each active
// lane's offset, their lowest and highest, their bits ORed (alignment), and
// whether each active lane's access starts where the one before it ends
// (run: the lanes cover [lo, hi+size) once, in lane order).
type warpLanes struct {
	sp        isa.Space
	off       [warp.Lanes]uint64
	lo, hi    uint64
	orOffsets uint64
	run       bool
}

// warpAccess performs ld or st for the lanes of mask at the addresses av
// when the warp-wide path can take it, and returns the space, the global
// lines touched (store bytes in s.storeBytes) and true; words gets the
// lanes' shared offsets. It returns false, having changed nothing, for an
// access that must go a lane at a time.
func (s *SM) warpAccess(wc *wctx, in *isa.Instr, av *warp.Vec, mask uint32, size int,
	words *[sharedmem.WarpSize]uint32, lineSet *[warp.Lanes]uint64) (isa.Space, int, bool) {
	if s.laneByLane || (in.Op != isa.OpLd && in.Op != isa.OpSt) || in.Type == isa.B128 || in.Vec > 8 || mask == 0 ||
		size == 0 || size&(size-1) != 0 {
		return 0, 0, false
	}
	if in.Op == isa.OpSt && !plainStoreData(in) {
		return 0, 0, false
	}
	wl := &s.lanes
	if !wl.resolve(in.Space, av, mask, uint64(size)) {
		return 0, 0, false
	}
	switch wl.sp {
	case isa.Global:
		n, ok := s.warpGlobal(wc, in, wl, mask, size, lineSet)
		return isa.Global, n, ok
	case isa.Shared:
		if !s.warpShared(wc, in, wl, mask, size) {
			return 0, 0, false
		}
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			words[l] = uint32(wl.off[l])
		}
		return isa.Shared, 0, true
	}
	return 0, 0, false
}

// plainStoreData reports whether every data operand of a store is a plain
// register, which the warp-wide path reads in place (anything else is
// staged, a lane at a time).
func plainStoreData(in *isa.Instr) bool {
	for i := 0; i < max(int(in.Vec), 1); i++ {
		if o := &in.Ops[1+i]; o.Kind != isa.KReg || o.Mod != 0 {
			return false
		}
	}
	return true
}

// resolve finds each active lane's space and offset as space does, and
// reports whether they all fall in one space; it notes whether the lanes'
// accesses of size bytes follow one another (run).
func (wl *warpLanes) resolve(sp isa.Space, av *warp.Vec, mask uint32, size uint64) bool {
	if sp == isa.Global && mask == warp.FullMask {
		wl.resolveGlobal(av, size)
		return true
	}
	return wl.resolveLanes(sp, av, mask, size)
}

// resolveLanes is resolve a lane at a time.
func (wl *warpLanes) resolveLanes(sp isa.Space, av *warp.Vec, mask uint32, size uint64) bool {
	first := true
	wl.orOffsets = 0
	run := true
	var next uint64
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		lsp, off := space(sp, av[l])
		switch {
		case first:
			wl.sp, wl.lo, wl.hi, first = lsp, off, off, false
		case lsp != wl.sp:
			return false
		default:
			run = run && off == next
		}
		next = off + size
		wl.off[l] = off
		wl.lo, wl.hi = min(wl.lo, off), max(wl.hi, off)
		wl.orOffsets |= off
	}
	wl.run = run
	return true
}

// resolveGlobal is resolve of a full warp's .global addresses, each its
// own offset (space), run and bounds found four lanes a step.
func (wl *warpLanes) resolveGlobal(av *warp.Vec, size uint64) {
	wl.sp = isa.Global
	wl.off = *av
	lo, hi, or := av[0], av[0], uint64(0)
	var gaps uint64 // nonzero where a lane does not start where the one before it ends
	for l := 0; l < warp.Lanes; l += 4 {
		a, b, c, d := av[l], av[l+1], av[l+2], av[l+3]
		lo, hi = min(lo, a, b, c, d), max(hi, a, b, c, d)
		or |= a | b | c | d
		gaps |= (b - a - size) | (c - b - size) | (d - c - size)
		if l > 0 {
			gaps |= a - av[l-1] - size
		}
	}
	wl.lo, wl.hi, wl.orOffsets, wl.run = lo, hi, or, gaps == 0
}

// warpGlobal performs a global ld or st whose lanes' bytes lie in one region
// (and, for a store, one page) and returns the lines it touches.
func (s *SM) warpGlobal(wc *wctx, in *isa.Instr, wl *warpLanes, mask uint32, size int, lineSet *[warp.Lanes]uint64) (int, bool) {
	if s.gspan == nil || wl.hi+uint64(size) < wl.hi || wl.orOffsets&uint64(size-1) != 0 { // a misaligned lane is reported a lane at a time
		return 0, false
	}
	end := wl.hi + uint64(size)
	if in.Op == isa.OpLd {
		b, ok := s.gspan.Span(wl.lo, end, s.spanBuf[:])
		if !ok {
			return 0, false
		}
		if !(wl.run && mask == warp.FullMask && loadRun(wc.w, in, b, &s.sinkVec)) {
			loadLanes(wc.w, in, mask, &wl.off, wl.lo, b, &s.sinkVec)
		}
	} else {
		if len(s.mapUse) > 0 { // tensor maps in global memory: each store is checked against them
			return 0, false
		}
		b, ok := s.gspan.WritableSpan(wl.lo, end)
		if !ok {
			return 0, false
		}
		storeLanes(wc.w, in, mask, &wl.off, wl.lo, b)
	}
	if wl.run { // aligned lanes: none crosses a line
		return s.noteRange(in, lineSet, wl.lo, end), true
	}
	nlines := 0
	for m := mask; m != 0; m &= m - 1 {
		nlines = s.noteLine(in, lineSet, nlines, wl.off[bits.TrailingZeros32(m)], size)
	}
	return nlines, true
}

// noteRange is noteLine of every lane of an access whose lanes cover the
// bytes [lo, end) one after another, in lane order: their lines in
// ascending order and, for a store, the bytes of each.
func (s *SM) noteRange(in *isa.Instr, lineSet *[warp.Lanes]uint64, lo, end uint64) int {
	lb := uint64(s.cfg.Mem.LineBytes)
	n := 0
	for line := lo / lb; line <= (end-1)/lb; line++ {
		lineSet[n] = line
		s.storeBytes[n] = [2]uint64{}
		if in.Op != isa.OpLd {
			ls := line * lb
			a, b := max(lo, ls), min(end, ls+lb)
			markBytes(&s.storeBytes[n], int(a-ls), int(b-a))
		}
		n++
	}
	return n
}

// warpShared performs a shared ld or st whose lanes all reach the executing
// CTA's own window, in bounds, aligned, clear of live barriers and, for a
// load, of bytes a bulk copy is still writing; a store while bulk stores'
// sources are unread goes a lane at a time.
func (s *SM) warpShared(wc *wctx, in *isa.Instr, wl *warpLanes, mask uint32, size int) bool {
	c := wc.c
	ranked := s.prog.RankedShared && in.Space != isa.Shared
	if !((wl.orOffsets>>rankShift == 0 && !ranked) || c.cl.implicit) { // peerOf: the CTA's own window
		return false
	}
	n := uint64(size)
	end := wl.hi + n
	if end > uint64(c.smem.Size()) || wl.orOffsets&(n-1) != 0 {
		return false
	}
	if c.smem.LiveBarriers() > 0 {
		if _, ok := c.barrierIn(uint32(wl.lo), uint32(end-wl.lo)); ok {
			return false
		}
	}
	if in.Op == isa.OpLd {
		for _, ld := range s.landing {
			if ld.cta == c.id && wl.lo < uint64(ld.hi) && end > uint64(ld.lo) {
				return false
			}
		}
		loadLanes(wc.w, in, mask, &wl.off, 0, c.smem.Bytes(), &s.sinkVec)
		return true
	}
	if len(s.storeSrc) > 0 {
		return false
	}
	storeLanes(wc.w, in, mask, &wl.off, 0, c.smem.Bytes())
	for m := mask; m != 0; m &= m - 1 {
		c.markGeneric(wl.off[bits.TrailingZeros32(m)], n)
	}
	return true
}

// loadLanes writes into the destination registers each active lane's
// elements, read little-endian from b, which holds memory from offset base,
// a lane at a time in lane order as the per-lane path does (a register
// named twice keeps the later element). A destination that is not a
// register (a sink) is written to sink, which nothing reads.
func loadLanes(w *warp.Warp, in *isa.Instr, mask uint32, off *[warp.Lanes]uint64, base uint64, b []byte, sink *warp.Vec) {
	n := max(int(in.Vec), 1)
	var dst [8]*warp.Vec
	for i := 0; i < n; i++ {
		dst[i] = sink
		if d := &in.Ops[i]; d.Kind == isa.KReg {
			dst[i] = w.Reg(d.Reg)
		}
	}
	es := in.Type.Bytes()
	switch {
	case es == 4 && n == 4 && !in.Type.Signed(): // ld.v4 of 32-bit words: one bounds check a lane
		r0, r1, r2, r3 := dst[0], dst[1], dst[2], dst[3]
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			p := (*[16]byte)(b[off[l]-base:])
			r0[l] = uint64(binary.LittleEndian.Uint32(p[0:]))
			r1[l] = uint64(binary.LittleEndian.Uint32(p[4:]))
			r2[l] = uint64(binary.LittleEndian.Uint32(p[8:]))
			r3[l] = uint64(binary.LittleEndian.Uint32(p[12:]))
		}
	case es == 4 && n == 1 && !in.Type.Signed(): // the commonest load: one 32-bit word
		r := dst[0]
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			r[l] = uint64(binary.LittleEndian.Uint32(b[off[l]-base:]))
		}
	default:
		loadElements(&dst, n, es, in.Type.Signed(), mask, off, base, b)
	}
}

// loadRun is loadLanes of a full warp whose lanes' accesses follow one
// another from the start of b, for a vector of four or one unsigned 32-bit
// words: lane l's at 16l or 4l, with one bounds check for the warp. It
// reports whether it took the access.
func loadRun(w *warp.Warp, in *isa.Instr, b []byte, sink *warp.Vec) bool {
	n := max(int(in.Vec), 1)
	if in.Type.Bytes() != 4 || in.Type.Signed() || (n != 4 && n != 1) {
		return false
	}
	var dst [4]*warp.Vec
	for i := 0; i < n; i++ {
		dst[i] = sink
		if d := &in.Ops[i]; d.Kind == isa.KReg {
			dst[i] = w.Reg(d.Reg)
		}
	}
	if n == 1 {
		p, r := (*[4 * warp.Lanes]byte)(b), dst[0]
		for l := range r {
			r[l] = uint64(binary.LittleEndian.Uint32(p[4*l:]))
		}
		return true
	}
	p, r0, r1, r2, r3 := (*[16 * warp.Lanes]byte)(b), dst[0], dst[1], dst[2], dst[3]
	for l := range r0 {
		q := p[16*l : 16*l+16]
		r0[l] = uint64(binary.LittleEndian.Uint32(q[0:]))
		r1[l] = uint64(binary.LittleEndian.Uint32(q[4:]))
		r2[l] = uint64(binary.LittleEndian.Uint32(q[8:]))
		r3[l] = uint64(binary.LittleEndian.Uint32(q[12:]))
	}
	return true
}

// loadElements is loadLanes for any element width, signedness and vector.
func loadElements(dst *[8]*warp.Vec, n, es int, signed bool, mask uint32, off *[warp.Lanes]uint64, base uint64, b []byte) {
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		p := b[off[l]-base:]
		for i := 0; i < n; i++ {
			v := getN(p[i*es:], es)
			if signed {
				v = uint64(signExt(v, es*8))
			}
			dst[i][l] = v
		}
	}
}

// storeLanes writes each active lane's data registers little-endian into b,
// which holds memory from offset base, a lane at a time in lane order, so
// that of lanes writing the same bytes the highest wins.
func storeLanes(w *warp.Warp, in *isa.Instr, mask uint32, off *[warp.Lanes]uint64, base uint64, b []byte) {
	es := in.Type.Bytes()
	var src [8]*warp.Vec
	n := max(int(in.Vec), 1)
	for i := 0; i < n; i++ {
		src[i] = w.Reg(in.Ops[1+i].Reg)
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		at := off[l] - base
		for i := 0; i < n; i++ {
			putN(b[at+uint64(i*es):], src[i][l], es)
		}
	}
}
