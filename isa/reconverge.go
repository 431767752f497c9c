package isa

// Reconverge sets Reconv on every conditional or indirect branch to the
// branch's immediate post-dominator: the first instruction every path from
// the branch must reach. Divergent paths of a warp meet again there. A branch
// whose paths meet only at exit gets NoReconv. Both frontends call it after
// resolving branch targets; table lists the targets of each brx (by Aux).
func Reconverge(p *Program, tables [][]int32) {
	n := len(p.Instrs)
	c := NewCFG(p, tables)
	// Post-dominators are dominators of the reverse graph rooted at the exit.
	ipdom := immediateDominators(n, c.Pred, c.Succ)
	for i := range p.Instrs {
		in := &p.Instrs[i]
		in.Reconv = NoReconv
		if !in.Op.IsBranch() {
			continue
		}
		if d := ipdom[i]; d >= 0 && d != int32(n) {
			in.Reconv = d
		}
	}
}

// immediateDominators returns each node's immediate dominator in the graph
// whose edges are succ, rooted at root (pred lists each node's incoming
// edges); -1 for a node the root does not reach, root for the root. It is
// Cooper, Harvey and Kennedy's iterative algorithm over reverse postorder.
func immediateDominators(root int, succ, pred [][]int32) []int32 {
	order := reversePostorder(root, succ)
	rpoNum := make([]int32, len(succ))
	for i := range rpoNum {
		rpoNum[i] = -1
	}
	for k, v := range order {
		rpoNum[v] = int32(k)
	}
	idom := make([]int32, len(succ))
	for i := range idom {
		idom[i] = -1
	}
	idom[root] = int32(root)
	for changed := true; changed; {
		changed = false
		for _, v := range order[1:] {
			newIdom := int32(-1)
			for _, s := range pred[v] {
				if idom[s] < 0 {
					continue
				}
				if newIdom < 0 {
					newIdom = s
				} else {
					newIdom = intersect(s, newIdom, idom, rpoNum)
				}
			}
			if newIdom >= 0 && idom[v] != newIdom {
				idom[v] = newIdom
				changed = true
			}
		}
	}
	return idom
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
