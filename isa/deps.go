package isa

// MemAccess is how an instruction touches memory, as far as ordering it
// against other instructions goes: the state space it reads or writes, and
// whether it orders every memory access around it (Fence).
type MemAccess struct {
	Space       Space
	Read, Write bool
	// Fence: the instruction orders memory accesses of every space across
	// it — a fence, a CTA or mbarrier synchronisation (release and acquire
	// by the PTX memory model), an atomic or volatile access with
	// ordering semantics, an asynchronous copy (its own proxy's reads and
	// writes), a call.
	Fence bool
}

// Touches reports whether the instruction touches memory at all.
func (m MemAccess) Touches() bool { return m.Read || m.Write || m.Fence }

// Mem says how in touches memory.
func (in *Instr) Mem() MemAccess {
	switch in.Op {
	case OpLd, OpLdmatrix:
		m := MemAccess{Space: in.Space, Read: true}
		if in.Flags.Has(FVolatile) || in.Sem >= SemAcquire {
			m.Fence = true
		}
		return m
	case OpSt, OpStmatrix:
		m := MemAccess{Space: in.Space, Write: true}
		if in.Flags.Has(FVolatile) || in.Sem >= SemAcquire {
			m.Fence = true
		}
		return m
	case OpAtom, OpRed:
		m := MemAccess{Space: in.Space, Read: true, Write: true}
		if in.Sem >= SemAcquire {
			m.Fence = true
		}
		return m
	case OpPrefetch:
		return MemAccess{} // a hint: no value read, nothing ordered
	case OpFence, OpCall, OpBarSync, OpBarArrive, OpBarRed,
		OpCpAsync, OpCpAsyncCommit, OpCpAsyncWait, OpBulkCopy, OpBulkTensor, OpBulkPrefetch, OpBulkReduce,
		OpBulkCommit, OpBulkWait, OpTensormapReplace, OpTensormapCopy:
		return MemAccess{Space: in.Space, Fence: true}
	}
	if in.Op.IsMbarrier() {
		return MemAccess{Space: in.Space, Fence: true}
	}
	return MemAccess{}
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
// it for memory's sake: either orders every access (a fence) and the other
// touches memory, or both access spaces that may alias and one of them
// writes. Loads of the same or different spaces never order each other.
func MemOrdered(a, b MemAccess) bool {
	if !a.Touches() || !b.Touches() {
		return false
	}
	if a.Fence || b.Fence {
		return true
	}
	return (a.Write || b.Write) && MayAlias(a.Space, b.Space)
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
