package memory_test

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sim"
)

// One SM's path to global memory on the H200 defaults: where each access is
// served and after how many cycles. The accesses are a thousand cycles apart,
// so none queues behind another. The heap's first 4 KiB have their home in
// the L2 partition far from this SM, the next 4 KiB in its own.
func ExampleHierarchy_Access() {
	h, err := memory.NewHierarchy(memory.DefaultConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	a := isa.HeapBase
	for i, s := range []struct {
		what  string
		addr  uint64
		write bool
	}{
		{"first load, far home", a, false},
		{"the same line again", a + 4, false},
		{"a store, near home", a + 4096, true},
		{"a load of the stored line", a + 4096, false},
	} {
		lat, lvl := h.Access(sim.Cycle(1000*i), s.addr, 4, s.write)
		fmt.Printf("%-26s %-4v %4d cycles\n", s.what, lvl, lat)
	}
	// Output:
	// first load, far home       DRAM  806 cycles
	// the same line again        L1     39 cycles
	// a store, near home         L2    189 cycles
	// a load of the stored line  L2    286 cycles
}

// The buffer fills of --arg buf:SIZE:FILL: f16int gives float16 integers
// in [-8, 8), whose products and sums a GEMM computes exactly.
func ExampleParseFill() {
	f, err := memory.ParseFill("f16int:7")
	if err != nil {
		fmt.Println(err)
		return
	}
	b := make([]byte, 8)
	f.Generate(0, b)
	fmt.Printf("%s: % x\n", f, b)
	for k := uint64(0); k < 4; k++ {
		fmt.Print(memory.F16Int(7, k), " ")
	}
	fmt.Println()
	// Output:
	// f16int:7: 00 c0 00 c8 00 46 00 3c
	// -2 -8 6 1
}
