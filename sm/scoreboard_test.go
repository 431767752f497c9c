package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// The register scoreboard holds an instruction until every entry it reads
// or writes is ready, names the wait after the latest, and adds
// latency.mufu_forward to a value that crosses into or out of the MUFU unit.
func TestRegisterScoreboardHoldsUntilReady(t *testing.T) {
	const fwd = 1
	for _, tc := range []struct {
		name    string
		path    uint8 // the reading instruction's datapath
		ready   [3]sim.Cycle
		reasons [3]Reason
		paths   [3]uint8
		want    sim.Cycle
		wantWhy Reason
		entries []int32
	}{
		{name: "the latest operand decides", path: pathArith, ready: [3]sim.Cycle{10, 30, 20},
			reasons: [3]Reason{ReasonWait, ReasonLongScoreboard, ReasonShortScoreboard}, entries: []int32{0, 1, 2},
			want: 30, wantWhy: ReasonLongScoreboard},
		{name: "no operands: ready at once", path: pathArith, want: 0, wantWhy: ReasonWait},
		{name: "a MUFU result read by the FMA pipe: a cycle late", path: pathArith, ready: [3]sim.Cycle{17},
			paths: [3]uint8{pathMUFU}, entries: []int32{0}, want: 17 + fwd, wantWhy: ReasonWait},
		{name: "an FMA result read by the MUFU unit: a cycle late", path: pathMUFU, ready: [3]sim.Cycle{4},
			paths: [3]uint8{pathArith}, entries: []int32{0}, want: 4 + fwd, wantWhy: ReasonWait},
		{name: "within one datapath: on time", path: pathArith, ready: [3]sim.Cycle{4},
			paths: [3]uint8{pathArith}, entries: []int32{0}, want: 4, wantWhy: ReasonWait},
		{name: "a memory result is not forwarded", path: pathMUFU, ready: [3]sim.Cycle{23},
			paths: [3]uint8{pathNone}, reasons: [3]Reason{ReasonShortScoreboard}, entries: []int32{0}, want: 23, wantWhy: ReasonShortScoreboard},
		{name: "a predicate is an entry after the registers", path: pathArith, ready: [3]sim.Cycle{0, 0, 13},
			entries: []int32{2}, want: 13, wantWhy: ReasonWait},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newRegBoard(2, 1)
			for i := range tc.ready {
				why := tc.reasons[i]
				if why == ReasonSelected { // not set: a fixed latency's
					why = ReasonWait
				}
				b.ent[i] = sbEntry{at: tc.ready[i], why: why, path: tc.paths[i]}
			}
			got, why := b.readyAt(tc.entries, tc.path, fwd)
			if got != tc.want || why != tc.wantWhy {
				t.Errorf("ready at %d (%s), want %d (%s)", got, why, tc.want, tc.wantWhy)
			}
		})
	}
	t.Run("set marks a register pair and a predicate", func(t *testing.T) {
		b := newRegBoard(4, 2)
		pair := isa.R(2)
		pair.Mod |= isa.MPair
		if p := b.set(&pair, 40, ReasonLongScoreboard); p != -1 {
			t.Errorf("a register reported as predicate entry %d", p)
		}
		if b.ent[2].at != 40 || b.ent[3].at != 40 || b.ent[1].at != 0 {
			t.Errorf("pair R2: entries %v, want R2 and R3 ready at 40", b.ent)
		}
		if p := b.set(&isa.Operand{Kind: isa.KPred, Reg: 1}, 13, ReasonWait); p != 5 || b.ent[5].at != 13 {
			t.Errorf("P1: entry %d ready at %d, want entry 5 at 13", p, b.ent[5].at)
		}
	})
}

// A Scheduled program's dependency scoreboard counts an instruction from
// its issue until its result is written; a result whose answer comes later
// (a barrier wait's) moves the release with it.
func TestControlScoreboardsCountUntilRelease(t *testing.T) {
	wc := &wctx{regBoard: newRegBoard(4, 1)}
	wc.sb[1] = append(wc.sb[1], sbItem{at: 30, ents: noEnts, why: ReasonShortScoreboard})
	it := sbItem{at: 10, ents: [4]int32{3, -1, -1, -1}, why: ReasonMbarrier}
	wc.ent[3].at, wc.ent[3].why = 50, ReasonMbarrier // the answer, known later than the item's own time
	wc.sb[1] = append(wc.sb[1], it)
	for _, c := range []struct {
		now       sim.Cycle
		count     int
		release   sim.Cycle
		releaseBy Reason
	}{
		{0, 2, 50, ReasonMbarrier},
		{29, 2, 50, ReasonMbarrier},
		{30, 1, 50, ReasonMbarrier},
		{49, 1, 50, ReasonMbarrier},
		{50, 0, 0, ReasonShortScoreboard},
	} {
		if n := wc.sbCount(c.now, 1); n != c.count {
			t.Errorf("at %d: scoreboard 1 counts %d, want %d", c.now, n, c.count)
		}
		if r, why := wc.sbReady(c.now, 1); r != c.release || why != c.releaseBy {
			t.Errorf("at %d: released at %d (%s), want %d (%s)", c.now, r, why, c.release, c.releaseBy)
		}
	}
}
