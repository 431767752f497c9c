#include "textflag.h"

// f32FmaAVX2 is f32FmaV four lanes at a time (fp_lanes_amd64.go): the same
// float64 product and sum, the same rounding to f32 and the same test of
// the sum's exponent and low bits, with AVX2's packed instructions.

// VPERMD indices: the low 32 bits of four 64-bit lanes, packed.
DATA fmaPack<>+0(SB)/4, $0
DATA fmaPack<>+4(SB)/4, $2
DATA fmaPack<>+8(SB)/4, $4
DATA fmaPack<>+12(SB)/4, $6
DATA fmaPack<>+16(SB)/4, $0
DATA fmaPack<>+20(SB)/4, $2
DATA fmaPack<>+24(SB)/4, $4
DATA fmaPack<>+28(SB)/4, $6
GLOBL fmaPack<>(SB), RODATA|NOPTR, $32

DATA fmaExpField<>+0(SB)/8, $0x7ff      // a float64's exponent field, shifted down
GLOBL fmaExpField<>(SB), RODATA|NOPTR, $8
DATA fmaMinNormal<>+0(SB)/8, $897       // 1023-126: the exponent of f32's smallest normal
GLOBL fmaMinNormal<>(SB), RODATA|NOPTR, $8
DATA fmaMaxFinite<>+0(SB)/8, $2046      // above it: infinity or NaN
GLOBL fmaMaxFinite<>(SB), RODATA|NOPTR, $8
DATA fmaBelowF32<>+0(SB)/8, $0x1fffffff // the 29 bits below f32 precision
GLOBL fmaBelowF32<>(SB), RODATA|NOPTR, $8
DATA fmaMidpoint<>+0(SB)/8, $0x10000000 // ... on an f32 midpoint: 100...0
GLOBL fmaMidpoint<>(SB), RODATA|NOPTR, $8

// func f32FmaAVX2(a, b, c, d *Vec) (rest uint32)
TEXT ·f32FmaAVX2(SB), NOSPLIT, $0-36
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ c+16(FP), DX
	MOVQ d+24(FP), R8
	VMOVDQU      fmaPack<>(SB), Y15
	VPBROADCASTQ fmaExpField<>(SB), Y14
	VPBROADCASTQ fmaMinNormal<>(SB), Y13
	VPBROADCASTQ fmaMaxFinite<>(SB), Y12
	VPBROADCASTQ fmaBelowF32<>(SB), Y11
	VPBROADCASTQ fmaMidpoint<>(SB), Y10
	XORL R9, R9   // rest: the groups left to the caller
	XORL CX, CX   // group
	XORQ R10, R10 // its byte offset

group:
	// Four lanes of each operand: f32 bits packed, widened to float64.
	VPERMD    (SI)(R10*1), Y15, Y0
	VPERMD    (DI)(R10*1), Y15, Y1
	VPERMD    (DX)(R10*1), Y15, Y2
	VCVTPS2PD X0, Y0
	VCVTPS2PD X1, Y1
	VCVTPS2PD X2, Y2

	// s = a*b (exact) + c, rounded once in float64.
	VMULPD Y1, Y0, Y0
	VADDPD Y2, Y0, Y0

	// A lane whose s is below f32's normal range, infinite or NaN, or an
	// f32 midpoint leaves its group to the caller.
	VPSRLQ    $52, Y0, Y3
	VPAND     Y14, Y3, Y3
	VPCMPGTQ  Y3, Y13, Y4 // 897 > e
	VPCMPGTQ  Y12, Y3, Y5 // e > 2046
	VPOR      Y5, Y4, Y4
	VPAND     Y11, Y0, Y5
	VPCMPEQQ  Y10, Y5, Y5 // low 29 bits 100...0
	VPOR      Y5, Y4, Y4
	VMOVMSKPD Y4, AX
	TESTL     AX, AX
	JNZ       left

	// s rounded to f32, zero-extended into the 64-bit lanes of d.
	VCVTPD2PSY Y0, X0
	VPMOVZXDQ  X0, Y0
	VMOVDQU    Y0, (R8)(R10*1)

next:
	ADDQ $32, R10
	INCL CX
	CMPL CX, $8
	JB   group
	VZEROUPPER
	MOVL R9, rest+32(FP)
	RET

left:
	BTSL CX, R9
	JMP  next
