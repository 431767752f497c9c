package gpu

import (
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/sm"
)

// serialMemory is global memory as one SM of a GPU sees it: every access
// first takes the SM's turn (sim.Engine.Serial), since the SMs share the
// memory's bytes (and its read path's own state: the last page found, the
// clean-page cache).
type serialMemory struct {
	m Memory
	e *sim.Engine
}

func (s serialMemory) Read(addr uint64, b []byte) error {
	s.e.Serial()
	return s.m.Read(addr, b)
}

func (s serialMemory) Write(addr uint64, b []byte) error {
	s.e.Serial()
	return s.m.Write(addr, b)
}

// serialSpanMemory is serialMemory over a memory with a warp-wide path. A
// span's bytes are used within the cycle, while the SM holds its turn.
type serialSpanMemory struct {
	serialMemory
	sp sm.SpanMemory
}

func (s serialSpanMemory) Span(lo, hi uint64, scratch []byte) ([]byte, bool) {
	s.e.Serial()
	return s.sp.Span(lo, hi, scratch)
}

func (s serialSpanMemory) WritableSpan(lo, hi uint64) ([]byte, bool) {
	s.e.Serial()
	return s.sp.WritableSpan(lo, hi)
}

// smMemory wraps gm for the SM whose engine is e.
func smMemory(gm Memory, e *sim.Engine) Memory {
	s := serialMemory{m: gm, e: e}
	if sp, ok := gm.(sm.SpanMemory); ok {
		return serialSpanMemory{s, sp}
	}
	return s
}
