package sm

import (
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// A fixed latency is static in SASS: ptxas pads the stall counts of the
// instructions between a producer and its consumer until they sum to the
// latency, and a warp pays each stall count after the instruction issues,
// whatever it waited for before. Cycles a warp spends waiting on a
// variable-latency result (a scoreboard: shared or global memory, a barrier
// operation's answer) do not count toward the padding. For the 4-cycle
// arithmetic latencies the difference is rarely seen; for latency.pred (13
// cycles from a compare to the branch or guard that reads its predicate) it
// is: branch.csv's loop with a shared load between the compare and its
// branch, and microbench.cu's arrive/wait loop, whose loop-counter compare
// sits before the try_wait and its branch after (the SASS pads the wait's
// branch to a stall of 10 or 12 where a plain not-taken branch has 5).
//
// smsim keeps, per warp, a clock of its issue time less those waits
// (staticClk) and, for each predicate a setp wrote, the value of that clock
// at which it is due; after every issue the predicate's ready time is
// pushed out by the waits since the setp.
type predDue struct {
	idx int32     // scoreboard entry (NumRegs + predicate)
	due sim.Cycle // staticClk at which the predicate is usable
}

// variable reports whether a result produced for reason r has a variable
// latency (a scoreboard in SASS, not a stall count) whose wait the padding
// does not overlap: a shared or global load's, and with syncs.pad_answers after_answer a
// barrier unit's answer. The SASS pads a try_wait's branch too
// (microbench.cu's arrive/wait loops: a stall of 10 or 12 on the branch, for
// the loop counter's compare before it; calibration/h200 latency3.csv's
// reg_sum loop is 10 cycles slower than its spin-separated twin for exactly
// that stall, its TRYWAIT answering 36 cycles after issue in both). Counting
// it needs the answer 6-8 cycles sooner than the default fit has it
// (syncs.latency 36, syncs.acquire 36: latency3.csv's clean arrive -> answer,
// 47 cycles clock to clock), which microbench.csv's single-thread rows do not
// allow: k_lat's 61 and 56 include ~12 cycles of a register reuse after a
// store (latency5.csv), which PTX cannot show (docs/model.md, the elected row).
func (s *SM) variable(r Reason) bool {
	return r == ReasonShortScoreboard || r == ReasonLongScoreboard || r == ReasonMbarrier && s.cfg.Model.PadAnswers == PadAfterAnswer
}

// advanceStatic moves the warp's static clock to the issue of in at now:
// the cycles since its last issue, less those it waited on variable-latency
// operands of in.
func (s *SM) advanceStatic(now sim.Cycle, wc *wctx, pc int32) {
	if len(wc.predDue) == 0 { // the clock only matters relative to pending predicates
		wc.lastIssue = now
		return
	}
	earliest := wc.lastIssue + 1
	var v sim.Cycle
	for _, idx := range s.uops[pc].deps {
		r := wc.ent[idx].at
		if s.variable(wc.ent[idx].why) {
			v = max(v, r)
		} else if r > earliest && !wc.isPredDue(idx) {
			earliest = r
		}
	}
	gap := now - wc.lastIssue
	if v > earliest {
		gap -= min(v, now) - earliest
	}
	wc.staticClk += gap
	wc.lastIssue = now
}

func (wc *wctx) isPredDue(idx int32) bool {
	for _, p := range wc.predDue {
		if p.idx == idx {
			return true
		}
	}
	return false
}

// notePredicate records a setp's predicate, due latency.pred static cycles
// after its issue.
func (s *SM) notePredicate(wc *wctx, d *isa.Operand) {
	idx := wc.predEntry(d.Reg)
	wc.dropPredDue(idx)
	wc.predDue = append(wc.predDue, predDue{idx: idx, due: wc.staticClk + sim.Cycle(s.cfg.Ptxas.PredLatency)})
}

func (wc *wctx) dropPredDue(idx int32) {
	for i, p := range wc.predDue {
		if p.idx == idx {
			wc.predDue = append(wc.predDue[:i], wc.predDue[i+1:]...)
			return
		}
	}
}

// pushPredicates sets each pending predicate's ready time from the static
// clock after an issue at now, and forgets those that are due.
func (s *SM) pushPredicates(now sim.Cycle, wc *wctx) {
	k := 0
	for _, p := range wc.predDue {
		if p.due <= wc.staticClk {
			continue
		}
		if at := now + (p.due - wc.staticClk); at > wc.ent[p.idx].at {
			wc.ent[p.idx].at = at
		}
		wc.predDue[k] = p
		k++
	}
	wc.predDue = wc.predDue[:k]
}
