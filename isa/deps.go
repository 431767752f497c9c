package isa

// MemAccess is how an instruction touches memory, as far as ordering it
// against other instructions goes: the state space it reads or writes, and
// the ordering it imposes on accesses of every space around it. By the PTX
// memory model an acquire keeps later accesses after it and a release keeps
// earlier ones before it; a fence, a CTA or mbarrier synchronisation, an
// asynchronous copy (its own proxy's reads and writes), a call, and a
// volatile or sequentially consistent access are both.
type MemAccess struct {
	Space            Space
	Read, Write      bool
	Acquire, Release bool
}

// Touches reports whether the instruction touches memory at all.
func (m MemAccess) Touches() bool { return m.Read || m.Write || m.Acquire || m.Release }

// Mem says how in touches memory.
func (in *Instr) Mem() MemAccess {
	var m MemAccess
	switch in.Op {
	case OpLd, OpLdmatrix:
		m = MemAccess{Space: in.Space, Read: true}
	case OpSt, OpStmatrix:
		m = MemAccess{Space: in.Space, Write: true}
	case OpAtom, OpRed:
		m = MemAccess{Space: in.Space, Read: true, Write: true}
	case OpPrefetch:
		return MemAccess{} // a hint: no value read, nothing ordered
	case OpFence, OpCall, OpBarSync, OpBarArrive, OpBarRed, OpClusterArrive, OpClusterWait,
		OpCpAsync, OpCpAsyncCommit, OpCpAsyncWait, OpBulkCopy, OpBulkTensor, OpBulkPrefetch, OpBulkReduce,
		OpBulkCommit, OpBulkWait, OpTensormapReplace, OpTensormapCopy,
		OpWgmma, OpWgmmaFence, OpWgmmaCommit, OpWgmmaWait:
		// wgmma reads shared memory asynchronously, through the async
		// proxy: nothing moves across it or its fences and waits.
		return MemAccess{Space: in.Space, Acquire: true, Release: true}
	default:
		if in.Op.IsMbarrier() {
			return MemAccess{Space: in.Space, Acquire: true, Release: true}
		}
		return MemAccess{}
	}
	switch {
	case in.Flags.Has(FVolatile) || in.Sem == SemVolatile || in.Sem == SemSC || in.Sem == SemAcqRel:
		m.Acquire, m.Release = true, true
	case in.Sem == SemAcquire:
		m.Acquire = true
	case in.Sem == SemRelease:
		m.Release = true
	}
	return m
}

// MayAlias reports whether addresses in state spaces a and b may name the
// same bytes: a generic address may point into any space's window, and
// .shared::cluster addresses include the CTA's own .shared ones.
func MayAlias(a, b Space) bool {
	switch {
	case a == b, a == Generic, b == Generic:
		return true
	case (a == Shared || a == Cluster) && (b == Shared || b == Cluster):
		return true
	}
	return false
}

// MemOrdered reports whether b, after a in a straight run, must stay after
// it for memory's sake: a is an acquire and b touches memory, b is a release
// and a touches memory, or both access spaces that may alias and one of them
// writes. Plain loads never order each other.
func MemOrdered(a, b MemAccess) bool {
	if !a.Touches() || !b.Touches() {
		return false
	}
	if a.Acquire || b.Release {
		return true
	}
	return (a.Write || b.Write) && (a.Read || a.Write) && (b.Read || b.Write) && MayAlias(a.Space, b.Space)
}

// Deps is the dependence graph of a straight run of instructions: Preds[i]
// lists the instructions i must follow, Succs[i] those that must follow it,
// each in the order the edges were found.
type Deps struct {
	Preds, Succs [][]int
}

// Dependences builds the dependence graph of r, a straight run of
// instructions (no branch enters or leaves between its first and last): a
// register or predicate read after it is written, written after it is read,
// written after it is written; and, when mem is true, memory ordered by
// state space (MemOrdered). With mem false, memory instructions are ordered
// only by their registers: a caller that keeps them in place needs no more.
func Dependences(r []Instr, mem bool) Deps {
	n := len(r)
	d := Deps{Preds: make([][]int, n), Succs: make([][]int, n)}
	lastWrite := map[Loc]int{}
	reads := map[Loc][]int{} // reads since the last write
	var accesses []int       // instructions of r that touch memory
	for i := range r {
		var rd, wr []Loc
		r[i].Uses(func(l Loc, def bool) {
			if def {
				wr = append(wr, l)
			} else {
				rd = append(rd, l)
			}
		})
		dep := func(j int) {
			for _, x := range d.Preds[i] {
				if x == j {
					return
				}
			}
			d.Preds[i] = append(d.Preds[i], j)
			d.Succs[j] = append(d.Succs[j], i)
		}
		for _, l := range rd {
			if j, ok := lastWrite[l]; ok {
				dep(j) // read after write
			}
		}
		for _, l := range wr {
			if j, ok := lastWrite[l]; ok {
				dep(j) // write after write
			}
			for _, j := range reads[l] {
				if j != i {
					dep(j) // write after read
				}
			}
		}
		for _, l := range rd {
			reads[l] = append(reads[l], i)
		}
		for _, l := range wr {
			lastWrite[l] = i
			reads[l] = nil
		}
		if !mem {
			continue
		}
		m := r[i].Mem()
		if !m.Touches() {
			continue
		}
		for _, j := range accesses {
			if MemOrdered(r[j].Mem(), m) {
				dep(j)
			}
		}
		accesses = append(accesses, i)
	}
	return d
}
