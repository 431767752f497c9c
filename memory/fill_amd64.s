#include "textflag.h"

// f32RandAVX2 (fill_amd64.go): four words of an f32rand fill a step. Each
// 64-bit product x·C is lo(x)·lo(C) + ((hi(x)·lo(C) + lo(x)·hi(C)) << 32),
// three VPMULUDQs, exactly the low 64 bits of the product.

DATA randMul1<>+0(SB)/8, $0xbf58476d1ce4e5b9
GLOBL randMul1<>(SB), RODATA|NOPTR, $8
DATA randMul2<>+0(SB)/8, $0x94d049bb133111eb
GLOBL randMul2<>(SB), RODATA|NOPTR, $8
DATA randGamma<>+0(SB)/8, $0x9e3779b97f4a7c15
GLOBL randGamma<>(SB), RODATA|NOPTR, $8
DATA randHalf<>+0(SB)/4, $0x00800000 // 2^23
GLOBL randHalf<>(SB), RODATA|NOPTR, $4
DATA randScale<>+0(SB)/4, $0x34000000 // 2^-23 as f32
GLOBL randScale<>(SB), RODATA|NOPTR, $4
// VPERMD indices: the low 32 bits of four 64-bit lanes, packed.
DATA randPack<>+0(SB)/4, $0
DATA randPack<>+4(SB)/4, $2
DATA randPack<>+8(SB)/4, $4
DATA randPack<>+12(SB)/4, $6
DATA randPack<>+16(SB)/4, $0
DATA randPack<>+20(SB)/4, $2
DATA randPack<>+24(SB)/4, $4
DATA randPack<>+28(SB)/4, $6
GLOBL randPack<>(SB), RODATA|NOPTR, $32

// MUL64(x, clo, chi, t1, t2): x = x·C (low 64 bits), clo holding lo(C) and
// chi hi(C) in each lane's low 32 bits.
#define MUL64(x, clo, chi, t1, t2) \
	VPSRLQ $32, x, t1 \
	VPMULUDQ clo, t1, t1 \
	VPMULUDQ chi, x, t2 \
	VPADDQ t2, t1, t1 \
	VPSLLQ $32, t1, t1 \
	VPMULUDQ clo, x, x \
	VPADDQ t1, x, x

// func f32RandAVX2(dst *byte, n int, z uint64)
TEXT ·f32RandAVX2(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ z+16(FP), AX

	// Y0: the four states z, z+g, z+2g, z+3g; Y1: 4g.
	MOVQ randGamma<>(SB), DX
	MOVQ AX, X0
	LEAQ (AX)(DX*1), BX
	PINSRQ $1, BX, X0
	LEAQ (BX)(DX*1), BX
	MOVQ BX, X2
	ADDQ DX, BX
	PINSRQ $1, BX, X2
	VINSERTI128 $1, X2, Y0, Y0
	SHLQ $2, DX
	MOVQ DX, X1
	VPBROADCASTQ X1, Y1

	// Y2, Y3: lo and hi of the first multiplier; Y4, Y5 of the second.
	VPBROADCASTQ randMul1<>(SB), Y2
	VPSRLQ $32, Y2, Y3
	VPBROADCASTQ randMul2<>(SB), Y4
	VPSRLQ $32, Y4, Y5
	VPBROADCASTD randHalf<>(SB), X6
	VBROADCASTSS randScale<>(SB), X7
	VMOVDQU randPack<>(SB), Y8

loop:
	CMPQ CX, $4
	JLT done
	// z ^= z >> 30; z *= C1; z ^= z >> 27; z *= C2; z ^= z >> 31
	VPSRLQ $30, Y0, Y9
	VPXOR Y0, Y9, Y9
	MUL64(Y9, Y2, Y3, Y10, Y11)
	VPSRLQ $27, Y9, Y10
	VPXOR Y10, Y9, Y9
	MUL64(Y9, Y4, Y5, Y10, Y11)
	VPSRLQ $31, Y9, Y10
	VPXOR Y10, Y9, Y9
	// the top 24 bits, less 2^23, as a float, times 2^-23
	VPSRLQ $40, Y9, Y9
	VPERMD Y9, Y8, Y9
	VPSUBD X6, X9, X9
	VCVTDQ2PS X9, X9
	VMULPS X7, X9, X9
	VMOVDQU X9, (DI)
	VPADDQ Y1, Y0, Y0
	ADDQ $16, DI
	SUBQ $4, CX
	JMP loop

done:
	VZEROUPPER
	RET
