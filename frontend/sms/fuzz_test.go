package sms

import (
	"errors"
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
)

// FuzzCompile checks that no input makes the compiler panic or hang, that
// every error is a one-line *Error starting with the file name, and that
// every program it accepts is well formed.
func FuzzCompile(f *testing.F) {
	for _, rel := range goldenSources(f) {
		f.Add(readSource(f, rel))
	}
	f.Add([]byte("barrier b[2]\nwait b[lane] parity 1 hint 3\n"))
	f.Add([]byte("warps 0, 1.. { for i in 9..0 step -3 { if i % 2 { exit } } }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Compile("f.sms", src)
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), "f.sms:") || strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("malformed error %T %q", err, err.Error())
			}
			return
		}
		if len(p.Instrs) == 0 || p.Instrs[len(p.Instrs)-1].Op != isa.OpExit {
			t.Fatalf("program does not end with exit")
		}
		for i := range p.Instrs {
			in := &p.Instrs[i]
			if in.Op.IsBranch() && (in.Target < 0 || int(in.Target) >= len(p.Instrs)) {
				t.Fatalf("instruction %d branches to %d of %d", i, in.Target, len(p.Instrs))
			}
			for _, o := range append([]isa.Operand{in.Guard}, in.Ops...) {
				regs := o.Kind == isa.KReg || o.Kind == isa.KAddr
				if regs && int(o.Reg) >= p.NumRegs || o.Kind == isa.KPred && int(o.Reg) >= p.NumPreds {
					t.Fatalf("instruction %d uses %s beyond the register files", i, o.String())
				}
			}
		}
	})
}
