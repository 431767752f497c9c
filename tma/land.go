package tma

import (
	"encoding/binary"

	"github.com/smsim/smsim/sim"
)

// Landing moves a copy's bytes in whole blocks: the box image is assembled in
// the unit's scratch buffer in unswizzled order (one global read per row),
// permuted in place by the swizzle, and written to shared memory in one
// call. A swizzle permutes 16-byte chunks within each 128-byte segment and is
// its own inverse, so the same permutation serves stores. When the box does
// not fill whole 128-byte segments its chunks are written one at a time.

// landLoad moves a 1-D load's bytes and credits its barrier.
func (u *Unit) landLoad(now sim.Cycle, r *request) error {
	b := u.buf[:r.size]
	if err := u.mem.Read(r.global, b); err != nil {
		return fault(opBulk, "reading the source", err)
	}
	if err := u.smem.WriteShared(r.cta, r.smem, b); err != nil {
		return fault(opBulk, "writing shared memory", err)
	}
	u.stats.BytesLoaded += uint64(r.size)
	return u.sink.CompleteTx(now, r.cta, r.mbar, r.size, r.id)
}

// landTensorLoad writes the box (in-bounds elements from memory, the others
// filled) and credits the whole box to the barrier, however much of it lies
// outside the tensor (§4 #44, measured §5.2).
func (u *Unit) landTensorLoad(now sim.Cycle, r *request) error {
	img := u.buf[:r.size]
	it := r.m.unswizzled(r.coords)
	for run, ok := it.Next(); ok; run, ok = it.Next() {
		b := img[run.Smem:][:run.Bytes] // the unswizzled iterator's offsets are box offsets
		if run.InBounds {
			if err := u.mem.Read(run.Global, b); err != nil {
				return fault(opTensor, "reading the tensor", err)
			}
			continue
		}
		oobFill(b, &r.m)
		u.stats.OOBBytes += uint64(run.Bytes)
	}
	if err := u.writeBox(r.cta, r.smem, img, r.m.Swizzle); err != nil {
		return err
	}
	u.stats.BytesLoaded += uint64(r.size)
	return u.sink.CompleteTx(now, r.cta, r.mbar, r.size, r.id)
}

// landStore reads a 1-D store's source and writes it to global memory.
func (u *Unit) landStore(r *request) error {
	b := u.buf[:r.size]
	if err := u.smem.ReadShared(r.cta, r.smem, b); err != nil {
		return fault(opBulk, "reading shared memory", err)
	}
	if err := u.mem.Write(r.global, b); err != nil {
		return fault(opBulk, "writing the destination", err)
	}
	u.stats.BytesStored += uint64(r.size)
	return nil
}

// landTensorStore writes the in-bounds elements of the box; elements past
// the tensor's end are dropped (§4 #45).
func (u *Unit) landTensorStore(r *request) error {
	return u.landBox(r, false)
}

// landBox reads a tensor store's or reduction's box from shared memory and
// writes (or, with reduce, combines) each in-bounds run of it into the
// tensor; out-of-bounds runs are dropped.
func (u *Unit) landBox(r *request, reduce bool) error {
	img := u.buf[:r.size]
	if err := u.readBox(r.cta, r.smem, img, r.m.Swizzle); err != nil {
		return err
	}
	it := r.m.unswizzled(r.coords)
	for run, ok := it.Next(); ok; run, ok = it.Next() {
		if !run.InBounds {
			continue
		}
		b := img[run.Smem:][:run.Bytes]
		if reduce {
			if err := u.reduceInto(run.Global, b, r); err != nil {
				return fault(opRedTensor, "reducing into the tensor", err)
			}
		} else if err := u.mem.Write(run.Global, b); err != nil {
			return fault(opTensor, "writing the tensor", err)
		}
		u.stats.BytesStored += uint64(run.Bytes)
	}
	return nil
}

// landReduce reads a 1-D reduction's source and combines it, element by
// element, with the destination in global memory. The model is one event, so
// each element's read-modify-write is atomic with respect to every other
// access (PTX: each reduction is individually .relaxed.gpu).
func (u *Unit) landReduce(r *request) error {
	src := u.buf[:r.size]
	if err := u.smem.ReadShared(r.cta, r.smem, src); err != nil {
		return fault(opReduce, "reading shared memory", err)
	}
	if err := u.reduceInto(r.global, src, r); err != nil {
		return fault(opReduce, "reducing into the destination", err)
	}
	u.stats.BytesStored += uint64(r.size)
	return nil
}

// landTensorReduce combines the in-bounds elements of the box with the
// tensor's; elements past the tensor's end are skipped, as a store drops them.
func (u *Unit) landTensorReduce(r *request) error {
	return u.landBox(r, true)
}

// reduceInto combines src with the global bytes at addr by r's operation.
func (u *Unit) reduceInto(addr uint64, src []byte, r *request) error {
	if len(u.gbuf) < len(src) {
		u.gbuf = make([]byte, max(len(src), u.cfg.SmemBytes))
	}
	dst := u.gbuf[:len(src)]
	if err := u.mem.Read(addr, dst); err != nil {
		return err
	}
	reduceElems(r.op, r.dtype, dst, src)
	return u.mem.Write(addr, dst)
}

// writeBox writes the unswizzled box image img to shared memory at dst.
func (u *Unit) writeBox(cta int, dst uint32, img []byte, s Swizzle) error {
	if s == SwizzleNone || !permutes(dst, len(img)) {
		if s == SwizzleNone {
			return wrapShared(u.smem.WriteShared(cta, dst, img))
		}
		for c := 0; c < len(img); c += 16 {
			if err := u.smem.WriteShared(cta, s.Apply(dst+uint32(c)), img[c:c+16]); err != nil {
				return wrapShared(err)
			}
		}
		return nil
	}
	swizzleInPlace(img, dst, s)
	return wrapShared(u.smem.WriteShared(cta, dst, img))
}

// readBox reads the box at src from shared memory into img, unswizzled.
func (u *Unit) readBox(cta int, src uint32, img []byte, s Swizzle) error {
	if s != SwizzleNone && !permutes(src, len(img)) {
		for c := 0; c < len(img); c += 16 {
			if err := u.smem.ReadShared(cta, s.Apply(src+uint32(c)), img[c:c+16]); err != nil {
				return fault(opTensor, "reading shared memory", err)
			}
		}
		return nil
	}
	if err := u.smem.ReadShared(cta, src, img); err != nil {
		return fault(opTensor, "reading shared memory", err)
	}
	swizzleInPlace(img, src, s)
	return nil
}

// permutes reports whether swizzling maps [off, off+n) onto itself: true when
// the range covers whole 128-byte segments.
func permutes(off uint32, n int) bool { return off%128 == 0 && n%128 == 0 }

// swizzleInPlace permutes the 16-byte chunks of img, which sits at shared
// offset off; the permutation is an involution, so swapping pairs suffices.
func swizzleInPlace(img []byte, off uint32, s Swizzle) {
	if s == SwizzleNone {
		return
	}
	var tmp [16]byte
	for c := uint32(0); c < uint32(len(img)); c += 16 {
		p := s.Apply(off+c) - off
		if p > c {
			copy(tmp[:], img[c:c+16])
			copy(img[c:c+16], img[p:p+16])
			copy(img[p:p+16], tmp[:])
		}
	}
}

func wrapShared(err error) error {
	if err != nil {
		return fault(opTensor, "writing shared memory", err)
	}
	return nil
}

// oobFill fills b (whole elements) with zero or the OOB NaN pattern.
func oobFill(b []byte, m *Map) {
	if m.OOBFill != OOBNaN {
		clear(b)
		return
	}
	size := m.DType.Size()
	var nan [8]byte
	binary.LittleEndian.PutUint64(nan[:], oobNaN(size))
	for i := 0; i+size <= len(b); i += size {
		copy(b[i:i+size], nan[:size])
	}
}

func fault(op, what string, err error) error {
	return &Error{Code: Fault, Op: op, Msg: what, Err: err}
}
