package isa

// CFG is a program's control-flow graph, at the granularity of
// instructions and of basic blocks. Node len(Instrs) is a virtual exit,
// the successor of every ending instruction (exit, ret, trap). A direct
// branch's successors are its target and, when it is guarded, the next
// instruction; an indirect branch's are its table's entries (the tables
// given to NewCFG) and, guarded, the next instruction.
//
// A CFG describes the program as it was when NewCFG ran: a pass that
// moves, inserts or deletes instructions builds a new one.
type CFG struct {
	// Succ and Pred list each node's successors and predecessors, in the
	// order the edges were found (by instruction, then successor).
	Succ, Pred [][]int32
	// Targeted counts, per instruction and for the index one past the
	// end, the direct branches (bra) that target it.
	Targeted []int
	// Blocks are the basic blocks in program order; BlockOf gives each
	// instruction's block.
	Blocks  []Block
	BlockOf []int

	idom []int32 // immediate dominators, computed on first use (Dominates)
}

// Block is a basic block: the instructions [Start, End), entered only at
// Start and left only after End-1. Succ and Pred are block indices; a block
// whose last instruction ends the program has no successor (the exit is
// not a block).
type Block struct {
	Start, End int
	Succ, Pred []int
}

// NewCFG builds p's control-flow graph; tables lists the targets of each
// indirect branch (by Instr.Aux), nil when there are none or they are not
// known.
func NewCFG(p *Program, tables [][]int32) *CFG {
	n := len(p.Instrs)
	c := &CFG{Succ: make([][]int32, n+1), Pred: make([][]int32, n+1), Targeted: BranchTargets(p)}
	for i := range p.Instrs {
		c.Succ[i] = successors(&p.Instrs[i], int32(i), int32(n), tables)
	}
	for i := 0; i < n; i++ {
		for _, s := range c.Succ[i] {
			c.Pred[s] = append(c.Pred[s], int32(i))
		}
	}
	c.buildBlocks(p)
	return c
}

// buildBlocks splits the instructions at leaders: the first instruction,
// every branch target and every instruction after a branch or an ending
// instruction.
func (c *CFG) buildBlocks(p *Program) {
	n := len(p.Instrs)
	leader := make([]bool, n+1)
	if n > 0 {
		leader[0] = true
	}
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if in.Op.IsBranch() || in.Op.Ends() {
			leader[i+1] = true
		}
		for _, s := range c.Succ[i] {
			if int(s) < n && int(s) != i+1 {
				leader[s] = true
			}
		}
	}
	c.BlockOf = make([]int, n)
	for i := 0; i < n; {
		j := i + 1
		for j < n && !leader[j] {
			j++
		}
		for k := i; k < j; k++ {
			c.BlockOf[k] = len(c.Blocks)
		}
		c.Blocks = append(c.Blocks, Block{Start: i, End: j})
		i = j
	}
	for b := range c.Blocks {
		blk := &c.Blocks[b]
		for _, s := range c.Succ[blk.End-1] {
			if int(s) == n {
				continue
			}
			t := c.BlockOf[s]
			blk.Succ = append(blk.Succ, t)
			c.Blocks[t].Pred = append(c.Blocks[t].Pred, b)
		}
	}
}

// BranchTargets counts, per instruction index of p and for the index one
// past the end, the direct branches (bra) that target it.
func BranchTargets(p *Program) []int {
	t := make([]int, len(p.Instrs)+1)
	for k := range p.Instrs {
		if in := &p.Instrs[k]; in.Op == OpBra && in.Target >= 0 && int(in.Target) <= len(p.Instrs) {
			t[in.Target]++
		}
	}
	return t
}

// HasIndirect reports whether p holds an indirect branch (brx.idx), whose
// targets only its table knows.
func (p *Program) HasIndirect() bool {
	for i := range p.Instrs {
		if p.Instrs[i].Op == OpBrx {
			return true
		}
	}
	return false
}

// successors lists the control-flow successors of instruction i of a
// program of n instructions (n is the virtual exit).
func successors(in *Instr, i, n int32, tables [][]int32) []int32 {
	exit := n
	next := i + 1
	switch {
	case in.Op == OpBra:
		if in.Guard.Kind == KNone {
			return []int32{in.Target}
		}
		return []int32{in.Target, next}
	case in.Op == OpBrx:
		var out []int32
		if int(in.Aux) < len(tables) {
			out = append(out, tables[in.Aux]...)
		}
		if in.Guard.Kind != KNone {
			out = append(out, next)
		}
		return out
	case in.Op.Ends():
		if in.Guard.Kind != KNone {
			return []int32{exit, next}
		}
		return []int32{exit}
	}
	return []int32{next}
}
