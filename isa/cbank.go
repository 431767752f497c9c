package isa

import "math"

// The driver's part of constant bank 0 of an sm_90 launch, as the SASS of
// the corpus reads it (docs/sass.md says how each was inferred): the launch
// shape, the thread's stack pointer, the generic address of the parameter
// block, and the parameters themselves from BankParams on.
const (
	BankNtid      = 0x000 // blockDim.x, .y, .z (u32 each)
	BankNctaid    = 0x00c // gridDim.x, .y, .z
	BankLocalBase = 0x020 // generic address of the local window (u64): local offset = generic - it
	BankStack     = 0x028 // initial stack pointer R1 (u32): the thread's local bytes, the stack growing down
	// The cluster shape, as k_sreg of testdata/cluster reads it (its SASS
	// against its PTX): ptxas computes %clusterid as the CTA index times the
	// reciprocal, and %cluster_ctaid from it.
	BankClusterExplicit = 0x140 // 1 in a launch with a cluster shape: %is_explicit_cluster is this word == 1
	BankClusterNctaid   = 0x144 // %cluster_nctaid.x, .y, .z (u32 each)
	BankClusterRecip    = 0x150 // 1/%cluster_nctaid.x, .y, .z (f32 each)
	BankNclusterid      = 0x15c // %nclusterid.x, .y, .z
	BankClusterNrank    = 0x188 // %cluster_nctarank
	BankParamAddr       = 0x198 // generic address of the parameter block (u64)
	BankGlobalDesc      = 0x208 // the global-memory descriptor of desc[UR][...] (u64; its value does not matter here)
	BankParams          = 0x210 // the first parameter byte
)

// BuildBank0 lays out constant bank 0 of a launch: the block and grid
// shapes, the stack pointer for local bytes per thread, the parameter
// window, then params.
func BuildBank0(block, grid, cluster [3]int, local int, params []byte) []byte {
	b := make([]byte, BankParams+len(params))
	put32 := func(off int, v uint32) {
		b[off], b[off+1], b[off+2], b[off+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
	}
	put64 := func(off int, v uint64) { put32(off, uint32(v)); put32(off+4, uint32(v>>32)) }
	for i := 0; i < 3; i++ {
		put32(BankNtid+4*i, uint32(block[i]))
		put32(BankNctaid+4*i, uint32(grid[i]))
	}
	if cluster != [3]int{} {
		put32(BankClusterExplicit, 1)
	}
	n := 1
	for i := 0; i < 3; i++ {
		c := max(cluster[i], 1)
		n *= c
		put32(BankClusterNctaid+4*i, uint32(c))
		put32(BankClusterRecip+4*i, math.Float32bits(recipUp(c)))
		put32(BankNclusterid+4*i, uint32(grid[i]/c))
	}
	put32(BankClusterNrank, uint32(n))
	put64(BankLocalBase, LocalWindow)
	put32(BankStack, uint32(local))
	put64(BankParamAddr, ParamWindow)
	put64(BankGlobalDesc, 0)
	copy(b[BankParams:], params)
	return b
}

// recipUp is 1/n as an f32 no smaller than 1/n, so that truncating
// index*recipUp(n) gives index/n for the CTA indices of a launch (assumed:
// the driver's rounding of the word was not read back).
func recipUp(n int) float32 {
	f := float32(1 / float64(n))
	if float64(f) < 1/float64(n) {
		f = math.Nextafter32(f, 1)
	}
	return f
}
