#include "textflag.h"

// f32AddAVX2 and f32MulAVX2 are f32AddV and f32MulV four lanes at a time
// (fp_lanes_amd64.go): the low 32 bits of four 64-bit lanes packed
// (VPERMD), one packed IEEE single-precision add or
// multiply to nearest (VADDPS, VMULPS: the host's float32 arithmetic, as
// the Go loops), a NaN result replaced by the canonical NaN, and the
// results zero-extended into the lanes of d. A group is written after its
// operands are read, so d may be a or b.

// VPERMD indices: the low 32 bits of four 64-bit lanes, packed.
DATA lanePack<>+0(SB)/4, $0
DATA lanePack<>+4(SB)/4, $2
DATA lanePack<>+8(SB)/4, $4
DATA lanePack<>+12(SB)/4, $6
DATA lanePack<>+16(SB)/4, $0
DATA lanePack<>+20(SB)/4, $2
DATA lanePack<>+24(SB)/4, $4
DATA lanePack<>+28(SB)/4, $6
GLOBL lanePack<>(SB), RODATA|NOPTR, $32

DATA f32CanonNaN<>+0(SB)/4, $0x7fffffff
GLOBL f32CanonNaN<>(SB), RODATA|NOPTR, $4

#define ARITH4(op, off) \
	VPERMD    off(SI), Y15, Y0; \
	VPERMD    off(DI), Y15, Y1; \
	op        X1, X0, X0; \
	VCMPPS    $3, X0, X0, X2; \
	VBLENDVPS X2, X14, X0, X0; \
	VPMOVZXDQ X0, Y0; \
	VMOVDQU   Y0, off(DX)

#define LANES(op) \
	MOVQ a+0(FP), SI; \
	MOVQ b+8(FP), DI; \
	MOVQ d+16(FP), DX; \
	VMOVDQU      lanePack<>(SB), Y15; \
	VPBROADCASTD f32CanonNaN<>(SB), X14; \
	ARITH4(op, 0); \
	ARITH4(op, 32); \
	ARITH4(op, 64); \
	ARITH4(op, 96); \
	ARITH4(op, 128); \
	ARITH4(op, 160); \
	ARITH4(op, 192); \
	ARITH4(op, 224); \
	VZEROUPPER; \
	RET

// func f32AddAVX2(a, b, d *Vec)
TEXT ·f32AddAVX2(SB), NOSPLIT, $0-24
	LANES(VADDPS)

// func f32MulAVX2(a, b, d *Vec)
TEXT ·f32MulAVX2(SB), NOSPLIT, $0-24
	LANES(VMULPS)
