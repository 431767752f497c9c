package tma

import (
	"errors"
	"fmt"
	"testing"

	"github.com/smsim/smsim/sim"
)

// fakeGlobal is global memory: one flat buffer at base.
type fakeGlobal struct {
	base uint64
	b    []byte
}

func (g *fakeGlobal) span(addr uint64, n int) ([]byte, error) {
	if addr < g.base || addr+uint64(n) > g.base+uint64(len(g.b)) {
		return nil, fmt.Errorf("global %#x+%d outside [%#x, %#x)", addr, n, g.base, g.base+uint64(len(g.b)))
	}
	return g.b[addr-g.base : addr-g.base+uint64(n)], nil
}

func (g *fakeGlobal) Read(addr uint64, b []byte) error {
	s, err := g.span(addr, len(b))
	copy(b, s)
	return err
}

func (g *fakeGlobal) Write(addr uint64, b []byte) error {
	s, err := g.span(addr, len(b))
	copy(s, b)
	return err
}

// fakePath is a memory path of fixed latency and bandwidth with no queueing;
// addresses at or above dramFrom count as DRAM bytes.
type fakePath struct {
	lat      sim.Cycle
	perCycle int
	dramFrom uint64
	streams  int
	reduces  int
	eng      *sim.Engine // when set, Stream records the engine's cycle beside its now
	calls    [][2]sim.Cycle
}

func (p *fakePath) cost(now sim.Cycle, size int) sim.Cycle {
	return now + p.lat + sim.Cycle((size+p.perCycle-1)/p.perCycle)
}

func (p *fakePath) Stream(now sim.Cycle, addr uint64, size int) (sim.Cycle, int) {
	p.streams++
	if p.eng != nil {
		p.calls = append(p.calls, [2]sim.Cycle{now, p.eng.Now()})
	}
	if p.dramFrom != 0 && addr >= p.dramFrom {
		return p.cost(now, size), size
	}
	return p.cost(now, size), 0
}

func (p *fakePath) StreamWrite(now sim.Cycle, _ uint64, size int) sim.Cycle { return p.cost(now, size) }

func (p *fakePath) StreamReduce(now sim.Cycle, addr uint64, size int) (sim.Cycle, int) {
	p.reduces++
	if p.dramFrom != 0 && addr >= p.dramFrom {
		return p.cost(now, size), size
	}
	return p.cost(now, size), 0
}

func (p *fakePath) HitLatency() sim.Cycle { return p.lat }

// fakeSmem holds one window per CTA.
type fakeSmem map[int][]byte

func (s fakeSmem) window(cta int, off uint32, n int) ([]byte, error) {
	w := s[cta]
	if uint64(off)+uint64(n) > uint64(len(w)) {
		return nil, errors.New("shared access out of bounds")
	}
	return w[off : off+uint32(n)], nil
}

func (s fakeSmem) ReadShared(cta int, off uint32, b []byte) error {
	w, err := s.window(cta, off, len(b))
	copy(b, w)
	return err
}

func (s fakeSmem) WriteShared(cta int, off uint32, b []byte) error {
	w, err := s.window(cta, off, len(b))
	copy(w, b)
	return err
}

type txRec struct {
	at    sim.Cycle
	cta   int
	mbar  uint32
	bytes uint32
	id    uint64
}

type fakeSink struct{ recs []txRec }

func (s *fakeSink) CompleteTx(now sim.Cycle, cta int, mbar, bytes uint32, id uint64) error {
	s.recs = append(s.recs, txRec{now, cta, mbar, bytes, id})
	return nil
}

const gbase = 0x7000_0000_0000

// rig is a unit wired to fakes: 1 MiB of global memory holding byte i = i
// mod 251 at gbase, 64 KiB of shared memory for CTA 0, a 100-cycle path at
// 32 B/cycle.
type rig struct {
	u    *Unit
	eng  *sim.Engine
	g    *fakeGlobal
	path *fakePath
	smem fakeSmem
	sink *fakeSink
}

func newRig(t testing.TB, mod func(*Config)) *rig {
	t.Helper()
	cfg := DefaultConfig()
	if mod != nil {
		mod(&cfg)
	}
	r := &rig{eng: sim.New(), g: &fakeGlobal{base: gbase, b: make([]byte, 1<<20)},
		path: &fakePath{lat: 100, perCycle: 32}, smem: fakeSmem{0: make([]byte, 64<<10)}, sink: &fakeSink{}}
	for i := range r.g.b {
		r.g.b[i] = byte(i % 251)
	}
	u, err := New(cfg, r.eng, r.g, r.path, r.smem, r.sink)
	if err != nil {
		t.Fatal(err)
	}
	r.u = u
	return r
}

// run drains the engine.
func (r *rig) run(t testing.TB) {
	t.Helper()
	if err := r.eng.Run(sim.Never - 1); err != nil {
		t.Fatal(err)
	}
}

// landsAt checks that the next completion happens exactly at cycle want:
// nothing at want-1, the complete-tx at want.
func (r *rig) landsAt(t testing.TB, want sim.Cycle) {
	t.Helper()
	n := len(r.sink.recs)
	var le *sim.LimitError
	if err := r.eng.Run(want - 1); !errors.As(err, &le) {
		t.Fatalf("Run(%d): got %v, want the limit error of a pending completion", want-1, err)
	}
	if len(r.sink.recs) != n {
		t.Fatalf("completion before cycle %d: %+v", want, r.sink.recs[n:])
	}
	if err := r.eng.Run(want); err != nil {
		var le *sim.LimitError
		if !errors.As(err, &le) {
			t.Fatal(err)
		}
	}
	if len(r.sink.recs) != n+1 || r.sink.recs[n].at != want {
		t.Fatalf("at cycle %d: got completions %+v, want one", want, r.sink.recs[n:])
	}
}

// f16Map2D is a dims[0] x dims[1] fp16 tensor at gbase with packed rows.
func f16Map2D(w, h uint64, bw, bh uint32, sw Swizzle) Map {
	return Map{DType: F16, Rank: 2, Base: gbase, Dims: [5]uint64{w, h}, Strides: [4]uint64{w * 2},
		Box: [5]uint32{bw, bh}, ElemStrides: [5]uint32{1, 1}, Swizzle: sw}
}
