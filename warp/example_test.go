package warp_test

import (
	"fmt"

	"github.com/smsim/smsim/warp"
)

// A wgmma shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor
// Format") for a 128B-swizzled K-major tile at shared offset 0x400 with a
// stride of 1024 bytes between 8-row groups, as a CUTLASS-style kernel
// builds it, and the fields read back.
func ExampleEncodeMatrixDesc() {
	d := warp.EncodeMatrixDesc(warp.MatrixDesc{Start: 0x400, LBO: 16, SBO: 1024, Swizzle: 128})
	fmt.Printf("descriptor %#016x\n", d)
	fmt.Printf("%+v\n", warp.DecodeMatrixDesc(d))
	// Output:
	// descriptor 0x4000004000010040
	// {Start:1024 LBO:16 SBO:1024 Base:0 Swizzle:128}
}

// Which accumulator element of a wgmma lane holds which element of D:
// lane 5 of the warpgroup's warp 1, its first four f32 registers.
func ExampleAccPos() {
	for i := 0; i < 4; i++ {
		r, c := warp.AccPos(1, 5, i)
		fmt.Printf("d[%d] = D[%d][%d]\n", i, r, c)
	}
	// Output:
	// d[0] = D[17][2]
	// d[1] = D[17][3]
	// d[2] = D[25][2]
	// d[3] = D[25][3]
}
