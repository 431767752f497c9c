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
// cols4's layout: c at 0, ce at 32, sum at 48, lead at 80.

// func fusedCols4AVX2(a *float64, ea *int32, b *float64, eb *int32, k int, bias int64, x *cols4)
TEXT ·fusedCols4AVX2(SB), NOSPLIT, $0-56
	MOVQ a+0(FP), SI
	MOVQ ea+8(FP), R8
	MOVQ b+16(FP), DI
	MOVQ eb+24(FP), R9
	MOVQ k+32(FP), CX
	MOVQ x+48(FP), AX

	// lead = max(ce, ea[k]+eb[k] for each k)
	VMOVDQU 32(AX), X0
	MOVQ    CX, DX
lead:
	VPBROADCASTD (R8), X1
	VPADDD       (R9), X1, X1
	VPMAXSD      X1, X0, X0
	ADDQ         $4, R8
	ADDQ         $1024, R9
	DECQ         DX
	JNZ          lead
	VMOVDQU X0, 80(AX)

	// scale = float64 bits (bias - lead) << 52
	VPMOVSXDQ    X0, Y0
	VPBROADCASTQ bias+40(FP), Y2
	VPSUBQ       Y0, Y2, Y2
	VPSLLQ       $52, Y2, Y2

	// sums: the accumulator's term, then the products'
	VMOVUPD  (AX), Y3
	VMULPD   Y2, Y3, Y3
	VROUNDPD $3, Y3, Y3
	VXORPD   Y5, Y5, Y5
	SHRQ     $1, CX
	JCC      pairs
	VBROADCASTSD (SI), Y4
	VMULPD       (DI), Y4, Y4
	VMULPD       Y2, Y4, Y4
	VROUNDPD     $3, Y4, Y4
	VADDPD       Y4, Y3, Y3
	ADDQ         $8, SI
	ADDQ         $2048, DI
pairs:
	TESTQ CX, CX
	JZ    done
pair:
	VBROADCASTSD (SI), Y4
	VMULPD       (DI), Y4, Y4
	VMULPD       Y2, Y4, Y4
	VROUNDPD     $3, Y4, Y4
	VADDPD       Y4, Y3, Y3
	VBROADCASTSD 8(SI), Y6
	VMULPD       2048(DI), Y6, Y6
	VMULPD       Y2, Y6, Y6
	VROUNDPD     $3, Y6, Y6
	VADDPD       Y6, Y5, Y5
	ADDQ         $16, SI
	ADDQ         $4096, DI
	DECQ         CX
	JNZ          pair
done:
	VADDPD  Y5, Y3, Y3
	VMOVUPD Y3, 48(AX)
	VZEROUPPER
	RET

// halvesF16AVX widens the eight f16 of a 16-byte row of an operand to
// float64 exactly (VCVTPH2PS, then VCVTPS2PD; a NaN quieted and its payload
// kept, as Go's float64 of F16ToF32's float32 gives it).

// func halvesF16AVX(c *[16]byte, out *[8]float64)
TEXT ·halvesF16AVX(SB), NOSPLIT, $0-16
	MOVQ         c+0(FP), SI
	MOVQ         out+8(FP), DI
	VMOVDQU      (SI), X0
	VCVTPH2PS    X0, Y0
	VCVTPS2PD    X0, Y1
	VEXTRACTF128 $1, Y0, X0
	VCVTPS2PD    X0, Y2
	VMOVUPD      Y1, (DI)
	VMOVUPD      Y2, 32(DI)
	VZEROUPPER
	RET

// halvesBF16AVX widens the eight bf16 of a 16-byte row to float64: each
// the high half of an f32 (VPSLLD), converted as Go converts a float32
// (VCVTPS2PD, which quiets a signalling NaN as CVTSS2SD does).

// func halvesBF16AVX(c *[16]byte, out *[8]float64)
TEXT ·halvesBF16AVX(SB), NOSPLIT, $0-16
	MOVQ         c+0(FP), SI
	MOVQ         out+8(FP), DI
	VPMOVZXWD    (SI), Y0
	VPSLLD       $16, Y0, Y0
	VCVTPS2PD    X0, Y1
	VEXTRACTF128 $1, Y0, X0
	VCVTPS2PD    X0, Y2
	VMOVUPD      Y1, (DI)
	VMOVUPD      Y2, 32(DI)
	VZEROUPPER
	RET
