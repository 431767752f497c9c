package memory

import (
	"testing"

	"github.com/smsim/smsim/sim"
)

// The request path's booking: one source alone queues behind itself; two
// sources take turns, a request each, while both have requests waiting (a
// store's line is one request of its sectors' packets).
func TestRequestPathTakesTurns(t *testing.T) {
	type book struct {
		src  upSource
		at   sim.Cycle
		n    int
		per  int       // packets a request
		wait sim.Cycle // up's result: queueing and the packets after the first
	}
	for _, tt := range []struct {
		name      string
		books     []book
		lsu, copy sim.Cycle // each source's backlog end afterwards
	}{
		{"one packet on an idle path", []book{{upLSU, 10, 1, 1, 0}}, 11, 0},
		{"one source queues behind itself", []book{{upCopy, 10, 8, 1, 7}, {upCopy, 10, 4, 1, 11}}, 0, 22},
		{"a later request finds the backlog drained", []book{{upLSU, 10, 8, 1, 7}, {upLSU, 30, 2, 1, 1}}, 32, 0},
		{"two sources alternate while both wait", []book{{upCopy, 0, 100, 1, 99}, {upLSU, 0, 8, 1, 15}}, 16, 108},
		{"past the other's backlog a source runs alone", []book{{upLSU, 0, 4, 1, 3}, {upCopy, 0, 10, 1, 13}}, 8, 14},
		{"the pushed backlog is what the next packet meets", []book{{upCopy, 0, 10, 1, 9}, {upLSU, 0, 2, 1, 3}, {upCopy, 5, 1, 1, 7}}, 4, 13},
		{"a store's line takes its turn whole", []book{{upCopy, 0, 100, 1, 99}, {upLSU, 0, 4, 4, 4}}, 5, 104},
		{"a request waits for a whole store line", []book{{upLSU, 0, 4, 4, 3}, {upCopy, 0, 1, 1, 4}}, 5, 5},
		{"lines of one sector alternate packet by packet", []book{{upCopy, 0, 100, 1, 99}, {upLSU, 0, 8, 1, 15}}, 16, 108},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newTestHierarchy(t, nil)
			for i, b := range tt.books {
				if got := h.up(b.src, b.at, b.n, b.per); got != b.wait {
					t.Errorf("booking %d (%d packets at %d): wait %d, want %d", i, b.n, b.at, got, b.wait)
				}
			}
			if l, c := h.upFree[upLSU].ceil(), h.upFree[upCopy].ceil(); l != tt.lsu || c != tt.copy {
				t.Errorf("backlogs end at LSU %d, copy %d; want %d, %d", l, c, tt.lsu, tt.copy)
			}
		})
	}
}
