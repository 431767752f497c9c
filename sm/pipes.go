package sm

import (
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// Execution pipes of a sub-partition. Each timing class has a pipe of its
// own (pipeFree is indexed by class), and three of them are the halves of
// the H200's integer and fp32 datapath, 16 lanes each, so that a warp
// instruction holds one for two cycles (calibration/h200 throughput.csv):
//
//   - the integer pipe (ClassALU's): logic, shifts, compares, selects — LOP3
//     alone runs 2.07 cycles an instruction;
//   - the FMA-heavy pipe (ClassIMAD's): IMAD only runs there, 2.00 cycles an
//     instruction;
//   - the FMA-lite pipe (pipeFMALite).
//
// An fp32 FMA (and an HFMA2, isa.ClassHalf2; its HFMA2.MMA form has a pipe of
// its own) may issue to either half of the FMA pipe (FFMA alone runs one
// a cycle; IMAD alternating with FFMA too), and ptxas puts integer adds and
// moves on the integer pipe or, as IMAD.IADD and IMAD.MOV, on the FMA-heavy
// pipe (32 adds of throughput.cu's loop became 11 IADD3 and 21 IMAD.IADD:
// 1.31 cycles an add). Such an instruction takes whichever of its two pipes
// is free first.
const (
	pipeInt      = int(isa.ClassALU)
	pipeFMAHeavy = int(isa.ClassIMAD)
	pipeFMALite  = isa.NumClasses
	numPipes     = isa.NumClasses + 1
)

// pipesOf returns the pipe an instruction issues to and, where it has a
// choice, the other one it may use (-1: none).
func pipesOf(in *isa.Instr) (int, int) {
	switch in.Class {
	case isa.ClassFMA, isa.ClassHalf2, isa.ClassCvtFloat:
		return pipeFMALite, pipeFMAHeavy
	case isa.ClassALU:
		if movesToIMAD(in) {
			return pipeInt, pipeFMAHeavy
		}
	}
	return int(in.Class), -1
}

// movesToIMAD reports whether ptxas may issue an integer-pipe instruction as
// an IMAD form on the FMA-heavy pipe: an integer add or subtract (IMAD.IADD),
// a register or immediate move (IMAD.MOV), a left shift by a constant
// (IMAD.SHL).
func movesToIMAD(in *isa.Instr) bool {
	switch in.Op {
	case isa.OpAdd, isa.OpSub:
		return in.NSrc() == 2 && !in.Type.Float() && in.Type.Bits() <= 32 && !in.Flags.Has(isa.FSat) && !in.Flags.Has(isa.FCC) && !in.Flags.Has(isa.FCarryIn)
	case isa.OpMov:
		return in.NSrc() == 1 && (in.Src(0).Kind == isa.KReg || in.Src(0).Kind == isa.KImm) && in.Type.Bits() <= 32
	case isa.OpShl:
		return in.NSrc() == 2 && in.Src(1).Kind == isa.KImm && in.Type.Bits() <= 32
	}
	return false
}

// pipePair is an instruction's pipe and the other it may use (-1: none),
// computed once per program (pipeTable): the scheduler looks them up every
// cycle a warp waits for one.
type pipePair [2]int16

// pipeTable returns each instruction's pipePair.
func pipeTable(p *isa.Program) []pipePair {
	t := make([]pipePair, len(p.Instrs))
	for i := range p.Instrs {
		a, b := pipesOf(&p.Instrs[i])
		t[i] = pipePair{int16(a), int16(b)}
	}
	return t
}

// pipeReady returns the first cycle at which one of the pipes accepts an
// instruction.
func (sc *scheduler) pipeReady(pp pipePair) sim.Cycle {
	pf := sc.pipeFree[pp[0]]
	if pp[1] >= 0 && sc.pipeFree[pp[1]] < pf {
		pf = sc.pipeFree[pp[1]]
	}
	return pf
}

// occupy books an instruction's pipe from cycle now: the first free of its
// pipes (its own on a tie). It returns the pipe.
func (sc *scheduler) occupy(now sim.Cycle, pp pipePair, interval int) int {
	p := int(pp[0])
	if pp[1] >= 0 && sc.pipeFree[pp[1]] < sc.pipeFree[p] && sc.pipeFree[p] > now {
		p = int(pp[1])
	}
	sc.pipeFree[p] = now + sim.Cycle(interval)
	return p
}

// The datapaths a result crosses: the MUFU unit's results reach the other
// arithmetic pipes (integer, FMA, fp64, tensor) a cycle late, and theirs reach
// the MUFU unit a cycle late (latency.mufu_forward). pipeline.cu's chains that
// go through the MUFU unit and back run two cycles a pair over the sum of the
// latencies: MUFU.RCP with FFMA 23.11 cycles a pair, F2I with I2FP 23.13
// (17 + 4 + 2). Between the other pipes nothing is measured late: convert.csv's
// I2FP-and-IMAD chains, wspipe.cu's I2FP into FADD and the integer/FMA mixes of
// the other kernels run at their latencies (charging a cycle there too took
// wspipe.csv from 2.98 to 7.55 %).
const (
	pathNone  uint8 = iota // not an arithmetic pipe: memory, barriers, special registers, divisions
	pathArith              // the integer, FMA, fp64 and tensor pipes
	pathMUFU               // the MUFU unit
)

// pipePaths is each pipe's datapath, for the issue stage's look-up.
var pipePaths = func() (t [numPipes]uint8) {
	for p := range t {
		t[p] = datapath(p)
	}
	return t
}()

// datapath returns the datapath of a pipe.
func datapath(p int) uint8 {
	switch p {
	case pipeInt, pipeFMALite, pipeFMAHeavy, int(isa.ClassFMA), int(isa.ClassFP64), int(isa.ClassHalf2),
		int(isa.ClassHalf2MMA), int(isa.ClassCvtFloat), int(isa.ClassCompute):
		return pathArith
	case int(isa.ClassSFU):
		return pathMUFU
	}
	return pathNone
}
