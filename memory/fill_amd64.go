package memory

import "golang.org/x/sys/cpu"

// hasAVX2 reports whether f32RandAVX2 may run on this host.
var hasAVX2 = cpu.X86.HasAVX2

// f32RandAVX2 writes n (a multiple of 4) words of an f32rand fill to dst,
// word i from the SplitMix64 state z + i·gamma, four at a time
// (fill_amd64.s): the same mix, with 64-bit products made of 32-bit ones,
// and the same float (a 24-bit integer, converted exactly, times 2^-23).
//
//go:noescape
func f32RandAVX2(dst *byte, n int, z uint64)

// f32RandWide writes the leading multiple of four of the words that fit in
// b from state z, where the host has AVX2, and returns how many it wrote.
func f32RandWide(b []byte, z uint64) int {
	n := len(b) / 4 &^ 3
	if !hasAVX2 || n == 0 {
		return 0
	}
	f32RandAVX2(&b[0], n, z)
	return n
}
