package tma

import (
	"testing"

	"github.com/smsim/smsim/sim"
)

// A load's requests reach the memory path when simulated time reaches them,
// never earlier: row i of a box at t + i·rowCost, a 1-D load's at t. The
// request path is booked first come, first served, so a request booked at
// issue for a later cycle would hold back the warps' stores in between.
func TestLoadsRequestTheirRowsAsTimeReachesThem(t *testing.T) {
	for _, tt := range []struct {
		name  string
		issue func(r *rig) error
		rows  int
		first sim.Cycle // cycle of the first request, from the issue
		every sim.Cycle // cycles between rows
	}{
		{"1-D load", func(r *rig) error {
			return r.u.Load(1000, Load{Dst: 0, Src: gbase, Size: 4096})
		}, 1, 26, 0},
		{"tensor load, rows 10 cycles apart", func(r *rig) error {
			m := f16Map2D(256, 64, 64, 8, SwizzleNone)
			return r.u.TensorLoad(1000, TensorLoad{Map: m, Coords: [5]int32{0, 0}})
		}, 8, 46 + 80 + 26 + 10, 10},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, func(c *Config) { c.RowCycles = 10 })
			r.path.eng = r.eng
			if err := r.eng.Run(1000); err != nil {
				t.Fatal(err)
			}
			if err := tt.issue(r); err != nil {
				t.Fatal(err)
			}
			if len(r.path.calls) != 0 {
				t.Fatalf("requests sent at issue: %v", r.path.calls)
			}
			r.run(t)
			if len(r.path.calls) != tt.rows {
				t.Fatalf("%d requests, want %d", len(r.path.calls), tt.rows)
			}
			for i, c := range r.path.calls {
				want := 1000 + tt.first + sim.Cycle(i)*tt.every
				if c[0] != want || c[1] != want {
					t.Errorf("row %d requested for cycle %d at cycle %d, want both %d", i, c[0], c[1], want)
				}
			}
			if len(r.sink.recs) != 1 {
				t.Errorf("%d completions, want 1", len(r.sink.recs))
			}
		})
	}
}
