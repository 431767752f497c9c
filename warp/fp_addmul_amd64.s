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

// hadd2F32AVX is hadd2F32 (sass_float.go) four lanes at a time: the low
// 16 bits of four lanes of a and of b packed (VPERMD, then VPSHUFB),
// widened to f32 exactly (VCVTPH2PS), added to nearest (VADDPS: the sum of
// two halves rounded once, as the Go loop's float64 sum rounded to f32),
// and zero-extended into the lanes of r. Every group is written; rest gets
// bit g for group g when a half of it is infinite or NaN, which the Go loop
// then redoes. r must not be a or b.

// VPSHUFB indices: the low two bytes of each of four 32-bit words, packed
// into the low eight bytes (the rest zero).
DATA halfPack<>+0(SB)/8, $0x0d0c090805040100
DATA halfPack<>+8(SB)/8, $0x8080808080808080
GLOBL halfPack<>(SB), RODATA|NOPTR, $16

DATA halfExp<>+0(SB)/2, $0x7c00
GLOBL halfExp<>(SB), RODATA|NOPTR, $2

#define HADD4(off, g) \
	VPERMD      off(SI), Y15, Y0; \
	VPERMD      off(DI), Y15, Y1; \
	VPSHUFB     X13, X0, X0; \
	VPSHUFB     X13, X1, X1; \
	VPAND       X12, X0, X2; \
	VPCMPEQW    X12, X2, X2; \
	VPAND       X12, X1, X3; \
	VPCMPEQW    X12, X3, X3; \
	VPOR        X3, X2, X2; \
	VPMOVMSKB   X2, AX; \
	ANDL        $0xff, AX; \
	SETNE       BX; \
	MOVBLZX     BX, BX; \
	SHLL        $g, BX; \
	ORL         BX, R8; \
	VCVTPH2PS   X0, X0; \
	VCVTPH2PS   X1, X1; \
	VADDPS      X1, X0, X0; \
	VPMOVZXDQ   X0, Y0; \
	VMOVDQU     Y0, off(DX)

// func hadd2F32AVX(a, b, r *Vec) (rest uint32)
TEXT ·hadd2F32AVX(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ r+16(FP), DX
	XORL R8, R8
	XORL BX, BX
	VMOVDQU      lanePack<>(SB), Y15
	VMOVDQU      halfPack<>(SB), X13
	VPBROADCASTW halfExp<>(SB), X12
	HADD4(0, 0)
	HADD4(32, 1)
	HADD4(64, 2)
	HADD4(96, 3)
	HADD4(128, 4)
	HADD4(160, 5)
	HADD4(192, 6)
	HADD4(224, 7)
	VZEROUPPER
	MOVL R8, rest+24(FP)
	RET

// func cpuHasF16C() bool
TEXT ·cpuHasF16C(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	SHRL $29, CX
	ANDL $1, CX
	MOVB CX, ret+0(FP)
	RET

// f16PackAVX is f16PackLanes (fp_fast_cvt_lanes.go) without .ftz or .sat,
// four lanes at a time: the low 32 bits of four lanes of a and of b packed
// (VPERMD), each rounded to f16 to nearest even (VCVTPS2PH $0, which is
// f16Nearest where f16Nearest answers), a's half above b's, zero-extended
// into the lanes of d. A group with a lane that f16Nearest leaves to
// f32ToF16 (a result below f16's normal range, an infinity or a NaN) is
// not written and gets its bit in rest; the others are written after their
// operands are read, so d may be a or b.

DATA f32ExpMask<>+0(SB)/4, $0xff
GLOBL f32ExpMask<>(SB), RODATA|NOPTR, $4
DATA f16Bias<>+0(SB)/4, $113
GLOBL f16Bias<>(SB), RODATA|NOPTR, $4
DATA f16Span<>+0(SB)/4, $29
GLOBL f16Span<>(SB), RODATA|NOPTR, $4
DATA f32Abs<>+0(SB)/4, $0x7fffffff
GLOBL f32Abs<>(SB), RODATA|NOPTR, $4

// NARROWOK sets Y2's dword lanes (X) to all ones where f16Nearest answers
// for x in X: an exponent field e with e-113 < 30 unsigned, or a zero.
#define NARROWOK(X, T1, T2) \
	VPSRLD    $23, X, T1; \
	VPAND     X11, T1, T1; \
	VPSUBD    X10, T1, T1; \
	VPMINUD   X9, T1, T2; \
	VPCMPEQD  T2, T1, T1; \
	VPAND     X8, X, T2; \
	VPXOR     X7, X7, X7; \
	VPCMPEQD  X7, T2, T2; \
	VPOR      T2, T1, T1

#define PACK4(off, g) \
	VPERMD      off(SI), Y15, Y0; \
	VPERMD      off(DI), Y15, Y1; \
	NARROWOK(X0, X2, X3); \
	NARROWOK(X1, X4, X5); \
	VPAND       X4, X2, X2; \
	VPMOVMSKB   X2, AX; \
	CMPL        AX, $0xffff; \
	SETNE       BX; \
	MOVBLZX     BX, BX; \
	MOVL        BX, CX; \
	SHLL        $g, CX; \
	ORL         CX, R8; \
	NEGL        BX; \
	VMOVD       BX, X6; \
	VPBROADCASTD X6, Y6; \
	VCVTPS2PH   $0, X0, X0; \
	VCVTPS2PH   $0, X1, X1; \
	VPUNPCKLWD  X0, X1, X0; \
	VPMOVZXDQ   X0, Y0; \
	VMOVDQU     off(DX), Y5; \
	VPBLENDVB   Y6, Y5, Y0, Y0; \
	VMOVDQU     Y0, off(DX)

// func f16PackAVX(d, a, b *Vec) (rest uint32)
TEXT ·f16PackAVX(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	XORL R8, R8
	XORL BX, BX
	VMOVDQU      lanePack<>(SB), Y15
	VPBROADCASTD f32ExpMask<>(SB), X11
	VPBROADCASTD f16Bias<>(SB), X10
	VPBROADCASTD f16Span<>(SB), X9
	VPBROADCASTD f32Abs<>(SB), X8
	PACK4(0, 0)
	PACK4(32, 1)
	PACK4(64, 2)
	PACK4(96, 3)
	PACK4(128, 4)
	PACK4(160, 5)
	PACK4(192, 6)
	PACK4(224, 7)
	VZEROUPPER
	MOVL R8, rest+24(FP)
	RET

// f32ToF16AVX is f32ToF16Lanes (fp_fast_cvt_lanes.go) without .ftz or
// .sat, and f16ToF32AVX f16ToF32Lanes without .sat, four lanes at a time:
// VCVTPS2PH $0 (to nearest even) where f16Nearest answers, VCVTPH2PS
// (exact) where the half is finite. A group with another lane (a result
// below f16's normal range, an infinity or a NaN; an infinite or NaN half)
// is not written and gets its bit in rest; the others are written after
// their operands are read, so d may be a.

// KEEPREST sets rest's bit g and Y6 to all ones when X2's four dwords are
// not all ones (a lane the packed form does not answer for).
#define KEEPREST(g) \
	VPMOVMSKB    X2, AX; \
	CMPL         AX, $0xffff; \
	SETNE        BX; \
	MOVBLZX      BX, BX; \
	MOVL         BX, CX; \
	SHLL         $g, CX; \
	ORL          CX, R8; \
	NEGL         BX; \
	VMOVD        BX, X6; \
	VPBROADCASTD X6, Y6

#define TOHALF4(off, g) \
	VPERMD       off(SI), Y15, Y0; \
	NARROWOK(X0, X2, X3); \
	KEEPREST(g); \
	VCVTPS2PH    $0, X0, X0; \
	VPMOVZXWQ    X0, Y0; \
	VMOVDQU      off(DX), Y5; \
	VPBLENDVB    Y6, Y5, Y0, Y0; \
	VMOVDQU      Y0, off(DX)

#define FROMHALF4(off, g) \
	VPERMD       off(SI), Y15, Y0; \
	VPSHUFB      X13, X0, X0; \
	VPAND        X12, X0, X2; \
	VPCMPEQW     X12, X2, X2; \
	VPXOR        X7, X7, X7; \
	VPCMPEQD     X7, X7, X7; \
	VPXOR        X7, X2, X2; \
	VPMOVZXWD    X2, X2; \
	VPSLLD       $16, X2, X3; \
	VPOR         X3, X2, X2; \
	KEEPREST(g); \
	VCVTPH2PS    X0, X0; \
	VPMOVZXDQ    X0, Y0; \
	VMOVDQU      off(DX), Y5; \
	VPBLENDVB    Y6, Y5, Y0, Y0; \
	VMOVDQU      Y0, off(DX)

// func f32ToF16AVX(d, a *Vec) (rest uint32)
TEXT ·f32ToF16AVX(SB), NOSPLIT, $0-20
	MOVQ d+0(FP), DX
	MOVQ a+8(FP), SI
	XORL R8, R8
	XORL BX, BX
	VMOVDQU      lanePack<>(SB), Y15
	VPBROADCASTD f32ExpMask<>(SB), X11
	VPBROADCASTD f16Bias<>(SB), X10
	VPBROADCASTD f16Span<>(SB), X9
	VPBROADCASTD f32Abs<>(SB), X8
	TOHALF4(0, 0)
	TOHALF4(32, 1)
	TOHALF4(64, 2)
	TOHALF4(96, 3)
	TOHALF4(128, 4)
	TOHALF4(160, 5)
	TOHALF4(192, 6)
	TOHALF4(224, 7)
	VZEROUPPER
	MOVL R8, rest+16(FP)
	RET

// func f16ToF32AVX(d, a *Vec) (rest uint32)
TEXT ·f16ToF32AVX(SB), NOSPLIT, $0-20
	MOVQ d+0(FP), DX
	MOVQ a+8(FP), SI
	XORL R8, R8
	XORL BX, BX
	VMOVDQU      lanePack<>(SB), Y15
	VMOVDQU      halfPack<>(SB), X13
	VPBROADCASTW halfExp<>(SB), X12
	FROMHALF4(0, 0)
	FROMHALF4(32, 1)
	FROMHALF4(64, 2)
	FROMHALF4(96, 3)
	FROMHALF4(128, 4)
	FROMHALF4(160, 5)
	FROMHALF4(192, 6)
	FROMHALF4(224, 7)
	VZEROUPPER
	MOVL R8, rest+16(FP)
	RET

// s32ToF32AVX and u32ToF32AVX are intToF32Lanes of 32-bit integers, four
// lanes at a time: the low 32 bits of four lanes packed (VPERMD) and
// converted to nearest (VCVTDQ2PS; an unsigned word as its high and low
// 16 bits, each converted exactly, the high half scaled by 2^16 exactly,
// and the two added once to nearest), zero-extended into the lanes of d.
// A group is written after its operands are read, so d may be a.

DATA lowHalfMask<>+0(SB)/4, $0xffff
GLOBL lowHalfMask<>(SB), RODATA|NOPTR, $4
DATA two16<>+0(SB)/4, $0x47800000
GLOBL two16<>(SB), RODATA|NOPTR, $4

#define S2F4(off) \
	VPERMD    off(SI), Y15, Y0; \
	VCVTDQ2PS X0, X0; \
	VPMOVZXDQ X0, Y0; \
	VMOVDQU   Y0, off(DX)

#define U2F4(off) \
	VPERMD    off(SI), Y15, Y0; \
	VPSRLD    $16, X0, X1; \
	VPAND     X14, X0, X0; \
	VCVTDQ2PS X1, X1; \
	VCVTDQ2PS X0, X0; \
	VMULPS    X13, X1, X1; \
	VADDPS    X1, X0, X0; \
	VPMOVZXDQ X0, Y0; \
	VMOVDQU   Y0, off(DX)

// func s32ToF32AVX(d, a *Vec)
TEXT ·s32ToF32AVX(SB), NOSPLIT, $0-16
	MOVQ d+0(FP), DX
	MOVQ a+8(FP), SI
	VMOVDQU lanePack<>(SB), Y15
	S2F4(0)
	S2F4(32)
	S2F4(64)
	S2F4(96)
	S2F4(128)
	S2F4(160)
	S2F4(192)
	S2F4(224)
	VZEROUPPER
	RET

// func u32ToF32AVX(d, a *Vec)
TEXT ·u32ToF32AVX(SB), NOSPLIT, $0-16
	MOVQ d+0(FP), DX
	MOVQ a+8(FP), SI
	VMOVDQU      lanePack<>(SB), Y15
	VPBROADCASTD lowHalfMask<>(SB), X14
	VPBROADCASTD two16<>(SB), X13
	U2F4(0)
	U2F4(32)
	U2F4(64)
	U2F4(96)
	U2F4(128)
	U2F4(160)
	U2F4(192)
	U2F4(224)
	VZEROUPPER
	RET
