package sm

import (
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// uop is what the scheduler and the issue stage read of one instruction at
// every look and every issue, decoded once per launch from the program and
// the configuration: the readiness check and the issue then index one
// record by pc instead of classifying the instruction again.
type uop struct {
	deps     []int32   // scoreboard entries of its guard and operands, read or written (scoreboardEntries)
	pipes    pipePair  // the pipes it may issue to (pipesOf)
	group    uint8     // the number of its pipes among the program's (pipeGroups)
	path     uint8     // the datapath of its own pipe (latency.mufu_forward)
	throttle Reason    // what a warp waits for while its pipes are busy (throttleReason)
	syncs    bool      // a barrier-unit instruction: its queue and the unit's can hold it too (unitsReady)
	lat      sim.Cycle // its class's pipe latency
	interval int       // cycles it holds its pipe
	aluLat   sim.Cycle // the latency of its results as an ALU operation (aluLatency)
	consts   bool      // reads a constant bank (SASS c[][] operands: constcache.go)
	await    bool      // a look that finds it not ready notes that then only its pipes can hold it (look: awaitDeps)
}

// decode builds the uops of program p under configuration cfg.
func decode(p *isa.Program, cfg *Config) []uop {
	deps := scoreboardEntries(p)
	pipes := pipeTable(p)
	late := latePaths(pipes, cfg)
	us := make([]uop, len(p.Instrs))
	for i := range p.Instrs {
		c := p.Instrs[i].Class
		us[i] = uop{deps: deps[i], pipes: pipes[i], path: late[datapath(int(pipes[i][0]))], throttle: throttleReason(c),
			syncs: c == isa.ClassSyncs, lat: sim.Cycle(cfg.Pipes.Latency[c]), interval: cfg.Pipes.Interval[c],
			aluLat: aluLatency(&p.Instrs[i], cfg, p.Scheduled), consts: readsConst(&p.Instrs[i]),
			await: awaits(p, &p.Instrs[i]) && !fullLooks}
	}
	return us
}

// fullLooks makes every look a full one (no uop awaits): tests compare
// the looks that awaitDeps spares with full ones.
var fullLooks = false

// awaits reports whether a look at instruction in of program p that finds
// it not ready can note that at the cycle it found only the instruction's
// pipes can hold it (awaitDeps): whatever else can change that cycle resets
// depPC. Not a barrier-unit instruction, whose unit and queue can hold it
// too; in a program Scheduled by its control bits, not one that waits on a
// scoreboard, whose counts an answer or a result releases: one that waits
// on none is held by the warp's own issues alone (its stall count, a
// branch's redirect, a copy's acceptance, a membar: ctrlReadyAt).
func awaits(p *isa.Program, in *isa.Instr) bool {
	if in.Class == isa.ClassSyncs {
		return false
	}
	return !p.Scheduled || in.Ctrl.Wait&(1<<isa.NumSB-1) == 0
}

// latePaths maps each datapath to the one an instruction on it reads its
// operands as (uop.path): itself where the results of the other datapath
// reach it late (latency.mufu_forward), else pathNone, whose readiness
// check skips the forwarding test. A scoreboard entry's datapath is that
// of a pipe some instruction of the program issued to (wctx.issuePath) or
// pathNone, so where no instruction can issue to the other datapath's
// pipes, or the forward is zero cycles, nothing reaches an instruction
// late.
func latePaths(pipes []pipePair, cfg *Config) (late [3]uint8) {
	var produced [3]bool
	for _, pp := range pipes {
		for _, p := range pp {
			if p >= 0 {
				produced[pipePaths[p]] = true
			}
		}
	}
	for _, path := range [...]uint8{pathArith, pathMUFU} {
		if cfg.Pipes.MUFUForward != 0 && produced[pathArith+pathMUFU-path] {
			late[path] = path
		}
	}
	return late
}

// decodeKernels resolves the lane kernel of each instruction of p that has
// one (warp.DecodeKernel): those are ALU operations that execute hands to
// the warp first, before its dispatch by opcode.
func decodeKernels(p *isa.Program) []warp.Kernel {
	ks := make([]warp.Kernel, len(p.Instrs))
	for i := range p.Instrs {
		if !laneKernels {
			break
		}
		ks[i] = warp.DecodeKernel(p, &p.Instrs[i])
	}
	return ks
}

// laneKernels lets instructions issue through their decoded lane kernels;
// tests compare it with every instruction through execute.
var laneKernels = true

// readsConst says whether in reads a constant-bank operand.
func readsConst(in *isa.Instr) bool {
	for i := int(in.NDst); i < len(in.Ops); i++ {
		if in.Ops[i].Kind == isa.KConst {
			return true
		}
	}
	return false
}
