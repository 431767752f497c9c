//go:build !amd64

package warp

// f32FmaWide leaves every group of four lanes to f32FmaV's per-lane loop:
// the packed FMA lanes are written for amd64 only (fp_lanes_amd64.s).
func f32FmaWide(a, b, c, d *Vec) uint32 { return allGroups }

// f32AddWide and f32MulWide leave the lanes to the Go loops.
func f32AddWide(a, b, d *Vec) bool { return false }

func f32MulWide(a, b, d *Vec) bool { return false }
