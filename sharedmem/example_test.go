package sharedmem_test

import (
	"fmt"

	"github.com/smsim/smsim/sharedmem"
)

// Bank conflicts of one warp's 4-byte accesses by the stride between its
// lanes' words: consecutive words, every second word (two lanes a bank), a
// column of a 32-word-wide array (all lanes in one bank), the same padded by
// one word, and one word read by every lane (a broadcast).
func ExampleConfig_Wavefronts() {
	c := sharedmem.DefaultConfig()
	for _, tt := range []struct {
		name   string
		stride uint32 // words between lanes
	}{
		{"consecutive", 1},
		{"stride 2", 2},
		{"column of a 32-wide array", 32},
		{"column, padded to 33", 33},
		{"broadcast", 0},
	} {
		var addrs [sharedmem.WarpSize]uint32
		for l := range addrs {
			addrs[l] = uint32(l) * tt.stride * 4
		}
		w := c.Wavefronts(&addrs, 0xffffffff, 4)
		fmt.Printf("%-26s %2d wavefronts, %2d extra cycles\n", tt.name, w, c.ExtraCycles(w))
	}
	// Output:
	// consecutive                 1 wavefronts,  0 extra cycles
	// stride 2                    2 wavefronts,  2 extra cycles
	// column of a 32-wide array  32 wavefronts, 62 extra cycles
	// column, padded to 33        1 wavefronts,  0 extra cycles
	// broadcast                   1 wavefronts,  0 extra cycles
}
