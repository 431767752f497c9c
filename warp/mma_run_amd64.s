#include "textflag.h"

// fusedCols4AVX2: fusedCols4Go's steps for four columns at once
// (mma_run_amd64.go). The lead exponent is a packed int32 maximum
// (VPMAXSD) over the accumulator's exponent and ea[k]+eb[k]; the scale
// 2^(bias-1023-lead) is built in the float64s' exponent fields; each term
// is (a[k]·b[k])·scale truncated toward zero (VROUNDPD $3), added in
// float64, exact as in the Go form. Two sums take alternate terms, so
// that the adds do not wait on each other; both hold integers below
// 2^53, so their sum is exact too.
//
// cols4's layout: c at 0, ce at 32, sum at 48, lead at 80, pair at 96.

// SUMS is FUSED4 from the lead exponents in X0 on: x.lead and x.sum
// written, the sum left in Y3 (SI and DI at a and b, CX the K).
#define SUMS \
	VMOVDQU X0, 80(AX); \
	VPMOVSXDQ    X0, Y0; \
	VPBROADCASTQ bias+40(FP), Y2; \
	VPSUBQ       Y0, Y2, Y2; \
	VPSLLQ       $52, Y2, Y2; \
	VMOVUPD  (AX), Y3; \
	VMULPD   Y2, Y3, Y3; \
	VROUNDPD $3, Y3, Y3; \
	VXORPD   Y5, Y5, Y5; \
	SHRQ     $1, CX; \
	JCC      pairs; \
	VBROADCASTSD (SI), Y4; \
	VMULPD       (DI), Y4, Y4; \
	VMULPD       Y2, Y4, Y4; \
	VROUNDPD     $3, Y4, Y4; \
	VADDPD       Y4, Y3, Y3; \
	ADDQ         $8, SI; \
	ADDQ         $2048, DI; \
pairs: \
	TESTQ CX, CX; \
	JZ    done; \
pair: \
	VBROADCASTSD (SI), Y4; \
	VMULPD       (DI), Y4, Y4; \
	VMULPD       Y2, Y4, Y4; \
	VROUNDPD     $3, Y4, Y4; \
	VADDPD       Y4, Y3, Y3; \
	VBROADCASTSD 8(SI), Y6; \
	VMULPD       2048(DI), Y6, Y6; \
	VMULPD       Y2, Y6, Y6; \
	VROUNDPD     $3, Y6, Y6; \
	VADDPD       Y6, Y5, Y5; \
	ADDQ         $16, SI; \
	ADDQ         $4096, DI; \
	DECQ         CX; \
	JNZ          pair; \
done: \
	VADDPD  Y5, Y3, Y3; \
	VMOVUPD Y3, 48(AX)

// FUSED4 is fusedCols4AVX2's steps (registers as it sets them; AX points
// at the cols4, whose c and ce are in place): x.lead and x.sum written, the
// sum left in Y3.
#define FUSED4 \
	VMOVDQU 32(AX), X0; \
	MOVQ    CX, DX; \
lead: \
	VPBROADCASTD (R8), X1; \
	VPADDD       (R9), X1, X1; \
	VPMAXSD      X1, X0, X0; \
	ADDQ         $4, R8; \
	ADDQ         $1024, R9; \
	DECQ         DX; \
	JNZ          lead; \
	SUMS

// func fusedCols4AVX2(a *float64, ea *int32, b *float64, eb *int32, k int, bias int64, x *cols4)
TEXT ·fusedCols4AVX2(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), SI
	MOVQ ea+8(FP), R8
	MOVQ b+16(FP), DI
	MOVQ eb+24(FP), R9
	MOVQ k+32(FP), CX
	MOVQ x+48(FP), AX
	FUSED4
	VZEROUPPER
	RET

DATA f32GroupExpMask<>+0(SB)/8, $0x7ff
GLOBL f32GroupExpMask<>(SB), RODATA|NOPTR, $8
DATA f32GroupBias<>+0(SB)/4, $1023
GLOBL f32GroupBias<>(SB), RODATA|NOPTR, $4
DATA f32GroupEmin<>+0(SB)/4, $-126
GLOBL f32GroupEmin<>(SB), RODATA|NOPTR, $4
DATA f32GroupNoExp<>+0(SB)/4, $-1048576
GLOBL f32GroupNoExp<>(SB), RODATA|NOPTR, $4
DATA f32GroupHalfNoExp<>+0(SB)/4, $-524288
GLOBL f32GroupHalfNoExp<>(SB), RODATA|NOPTR, $4
DATA f32GroupSpecial<>+0(SB)/4, $0x7ff
GLOBL f32GroupSpecial<>(SB), RODATA|NOPTR, $4
DATA f32GroupQMin<>+0(SB)/4, $-1000
GLOBL f32GroupQMin<>(SB), RODATA|NOPTR, $4
DATA f32GroupQMax<>+0(SB)/4, $1000
GLOBL f32GroupQMax<>(SB), RODATA|NOPTR, $4
DATA f32GroupAbs<>+0(SB)/8, $0x7fffffffffffffff
GLOBL f32GroupAbs<>(SB), RODATA|NOPTR, $8
DATA f32GroupLow<>+0(SB)/8, $0x3810000000000000
GLOBL f32GroupLow<>(SB), RODATA|NOPTR, $8
DATA f32GroupHigh<>+0(SB)/8, $0x47f0000000000000
GLOBL f32GroupHigh<>(SB), RODATA|NOPTR, $8
DATA f32GroupCut<>+0(SB)/8, $0xffffffffe0000000
GLOBL f32GroupCut<>(SB), RODATA|NOPTR, $8

// GROUPHEAD, then the fused sums (FUSED4), then GROUPTAIL are
// f32GroupAVX's steps for the four columns whose first slot is at R10 (the
// second at R11), their B at DI and R9, their flags at BX: X3 then holds
// the f32 results in column order, X7 the slots' old bits, X8 the columns
// left (all ones), x (AX) what fusedCols4 leaves.
#define GROUPHEAD \
	VMOVQ      (R10), X0; \
	VMOVQ      (R11), X1; \
	VPUNPCKLDQ X1, X0, X7; \
	VXORPS     X0, X0, X0; \
	CMPB       scaleD+SCALED(FP), $0; \
	JEQ        noscale; \
	VMOVDQA    X7, X0; \
noscale: \
	VCVTPS2PD X0, Y3; \
	VMOVUPD   Y3, (AX); \
	VPSRLQ       $52, Y3, Y1; \
	VPBROADCASTQ f32GroupExpMask<>(SB), Y2; \
	VPAND        Y2, Y1, Y1; \
	VMOVDQU      ·lanePackIdx(SB), Y2; \
	VPERMD       Y1, Y2, Y1; \
	VPBROADCASTD f32GroupSpecial<>(SB), X2; \
	VPCMPEQD     X2, X1, X8; \
	VPBROADCASTD f32GroupBias<>(SB), X2; \
	VPSUBD       X2, X1, X1; \
	VPBROADCASTD f32GroupEmin<>(SB), X2; \
	VPMAXSD      X2, X1, X1; \
	VXORPD       Y4, Y4, Y4; \
	VCMPPD       $0, Y4, Y3, Y4; \
	VMOVDQU      ·lanePackIdx(SB), Y2; \
	VPERMD       Y4, Y2, Y4; \
	VPBROADCASTD f32GroupNoExp<>(SB), X2; \
	VPBLENDVB    X4, X2, X1, X1; \
	VMOVDQU      X1, 32(AX); \
	VPMOVZXBD    (BX), X1; \
	VPXOR        X2, X2, X2; \
	VPCMPEQD     X2, X1, X1; \
	VPCMPEQD     X2, X2, X2; \
	VPXOR        X2, X1, X1; \
	VPOR         X1, X8, X8; \
	MOVBLZX      special+SPECIAL(FP), DX; \
	NEGL         DX; \
	VMOVD        DX, X1; \
	VPBROADCASTD X1, X1; \
	VPOR         X1, X8, X8

// GROUPTAIL is f32GroupAVX's steps after the fused sums.
#define GROUPTAIL \
	VMOVDQU 80(AX), X0; \
	MOVL         fracBits+FRACBITS(FP), DX; \
	VMOVD        DX, X1; \
	VPBROADCASTD X1, X1; \
	VPSUBD       X1, X0, X1; \
	VPBROADCASTD f32GroupHalfNoExp<>(SB), X2; \
	VPCMPGTD     X0, X2, X2; \
	VPOR         X2, X8, X8; \
	VPBROADCASTD f32GroupQMin<>(SB), X2; \
	VPCMPGTD     X1, X2, X2; \
	VPOR         X2, X8, X8; \
	VPBROADCASTD f32GroupQMax<>(SB), X2; \
	VPCMPGTD     X2, X1, X2; \
	VPOR         X2, X8, X8; \
	VPMOVSXDQ    X1, Y1; \
	VPBROADCASTQ f32GroupExpMask<>(SB), Y2; \
	VPSRLQ       $1, Y2, Y2; \
	VPADDQ       Y2, Y1, Y1; \
	VPSLLQ       $52, Y1, Y1; \
	VMULPD       Y1, Y3, Y3; \
	VPBROADCASTQ f32GroupAbs<>(SB), Y1; \
	VPAND        Y1, Y3, Y1; \
	VPBROADCASTQ f32GroupLow<>(SB), Y2; \
	VPCMPGTQ     Y1, Y2, Y2; \
	VPBROADCASTQ f32GroupHigh<>(SB), Y4; \
	VPCMPGTQ     Y4, Y1, Y4; \
	VPCMPEQQ     Y1, Y4, Y5; \
	VPOR         Y5, Y4, Y4; \
	VPOR         Y4, Y2, Y2; \
	VMOVDQU      ·lanePackIdx(SB), Y4; \
	VPERMD       Y2, Y4, Y2; \
	VPOR         X2, X8, X8; \
	VPBROADCASTQ f32GroupCut<>(SB), Y1; \
	VPAND        Y1, Y3, Y3; \
	VCVTPD2PSY   Y3, X3

// f32GroupAVX is fourColumns for an f32 accumulator whose sum keeps every
// fraction bit (SumBits 0), four columns at once: the accumulators read
// from their slots (p0: columns 0 and 2, p1: columns 1 and 3; zero without
// scale-d) and widened, their exponents (expOf; noExp for a zero), the
// fused sums (FUSED4), and each sum scaled by 2^(lead-FracBits) and cut
// toward zero to f32 (f32TowardZero) written back to its slot. A column
// that takes the general sum (special: the row's A holds a NaN or an
// infinity; bSpecial its column's B; or its accumulator is one), or whose
// quantum or f32 result leaves the range f32TowardZero answers for, keeps
// its slot and its bit in rest: x.lead and x.sum hold what finish needs.
// The range is compared on the scaled sum's bits: [2^-126, 2^128).

#define SCALED 84
#define SPECIAL 85
#define FRACBITS 80

// func f32GroupAVX(a *float64, ea *int32, b *float64, eb *int32, k int, bias int64, x *cols4, p0, p1 *uint32, bSpecial *bool, fracBits int32, scaleD, special bool) (rest uint32)
TEXT ·f32GroupAVX(SB), NOSPLIT, $0-92
	MOVQ a+0(FP), SI
	MOVQ ea+8(FP), R8
	MOVQ b+16(FP), DI
	MOVQ eb+24(FP), R9
	MOVQ k+32(FP), CX
	MOVQ x+48(FP), AX
	MOVQ p0+56(FP), R10
	MOVQ p1+64(FP), R11
	MOVQ bSpecial+72(FP), BX
	GROUPHEAD
	FUSED4
	GROUPTAIL
	VPBLENDVB X8, X7, X3, X3
	VMOVD     X3, (R10)
	VPEXTRD   $1, X3, (R11)
	VPEXTRD   $2, X3, 4(R10)
	VPEXTRD   $3, X3, 4(R11)
	VMOVMSKPS X8, DX
	MOVL      DX, rest+88(FP)
	VZEROUPPER
	RET

#undef SCALED
#undef SPECIAL
#undef FRACBITS
#define SCALED 76
#define SPECIAL 77
#define FRACBITS 72

// f32RowAVX is f32GroupAVX for the groups of four columns of a row (an
// even number of them), from group 0's slots at p0 on, with the products'
// lead exponents of each pair of groups found together, eight columns a
// packed maximum (x.pair), and each group's lead the larger of those and
// its accumulators': group g's first slot lies 512 bytes (four
// registers of Regs) on for each two groups, 8 bytes (two lanes) on for an
// odd g, its second slot 128 bytes (a register) past its first. A group
// with a column left is not written at all: its bit in left sends it to
// fourColumns whole.

// func f32RowAVX(a *float64, ea *int32, b *float64, eb *int32, k int, bias int64, x *cols4, p0 *uint32, bSpecial *bool, fracBits int32, scaleD, special bool, groups int) (left uint64)
TEXT ·f32RowAVX(SB), NOSPLIT, $16-96
	MOVQ b+16(FP), R12
	MOVQ eb+24(FP), R13
	MOVQ bSpecial+64(FP), BX
	MOVQ $0, grp-8(SP)
	MOVQ $0, lft-16(SP)

rowgroup:
	MOVQ  a+0(FP), SI
	MOVQ  ea+8(FP), R8
	MOVQ  R12, DI
	MOVQ  R13, R9
	MOVQ  k+32(FP), CX
	MOVQ  x+48(FP), AX
	MOVQ  grp-8(SP), DX
	MOVQ  DX, R10
	SHRQ  $1, R10
	SHLQ  $9, R10
	ANDQ  $1, DX
	SHLQ  $3, DX
	ADDQ  DX, R10
	ADDQ  p0+56(FP), R10
	LEAQ  128(R10), R11
	MOVQ  grp-8(SP), DX
	TESTQ $1, DX
	JNE   rowhead

	// An even group: the products' lead exponents of it and the next
	// group (eight columns) into x.pair, a packed maximum a k.
	MOVQ         R13, R9
	MOVQ         CX, DX
	VPCMPEQD     Y0, Y0, Y0
	VPSLLD       $31, Y0, Y0
rowlead:
	VPBROADCASTD (R8), Y1
	VPADDD       (R9), Y1, Y1
	VPMAXSD      Y1, Y0, Y0
	ADDQ         $4, R8
	ADDQ         $1024, R9
	DECQ         DX
	JNZ          rowlead
	VMOVDQU      Y0, 96(AX)

rowhead:
	GROUPHEAD
	MOVQ    grp-8(SP), DX
	ANDQ    $1, DX
	SHLQ    $4, DX
	VMOVDQU 32(AX), X0
	VPMAXSD 96(AX)(DX*1), X0, X0
	SUMS
	GROUPTAIL
	VMOVMSKPS X8, DX
	TESTL     DX, DX
	JNE       rowleft
	VMOVD     X3, (R10)
	VPEXTRD   $1, X3, (R11)
	VPEXTRD   $2, X3, 4(R10)
	VPEXTRD   $3, X3, 4(R11)
	JMP       rownext

rowleft:
	MOVQ grp-8(SP), CX
	MOVQ $1, DX
	SHLQ CX, DX
	ORQ  DX, lft-16(SP)

rownext:
	ADDQ $32, R12
	ADDQ $16, R13
	ADDQ $4, BX
	MOVQ grp-8(SP), DX
	INCQ DX
	MOVQ DX, grp-8(SP)
	CMPQ DX, groups+80(FP)
	JLT  rowgroup
	MOVQ lft-16(SP), DX
	MOVQ DX, left+88(FP)
	VZEROUPPER
	RET

// exponentsAVX is exponents four values at a time for n a multiple of 4:
// each value's exponent field f (0 for a zero, 0x7ff for a NaN or an
// infinity, which set special), e = max(f-1023, emin), noExp where f is 0
// or 0x7ff.

// func exponentsAVX(v *float64, n int, emin int32, e *int32) (special bool)
TEXT ·exponentsAVX(SB), NOSPLIT, $0-33
	MOVQ         v+0(FP), SI
	MOVQ         n+8(FP), CX
	MOVQ         e+24(FP), DI
	MOVL         emin+16(FP), DX
	VMOVD        DX, X5
	VPBROADCASTD X5, X5
	VMOVDQU      ·lanePackIdx(SB), Y6
	VPBROADCASTQ f32GroupExpMask<>(SB), Y7
	VPBROADCASTD f32GroupBias<>(SB), X8
	VPBROADCASTD f32GroupSpecial<>(SB), X9
	VPBROADCASTD f32GroupNoExp<>(SB), X10
	VPXOR        X11, X11, X11
	VPXOR        X12, X12, X12
	SHRQ         $2, CX
	JZ           expdone

exp4:
	VMOVDQU   (SI), Y0
	VPSRLQ    $52, Y0, Y0
	VPAND     Y7, Y0, Y0
	VPERMD    Y0, Y6, Y0
	VPCMPEQD  X9, X0, X1
	VPOR      X1, X12, X12
	VPCMPEQD  X11, X0, X2
	VPOR      X2, X1, X1
	VPSUBD    X8, X0, X0
	VPMAXSD   X5, X0, X0
	VPBLENDVB X1, X10, X0, X0
	VMOVDQU   X0, (DI)
	ADDQ      $32, SI
	ADDQ      $16, DI
	DECQ      CX
	JNZ       exp4

expdone:
	VPTEST    X12, X12
	SETNE     special+32(FP)
	VZEROUPPER
	RET

DATA halvesSign<>+0(SB)/8, $0x8000000000000000
GLOBL halvesSign<>(SB), RODATA|NOPTR, $8

// halvesPutAVX widens the eight halves of a 16-byte row of an operand to
// float64 exactly: f16 by VCVTPH2PS (a NaN quieted and its payload kept, as
// Go's float64 of F16ToF32's float32 gives it), bf16 as the high half of an
// f32; both then by VCVTPS2PD (which quiets a signalling NaN as CVTSS2SD
// does). It negates them if neg and stores element e at v[e*step].

// func halvesPutAVX(c *[16]byte, v *float64, step int, neg, bf16 bool)
TEXT ·halvesPutAVX(SB), NOSPLIT, $0-26
	MOVQ c+0(FP), SI
	MOVQ v+8(FP), DI
	MOVQ step+16(FP), CX
	SHLQ $3, CX
	CMPB bf16+25(FP), $0
	JNE  putbf16
	VMOVDQU   (SI), X0
	VCVTPH2PS X0, Y0
	JMP       putwide

putbf16:
	VPMOVZXWD (SI), Y0
	VPSLLD    $16, Y0, Y0

putwide:
	VCVTPS2PD    X0, Y1
	VEXTRACTF128 $1, Y0, X0
	VCVTPS2PD    X0, Y2
	CMPB         neg+24(FP), $0
	JEQ          putstore
	VBROADCASTSD halvesSign<>(SB), Y3
	VXORPD       Y3, Y1, Y1
	VXORPD       Y3, Y2, Y2

putstore:
	VMOVSD       X1, (DI)
	ADDQ         CX, DI
	VMOVHPD      X1, (DI)
	ADDQ         CX, DI
	VEXTRACTF128 $1, Y1, X1
	VMOVSD       X1, (DI)
	ADDQ         CX, DI
	VMOVHPD      X1, (DI)
	ADDQ         CX, DI
	VMOVSD       X2, (DI)
	ADDQ         CX, DI
	VMOVHPD      X2, (DI)
	ADDQ         CX, DI
	VEXTRACTF128 $1, Y2, X2
	VMOVSD       X2, (DI)
	ADDQ         CX, DI
	VMOVHPD      X2, (DI)
	VZEROUPPER
	RET
