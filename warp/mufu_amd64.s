#include "textflag.h"

// mufuEx2AVX is mufuEx2Lanes on a full warp, eight lanes a trip: each
// lane's power n and entry k as ex2Split finds them (the significand shifted
// by the exponent with per-lane shifts), the entry's block gathered from its
// table (ex2_pos for a positive input, ex2_neg for a negative one, read at
// k-1 there), the entry as its base or mid value plus or minus the sum of
// the 2-bit steps before it (the steps counted a nibble at a time through a
// lookup of VPSHUFB, summed by VPSADBW), and withExponent's scaling by n. A
// negative input with no fraction is 1 scaled by -n, a zero or subnormal
// input 1. A trip with a NaN input is not written and sets its lanes in
// rest; the others are written after they are read, so d may be a.

// The sum of the two 2-bit fields of each nibble, twice (VPSHUFB looks up
// each 128-bit half in its own copy).
DATA ex2Nibble<>+0(SB)/8, $0x0403020103020100
DATA ex2Nibble<>+8(SB)/8, $0x0605040305040302
DATA ex2Nibble<>+16(SB)/8, $0x0403020103020100
DATA ex2Nibble<>+24(SB)/8, $0x0605040305040302
GLOBL ex2Nibble<>(SB), RODATA|NOPTR, $32

DATA ex2Low4<>+0(SB)/4, $0x0f0f0f0f
GLOBL ex2Low4<>(SB), RODATA|NOPTR, $4
DATA ex2FF<>+0(SB)/4, $0xff
GLOBL ex2FF<>(SB), RODATA|NOPTR, $4
DATA ex2Abs<>+0(SB)/4, $0x7fffffff
GLOBL ex2Abs<>(SB), RODATA|NOPTR, $4
DATA ex2Inf<>+0(SB)/4, $0x7f800000
GLOBL ex2Inf<>(SB), RODATA|NOPTR, $4
DATA ex2Frac<>+0(SB)/4, $0x7fffff
GLOBL ex2Frac<>(SB), RODATA|NOPTR, $4
DATA ex2Hidden<>+0(SB)/4, $0x800000
GLOBL ex2Hidden<>(SB), RODATA|NOPTR, $4
DATA ex2Bias<>+0(SB)/4, $127
GLOBL ex2Bias<>(SB), RODATA|NOPTR, $4
DATA ex2Sixteen<>+0(SB)/4, $16
GLOBL ex2Sixteen<>(SB), RODATA|NOPTR, $4
DATA ex2Fraction<>+0(SB)/4, $23
GLOBL ex2Fraction<>(SB), RODATA|NOPTR, $4
DATA ex2Low6<>+0(SB)/4, $63
GLOBL ex2Low6<>(SB), RODATA|NOPTR, $4
DATA ex2Low5<>+0(SB)/4, $31
GLOBL ex2Low5<>(SB), RODATA|NOPTR, $4
DATA ex2One<>+0(SB)/4, $0x3f800000
GLOBL ex2One<>(SB), RODATA|NOPTR, $4
DATA ex2SignFrac<>+0(SB)/4, $0x807fffff
GLOBL ex2SignFrac<>(SB), RODATA|NOPTR, $4
DATA ex2Sign<>+0(SB)/4, $0x80000000
GLOBL ex2Sign<>(SB), RODATA|NOPTR, $4
DATA ex2ExpMax<>+0(SB)/4, $254
GLOBL ex2ExpMax<>(SB), RODATA|NOPTR, $4
DATA ex2ExpMin<>+0(SB)/4, $1
GLOBL ex2ExpMin<>(SB), RODATA|NOPTR, $4

// SUM2 sums the 2-bit fields of each of W's four quadwords (T a temporary,
// Y11 the nibble table, Y12 the low-nibble mask, Y14 zero).
#define SUM2(W, T) \
	VPSRLQ  $4, W, T; \
	VPAND   Y12, W, W; \
	VPAND   Y12, T, T; \
	VPSHUFB W, Y11, W; \
	VPSHUFB T, Y11, T; \
	VPADDB  T, W, W; \
	VPSADBW Y14, W, W

// STEPS4 gathers into D the steps quadword of four lanes, at the byte
// offsets in the dwords of X, from ex2_pos (R12) for the lanes whose
// quadword of NEG is clear and from ex2_neg (R13) for the others (Y2 the
// gathers' mask).
#define STEPS4(D, X, NEG) \
	VPXOR      D, D, D; \
	VPCMPEQD   Y2, Y2, Y2; \
	VPXOR      NEG, Y2, Y2; \
	VPGATHERDQ Y2, (R12)(X*1), D; \
	VMOVDQA    NEG, Y2; \
	VPGATHERDQ Y2, (R13)(X*1), D

// func mufuEx2AVX(d, a *Vec, pos, neg *mufuBlock) (rest uint32)
TEXT ·mufuEx2AVX(SB), NOSPLIT, $0-36
	MOVQ    d+0(FP), DX
	MOVQ    a+8(FP), SI
	MOVQ    pos+16(FP), R12
	MOVQ    neg+24(FP), R13
	XORL    R8, R8
	XORQ    R9, R9
	XORL    R10, R10
	VMOVDQU ·lanePackIdx(SB), Y15
	VPXOR   Y14, Y14, Y14

ex2:
	// x, the NaN test, and the biased exponent.
	VPERMD       (SI)(R9*1), Y15, Y0
	VPERMD       32(SI)(R9*1), Y15, Y1
	VINSERTI128  $1, X1, Y0, Y0
	VPBROADCASTD ex2Abs<>(SB), Y2
	VPAND        Y2, Y0, Y2
	VPBROADCASTD ex2Inf<>(SB), Y3
	VPCMPGTD     Y3, Y2, Y2
	VPTEST       Y2, Y2
	JNE          ex2rest
	VPSRLD       $23, Y0, Y1
	VPBROADCASTD ex2FF<>(SB), Y2
	VPAND        Y2, Y1, Y1

	// The significand m shifted left by L = clamp(e, 0, 16) and right by
	// R = max(-e, 0): the fraction f is its low 23 bits, the power n is m
	// shifted right by 23 - L + R.
	VPBROADCASTD ex2Frac<>(SB), Y13
	VPAND        Y13, Y0, Y2
	VPBROADCASTD ex2Hidden<>(SB), Y3
	VPOR         Y3, Y2, Y2
	VPBROADCASTD ex2Bias<>(SB), Y3
	VPSUBD       Y3, Y1, Y3
	VPBROADCASTD ex2Sixteen<>(SB), Y4
	VPMINSD      Y4, Y3, Y4
	VPMAXSD      Y14, Y4, Y4
	VPSUBD       Y3, Y14, Y5
	VPMAXSD      Y14, Y5, Y5
	VPSLLVD      Y4, Y2, Y6
	VPSRLVD      Y5, Y6, Y6
	VPAND        Y13, Y6, Y6
	VPBROADCASTD ex2Fraction<>(SB), Y7
	VPSUBD       Y4, Y7, Y7
	VPADDD       Y5, Y7, Y7
	VPSRLVD      Y7, Y2, Y7

	// neg: a negative input; negone: one with no fraction. The entry k is
	// f, or f-1 for a negative input (0 for negone, whose value is 1); the
	// power is n, or -n for a negative input.
	VPSRAD   $31, Y0, Y8
	VPCMPEQD Y14, Y6, Y9
	VPAND    Y8, Y9, Y9
	VPADDD   Y8, Y6, Y6
	VPANDN   Y6, Y9, Y6
	VPXOR    Y8, Y7, Y7
	VPSUBD   Y8, Y7, Y7
	VPCMPEQD Y14, Y1, Y1 // a zero or subnormal input

	// The entry's block k/64 (24 bytes) and its half j/32: the value at
	// 16 + 4*half, the steps at 8*half; the steps below j%32.
	VPSRLD       $6, Y6, Y10
	VPSLLD       $3, Y10, Y11
	VPSLLD       $4, Y10, Y10
	VPADDD       Y11, Y10, Y10
	VPBROADCASTD ex2Low6<>(SB), Y2
	VPAND        Y2, Y6, Y6
	VPSRLD       $5, Y6, Y11
	VPBROADCASTD ex2Low5<>(SB), Y2
	VPAND        Y2, Y6, Y6
	VPSLLD       $3, Y11, Y12
	VPADDD       Y10, Y12, Y12
	VPSLLD       $2, Y11, Y11
	VPADDD       Y10, Y11, Y11
	VPBROADCASTD ex2Sixteen<>(SB), Y2
	VPADDD       Y2, Y11, Y11

	// The values: the positive lanes' from pos, the negative lanes' from neg.
	VPXOR      Y0, Y0, Y0
	VPCMPEQD   Y2, Y2, Y2
	VPXOR      Y8, Y2, Y2
	VPGATHERDD Y2, (R12)(Y11*1), Y0
	VMOVDQA    Y8, Y2
	VPGATHERDD Y2, (R13)(Y11*1), Y0

	// The steps, four lanes a gather.
	VEXTRACTI128 $1, Y12, X13
	VPMOVSXDQ    X8, Y3
	VEXTRACTI128 $1, Y8, X4
	VPMOVSXDQ    X4, Y4
	STEPS4(Y10, X12, Y3)
	STEPS4(Y5, X13, Y4)

	// The steps below the entry: the low 2*(j%32) bits, summed.
	VPSLLD       $1, Y6, Y6
	VPMOVZXDQ    X6, Y2
	VEXTRACTI128 $1, Y6, X3
	VPMOVZXDQ    X3, Y3
	VPCMPEQQ     Y4, Y4, Y4
	VPSRLQ       $63, Y4, Y4
	VPSLLVQ      Y2, Y4, Y2
	VPSLLVQ      Y3, Y4, Y3
	VPSUBQ       Y4, Y2, Y2
	VPSUBQ       Y4, Y3, Y3
	VPAND        Y2, Y10, Y10
	VPAND        Y3, Y5, Y5
	VMOVDQU      ex2Nibble<>(SB), Y11
	VPBROADCASTD ex2Low4<>(SB), Y12
	SUM2(Y10, Y2)
	SUM2(Y5, Y3)
	VPERMD       Y10, Y15, Y10
	VPERMD       Y5, Y15, Y5
	VINSERTI128  $1, X5, Y10, Y10

	// The entry: the value plus the steps (ex2_pos rises), or less them
	// (ex2_neg falls); 1 for negone.
	VPXOR        Y8, Y10, Y10
	VPSUBD       Y8, Y10, Y10
	VPADDD       Y10, Y0, Y0
	VPBROADCASTD ex2One<>(SB), Y13
	VPBLENDVB    Y9, Y13, Y0, Y0

	// withExponent: the exponent field plus the power; at or below 0 the
	// sign alone, at or above 255 the sign and an infinity.
	VPSRLD       $23, Y0, Y2
	VPBROADCASTD ex2FF<>(SB), Y3
	VPAND        Y3, Y2, Y2
	VPADDD       Y7, Y2, Y2
	VPBROADCASTD ex2Sign<>(SB), Y5
	VPAND        Y5, Y0, Y5
	VPBROADCASTD ex2SignFrac<>(SB), Y3
	VPAND        Y3, Y0, Y0
	VPSLLD       $23, Y2, Y3
	VPOR         Y3, Y0, Y0
	VPBROADCASTD ex2ExpMin<>(SB), Y3
	VPCMPGTD     Y2, Y3, Y3
	VPBLENDVB    Y3, Y5, Y0, Y0
	VPBROADCASTD ex2ExpMax<>(SB), Y3
	VPCMPGTD     Y3, Y2, Y3
	VPBROADCASTD ex2Inf<>(SB), Y4
	VPOR         Y4, Y5, Y5
	VPBLENDVB    Y3, Y5, Y0, Y0
	VPBLENDVB    Y1, Y13, Y0, Y0

	VPMOVZXDQ    X0, Y2
	VEXTRACTI128 $1, Y0, X3
	VPMOVZXDQ    X3, Y3
	VMOVDQU      Y2, (DX)(R9*1)
	VMOVDQU      Y3, 32(DX)(R9*1)

ex2next:
	ADDQ $64, R9
	ADDL $8, R10
	CMPL R10, $32
	JLT  ex2
	VZEROUPPER
	MOVL R8, rest+32(FP)
	RET

ex2rest:
	MOVL $0xff, R11
	MOVL R10, CX
	SHLL CX, R11
	ORL  R11, R8
	JMP  ex2next
