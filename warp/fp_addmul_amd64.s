#include "textflag.h"

// f32AddAVX2 and f32MulAVX2 are f32AddV and f32MulV four lanes at a time
// (fp_lanes_amd64.go): the low 32 bits of four 64-bit lanes packed
// (VPERMD), one packed IEEE single-precision add or
// multiply to nearest (VADDPS, VMULPS: the host's float32 arithmetic, as
// the Go loops), a NaN result replaced by the canonical NaN, and the
// results zero-extended into the lanes of d. A group is written after its
// operands are read, so d may be a or b.

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
	VMOVDQU      ·lanePackIdx(SB), Y15; \
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

// The half and integer conversions below take a warp's lanes four at a
// time, a group a trip of a loop over the eight groups: R9 the group's byte
// offset in a Vec, R10 its number. Those that return rest set bit g for a
// group g with a lane the packed form does not answer for.

// GROUPLOOP ends a group's trip: the next group, until all eight are done.
#define GROUPLOOP(label) \
	ADDQ $32, R9; \
	INCL R10; \
	CMPL R10, $8; \
	JLT  label

// GROUPSTART starts the loop at group 0, rest empty, Y15 the packing
// indices; GROUPEND ends the function, returning rest at off(FP).
#define GROUPSTART \
	XORL    R8, R8; \
	XORQ    R9, R9; \
	XORL    R10, R10; \
	VMOVDQU ·lanePackIdx(SB), Y15

#define GROUPEND(off) \
	VZEROUPPER; \
	MOVL R8, rest+off(FP); \
	RET

// KEEPREST sets rest's bit for the group and Y6 to all ones when X2's
// four dwords are not all ones (a lane the packed form does not answer
// for), else Y6 to zero.
#define KEEPREST \
	VPMOVMSKB    X2, AX; \
	CMPL         AX, $0xffff; \
	SETNE        BX; \
	MOVBLZX      BX, BX; \
	MOVL         BX, R11; \
	MOVL         R10, CX; \
	SHLL         CX, R11; \
	ORL          R11, R8; \
	NEGL         BX; \
	VMOVD        BX, X6; \
	VPBROADCASTD X6, Y6

// STOREKEPT stores X0's four dwords zero-extended (Y0 from VPMOVZX*) into
// d's group unless KEEPREST kept it for the per-lane loop.
#define STOREKEPT \
	VMOVDQU   (DX)(R9*1), Y5; \
	VPBLENDVB Y6, Y5, Y0, Y0; \
	VMOVDQU   Y0, (DX)(R9*1)

// VPSHUFB indices: the low two bytes of each of four 32-bit words, packed
// into the low eight bytes (the rest zero).
DATA halfPack<>+0(SB)/8, $0x0d0c090805040100
DATA halfPack<>+8(SB)/8, $0x8080808080808080
GLOBL halfPack<>(SB), RODATA|NOPTR, $16

DATA halfExp<>+0(SB)/2, $0x7c00
GLOBL halfExp<>(SB), RODATA|NOPTR, $2

// FINITEHALVES sets X2's four dwords to all ones where X0's four words
// (the low eight bytes) are finite halves, with X7 all ones.
#define FINITEHALVES \
	VPAND     X12, X0, X2; \
	VPCMPEQW  X12, X2, X2; \
	VPXOR     X7, X2, X2; \
	VPMOVZXWD X2, X2; \
	VPSLLD    $16, X2, X3; \
	VPOR      X3, X2, X2

// hadd2F32AVX is hadd2F32 (sass_float.go): the low 16 bits of four lanes of
// a and of b packed (VPERMD, then VPSHUFB), widened to f32 exactly
// (VCVTPH2PS), added once to nearest (VADDPS: the sum of two halves rounded
// once, as the Go loop's float64 sum rounded to f32), and zero-extended into
// the lanes of r. A group with an infinite or NaN half is not written.

// func hadd2F32AVX(a, b, r *Vec) (rest uint32)
TEXT ·hadd2F32AVX(SB), NOSPLIT, $0-28
	MOVQ a+0(FP), SI
	MOVQ b+8(FP), DI
	MOVQ r+16(FP), DX
	GROUPSTART
	VMOVDQU      halfPack<>(SB), X13
	VPBROADCASTW halfExp<>(SB), X12
	VPCMPEQD     X7, X7, X7

hadd:
	VPERMD    (SI)(R9*1), Y15, Y0
	VPSHUFB   X13, X0, X0
	VMOVDQA   X0, X8
	FINITEHALVES
	VMOVDQA   X2, X4
	VPERMD    (DI)(R9*1), Y15, Y0
	VPSHUFB   X13, X0, X1
	VMOVDQA   X1, X0
	FINITEHALVES
	VPAND     X4, X2, X2
	KEEPREST
	VCVTPH2PS X8, X0
	VCVTPH2PS X1, X1
	VADDPS    X1, X0, X0
	VPMOVZXDQ X0, Y0
	STOREKEPT
	GROUPLOOP(hadd)
	GROUPEND(24)

// func cpuHasF16C() bool
TEXT ·cpuHasF16C(SB), NOSPLIT, $0-1
	MOVL $1, AX
	XORL CX, CX
	CPUID
	SHRL $29, CX
	ANDL $1, CX
	MOVB CX, ret+0(FP)
	RET

DATA f32ExpMask<>+0(SB)/4, $0xff
GLOBL f32ExpMask<>(SB), RODATA|NOPTR, $4
DATA f16Bias<>+0(SB)/4, $113
GLOBL f16Bias<>(SB), RODATA|NOPTR, $4
DATA f16Span<>+0(SB)/4, $29
GLOBL f16Span<>(SB), RODATA|NOPTR, $4
DATA f32Abs<>+0(SB)/4, $0x7fffffff
GLOBL f32Abs<>(SB), RODATA|NOPTR, $4

// NARROWOK sets T1's dwords to all ones where f16Nearest answers for the
// f32 in X's dwords: an exponent field e with e-113 < 30 unsigned, or a
// zero.
#define NARROWOK(X, T1, T2) \
	VPSRLD    $23, X, T1; \
	VPAND     X11, T1, T1; \
	VPSUBD    X10, T1, T1; \
	VPMINUD   X9, T1, T2; \
	VPCMPEQD  T2, T1, T1; \
	VPAND     X8, X, T2; \
	VPCMPEQD  X7, T2, T2; \
	VPOR      T2, T1, T1

// NARROWCONSTS loads NARROWOK's constants (X7 zero).
#define NARROWCONSTS \
	VPBROADCASTD f32ExpMask<>(SB), X11; \
	VPBROADCASTD f16Bias<>(SB), X10; \
	VPBROADCASTD f16Span<>(SB), X9; \
	VPBROADCASTD f32Abs<>(SB), X8; \
	VPXOR        X7, X7, X7

// The half conversions below take a warp's lanes eight at a time, two
// groups a trip (R10 the first group's number, R9 its byte offset): a trip
// with a lane the packed form does not answer for is not written, and sets
// both of its groups' bits in rest.

// PAIRLOOP ends a trip of two groups: the next pair, until all eight
// groups are done.
#define PAIRLOOP(label) \
	ADDQ $64, R9; \
	ADDL $2, R10; \
	CMPL R10, $8; \
	JLT  label

// PAIRREST sets rest's bits for the trip's two groups.
#define PAIRREST \
	MOVL $3, R11; \
	MOVL R10, CX; \
	SHLL CX, R11; \
	ORL  R11, R8

// LOAD8 packs the low 32 bits of the eight lanes at off(R) of a trip into
// Y's dwords (T a temporary).
#define LOAD8(R, Y, X, T, XT) \
	VPERMD      (R)(R9*1), Y15, Y; \
	VPERMD      32(R)(R9*1), Y15, T; \
	VINSERTI128 $1, XT, Y, Y

// NARROWOKY is NARROWOK on eight dwords, with NARROWCONSTSY's constants.
#define NARROWOKY(Y, T1, T2) \
	VPSRLD    $23, Y, T1; \
	VPAND     Y11, T1, T1; \
	VPSUBD    Y10, T1, T1; \
	VPMINUD   Y9, T1, T2; \
	VPCMPEQD  T2, T1, T1; \
	VPAND     Y8, Y, T2; \
	VPCMPEQD  Y7, T2, T2; \
	VPOR      T2, T1, T1

#define NARROWCONSTSY \
	VPBROADCASTD f32ExpMask<>(SB), Y11; \
	VPBROADCASTD f16Bias<>(SB), Y10; \
	VPBROADCASTD f16Span<>(SB), Y9; \
	VPBROADCASTD f32Abs<>(SB), Y8; \
	VPXOR        Y7, Y7, Y7

// f16PackAVX is f16PackLanes (fp_fast_cvt_lanes.go) without .ftz or .sat:
// eight lanes of a and of b, each rounded to f16 to nearest even (VCVTPS2PH
// $0, which is f16Nearest where f16Nearest answers), a's half above b's,
// zero-extended into the lanes of d. A trip with a lane that f16Nearest
// leaves to f32ToF16 (a result below f16's normal range, an infinity or a
// NaN) is not written; the others are written after their operands are
// read, so d may be a or b.

// func f16PackAVX(d, a, b *Vec) (rest uint32)
TEXT ·f16PackAVX(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	GROUPSTART
	NARROWCONSTSY

pack:
	LOAD8(SI, Y0, X0, Y2, X2)
	LOAD8(DI, Y1, X1, Y3, X3)
	NARROWOKY(Y0, Y2, Y3)
	NARROWOKY(Y1, Y4, Y5)
	VPAND      Y4, Y2, Y2
	VPMOVMSKB  Y2, AX
	CMPL       AX, $-1
	JNE        packrest
	VCVTPS2PH  $0, Y0, X0
	VCVTPS2PH  $0, Y1, X1
	VPUNPCKLWD X0, X1, X2
	VPUNPCKHWD X0, X1, X3
	VPMOVZXDQ  X2, Y2
	VPMOVZXDQ  X3, Y3
	VMOVDQU    Y2, (DX)(R9*1)
	VMOVDQU    Y3, 32(DX)(R9*1)

packnext:
	PAIRLOOP(pack)
	GROUPEND(24)

packrest:
	PAIRREST
	JMP packnext

// f32ToF16AVX is f32ToF16Lanes without .ftz or .sat (VCVTPS2PH $0 where
// f16Nearest answers), eight lanes a trip; a trip with another lane is not
// written. The others are written after their operands are read, so d may
// be a.

// func f32ToF16AVX(d, a *Vec) (rest uint32)
TEXT ·f32ToF16AVX(SB), NOSPLIT, $0-20
	MOVQ d+0(FP), DX
	MOVQ a+8(FP), SI
	GROUPSTART
	NARROWCONSTSY

tohalf:
	LOAD8(SI, Y0, X0, Y1, X1)
	NARROWOKY(Y0, Y2, Y3)
	VPMOVMSKB Y2, AX
	CMPL      AX, $-1
	JNE       tohalfrest
	VCVTPS2PH $0, Y0, X0
	VPMOVZXWQ X0, Y1
	VPSRLDQ   $8, X0, X0
	VPMOVZXWQ X0, Y0
	VMOVDQU   Y1, (DX)(R9*1)
	VMOVDQU   Y0, 32(DX)(R9*1)

tohalfnext:
	PAIRLOOP(tohalf)
	GROUPEND(16)

tohalfrest:
	PAIRREST
	JMP tohalfnext

// f16WidenAVX is f16ToF32Lanes without .sat on the half at bit shift (0 or
// 16) of each lane's low word: eight halves a trip, masked to 16 bits and
// packed (VPACKUSDW), widened to f32 exactly (VCVTPH2PS) and zero-extended
// into the lanes of d. A trip with an infinite or NaN half is not written;
// the others are written after their operands are read, so d may be a.

// func f16WidenAVX(d, a *Vec, shift uint64) (rest uint32)
TEXT ·f16WidenAVX(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DX
	MOVQ a+8(FP), SI
	MOVQ shift+16(FP), X14
	GROUPSTART
	VPBROADCASTD lowHalfMask<>(SB), X11
	VPBROADCASTW halfExp<>(SB), X12

widen:
	VPERMD       (SI)(R9*1), Y15, Y0
	VPERMD       32(SI)(R9*1), Y15, Y1
	VPSRLD       X14, X0, X0
	VPSRLD       X14, X1, X1
	VPAND        X11, X0, X0
	VPAND        X11, X1, X1
	VPACKUSDW    X1, X0, X2
	VPAND        X12, X2, X3
	VPCMPEQW     X12, X3, X3
	VPTEST       X3, X3
	JNE          widenrest
	VCVTPH2PS    X2, Y0
	VEXTRACTI128 $1, Y0, X1
	VPMOVZXDQ    X0, Y0
	VPMOVZXDQ    X1, Y1
	VMOVDQU      Y0, (DX)(R9*1)
	VMOVDQU      Y1, 32(DX)(R9*1)

widennext:
	PAIRLOOP(widen)
	GROUPEND(24)

widenrest:
	PAIRREST
	JMP widennext

// s32ToF32AVX and u32ToF32AVX are intToF32Lanes of 32-bit integers: the
// low 32 bits of eight lanes a trip, packed and converted to nearest
// (VCVTDQ2PS; an unsigned word as its high and low 16 bits, each converted
// exactly, the high half scaled by 2^16 exactly and the two added once to
// nearest), zero-extended into the lanes of d. A trip is written after its
// operands are read, so d may be a.

DATA lowHalfMask<>+0(SB)/4, $0xffff
GLOBL lowHalfMask<>(SB), RODATA|NOPTR, $4
DATA two16<>+0(SB)/4, $0x47800000
GLOBL two16<>(SB), RODATA|NOPTR, $4

// STORE8 stores Y's eight dwords zero-extended into the trip's lanes of d
// (T a temporary).
#define STORE8(Y, X, T, XT) \
	VEXTRACTI128 $1, Y, XT; \
	VPMOVZXDQ    X, Y; \
	VPMOVZXDQ    XT, T; \
	VMOVDQU      Y, (DX)(R9*1); \
	VMOVDQU      T, 32(DX)(R9*1)

// func s32ToF32AVX(d, a *Vec)
TEXT ·s32ToF32AVX(SB), NOSPLIT, $0-16
	MOVQ d+0(FP), DX
	MOVQ a+8(FP), SI
	GROUPSTART

s2f:
	LOAD8(SI, Y0, X0, Y1, X1)
	VCVTDQ2PS Y0, Y0
	STORE8(Y0, X0, Y1, X1)
	PAIRLOOP(s2f)
	VZEROUPPER
	RET

// func u32ToF32AVX(d, a *Vec)
TEXT ·u32ToF32AVX(SB), NOSPLIT, $0-16
	MOVQ d+0(FP), DX
	MOVQ a+8(FP), SI
	GROUPSTART
	VPBROADCASTD lowHalfMask<>(SB), Y14
	VPBROADCASTD two16<>(SB), Y13

u2f:
	LOAD8(SI, Y0, X0, Y1, X1)
	VPSRLD    $16, Y0, Y1
	VPAND     Y14, Y0, Y0
	VCVTDQ2PS Y1, Y1
	VCVTDQ2PS Y0, Y0
	VMULPS    Y13, Y1, Y1
	VADDPS    Y1, Y0, Y0
	STORE8(Y0, X0, Y1, X1)
	PAIRLOOP(u2f)
	VZEROUPPER
	RET

// f32TruncAVX is f32ToIntLanes's in-line case, a truncation (.rzi) of
// |x| < 2^31, eight lanes a trip: the low 32 bits of the lanes packed,
// truncated (VCVTTPS2DQ) and zero-extended into the lanes of d, or
// sign-extended when wide (a 64-bit destination). A trip with a lane
// outside that case (|x| >= 2^31, an infinity, a NaN, or a sign bit in neg:
// a negative x for an unsigned destination) is not written and sets both of
// its groups in rest; the others are written after their operands are
// read, so d may be a.

DATA f32ExpBits<>+0(SB)/4, $0x7f800000
GLOBL f32ExpBits<>(SB), RODATA|NOPTR, $4
DATA f32Exp31<>+0(SB)/4, $0x4effffff
GLOBL f32Exp31<>(SB), RODATA|NOPTR, $4

// func f32TruncAVX(d, a *Vec, neg uint32, wide bool) (rest uint32)
TEXT ·f32TruncAVX(SB), NOSPLIT, $0-28
	MOVQ d+0(FP), DX
	MOVQ a+8(FP), SI
	MOVL         neg+16(FP), AX
	VMOVD        AX, X14
	VPBROADCASTD X14, Y14
	MOVBLZX      wide+20(FP), R12
	VPBROADCASTD f32ExpBits<>(SB), Y13
	VPBROADCASTD f32Exp31<>(SB), Y12
	VPXOR        Y7, Y7, Y7
	GROUPSTART

trunc:
	LOAD8(SI, Y0, X0, Y1, X1)
	VPAND      Y13, Y0, Y1
	VPCMPGTD   Y12, Y1, Y1
	VPAND      Y14, Y0, Y2
	VPCMPEQD   Y7, Y2, Y2
	VPANDN     Y2, Y1, Y2
	VPMOVMSKB  Y2, AX
	CMPL       AX, $-1
	JNE        truncrest
	VCVTTPS2DQ Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	TESTL      R12, R12
	JNE        trunc64
	VPMOVZXDQ  X0, Y0
	VPMOVZXDQ  X1, Y1
	JMP        truncstore

trunc64:
	VPMOVSXDQ X0, Y0
	VPMOVSXDQ X1, Y1

truncstore:
	VMOVDQU Y0, (DX)(R9*1)
	VMOVDQU Y1, 32(DX)(R9*1)

truncnext:
	PAIRLOOP(trunc)
	GROUPEND(24)

truncrest:
	PAIRREST
	JMP truncnext
