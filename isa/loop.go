package isa

import "sort"

// Loop is a natural loop: a back edge, the direct branch at Latch to an
// instruction Head that dominates it (every path from the kernel's entry to
// the latch passes through the head), and the instructions of the loop.
// nvcc lays every loop out with its head first and its latch last, so a
// back edge is a branch to an instruction at or before it; Loops reports
// only those.
//
// Body is the natural loop, sorted: the head and every instruction from
// which the latch can be reached without passing through the head. The
// span [Head, Latch] in program order is what most ptxas-modelling passes
// call the loop; the two differ where a loop's code is laid out of order (a
// path moved after the latch that rejoins the loop is in Body, not in the
// span; a break's code inside the span is in the span, not in Body).
type Loop struct {
	Head, Latch int
	Body        []int
}

// InSpan reports whether instruction i lies in [Head, Latch].
func (l *Loop) InSpan(i int) bool { return i >= l.Head && i <= l.Latch }

// Contains reports whether instruction i belongs to the natural loop.
func (l *Loop) Contains(i int) bool {
	lo, hi := 0, len(l.Body)
	for lo < hi {
		m := (lo + hi) / 2
		if l.Body[m] < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(l.Body) && l.Body[lo] == i
}

// Loops returns p's natural loops, one per back edge, in the order of
// their latches. c is p's control-flow graph.
func (c *CFG) Loops(p *Program) []Loop {
	var loops []Loop
	n := len(p.Instrs)
	seen := make([]int, n) // stamp of the last loop that visited an instruction
	for b := range p.Instrs {
		br := &p.Instrs[b]
		if br.Op != OpBra || br.Target < 0 || int(br.Target) > b || !c.Dominates(int(br.Target), b) {
			continue
		}
		h := int(br.Target)
		stamp := len(loops) + 1
		seen[h] = stamp
		body := []int{h}
		var stack []int
		if seen[b] != stamp {
			seen[b] = stamp
			body = append(body, b)
			stack = append(stack, b)
		}
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, q := range c.Pred[v] {
				if seen[q] != stamp {
					seen[q] = stamp
					body = append(body, int(q))
					stack = append(stack, int(q))
				}
			}
		}
		sort.Ints(body)
		loops = append(loops, Loop{Head: h, Latch: b, Body: body})
	}
	return loops
}

// Dominates reports whether instruction a dominates instruction b: every
// path from the kernel's first instruction to b passes through a. An
// instruction the entry does not reach is dominated by nothing.
func (c *CFG) Dominates(a, b int) bool {
	if c.idom == nil {
		n := len(c.BlockOf)
		if n == 0 {
			return false
		}
		c.idom = immediateDominators(0, c.Succ, c.Pred)
	}
	if c.idom[b] < 0 {
		return false
	}
	for {
		if b == a {
			return true
		}
		d := int(c.idom[b])
		if d == b {
			return false // the entry
		}
		b = d
	}
}

// Innermost returns the loop of the shortest span that contains
// instruction i (the first by latch among equals), or false.
func Innermost(loops []Loop, i int) (Loop, bool) {
	best := -1
	for k := range loops {
		l := &loops[k]
		if !l.InSpan(i) {
			continue
		}
		if best < 0 || l.Latch-l.Head < loops[best].Latch-loops[best].Head {
			best = k
		}
	}
	if best < 0 {
		return Loop{}, false
	}
	return loops[best], true
}
