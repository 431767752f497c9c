package compiler

import "github.com/smsim/smsim/isa"

// SerializeWgmma is ptxas's serialization of a kernel's warpgroup MMAs.
var SerializeWgmma = Pass{
	Name: "SerializeWgmma",
	Doc: "Where a kernel's wgmma cannot stay in flight together — a non-wgmma instruction defining or reading " +
		"an accumulator register between the start and end of a pipeline stage, among other causes — ptxas " +
		"serializes every wgmma of the function and says so in its report (`ptxas -v`: \"Potential " +
		"Performance Loss: wgmma.mma_async instructions are serialized due to ...\", C7509-C7520): each " +
		"HGMMA gets a WARPGROUP.ARRIVE before it and a WARPGROUP.DEPBAR.LE gsb0, 0x0 after it " +
		"(SASS: calibration/h200/wgmma_probe.sass, the tm_ timing kernels, whose accumulators are zeroed " +
		"after the wgmma.fence). smsim does the same for a PTX kernel its report names " +
		"(isa.Program.WgmmaSerialized, read from NAME.ptxas beside NAME.ptx): wgmma.fence, the wgmma, " +
		"wgmma.commit_group and wgmma.wait_group 0, as the SASS frontend lowers those instructions.",
	Run: serializeWgmma,
}

// serializeWgmma surrounds each wgmma.mma_async of a program ptxas
// serialized with a fence before it (unless one is already there) and a
// commit and wait for every group after it. The waits only make a warp
// wait sooner: what each lane computes is unchanged; a later
// wgmma.wait_group finds its groups complete, and a later commit closes
// an empty group.
func serializeWgmma(p *isa.Program, _ *Options) {
	if !p.WgmmaSerialized {
		return
	}
	seqs := map[int][]isa.Instr{}
	for k := range p.Instrs {
		in := p.Instrs[k]
		if in.Op != isa.OpWgmma {
			continue
		}
		var seq []isa.Instr
		mk := func(op isa.Op, ops ...isa.Operand) isa.Instr {
			x := isa.Instr{Op: op, Ops: ops, Guard: in.Guard, Pos: in.Pos}
			x.Class = isa.ClassOf(&x)
			return x
		}
		if k == 0 || p.Instrs[k-1].Op != isa.OpWgmmaFence {
			seq = append(seq, mk(isa.OpWgmmaFence))
		}
		seq = append(seq, in, mk(isa.OpWgmmaCommit), mk(isa.OpWgmmaWait, isa.Imm(0)))
		seqs[k] = seq
	}
	expandInstrs(p, seqs)
}
