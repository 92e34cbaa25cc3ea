#include "textflag.h"
#include "minmax_amd64.h"

// Whole-matrix quantizing of the AVX2 path, eight lanes: what quantRows16
// and packCols16 (quant_amd64.s) compute with AVX-512, and the portable
// code (TestBulkMatchesPortable), in one call per matrix instead of one or
// two per row or column.

DATA q3<>+0(SB)/4, $0x437f0000 // 255
DATA q3<>+4(SB)/4, $0x3f800000 // 1
DATA q3<>+8(SB)/4, $255
DATA q3<>+12(SB)/4, $0x7fffffff // |x| mask
GLOBL q3<>(SB), RODATA|NOPTR, $16

// func quantRows8(dst *uint8, ldd int, src *float32, lda int, rows int, k int, scale *float32, mins *float32)
//
// Quantize for k a positive multiple of 16: row i (k floats at src +
// i·lda floats) gets lo = min, s = (max - lo)/255, inv = 1/s (0 when s
// is 0), bytes clamp(round((x - lo)·inv), 0, 255) at dst + i·ldd, and
// scale[i] = s, mins[i] = lo. The minimum and maximum run in two chains
// of eight lanes (they are exact in any order).
TEXT ·quantRows8(SB), NOSPLIT, $0-64
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
	VPXOR Y7, Y7, Y7
	VPBROADCASTD q3<>+8(SB), Y15
	TESTQ R9, R9
	JZ   rdone

rrow:
	MOVQ SI, AX
	MOVQ R14, CX
	VMOVUPS (AX), Y0
	VMOVAPS Y0, Y1
	VMOVUPS 32(AX), Y8
	VMOVAPS Y8, Y9

rminmax:
	VMOVUPS (AX), Y2
	VMOVUPS 32(AX), Y3
	VMINPS Y2, Y0, Y0
	VMAXPS Y2, Y1, Y1
	VMINPS Y3, Y8, Y8
	VMAXPS Y3, Y9, Y9
	ADDQ $64, AX
	DECQ CX
	JNZ  rminmax
	VMINPS Y8, Y0, Y0
	VMAXPS Y9, Y1, Y1
	MINMAX_Y01 // X0 = lo, X1 = hi
	VSUBSS X0, X1, X2
	VDIVSS q3<>+0(SB), X2, X2 // s = (hi - lo)/255
	VMOVSS X2, (R10)
	VMOVSS X0, (R11)
	VXORPS X3, X3, X3 // inv = 0 when s = 0
	VUCOMISS X3, X2
	JEQ  rinv
	VMOVSS q3<>+4(SB), X3
	VDIVSS X2, X3, X3 // inv = 1/s

rinv:
	VBROADCASTSS X0, Y4
	VBROADCASTSS X3, Y5
	MOVQ SI, AX
	MOVQ DI, BX
	MOVQ R14, CX

rquant:
	VMOVUPS (AX), Y0
	VMOVUPS 32(AX), Y1
	VSUBPS Y4, Y0, Y0
	VSUBPS Y4, Y1, Y1
	VMULPS Y5, Y0, Y0
	VMULPS Y5, Y1, Y1
	VCVTPS2DQ Y0, Y0
	VCVTPS2DQ Y1, Y1
	VPMAXSD Y7, Y0, Y0
	VPMAXSD Y7, Y1, Y1
	VPMINSD Y15, Y0, Y0
	VPMINSD Y15, Y1, Y1
	VPACKSSDW Y1, Y0, Y0
	VPERMQ $0xd8, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPACKUSWB X1, X0, X0
	VMOVDQU X0, (BX)
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

// func packCols8(dst *int8, src *float32, js int, col int, n int, k int, kp int, top float32, amax *float32, sums *int32)
//
// packContiguousColumns for k a positive multiple of 16: column j of the
// source (k floats at src + j·js floats) is quantized symmetrically,
// round(x·top/max|x|) (0 for a column of zeros), into panel column col+j
// of dst (panels of 32 columns, kp rows: its dword of four rows every 128
// bytes); amax[j] is max|x| and sums[j] the sum of its bytes. |x| ≤
// max|x| keeps every byte within −top…top (top ≤ 127).
TEXT ·packCols8(SB), NOSPLIT, $0-80
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
	MOVQ amax+64(FP), R11
	MOVQ sums+72(FP), R13
	VPBROADCASTD q3<>+12(SB), Y7
	TESTQ R10, R10
	JZ   pdone

pcol:
	MOVQ SI, AX
	MOVQ R14, CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1

pamax:
	VPAND (AX), Y7, Y2
	VPAND 32(AX), Y7, Y3
	VMAXPS Y2, Y0, Y0
	VMAXPS Y3, Y1, Y1
	ADDQ $64, AX
	DECQ CX
	JNZ  pamax
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
	VMOVSS top+56(FP), X3
	VDIVSS X0, X3, X3 // inv = top/max|x|

pinv:
	VBROADCASTSS X3, Y6
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
	VPXOR Y4, Y4, Y4

pquant:
	VMULPS (AX), Y6, Y0
	VMULPS 32(AX), Y6, Y1
	VCVTPS2DQ Y0, Y0
	VCVTPS2DQ Y1, Y1
	VPADDD Y0, Y4, Y4
	VPADDD Y1, Y4, Y4
	// Words then bytes, per 128-bit lane: the low lane holds k 0–3 then
	// 8–11, the high lane k 4–7 then 12–15.
	VPACKSSDW Y1, Y0, Y0
	VPACKSSWB Y0, Y0, Y0
	VMOVD X0, (BX)
	VPEXTRD $1, X0, 256(BX)
	VEXTRACTI128 $1, Y0, X1
	VMOVD X1, 128(BX)
	VPEXTRD $1, X1, 384(BX)
	ADDQ $64, AX
	ADDQ $512, BX
	DECQ CX
	JNZ  pquant
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
