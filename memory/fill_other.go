//go:build !amd64

package memory

// f32RandWide leaves every word to wholeWords' loop: the packed generator
// is written for amd64 only (fill_amd64.s).
func f32RandWide(b []byte, z uint64) int { return 0 }

// hasAVX2 is false off amd64: there is no packed generator.
var hasAVX2 = false
