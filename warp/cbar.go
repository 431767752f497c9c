package warp

import "math/bits"

// Convergence barriers: how SASS reconverges a warp (Volta and later). A
// branch only moves lanes; paths meet again where the program says so.
// BSSY Bn adds the active lanes to barrier register Bn, BREAK Bn takes
// lanes out of it, and BSYNC Bn holds the lanes that reach it until every
// lane of Bn that has not exited is there too; then they go on as one
// path, and leave the barrier. Two paths of a warp that run the same
// BSSY..BSYNC region one after the other thus meet at its BSYNC when both
// are inside, and pass it alone when one finishes before the other enters
// (were BSSY to overwrite the barrier, the first path would wait for lanes
// that already left). A path waiting at a BSYNC or a WARPSYNC never keeps
// the warp's other paths from running, so a lane spinning on a barrier its
// sibling will release does not deadlock the warp.

// Barrier returns convergence barrier b's lanes.
func (w *Warp) Barrier(b int) uint32 { return w.cbar[b&15] }

// AddToBarrier adds lanes to convergence barrier b (BSSY).
func (w *Warp) AddToBarrier(b int, lanes uint32) {
	w.cbar[b&15] |= lanes
	w.releaseBsync()
	w.pick()
}

// SetBarrier sets convergence barrier b (BMOV) and releases waits it
// completes.
func (w *Warp) SetBarrier(b int, lanes uint32) {
	w.cbar[b&15] = lanes
	w.releaseBsync()
	w.pick()
}

// Break takes lanes out of convergence barrier b (BREAK): the others no
// longer wait for them.
func (w *Warp) Break(b int, lanes uint32) {
	w.cbar[b&15] &^= lanes
	w.releaseBsync()
	w.pick()
}

// Bsync parks the current split at a BSYNC on barrier b; it moves on (with
// the split's other lanes of b, merged) once every non-exited lane of b is
// parked on b.
func (w *Warp) Bsync(b int) {
	s := &w.splits[w.cur]
	s.State = AtBsync
	s.Bar = uint8(b & 15)
	w.releaseBsync()
	w.pick()
}

// releaseBsync releases the waits on every convergence barrier whose lanes
// have all arrived (or exited).
func (w *Warp) releaseBsync() {
	var waiting uint16
	for k := range w.splits {
		if w.splits[k].State == AtBsync {
			waiting |= 1 << w.splits[k].Bar
		}
	}
	if waiting == 0 {
		return
	}
	released := false
	for waiting != 0 {
		b := uint8(bits.TrailingZeros16(waiting))
		waiting &^= 1 << b
		need := w.cbar[b] &^ w.Exited & w.Live
		var have uint32
		for k := range w.splits {
			if t := &w.splits[k]; t.State == AtBsync && t.Bar == b {
				have |= t.Mask
			}
		}
		if need&^have != 0 {
			continue
		}
		for k := range w.splits {
			if t := &w.splits[k]; t.State == AtBsync && t.Bar == b {
				t.State = Runnable
				t.PC++
			}
		}
		w.cbar[b] &^= have
		released = true
	}
	if released {
		w.mergeEqual()
	}
}

// Jump moves the lanes of mask in the current split to per-lane targets
// (instruction indices, target[l] for lane l); the split's other lanes go
// on to the next instruction. Lanes with different targets become separate
// paths. A jump backwards lets the warp's other paths run.
func (w *Warp) Jump(mask uint32, target *[Lanes]int32) {
	i := w.cur
	s := &w.splits[i]
	pc := s.PC
	mask &= s.Mask
	rest := s.Mask &^ mask
	backward := false
	first := true
	for mask != 0 {
		l := bits.TrailingZeros32(mask)
		t := target[l]
		var group uint32
		for m := mask; m != 0; m &= m - 1 {
			k := bits.TrailingZeros32(m)
			if target[k] == t {
				group |= 1 << k
			}
		}
		mask &^= group
		backward = backward || t <= pc
		if first && rest == 0 {
			w.splits[i].Mask, w.splits[i].PC = group, t
		} else {
			n := w.splits[i]
			n.Mask, n.PC = group, t
			w.splits = append(w.splits, n)
		}
		first = false
	}
	if rest != 0 {
		w.splits[i].Mask, w.splits[i].PC = rest, pc+1
	}
	w.mergeEqual()
	if backward {
		w.rotate()
	}
	w.pick()
}

// Diverged reports whether a lane of members that is live and has not
// exited is outside the current split (BRA.DIV, BRA.CONV).
func (w *Warp) Diverged(members uint32) bool {
	return members&w.Live&^w.Exited&^w.splits[w.cur].Mask != 0
}
