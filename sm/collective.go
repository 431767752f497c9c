package sm

import (
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// Vote modes (isa.Instr.Mode of OpVote).
const (
	VoteAll    = 0
	VoteAny    = 1
	VoteUni    = 2
	VoteBallot = 3
)

// Shuffle modes (isa.Instr.Mode of OpShfl).
const (
	ShflUp   = 0
	ShflDown = 1
	ShflBfly = 2
	ShflIdx  = 3
)

// execCollective runs warp-wide operations over the lanes of the current split.
func (s *SM) execCollective(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	w := wc.w
	t := uint64(now - s.start)
	if s.awaitMembers(wc, in, mask, t) {
		return nil
	}
	var r warp.Vec
	switch in.Op {
	case isa.OpActivemask:
		for l := range r {
			r[l] = uint64(mask)
		}
		w.Write(in.Dst(0), mask, &r, isa.B32)
	case isa.OpElect:
		leader := 0
		members := mask
		if in.NSrc() > 0 {
			members &= uint32(w.Scalar(in.Src(0), mask, t))
		}
		for leader < warp.Lanes && members>>leader&1 == 0 {
			leader++
		}
		for l := range r {
			r[l] = uint64(leader)
		}
		if d := in.Dst(0); d.Kind == isa.KReg {
			w.Write(d, mask, &r, isa.U32)
		}
		for i := 0; i < int(in.NDst); i++ {
			if d := in.Dst(i); d.Kind == isa.KPred {
				w.SetPred(d.Reg, mask, 1<<leader&members)
			}
		}
	case isa.OpVote:
		p := w.PredOperand(in.Src(0)) & mask
		var v uint64
		switch in.Mode {
		case VoteAll:
			v = b2u(p == mask)
		case VoteAny:
			v = b2u(p != 0)
		case VoteUni:
			v = b2u(p == 0 || p == mask)
		case VoteBallot:
			v = uint64(p)
		}
		if d := in.Dst(0); d.Kind == isa.KPred {
			if v != 0 {
				w.SetPred(d.Reg, mask, warp.FullMask)
			} else {
				w.SetPred(d.Reg, mask, 0)
			}
		} else {
			for l := range r {
				r[l] = v
			}
			w.Write(d, mask, &r, isa.B32)
		}
	case isa.OpShfl:
		s.shuffle(wc, in, mask, t)
	case isa.OpMatch, isa.OpRedux:
		s.matchRedux(wc, in, mask, t)
	}
	why := ReasonWait
	if in.Class == isa.ClassShared {
		why = ReasonShortScoreboard // a shuffle waits for the shared-memory pipe's result
	}
	s.dstReady(wc, in, now+sim.Cycle(s.cfg.Pipes.Latency[in.Class]), why)
	w.Advance()
	return nil
}

// awaitMembers parks a split at a PTX .sync collective whose membermask
// (its last operand) names lanes that have not exited and run elsewhere:
// they execute it together once those lanes reach it (warp.SyncGate). A
// SASS program's collectives carry no membermask: ptxas converges the
// lanes first (WARPSYNC, BSYNC).
func (s *SM) awaitMembers(wc *wctx, in *isa.Instr, mask uint32, t uint64) bool {
	if s.prog.Scheduled || in.Op == isa.OpActivemask || len(in.Ops) <= int(in.NDst) {
		return false
	}
	w := wc.w
	member := uint32(w.Scalar(&in.Ops[len(in.Ops)-1], mask, t))
	if member&w.Live&^w.Exited&^mask == 0 {
		return false
	}
	w.SyncGate(member)
	return true
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// shuffle implements shfl.sync: d[, p] = shfl.mode a, b (lane/offset), c (clamp/segment), membermask.
func (s *SM) shuffle(wc *wctx, in *isa.Instr, mask uint32, t uint64) {
	w := wc.w
	a := *w.Operand(in.Src(0), 0, mask, t)
	bv := *w.Operand(in.Src(1), 1, mask, t)
	cv := *w.Operand(in.Src(2), 2, mask, t)
	var r warp.Vec
	var valid uint32
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		bb, c := int(bv[l]&31), uint32(cv[l])
		maxLane := int(c & 31)
		segMask := int(c >> 8 & 31)
		minLane := l & segMask
		maxLane = minLane | (maxLane &^ segMask)
		j := l
		ok := true
		switch in.Mode {
		case ShflUp:
			j = l - bb
			ok = j >= maxLane
		case ShflDown:
			j = l + bb
			ok = j <= maxLane
		case ShflBfly:
			j = l ^ bb
			ok = j <= maxLane
		default:
			j = minLane | (bb &^ segMask)
			ok = j <= maxLane
		}
		if !ok || j < 0 || j >= warp.Lanes {
			j = l
		}
		r[l] = a[j]
		if ok {
			valid |= 1 << l
		}
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
	if in.NDst > 1 && in.Dst(1).Kind == isa.KPred {
		w.SetPred(in.Dst(1).Reg, mask, valid)
	}
}

// matchRedux implements match.any/all and redux.sync.
func (s *SM) matchRedux(wc *wctx, in *isa.Instr, mask uint32, t uint64) {
	w := wc.w
	a := *w.Operand(in.Src(0), 0, mask, t)
	if in.Type.Bits() == 32 { // compare only the operand's width
		for l := range a {
			a[l] &= 0xffffffff
		}
	}
	var r warp.Vec
	if in.Op == isa.OpMatch {
		for l := 0; l < warp.Lanes; l++ {
			var m uint32
			for k := 0; k < warp.Lanes; k++ {
				if mask>>k&1 != 0 && a[k] == a[l] {
					m |= 1 << k
				}
			}
			r[l] = uint64(m)
			if in.Mode == 1 && m != mask { // match.all: mask if all equal, else 0
				r[l] = 0
			}
		}
		w.Write(in.Dst(0), mask, &r, isa.B32)
		return
	}
	var acc uint64
	first := true
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		v := a[l] & 0xffffffff
		if first {
			acc, first = v, false
			continue
		}
		acc = atomOp(in.Atom, in.Type, acc, v, 0)
	}
	for l := range r {
		r[l] = acc
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
}
