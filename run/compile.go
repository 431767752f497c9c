package run

import (
	"github.com/smsim/smsim/compiler"
	"github.com/smsim/smsim/isa"
)

// applyPTXPasses applies to a lowered PTX kernel what ptxas does to such
// code that decides timing: the compiler model's pipeline (compiler.Pipeline).
func applyPTXPasses(p *isa.Program) {
	compiler.Compile(p, compiler.DefaultOptions())
}
