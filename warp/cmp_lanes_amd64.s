#include "textflag.h"

// Packed integer comparisons of cmpShifted (cmp_lanes_amd64.go): four
// 64-bit lanes a step, shifted left by sh and flipped, then compared.

// CMP4 compares the lanes at byte offset off of SI and DI with op and ORs
// their four result bits into AX at bit s.
#define CMP4(off, s, op) \
	VMOVDQU   off(SI), Y0; \
	VMOVDQU   off(DI), Y1; \
	VPSLLQ    X15, Y0, Y0; \
	VPSLLQ    X15, Y1, Y1; \
	VPXOR     Y14, Y0, Y0; \
	VPXOR     Y14, Y1, Y1; \
	op        Y1, Y0, Y2; \
	VMOVMSKPD Y2, CX; \
	SHLL      $s, CX; \
	ORL       CX, AX

#define CMP32(op) \
	MOVQ         a+0(FP), SI; \
	MOVQ         b+8(FP), DI; \
	MOVQ         sh+16(FP), X15; \
	VPBROADCASTQ flip+24(FP), Y14; \
	XORL         AX, AX; \
	CMP4(0, 0, op); \
	CMP4(32, 4, op); \
	CMP4(64, 8, op); \
	CMP4(96, 12, op); \
	CMP4(128, 16, op); \
	CMP4(160, 20, op); \
	CMP4(192, 24, op); \
	CMP4(224, 28, op); \
	VZEROUPPER; \
	MOVL         AX, ret+32(FP); \
	RET

// func cmpGtAVX2(a, b *Vec, sh, flip uint64) uint32
TEXT ·cmpGtAVX2(SB), NOSPLIT, $0-36
	CMP32(VPCMPGTQ)

// func cmpEqAVX2(a, b *Vec, sh, flip uint64) uint32
TEXT ·cmpEqAVX2(SB), NOSPLIT, $0-36
	CMP32(VPCMPEQQ)
