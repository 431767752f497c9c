package isa

// Reconverge sets Reconv on every conditional or indirect branch to the
// branch's immediate post-dominator: the first instruction every path from
// the branch must reach. Divergent paths of a warp meet again there. A branch
// whose paths meet only at exit gets NoReconv. Both frontends call it after
// resolving branch targets; table lists the targets of each brx (by Aux).
func Reconverge(p *Program, tables [][]int32) {
	n := len(p.Instrs)
	exit := n // virtual exit node
	succ := make([][]int32, n+1)
	for i := range p.Instrs {
		succ[i] = successors(&p.Instrs[i], int32(i), int32(n), tables)
	}
	// Predecessors in the reverse graph are successors in the forward graph;
	// post-dominators are dominators of the reverse graph rooted at exit.
	pred := make([][]int32, n+1) // reverse-graph successors = forward predecessors
	for i := 0; i < n; i++ {
		for _, s := range succ[i] {
			pred[s] = append(pred[s], int32(i))
		}
	}
	order := reversePostorder(exit, pred)
	rpoNum := make([]int32, n+1)
	for i := range rpoNum {
		rpoNum[i] = -1
	}
	for k, v := range order {
		rpoNum[v] = int32(k)
	}
	ipdom := make([]int32, n+1)
	for i := range ipdom {
		ipdom[i] = -1
	}
	ipdom[exit] = int32(exit)
	for changed := true; changed; {
		changed = false
		for _, v := range order[1:] {
			newIdom := int32(-1)
			for _, s := range succ[v] { // forward successors are reverse-graph predecessors
				if ipdom[s] < 0 {
					continue
				}
				if newIdom < 0 {
					newIdom = s
				} else {
					newIdom = intersect(s, newIdom, ipdom, rpoNum)
				}
			}
			if newIdom >= 0 && ipdom[v] != newIdom {
				ipdom[v] = newIdom
				changed = true
			}
		}
	}
	for i := range p.Instrs {
		in := &p.Instrs[i]
		in.Reconv = NoReconv
		if !in.Op.IsBranch() {
			continue
		}
		if d := ipdom[i]; d >= 0 && d != int32(exit) {
			in.Reconv = d
		}
	}
}

func successors(in *Instr, i, n int32, tables [][]int32) []int32 {
	exit := n
	next := i + 1
	if next > n {
		next = exit
	}
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

func intersect(a, b int32, idom, num []int32) int32 {
	for a != b {
		for num[a] > num[b] {
			a = idom[a]
		}
		for num[b] > num[a] {
			b = idom[b]
		}
	}
	return a
}

// reversePostorder walks the graph edges from root (iteratively, so deep
// programs cannot overflow the stack).
func reversePostorder(root int, edges [][]int32) []int32 {
	seen := make([]bool, len(edges))
	var post []int32
	type frame struct {
		v int32
		k int
	}
	stack := []frame{{int32(root), 0}}
	seen[root] = true
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.k < len(edges[f.v]) {
			w := edges[f.v][f.k]
			f.k++
			if !seen[w] {
				seen[w] = true
				stack = append(stack, frame{w, 0})
			}
			continue
		}
		post = append(post, f.v)
		stack = stack[:len(stack)-1]
	}
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}
