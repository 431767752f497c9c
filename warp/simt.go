package warp

import "github.com/smsim/smsim/isa"

// SplitState says whether a split can issue.
type SplitState uint8

// Split states.
const (
	Runnable   SplitState = iota // can issue its next instruction
	AtReconv                     // parked at its innermost reconvergence point
	AtWarpSync                   // parked in bar.warp.sync until the mask's lanes arrive
	Blocked                      // waiting on something outside the warp (the scheduler's business)
	AtBsync                      // parked at a BSYNC until its convergence barrier's lanes arrive (SASS)
)

// String names the state.
func (s SplitState) String() string {
	switch s {
	case Runnable:
		return "runnable"
	case AtReconv:
		return "at-reconvergence"
	case AtWarpSync:
		return "at-warp-sync"
	case Blocked:
		return "blocked"
	case AtBsync:
		return "at-bsync"
	}
	return "?"
}

const maxFrames = Lanes + 1

type frame struct {
	pc int32 // reconvergence point; NoReconv (-1) is never reached
	id uint32
}

// Split is one path of a warp: lanes that share a program counter.
type Split struct {
	PC    int32
	Mask  uint32
	State SplitState
	// SyncMask is the membermask of the bar.warp.sync the split is parked in.
	SyncMask uint32
	// Gate: the split is parked before a .sync collective (SyncGate), not
	// in a bar.warp.sync; released, it runs that instruction.
	Gate bool
	// Bar is the convergence barrier a split parked AtBsync waits on.
	Bar uint8
	// Wait fields belong to the scheduler that blocked the split.
	WaitKind  uint8
	WaitAddr  uint64
	WaitArg   uint64
	WaitUntil uint64
	WaitSince uint64

	frames [maxFrames]frame
	depth  uint8
}

// Splits returns the warp's current paths (read-only use).
func (w *Warp) Splits() []Split { return w.splits }

// Current returns the split that issues next, or nil when none can.
func (w *Warp) Current() *Split {
	if w.cur < len(w.splits) && w.splits[w.cur].State == Runnable {
		return &w.splits[w.cur]
	}
	return nil
}

// CurrentIndex is the index of the current split.
func (w *Warp) CurrentIndex() int { return w.cur }

// Split returns split i.
func (w *Warp) Split(i int) *Split { return &w.splits[i] }

// Runnable reports whether some split can issue.
func (w *Warp) Runnable() bool { return w.Current() != nil }

// Advance moves the current split past a non-branch instruction.
func (w *Warp) Advance() {
	s := &w.splits[w.cur]
	s.PC++
	if s.State == Runnable && (s.depth == 0 || s.PC != s.frames[s.depth-1].pc) {
		return // not at its reconvergence point, and still the current split: settle would change nothing
	}
	w.settle(w.cur)
}

// Branch executes a branch by the current split: the lanes of taken go to
// in.Target, the rest fall through. A backward move lets other splits run.
func (w *Warp) Branch(in *isa.Instr, taken uint32) {
	i := w.cur
	s := &w.splits[i]
	taken &= s.Mask
	rest := s.Mask &^ taken
	backward := taken != 0 && in.Target <= s.PC
	switch {
	case rest == 0:
		s.PC = in.Target
	case taken == 0:
		s.PC++
	default:
		w.nextID++
		f := frame{pc: in.Reconv, id: w.nextID}
		other := *s
		other.Mask = rest
		other.PC = s.PC + 1
		s.Mask = taken
		s.PC = in.Target
		if !w.Prog.ExplicitReconv {
			other.push(f)
			s.push(f)
		}
		w.splits = append(w.splits, other)
		w.settle(len(w.splits) - 1)
	}
	w.settle(i)
	if backward {
		w.rotate()
	}
}

func (s *Split) push(f frame) {
	if int(s.depth) < maxFrames {
		s.frames[s.depth] = f
		s.depth++
	}
}

func (s *Split) top() (frame, bool) {
	if s.depth == 0 {
		return frame{}, false
	}
	return s.frames[s.depth-1], true
}

func (s *Split) holds(id uint32) bool {
	for k := 0; k < int(s.depth); k++ {
		if s.frames[k].id == id {
			return true
		}
	}
	return false
}

// settle parks split i if it reached its reconvergence point, and merges
// splits whose frame is complete.
func (w *Warp) settle(i int) {
	if i >= len(w.splits) {
		return
	}
	s := &w.splits[i]
	if f, ok := s.top(); ok && s.State == Runnable && s.PC == f.pc {
		s.State = AtReconv
		w.tryMerge(f.id)
	}
	w.pick()
}

// tryMerge merges the splits holding frame id if all of them are parked on it.
func (w *Warp) tryMerge(id uint32) {
	var mask uint32
	first := -1
	for k := range w.splits {
		s := &w.splits[k]
		if !s.holds(id) {
			continue
		}
		f, _ := s.top()
		if f.id != id || s.State != AtReconv {
			return
		}
		mask |= s.Mask
		if first < 0 {
			first = k
		}
	}
	if first < 0 {
		return
	}
	m := w.splits[first]
	m.Mask = mask
	m.depth--
	m.State = Runnable
	out := w.splits[:0]
	for k := range w.splits {
		if k == first {
			out = append(out, m)
		} else if !w.splits[k].holds(id) {
			out = append(out, w.splits[k])
		}
	}
	w.splits = out
	w.cur = indexOfPC(w.splits, m.PC, m.Mask)
	// The merged split may stand on an outer frame's point as well.
	w.settle(w.cur)
}

func indexOfPC(ss []Split, pc int32, mask uint32) int {
	for k := range ss {
		if ss[k].PC == pc && ss[k].Mask == mask {
			return k
		}
	}
	return 0
}

// pick keeps cur on a runnable split, moving round-robin when it is not.
func (w *Warp) pick() {
	if w.cur < len(w.splits) && w.splits[w.cur].State == Runnable {
		return
	}
	w.rotate()
}

// rotate moves cur to the next runnable split after it (round-robin), or
// leaves it where it is when no other split can run.
func (w *Warp) rotate() {
	n := len(w.splits)
	for k := 1; k <= n; k++ {
		j := (w.cur + k) % n
		if w.splits[j].State == Runnable {
			w.cur = j
			return
		}
	}
	if w.cur >= n {
		w.cur = 0
	}
}

// Exit retires the lanes of mask from the current split (exit, or ret from
// the kernel). Splits left empty disappear, and frames they held may merge.
func (w *Warp) Exit(mask uint32) {
	w.Exited |= mask
	s := &w.splits[w.cur]
	s.Mask &^= mask
	if s.Mask != 0 {
		s.PC++
		w.settle(w.cur)
		if w.Prog.ExplicitReconv {
			w.releaseWarpSync()
			w.releaseBsync()
			w.pick()
		}
		return
	}
	w.removeSplit(w.cur)
}

func (w *Warp) removeSplit(i int) {
	gone := w.splits[i]
	w.splits = append(w.splits[:i], w.splits[i+1:]...)
	if w.cur >= len(w.splits) {
		w.cur = 0
	}
	// Frames the removed split held may now be complete.
	for k := int(gone.depth) - 1; k >= 0; k-- {
		w.tryMerge(gone.frames[k].id)
	}
	w.releaseWarpSync()
	w.releaseBsync()
	w.pick()
}

// Block marks the current split as blocked (waiting on something outside the warp).
func (w *Warp) Block() *Split {
	s := &w.splits[w.cur]
	s.State = Blocked
	w.pick()
	return s
}

// Unblock makes a blocked split runnable again, advancing it past the
// instruction it blocked on when advance is set.
func (w *Warp) Unblock(s *Split, advance bool) {
	s.State = Runnable
	s.WaitKind = 0
	if advance {
		s.PC++
	}
	for k := range w.splits {
		if &w.splits[k] == s {
			w.settle(k)
			break
		}
	}
	w.pick()
}

// WarpSync parks the current split in bar.warp.sync with membermask mask.
// When every non-exited lane of the mask has reached a warp sync, the parked
// splits move on together (and merge where they share pc and frames).
func (w *Warp) WarpSync(mask uint32) {
	s := &w.splits[w.cur]
	s.State = AtWarpSync
	s.SyncMask = mask
	w.releaseWarpSync()
	w.pick()
}

// SyncGate parks the current split before the .sync collective at its PC
// until the other lanes of mask that have not exited reach one (PTX ISA,
// shfl.sync, vote.sync, elect.sync...: "the executing thread waits until all
// non-exited threads corresponding to membermask have executed" it);
// released, the lanes run the instruction together.
func (w *Warp) SyncGate(mask uint32) {
	s := &w.splits[w.cur]
	s.State = AtWarpSync
	s.SyncMask = mask
	s.Gate = true
	w.releaseWarpSync()
	w.pick()
}

func (w *Warp) releaseWarpSync() {
	for k := range w.splits {
		s := &w.splits[k]
		if s.State != AtWarpSync {
			continue
		}
		need := s.SyncMask &^ w.Exited & w.Live
		// SASS waits for the lanes of the mask at a WARPSYNC of the same
		// mask (PTX: "with the same membermask"), not at another one.
		same := w.Prog.ExplicitReconv
		mask := s.SyncMask
		var have uint32
		for j := range w.splits {
			if t := &w.splits[j]; t.State == AtWarpSync && t.SyncMask&need != 0 && (!same || t.SyncMask == mask) {
				have |= w.splits[j].Mask
			}
		}
		if need&^have != 0 {
			continue
		}
		for j := range w.splits {
			t := &w.splits[j]
			if t.State == AtWarpSync && t.SyncMask&need != 0 && (!same || t.SyncMask == mask) {
				t.State = Runnable
				if !t.Gate {
					t.PC++
				}
				t.Gate = false
			}
		}
		w.mergeEqual()
		for j := range w.splits {
			w.settleNoPick(j)
		}
		return
	}
}

func (w *Warp) settleNoPick(i int) {
	s := &w.splits[i]
	if f, ok := s.top(); ok && s.State == Runnable && s.PC == f.pc {
		s.State = AtReconv
		w.tryMerge(f.id)
	}
}

// mergeEqual joins runnable splits that stand at the same pc with the same frames.
func (w *Warp) mergeEqual() {
	for i := 0; i < len(w.splits); i++ {
		for j := i + 1; j < len(w.splits); j++ {
			a, b := &w.splits[i], &w.splits[j]
			if a.State == Runnable && b.State == Runnable && a.PC == b.PC && sameFrames(a, b) {
				a.Mask |= b.Mask
				w.splits = append(w.splits[:j], w.splits[j+1:]...)
				j--
			}
		}
	}
	if w.cur >= len(w.splits) {
		w.cur = 0
	}
}

func sameFrames(a, b *Split) bool {
	if a.depth != b.depth {
		return false
	}
	for k := 0; k < int(a.depth); k++ {
		if a.frames[k] != b.frames[k] {
			return false
		}
	}
	return true
}

// Yield runs a YIELD by the current split: it moves past it and, when the
// warp has another path, hands the warp to the next one in round-robin
// order among those that can run or are parked at a WARPSYNC or a BSYNC
// (a path blocked on something outside the warp is passed over). A
// runnable path becomes the current split; a parked one keeps its place
// (on the hardware it tries its sync again and hands the warp back). It
// returns the state of the path handed to, and false when there was none.
func (w *Warp) Yield() (SplitState, bool) {
	w.Advance()
	from := w.cur
	n := len(w.splits)
	for k := 1; k < n; k++ {
		j := (from + k) % n
		switch st := w.splits[j].State; st {
		case Runnable:
			w.cur = j
			return st, true
		case AtWarpSync, AtBsync:
			return st, true
		}
	}
	return Runnable, false
}

// ParkedAtWarpSync reports whether a path of the warp other than the
// current one is parked at a WARPSYNC.
func (w *Warp) ParkedAtWarpSync() bool {
	for j := range w.splits {
		if j != w.cur && w.splits[j].State == AtWarpSync {
			return true
		}
	}
	return false
}
