//go:build !amd64

package warp

// f32FmaWide leaves every group of four lanes to f32FmaV's per-lane loop:
// the packed FMA lanes are written for amd64 only (fp_lanes_amd64.s).
func f32FmaWide(a, b, c, d *Vec) uint32 { return allGroups }

// f32AddWide and f32MulWide leave the lanes to the Go loops.
func f32AddWide(a, b, d *Vec) bool { return false }

func f32MulWide(a, b, d *Vec) bool { return false }

// hadd2F32Wide leaves every group of four lanes to hadd2F32's loop.
func hadd2F32Wide(a, b, r *Vec) uint32 { return allGroups }

// f16PackWide leaves every group of four lanes to f16PackLanes's loop.
func f16PackWide(d, a, b *Vec) uint32 { return allGroups }

// f32ToF16Wide and f16ToF32Wide leave every group to the per-lane loops.
func f32ToF16Wide(d, a *Vec) uint32 { return allGroups }

func f16ToF32Wide(d, a *Vec) uint32 { return allGroups }

func f16WidenWide(d, a *Vec, shift uint64) uint32 { return allGroups }

// int32ToF32Wide leaves the lanes to intToF32Lanes's loops.
func int32ToF32Wide(d, a *Vec, signed bool) bool { return false }

// f32TruncWide leaves every group to f32ToIntLanes's loop.
func f32TruncWide(d, a *Vec, neg uint32, wide bool) uint32 { return allGroups }

// hasAVX2 and hasF16C are false off amd64: the packed lanes are not built.
var hasAVX2, hasF16C = false, false
