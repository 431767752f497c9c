package tma_test

import (
	"fmt"

	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sharedmem"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/tma"
)

// windows adapts one shared-memory window per CTA to tma.SharedMem, as the
// SM does.
type windows []*sharedmem.Memory

func (w windows) ReadShared(cta int, off uint32, b []byte) error  { return w[cta].Read(off, b) }
func (w windows) WriteShared(cta int, off uint32, b []byte) error { return w[cta].Write(off, b) }

// printSink prints each complete-tx instead of updating a barrier.
type printSink struct{}

func (printSink) CompleteTx(_ sim.Cycle, cta int, mbar, bytes uint32, id uint64) error {
	fmt.Printf("complete_tx: CTA %d, barrier %#x, %d bytes (copy %d)\n", cta, mbar, bytes, id)
	return nil
}

// A 64x64 fp16 box loaded at (32, 32) from a 64x64 tensor: a quarter of it
// lies inside the tensor, yet the barrier is credited the whole box, as the
// H200 does (mbarrier-semantics.md §5.2).
func Example() {
	eng := sim.New()
	global := memory.NewGlobal()
	path, _ := memory.NewHierarchy(memory.DefaultConfig())
	unit, _ := tma.New(tma.DefaultConfig(), eng, global, path, windows{sharedmem.New(64 << 10)}, printSink{})

	spec, _ := tma.ParseMapSpec("tensormap:f16,64x64,box=64x64,fill=seq")
	base, _ := global.Alloc(spec.AllocBytes(), 0, "tensor")
	fill, _ := memory.ParseFill(spec.Fill)
	_ = global.SetFill(base, fill)
	m, _ := spec.WithBase(base)

	err := unit.TensorLoad(0, tma.TensorLoad{CTA: 0, Dst: 1024, Map: m, Coords: [5]int32{32, 32}, Mbar: 8, CopyID: 1})
	if err != nil {
		fmt.Println(err)
	}
	_ = eng.Run(sim.Never - 1)
	s := unit.Stats()
	fmt.Printf("box of %d bytes: %d read from the tensor, %d filled with zero\n", m.BoxBytes(), s.BytesLoaded-s.OOBBytes, s.OOBBytes)
	// Output:
	// complete_tx: CTA 0, barrier 0x8, 8192 bytes (copy 1)
	// box of 8192 bytes: 2048 read from the tensor, 6144 filled with zero
}
