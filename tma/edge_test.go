package tma

import (
	"errors"
	"testing"

	"github.com/smsim/smsim/sim"
)

func TestEdge43_BulkCopySizeNotMultipleOf16IsRejected(t *testing.T) {
	tests := []struct {
		name string
		load Load
		code Code
	}{
		{"size 24", Load{Dst: 0, Src: gbase, Size: 24}, BadSize},
		{"size 0", Load{Dst: 0, Src: gbase, Size: 0}, BadSize},
		{"size 8", Load{Dst: 0, Src: gbase, Size: 8}, BadSize},
		{"global source not 16-byte aligned", Load{Dst: 0, Src: gbase + 8, Size: 16}, Misaligned},
		{"shared destination not 16-byte aligned", Load{Dst: 4, Src: gbase, Size: 16}, Misaligned},
		{"barrier not 8-byte aligned", Load{Dst: 0, Src: gbase, Size: 16, Mbar: 0x104}, Misaligned},
		{"shared range past the shared memory", Load{Dst: 228<<10 - 16, Src: gbase, Size: 32}, RangeOverflow},
		{"global range wraps", Load{Dst: 0, Src: 1<<64 - 16, Size: 32}, RangeOverflow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, nil)
			err := r.u.Load(0, tt.load)
			var e *Error
			if !errors.As(err, &e) || e.Code != tt.code {
				t.Fatalf("got %v, want a *Error with code %v", err, tt.code)
			}
			if r.eng.Pending() != 0 || r.u.Stats() != (Stats{}) {
				t.Error("a rejected copy was scheduled or counted")
			}
		})
	}
	r := newRig(t, nil)
	err := r.u.Store(0, Store{Dst: gbase, Src: 0, Size: 24})
	var e *Error
	if !errors.As(err, &e) || e.Code != BadSize || e.Code.Edge() != 43 {
		t.Errorf("store of 24 bytes: got %v, want bad size (§4 #43)", err)
	}
}

func TestEdge55_CopyLargerThanTxLimitRejected(t *testing.T) {
	r := newRig(t, func(c *Config) { c.SmemBytes = 4 << 20 }) // a what-if SM with room for it
	err := r.u.Load(0, Load{Dst: 0, Src: gbase, Size: 2 << 20})
	var e *Error
	if !errors.As(err, &e) || e.Code != TxRange {
		t.Errorf("2 MiB copy: got %v, want tx-count out of range", err)
	}
	if err := r.u.Load(0, Load{Dst: 0, Src: gbase, Size: 1<<20 - 16}); err != nil {
		t.Errorf("largest creditable copy: got %v", err)
	}
}

func TestEdge44_PartlyOutOfBoundsBoxCreditsFullBox(t *testing.T) {
	r := newRig(t, nil)
	m := f16Map2D(64, 64, 16, 16, SwizzleNone)
	if err := r.u.TensorLoad(0, TensorLoad{Dst: 0, Map: m, Coords: [5]int32{-8, -8}, Mbar: 0x8000, CopyID: 7}); err != nil {
		t.Fatal(err)
	}
	for i := range r.smem[0][:512] {
		r.smem[0][i] = 0xee // the fill must overwrite this
	}
	r.run(t)
	if len(r.sink.recs) != 1 || r.sink.recs[0].bytes != 512 || r.sink.recs[0].id != 7 || r.sink.recs[0].mbar != 0x8000 {
		t.Fatalf("got %+v, want one complete-tx of the full 512-byte box", r.sink.recs)
	}
	for row := 0; row < 16; row++ {
		for col := 0; col < 16; col++ {
			x, y := col-8, row-8
			got := r.smem[0][2*(row*16+col) : 2*(row*16+col)+2]
			want := []byte{0, 0}
			if x >= 0 && y >= 0 {
				off := 2 * (y*64 + x)
				want = r.g.b[off : off+2]
			}
			if got[0] != want[0] || got[1] != want[1] {
				t.Fatalf("element (%d,%d): got %x, want %x", x, y, got, want)
			}
		}
	}
	if s := r.u.Stats(); s.OOBBytes != 512-128 || s.BytesLoaded != 512 {
		t.Errorf("stats: %+v, want 384 OOB bytes of 512 loaded", s)
	}
}

// hwprobe.cu P2 and probe.csv semantics_tma_oob: a 64x64 fp16 box on a 64x64
// tensor credits 8192 bytes wherever it lies.
func TestMeasured5_2_OutOfBoundsBoxCreditsFullBox(t *testing.T) {
	tests := []struct {
		name   string
		coords [5]int32
		oob    uint64
	}{
		{"in bounds at (0,0)", [5]int32{0, 0}, 0},
		{"quarter in bounds at (32,32)", [5]int32{32, 32}, 8192 - 2048},
		{"fully out of bounds at (64,64)", [5]int32{64, 64}, 8192},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, nil)
			m := f16Map2D(64, 64, 64, 64, SwizzleNone)
			if err := r.u.TensorLoad(0, TensorLoad{Dst: 1024, Map: m, Coords: tt.coords, Mbar: 0}); err != nil {
				t.Fatal(err)
			}
			r.run(t)
			if len(r.sink.recs) != 1 || r.sink.recs[0].bytes != 8192 {
				t.Fatalf("got %+v, want one complete-tx of 8192 bytes", r.sink.recs)
			}
			if got := r.u.Stats().OOBBytes; got != tt.oob {
				t.Errorf("OOB bytes: got %d, want %d", got, tt.oob)
			}
		})
	}
}

func TestEdge45_TensorStoreNegativeOriginRejectedAndPastEndClipped(t *testing.T) {
	r := newRig(t, nil)
	m := f16Map2D(64, 64, 16, 16, SwizzleNone)
	err := r.u.TensorStore(0, TensorStore{Thread: 1, Map: m, Coords: [5]int32{-1, 0}, Src: 0})
	var e *Error
	if !errors.As(err, &e) || e.Code != NegativeOrigin || e.Code.Edge() != 45 {
		t.Fatalf("negative origin: got %v, want negative origin (§4 #45)", err)
	}
	for i := range r.g.b[:64*64*2] {
		r.g.b[i] = 0xaa
	}
	for i := range r.smem[0][:512] {
		r.smem[0][i] = byte(i)
	}
	if err := r.u.TensorStore(0, TensorStore{Thread: 1, Map: m, Coords: [5]int32{56, 56}, Src: 0}); err != nil {
		t.Fatal(err)
	}
	r.u.Commit(1)
	r.run(t)
	written := 0
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			off := 2 * (y*64 + x)
			if r.g.b[off] == 0xaa && r.g.b[off+1] == 0xaa {
				continue
			}
			written++
			row, col := y-56, x-56
			if row < 0 || col < 0 || r.g.b[off] != byte(2*(row*16+col)) {
				t.Fatalf("element (%d,%d) written with %x", x, y, r.g.b[off:off+2])
			}
		}
	}
	if written != 64 || r.g.b[64*64*2] == 0xaa {
		t.Errorf("got %d elements written, want the 8x8 in bounds and nothing past the tensor", written)
	}
}

func TestEdge51_BulkGroupsCompleteInCommitOrder(t *testing.T) {
	r := newRig(t, nil)
	const th = 42
	store := func(size uint32) {
		t.Helper()
		if err := r.u.Store(0, Store{Thread: th, Dst: gbase, Src: 0, Size: size}); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.u.WaitGroup(0, th, 0, false); got != 0 {
		t.Errorf("no groups: got %d, want now", got)
	}
	store(32 << 10) // g1: slow
	r.u.Commit(th)
	store(16) // g2: fast, lands before g1
	r.u.Commit(th)
	store(16) // g3
	r.u.Commit(th)
	store(16) // not committed: never waited for
	g := r.u.groups[th]
	if g.done[1] < g.done[0] || g.done[2] < g.done[1] {
		t.Fatalf("group completions %v are not in commit order", g.done)
	}
	if w1, w0 := r.u.WaitGroup(0, th, 1, false), r.u.WaitGroup(0, th, 0, false); w1 != g.done[1] || w0 != g.done[2] {
		t.Errorf("wait_group 1 → %d (want %d), wait_group 0 → %d (want %d)", w1, g.done[1], w0, g.done[2])
	}
	if rd, full := r.u.WaitGroup(0, th, 0, true), r.u.WaitGroup(0, th, 0, false); rd > full {
		t.Errorf("wait_group.read %d is later than wait_group %d", rd, full)
	}
	if got := r.u.WaitGroup(0, th, 3, false); got != 0 {
		t.Errorf("wait_group 3 with 3 groups: got %d, want now", got)
	}
	r.u.Commit(th) // g4 holds the uncommitted store
	r.u.Commit(th) // g5 is empty and completes with g4
	if g.done[4] != g.done[3] {
		t.Errorf("empty group completes at %d, want its predecessor's %d", g.done[4], g.done[3])
	}
	later := g.done[4] + 1
	if got := r.u.WaitGroup(later, th, 0, false); got != later || len(g.done) != 0 {
		t.Errorf("after everything landed: got %d with %d groups pending", got, len(g.done))
	}
	_ = sim.Never
}
