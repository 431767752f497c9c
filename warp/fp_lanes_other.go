//go:build !amd64

package warp

// f32FmaWide leaves every group of four lanes to f32FmaV's per-lane loop:
// the packed FMA lanes are written for amd64 only (fp_lanes_amd64.s).
func f32FmaWide(a, b, c, d *Vec) uint32 { return allGroups }
