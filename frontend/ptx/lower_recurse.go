package ptx

// recBudget bounds the instructions that inlining one recursion may
// produce: each recursive function is inlined as many levels deep as its
// copies fit in it (at most maxCallDepth levels).
const recBudget = 1 << 18

// recursionDepth is how many times the function being lowered is already
// active in the inlining stack (1 for a function called once).
func (l *lowerer) recursionDepth() int {
	if len(l.calls) == 0 {
		return 0
	}
	fn := l.calls[len(l.calls)-1]
	n := 0
	for _, c := range l.calls {
		if c == fn {
			n++
		}
	}
	return n
}

// recursionLimit is how many activations of fn may be inlined into one
// another. A function that cannot call itself has no limit (0); for one
// that can, it is the largest depth d whose copies, s instructions each
// with c recursive calls, fit recBudget: s * (1 + c + ... + c^(d-1)).
func (l *lowerer) recursionLimit(fn *Func) int {
	if d, ok := l.recLimit[fn]; ok {
		return d
	}
	s, c := 0, 0
	fn.Body.Walk(func(st Stmt) {
		in, ok := st.(*Instr)
		if !ok {
			return
		}
		s++
		if in.Op == "call" && l.reaches(calleeName(in), fn) {
			c++
		}
	})
	d := 0
	if c > 0 {
		for total, level := 0, s; d < maxCallDepth && total+level <= recBudget; d++ {
			total += level
			level *= c
		}
		d = max(d, 1)
	}
	l.recLimit[fn] = d
	return d
}

// calleeName is the name of the function a call instruction names ("" for
// an indirect call).
func calleeName(in *Instr) string {
	for _, o := range in.Operands {
		if s, ok := o.(*Sym); ok {
			return s.Name
		}
	}
	return ""
}

// reaches reports whether function name can (transitively) call target.
func (l *lowerer) reaches(name string, target *Func) bool {
	seen := map[*Func]bool{}
	var visit func(f *Func) bool
	visit = func(f *Func) bool {
		if f == nil || f.Body == nil || seen[f] {
			return false
		}
		if f == target {
			return true
		}
		seen[f] = true
		found := false
		f.Body.Walk(func(st Stmt) {
			if in, ok := st.(*Instr); ok && in.Op == "call" && !found {
				found = visit(l.mod.Func(calleeName(in)))
			}
		})
		return found
	}
	return visit(l.mod.Func(name))
}
