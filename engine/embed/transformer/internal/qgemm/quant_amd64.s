#include "textflag.h"
#include "minmax_amd64.h"

// func quantRow16(dst *uint8, x *float32, n int, lo, inv float32)
//
// dst[j] = saturate_u8(round((x[j] - lo)·inv)) for n floats, n a multiple
// of 16 (rounding to nearest even, negative values to 0).
TEXT ·quantRow16(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	JZ   qdone
	VBROADCASTSS lo+24(FP), Z1
	VBROADCASTSS inv+28(FP), Z2
	VPXORD Z3, Z3, Z3

qloop:
	VMOVUPS (SI), Z0
	VSUBPS Z1, Z0, Z0
	VMULPS Z2, Z0, Z0
	VCVTPS2DQ Z0, Z0
	VPMAXSD Z3, Z0, Z0
	VPMOVUSDB Z0, (DI)
	ADDQ $64, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  qloop
	VZEROUPPER

qdone:
	RET

// func minMax16(x *float32, n int) (lo, hi float32)
//
// The least and greatest of n floats, n a positive multiple of 16.
TEXT ·minMax16(SB), NOSPLIT, $0-24
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $4, CX
	VMOVUPS (SI), Z0
	VMOVAPS Z0, Z1

mloop:
	VMOVUPS (SI), Z2
	VMINPS Z2, Z0, Z0
	VMAXPS Z2, Z1, Z1
	ADDQ $64, SI
	DECQ CX
	JNZ  mloop
	VEXTRACTF32X8 $1, Z0, Y2
	VMINPS Y2, Y0, Y0
	VEXTRACTF32X8 $1, Z1, Y3
	VMAXPS Y3, Y1, Y1
	MINMAX_Y01 // X0 = lo, X1 = hi
	VMOVSS X0, lo+16(FP)
	VMOVSS X1, hi+20(FP)
	VZEROUPPER
	RET

// func quantSym16(dst *int8, x *float32, n int, inv float32)
//
// dst[j] = saturate_s8(round(x[j]·inv)) for n floats, n a multiple of 16
// (callers choose inv so that the results lie in −127…127).
TEXT ·quantSym16(SB), NOSPLIT, $0-28
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	SHRQ $4, CX
	JZ   sdone
	VBROADCASTSS inv+24(FP), Z2

sloop:
	VMULPS (SI), Z2, Z0
	VCVTPS2DQ Z0, Z0
	VPMOVSDB Z0, (DI)
	ADDQ $64, SI
	ADDQ $16, DI
	DECQ CX
	JNZ  sloop
	VZEROUPPER

sdone:
	RET

// func amaxCols16(acc *float32, x *float32, ks int, rows int, n int)
//
// acc[j] = max(acc[j], |x[r*ks + j]|) over rows r, for n columns (a
// multiple of 16; ks in floats).
TEXT ·amaxCols16(SB), NOSPLIT, $0-40
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ ks+16(FP), R8
	SHLQ $2, R8
	MOVQ rows+24(FP), R9
	MOVQ n+32(FP), CX
	SHRQ $4, CX
	JZ   adone
	MOVL $0x7fffffff, AX
	VPBROADCASTD AX, Z3

acol:
	VMOVUPS (DI), Z0
	MOVQ SI, R10
	MOVQ R9, R11
	TESTQ R11, R11
	JZ   astore

arow:
	VPANDD (R10), Z3, Z1
	VMAXPS Z1, Z0, Z0
	ADDQ R8, R10
	DECQ R11
	JNZ  arow

astore:
	VMOVUPS Z0, (DI)
	ADDQ $64, DI
	ADDQ $64, SI
	DECQ CX
	JNZ  acol
	VZEROUPPER

adone:
	RET

// func pack4x16(dst *int8, x *float32, ks int, inv *float32, sums *int32)
//
// Quantizes four rows of sixteen columns (row r at x + r·ks floats) to
// round(x·inv[j]) clamped to −127…127 and stores them as the panels lay
// them out: for each column j, the dword of its four rows' bytes (row 0 in
// the low byte), 64 bytes at dst. sums[j] += the four bytes of column j.
TEXT ·pack4x16(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ ks+16(FP), R8
	SHLQ $2, R8
	MOVQ inv+24(FP), DX
	MOVQ sums+32(FP), BX
	VMOVUPS (DX), Z8
	MOVL $127, AX
	VPBROADCASTD AX, Z9
	MOVL $-127, AX
	VPBROADCASTD AX, Z10
	MOVL $0xff, AX
	VPBROADCASTD AX, Z11
	VMOVDQU32 (BX), Z12

	VMULPS (SI), Z8, Z0
	ADDQ R8, SI
	VMULPS (SI), Z8, Z1
	ADDQ R8, SI
	VMULPS (SI), Z8, Z2
	ADDQ R8, SI
	VMULPS (SI), Z8, Z3
	VCVTPS2DQ Z0, Z0
	VCVTPS2DQ Z1, Z1
	VCVTPS2DQ Z2, Z2
	VCVTPS2DQ Z3, Z3
	VPMINSD Z9, Z0, Z0
	VPMINSD Z9, Z1, Z1
	VPMINSD Z9, Z2, Z2
	VPMINSD Z9, Z3, Z3
	VPMAXSD Z10, Z0, Z0
	VPMAXSD Z10, Z1, Z1
	VPMAXSD Z10, Z2, Z2
	VPMAXSD Z10, Z3, Z3
	VPADDD Z0, Z12, Z12
	VPADDD Z1, Z12, Z12
	VPADDD Z2, Z12, Z12
	VPADDD Z3, Z12, Z12
	VMOVDQU32 Z12, (BX)
	VPANDD Z11, Z0, Z0
	VPANDD Z11, Z1, Z1
	VPANDD Z11, Z2, Z2
	VPSLLD $8, Z1, Z1
	VPSLLD $16, Z2, Z2
	VPSLLD $24, Z3, Z3
	VPORD Z1, Z0, Z0
	VPORD Z3, Z2, Z2
	VPORD Z2, Z0, Z0
	VMOVDQU32 Z0, (DI)
	VZEROUPPER
	RET

DATA qc<>+0(SB)/4, $0x437f0000 // 255
DATA qc<>+4(SB)/4, $0x3f800000 // 1
DATA qc<>+8(SB)/4, $0x42fe0000 // 127
DATA qc<>+12(SB)/4, $0x7fffffff // |x| mask
GLOBL qc<>(SB), RODATA|NOPTR, $16

// func quantRows16(dst *uint8, ldd int, src *float32, lda int, rows int, k int, scale *float32, mins *float32)
//
// Quantize for k a positive multiple of 16: row r of src (at src + r·lda
// floats) into dst + r·ldd bytes over its own range lo…hi, scale[r] =
// (hi - lo)/255 and mins[r] = lo, as SetRow computes them.
TEXT ·quantRows16(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ ldd+8(FP), R12
	MOVQ src+16(FP), SI
	MOVQ lda+24(FP), R13
	SHLQ $2, R13
	MOVQ rows+32(FP), R9
	MOVQ k+40(FP), R14
	SHRQ $4, R14
	MOVQ scale+48(FP), R10
	MOVQ mins+56(FP), R11
	VPXORD Z7, Z7, Z7
	TESTQ R9, R9
	JZ   rdone

rrow:
	MOVQ SI, AX
	MOVQ R14, CX
	VMOVUPS (AX), Z0
	VMOVAPS Z0, Z1

rminmax:
	VMOVUPS (AX), Z2
	VMINPS Z2, Z0, Z0
	VMAXPS Z2, Z1, Z1
	ADDQ $64, AX
	DECQ CX
	JNZ  rminmax
	VEXTRACTF32X8 $1, Z0, Y2
	VMINPS Y2, Y0, Y0
	VEXTRACTF32X8 $1, Z1, Y3
	VMAXPS Y3, Y1, Y1
	MINMAX_Y01 // X0 = lo, X1 = hi
	VSUBSS X0, X1, X2
	VDIVSS qc<>+0(SB), X2, X2 // s = (hi - lo)/255
	VMOVSS X2, (R10)
	VMOVSS X0, (R11)
	VXORPS X3, X3, X3 // inv = 0 when s = 0
	VUCOMISS X3, X2
	JEQ  rinv
	VMOVSS qc<>+4(SB), X3
	VDIVSS X2, X3, X3 // inv = 1/s

rinv:
	VBROADCASTSS X0, Z5
	VBROADCASTSS X3, Z6
	MOVQ SI, AX
	MOVQ DI, BX
	MOVQ R14, CX

rquant:
	VMOVUPS (AX), Z0
	VSUBPS Z5, Z0, Z0
	VMULPS Z6, Z0, Z0
	VCVTPS2DQ Z0, Z0
	VPMAXSD Z7, Z0, Z0
	VPMOVUSDB Z0, (BX)
	ADDQ $64, AX
	ADDQ $16, BX
	DECQ CX
	JNZ  rquant
	ADDQ R13, SI
	ADDQ R12, DI
	ADDQ $4, R10
	ADDQ $4, R11
	DECQ R9
	JNZ  rrow
	VZEROUPPER

rdone:
	RET

// func packCols16(dst *int8, src *float32, js int, col int, n int, k int, kp int, amax *float32, sums *int32)
//
// packContiguousColumns for k a positive multiple of 16: column j of the
// source (k floats at src + j·js floats) is quantized symmetrically,
// round(x·127/max|x|), into panel column col+j of dst (panels of 32
// columns, kp rows: its dword of four rows every 128 bytes); amax[j] is
// max|x| and sums[j] the sum of its bytes.
TEXT ·packCols16(SB), NOSPLIT, $0-72
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ js+16(FP), R8
	SHLQ $2, R8
	MOVQ col+24(FP), R9
	MOVQ n+32(FP), R10
	MOVQ k+40(FP), R14
	SHRQ $4, R14
	MOVQ kp+48(FP), R12
	SHLQ $5, R12 // bytes of one panel
	MOVQ amax+56(FP), R11
	MOVQ sums+64(FP), R13
	VPBROADCASTD qc<>+12(SB), Z7
	TESTQ R10, R10
	JZ   pdone

pcol:
	MOVQ SI, AX
	MOVQ R14, CX
	VPXORD Z0, Z0, Z0

pamax:
	VPANDD (AX), Z7, Z1
	VMAXPS Z1, Z0, Z0
	ADDQ $64, AX
	DECQ CX
	JNZ  pamax
	VEXTRACTF32X8 $1, Z0, Y1
	VMAXPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VMAXPS X1, X0, X0 // max|x|
	VMOVSS X0, (R11)
	VXORPS X3, X3, X3
	VUCOMISS X3, X0
	JEQ  pinv
	VMOVSS qc<>+8(SB), X3
	VDIVSS X0, X3, X3 // inv = 127/max|x|

pinv:
	VBROADCASTSS X3, Z6
	// Byte base of column col+j: its panel, then 4 bytes per column.
	MOVQ R9, AX
	SHRQ $5, AX
	IMULQ R12, AX
	MOVQ R9, BX
	ANDQ $31, BX
	LEAQ (AX)(BX*4), BX
	ADDQ DI, BX
	MOVQ SI, AX
	MOVQ R14, CX
	VPXORD Z4, Z4, Z4

pquant:
	VMULPS (AX), Z6, Z0
	VCVTPS2DQ Z0, Z0
	VPADDD Z0, Z4, Z4
	VPMOVSDB Z0, X1
	VMOVD X1, (BX)
	VPEXTRD $1, X1, 128(BX)
	VPEXTRD $2, X1, 256(BX)
	VPEXTRD $3, X1, 384(BX)
	ADDQ $64, AX
	ADDQ $512, BX
	DECQ CX
	JNZ  pquant
	VEXTRACTI32X8 $1, Z4, Y5
	VPADDD Y5, Y4, Y4
	VEXTRACTI128 $1, Y4, X5
	VPADDD X5, X4, X4
	VPSHUFD $0x4e, X4, X5
	VPADDD X5, X4, X4
	VPSHUFD $0xb1, X4, X5
	VPADDD X5, X4, X4
	VMOVD X4, (R13)
	ADDQ R8, SI
	INCQ R9
	ADDQ $4, R11
	ADDQ $4, R13
	DECQ R10
	JNZ  pcol
	VZEROUPPER

pdone:
	RET
