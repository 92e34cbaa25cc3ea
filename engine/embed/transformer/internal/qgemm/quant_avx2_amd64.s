#include "textflag.h"
#include "minmax_amd64.h"

// The quantizing helpers of the AVX2 path, eight lanes: each computes what
// its sixteen-lane version in quant_amd64.s computes (and the portable Go
// code: TestHelpersAgree).

DATA q2<>+0(SB)/4, $255
DATA q2<>+4(SB)/4, $127
DATA q2<>+8(SB)/4, $-127
DATA q2<>+12(SB)/4, $0xff
DATA q2<>+16(SB)/4, $0x7fffffff // |x| mask
GLOBL q2<>(SB), RODATA|NOPTR, $20

// func minMax8(x *float32, n int) (lo, hi float32)
//
// The least and greatest of n floats, n a positive multiple of 8.
TEXT ·minMax8(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	VMOVUPS (SI), Y0
	VMOVAPS Y0, Y1

mloop:
	VMOVUPS (SI), Y2
	VMINPS Y2, Y0, Y0
	VMAXPS Y2, Y1, Y1
	ADDQ $32, SI
	DECQ CX
	JNZ  mloop
	MINMAX_Y01 // X0 = lo, X1 = hi
	VMOVSS X0, lo+16(FP)
	VMOVSS X1, hi+20(FP)
	VZEROUPPER
	RET

// func quantRow8(dst *uint8, x *float32, n int, lo, inv float32)
//
// dst[j] = clamp(round((x[j] - lo)·inv), 0, 255) for n floats, n a
// multiple of 16 (rounding to nearest even).
TEXT ·quantRow8(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	JZ   qdone
	VBROADCASTSS lo+24(FP), Y4
	VBROADCASTSS inv+28(FP), Y5
	VPXOR Y6, Y6, Y6
	VPBROADCASTD q2<>+0(SB), Y7

qloop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y1
	VSUBPS Y4, Y0, Y0
	VSUBPS Y4, Y1, Y1
	VMULPS Y5, Y0, Y0
	VMULPS Y5, Y1, Y1
	VCVTPS2DQ Y0, Y0
	VCVTPS2DQ Y1, Y1
	VPMAXSD Y6, Y0, Y0
	VPMAXSD Y6, Y1, Y1
	VPMINSD Y7, Y0, Y0
	VPMINSD Y7, Y1, Y1
	VPACKSSDW Y1, Y0, Y0
	VPERMQ $0xd8, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPACKUSWB X1, X0, X0
	VMOVDQU X0, (DI)
	ADDQ $64, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  qloop
	VZEROUPPER

qdone:
	RET

// func quantSym8(dst *int8, x *float32, n int, inv float32)
//
// dst[j] = saturate_s8(round(x[j]·inv)) for n floats, n a multiple of 16.
TEXT ·quantSym8(SB), NOSPLIT, $0-28
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	JZ   sdone
	VBROADCASTSS inv+24(FP), Y5

sloop:
	VMULPS (SI), Y5, Y0
	VMULPS 32(SI), Y5, Y1
	VCVTPS2DQ Y0, Y0
	VCVTPS2DQ Y1, Y1
	VPACKSSDW Y1, Y0, Y0
	VPERMQ $0xd8, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPACKSSWB X1, X0, X0
	VMOVDQU X0, (DI)
	ADDQ $64, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  sloop
	VZEROUPPER

sdone:
	RET

// func amaxCols8(acc *float32, x *float32, ks int, rows int, n int)
//
// acc[j] = max(acc[j], |x[r*ks + j]|) over rows r, for n columns (a
// multiple of 8; ks in floats).
TEXT ·amaxCols8(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ ks+16(FP), R8
	SHLQ $2, R8
	MOVQ rows+24(FP), R9
	MOVQ n+32(FP), CX
	SHRQ $3, CX
	JZ   adone
	VPBROADCASTD q2<>+16(SB), Y3

acol:
	VMOVUPS (DI), Y0
	MOVQ SI, R10
	MOVQ R9, R11
	TESTQ R11, R11
	JZ   astore

arow:
	VPAND (R10), Y3, Y1
	VMAXPS Y1, Y0, Y0
	ADDQ R8, R10
	DECQ R11
	JNZ  arow

astore:
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	DECQ CX
	JNZ  acol
	VZEROUPPER

adone:
	RET

// func pack4x8(dst *int8, x *float32, ks int, inv *float32, sums *int32)
//
// pack4x16 for eight columns: four rows (row r at x + r·ks floats)
// quantized to round(x·inv[j]) clamped to −127…127, stored per column as
// the dword of its four rows' bytes (row 0 in the low byte), 32 bytes at
// dst; sums[j] += the four bytes of column j.
TEXT ·pack4x8(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ ks+16(FP), R8
	SHLQ $2, R8
	MOVQ inv+24(FP), DX
	MOVQ sums+32(FP), BX
	VMOVUPS (DX), Y8
	VPBROADCASTD q2<>+4(SB), Y9
	VPBROADCASTD q2<>+8(SB), Y10
	VPBROADCASTD q2<>+12(SB), Y11
	VMOVDQU (BX), Y12

	VMULPS (SI), Y8, Y0
	ADDQ R8, SI
	VMULPS (SI), Y8, Y1
	ADDQ R8, SI
	VMULPS (SI), Y8, Y2
	ADDQ R8, SI
	VMULPS (SI), Y8, Y3
	VCVTPS2DQ Y0, Y0
	VCVTPS2DQ Y1, Y1
	VCVTPS2DQ Y2, Y2
	VCVTPS2DQ Y3, Y3
	VPMINSD Y9, Y0, Y0
	VPMINSD Y9, Y1, Y1
	VPMINSD Y9, Y2, Y2
	VPMINSD Y9, Y3, Y3
	VPMAXSD Y10, Y0, Y0
	VPMAXSD Y10, Y1, Y1
	VPMAXSD Y10, Y2, Y2
	VPMAXSD Y10, Y3, Y3
	VPADDD Y0, Y12, Y12
	VPADDD Y1, Y12, Y12
	VPADDD Y2, Y12, Y12
	VPADDD Y3, Y12, Y12
	VMOVDQU Y12, (BX)
	VPAND Y11, Y0, Y0
	VPAND Y11, Y1, Y1
	VPAND Y11, Y2, Y2
	VPSLLD $8, Y1, Y1
	VPSLLD $16, Y2, Y2
	VPSLLD $24, Y3, Y3
	VPOR Y1, Y0, Y0
	VPOR Y3, Y2, Y2
	VPOR Y2, Y0, Y0
	VMOVDQU Y0, (DI)
	VZEROUPPER
	RET
