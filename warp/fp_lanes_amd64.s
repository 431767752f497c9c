#include "textflag.h"

// f32FmaAVX2 is f32FmaV four lanes at a time (fp_lanes_amd64.go): the same
// float64 product and sum, the same rounding to f32 and the same test of
// the sum's exponent and low bits, with AVX2's packed instructions, the
// eight groups of a warp written out.

// VPERMD indices: the low 32 bits of four 64-bit lanes, packed (every
// packed routine of the package that takes a Vec's lanes uses them).
DATA ·lanePackIdx+0(SB)/4, $0
DATA ·lanePackIdx+4(SB)/4, $2
DATA ·lanePackIdx+8(SB)/4, $4
DATA ·lanePackIdx+12(SB)/4, $6
DATA ·lanePackIdx+16(SB)/4, $0
DATA ·lanePackIdx+20(SB)/4, $2
DATA ·lanePackIdx+24(SB)/4, $4
DATA ·lanePackIdx+28(SB)/4, $6
GLOBL ·lanePackIdx(SB), RODATA|NOPTR, $32

// The exponent test in one signed compare. With u = 2s (the sign dropped,
// the exponent e in the top 11 bits), e < 897 (1023-126: below f32's
// smallest normal) or e = 2047 (infinity, NaN) is u - (897<<53) >= (1150<<53)
// unsigned; adding 1<<63 makes that signed: 2s + (127<<53) > (126<<53) - 1.
DATA fmaExpBias<>+0(SB)/8, $0x0fe0000000000000  // 127<<53
GLOBL fmaExpBias<>(SB), RODATA|NOPTR, $8
DATA fmaExpLimit<>+0(SB)/8, $0x0fbfffffffffffff // (126<<53) - 1
GLOBL fmaExpLimit<>(SB), RODATA|NOPTR, $8
DATA fmaBelowF32<>+0(SB)/8, $0x1fffffff // the 29 bits below f32 precision
GLOBL fmaBelowF32<>(SB), RODATA|NOPTR, $8
DATA fmaMidpoint<>+0(SB)/8, $0x10000000 // ... on an f32 midpoint: 100...0
GLOBL fmaMidpoint<>(SB), RODATA|NOPTR, $8

// FMA4 computes the group at byte offset off: s = a*b (exact) + c, rounded
// once in float64, in Y0, and in AX and Y4 a bit per lane whose s is below
// f32's normal range, infinite or NaN, or an f32 midpoint (the group is then
// left to the caller, unless ZEROS finds only zeros there).
#define FMA4(off) \
	VPERMD    off(SI), Y15, Y0; \
	VPERMD    off(DI), Y15, Y1; \
	VPERMD    off(DX), Y15, Y2; \
	VCVTPS2PD X0, Y0; \
	VCVTPS2PD X1, Y1; \
	VCVTPS2PD X2, Y2; \
	VMULPD    Y1, Y0, Y0; \
	VADDPD    Y2, Y0, Y0; \
	VPADDQ    Y0, Y0, Y3; \
	VPADDQ    Y14, Y3, Y3; \
	VPCMPGTQ  Y13, Y3, Y4; \
	VPAND     Y11, Y0, Y5; \
	VPCMPEQQ  Y10, Y5, Y5; \
	VPOR      Y5, Y4, Y4; \
	VMOVMSKPD Y4, AX; \
	TESTL     AX, AX

// ZEROS drops from FMA4's flags the lanes whose s is zero and sets the
// flags again: a zero s is exact (a float64 sum of two float64s is zero only
// when they cancel exactly) and carries IEEE's sign for it, as the per-lane
// path finds it.
#define ZEROS \
	VPADDQ    Y0, Y0, Y3; \
	VPCMPEQQ  Y12, Y3, Y6; \
	VPANDN    Y4, Y6, Y4; \
	VMOVMSKPD Y4, AX; \
	TESTL     AX, AX

// STORE4 writes s rounded to f32, zero-extended, into the group's lanes of d.
#define STORE4(off) \
	VCVTPD2PSY Y0, X0; \
	VPMOVZXDQ  X0, Y0; \
	VMOVDQU    Y0, off(R8)

// func f32FmaAVX2(a, b, c, d *Vec) (rest uint32)
TEXT ·f32FmaAVX2(SB), NOSPLIT, $0-36
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ c+16(FP), DX
	MOVQ d+24(FP), R8
	VMOVDQU      ·lanePackIdx(SB), Y15
	VPBROADCASTQ fmaExpBias<>(SB), Y14
	VPBROADCASTQ fmaExpLimit<>(SB), Y13
	VPBROADCASTQ fmaBelowF32<>(SB), Y11
	VPBROADCASTQ fmaMidpoint<>(SB), Y10
	VPXOR        Y12, Y12, Y12
	XORL R9, R9 // rest: the groups left to the caller

	FMA4(0)
	JNZ left0
	STORE4(0)

group1:
	FMA4(32)
	JNZ left1
	STORE4(32)

group2:
	FMA4(64)
	JNZ left2
	STORE4(64)

group3:
	FMA4(96)
	JNZ left3
	STORE4(96)

group4:
	FMA4(128)
	JNZ left4
	STORE4(128)

group5:
	FMA4(160)
	JNZ left5
	STORE4(160)

group6:
	FMA4(192)
	JNZ left6
	STORE4(192)

group7:
	FMA4(224)
	JNZ left7
	STORE4(224)

done:
	VZEROUPPER
	MOVL R9, rest+32(FP)
	RET

left0:
	ZEROS
	JNZ keep0
	STORE4(0)
	JMP group1

keep0:
	ORL $1, R9
	JMP group1

left1:
	ZEROS
	JNZ keep1
	STORE4(32)
	JMP group2

keep1:
	ORL $2, R9
	JMP group2

left2:
	ZEROS
	JNZ keep2
	STORE4(64)
	JMP group3

keep2:
	ORL $4, R9
	JMP group3

left3:
	ZEROS
	JNZ keep3
	STORE4(96)
	JMP group4

keep3:
	ORL $8, R9
	JMP group4

left4:
	ZEROS
	JNZ keep4
	STORE4(128)
	JMP group5

keep4:
	ORL $16, R9
	JMP group5

left5:
	ZEROS
	JNZ keep5
	STORE4(160)
	JMP group6

keep5:
	ORL $32, R9
	JMP group6

left6:
	ZEROS
	JNZ keep6
	STORE4(192)
	JMP group7

keep6:
	ORL $64, R9
	JMP group7

left7:
	ZEROS
	JNZ keep7
	STORE4(224)
	JMP done

keep7:
	ORL $128, R9
	JMP done
