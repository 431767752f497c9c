package isa

import "testing"

// prog builds a program from (op, guarded, target) triples.
func prog(spec ...[3]int) *Program {
	p := &Program{}
	for _, s := range spec {
		in := Instr{Op: Op(s[0]), Target: int32(s[2])}
		if s[1] == 1 {
			in.Guard = P(0)
		}
		p.Instrs = append(p.Instrs, in)
	}
	return p
}

const (
	nop  = int(OpNop)
	bra  = int(OpBra)
	exit = int(OpExit)
)

func TestReconverge(t *testing.T) {
	tests := []struct {
		name   string
		p      *Program
		branch int
		want   int32
	}{
		{"if-then meets after the then-block",
			prog([3]int{bra, 1, 3}, [3]int{nop, 0, 0}, [3]int{nop, 0, 0}, [3]int{nop, 0, 0}, [3]int{exit, 0, 0}), 0, 3},
		{"if-then-else meets after both arms",
			prog([3]int{bra, 1, 3}, [3]int{nop, 0, 0}, [3]int{bra, 0, 4}, [3]int{nop, 0, 0}, [3]int{nop, 0, 0}, [3]int{exit, 0, 0}), 0, 4},
		{"loop back-edge meets at the loop exit",
			prog([3]int{nop, 0, 0}, [3]int{nop, 0, 0}, [3]int{bra, 1, 0}, [3]int{nop, 0, 0}, [3]int{exit, 0, 0}), 2, 3},
		{"branch to an exit path meets only at exit",
			prog([3]int{bra, 1, 3}, [3]int{nop, 0, 0}, [3]int{exit, 0, 0}, [3]int{nop, 0, 0}, [3]int{exit, 0, 0}), 0, NoReconv},
		{"guarded exit then loop: loop exit branch",
			prog([3]int{exit, 1, 0}, [3]int{nop, 0, 0}, [3]int{bra, 1, 1}, [3]int{exit, 0, 0}), 2, 3},
		{"a path that never ends does not move the meeting point",
			prog([3]int{bra, 1, 2}, [3]int{bra, 0, 1}, [3]int{exit, 0, 0}), 0, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			Reconverge(tc.p, nil)
			if got := tc.p.Instrs[tc.branch].Reconv; got != tc.want {
				t.Errorf("got reconvergence %d, want %d", got, tc.want)
			}
		})
	}
}
