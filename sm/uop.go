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
			aluLat: aluLatency(&p.Instrs[i], cfg, p.Scheduled), consts: readsConst(&p.Instrs[i])}
	}
	return us
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
		ks[i] = warp.DecodeKernel(p, &p.Instrs[i])
	}
	return ks
}

// readsConst says whether in reads a constant-bank operand.
func readsConst(in *isa.Instr) bool {
	for i := int(in.NDst); i < len(in.Ops); i++ {
		if in.Ops[i].Kind == isa.KConst {
			return true
		}
	}
	return false
}
