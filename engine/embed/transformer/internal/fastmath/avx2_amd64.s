#include "textflag.h"

// Constants of the AVX2 kernels (expf's, GELU's, the softmax's), as
// float32 bit patterns.
DATA a2c<>+0(SB)/4, $0x3fb8aa3b // log2e
DATA a2c<>+4(SB)/4, $0x3f318000 // ln2hi
DATA a2c<>+8(SB)/4, $0xb95e8083 // ln2lo
DATA a2c<>+12(SB)/4, $0x3ab60b61 // 1/720
DATA a2c<>+16(SB)/4, $0x3c088889 // 1/120
DATA a2c<>+20(SB)/4, $0x3d2aaaab // 1/24
DATA a2c<>+24(SB)/4, $0x3e2aaaab // 1/6
DATA a2c<>+28(SB)/4, $0x3f000000 // 1/2
DATA a2c<>+32(SB)/4, $0x3f800000 // 1
DATA a2c<>+36(SB)/4, $0xc2ae0000 // -87
DATA a2c<>+40(SB)/4, $0x42b00000 // 88
DATA a2c<>+44(SB)/4, $0x0000007f // 127 (exponent bias)
DATA a2c<>+48(SB)/4, $0x3f3504f3 // √2/2
DATA a2c<>+52(SB)/4, $0x3ea7ba05 // p
DATA a2c<>+56(SB)/4, $0x3e827906 // a1
DATA a2c<>+60(SB)/4, $0xbe91a98e // a2
DATA a2c<>+64(SB)/4, $0x3fb5f0e3 // a3
DATA a2c<>+68(SB)/4, $0xbfba00e3 // a4
DATA a2c<>+72(SB)/4, $0x3f87dc22 // a5
DATA a2c<>+76(SB)/4, $0x80000000 // sign
DATA a2c<>+80(SB)/4, $0x7fffffff // abs
DATA a2c<>+84(SB)/4, $0xc2fc0000 // -126
DATA a2c<>+88(SB)/4, $0x437f0000 // s0: 255·ln2^0/0!
DATA a2c<>+92(SB)/4, $0x4330c0a6 // s1: 255·ln2^1/1!
DATA a2c<>+96(SB)/4, $0x427507f2 // s2: 255·ln2^2/2!
DATA a2c<>+100(SB)/4, $0x416274ee // s3: 255·ln2^3/3!
DATA a2c<>+104(SB)/4, $0x401cf7c6 // s4: 255·ln2^4/4!
DATA a2c<>+108(SB)/4, $0xff800000 // -inf
GLOBL a2c<>(SB), RODATA|NOPTR, $112

// func gelu8(x *float32, n int)
//
// x[i] = GELU(x[i]) for n floats, n a multiple of 8: GELU's formula
// (scalar.go) on eight lanes, e^(-z²) as exp8 computes it, 1/(1+p·|z|) by
// a division. Requires AVX2 and FMA.
TEXT ·gelu8(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $3, CX
	JZ   gdone
	VBROADCASTSS a2c<>+48(SB), Y15 // √2/2
	VBROADCASTSS a2c<>+76(SB), Y14 // sign
	VBROADCASTSS a2c<>+36(SB), Y13 // -87
	VBROADCASTSS a2c<>+40(SB), Y12 // 88
	VBROADCASTSS a2c<>+0(SB), Y11 // log2e
	VBROADCASTSS a2c<>+4(SB), Y10 // ln2hi
	VBROADCASTSS a2c<>+8(SB), Y9 // ln2lo
	VBROADCASTSS a2c<>+32(SB), Y8 // 1
	VPBROADCASTD a2c<>+44(SB), Y7 // 127
	VBROADCASTSS a2c<>+80(SB), Y6 // abs

gloop:
	VMOVUPS (SI), Y0 // x
	VMULPS Y15, Y0, Y1 // z
	VMULPS Y1, Y1, Y2
	VXORPS Y14, Y2, Y2 // w = -z²
	VMAXPS Y13, Y2, Y2
	VMINPS Y12, Y2, Y2
	VMULPS Y11, Y2, Y3
	VROUNDPS $0, Y3, Y3 // n
	VFNMADD231PS Y10, Y3, Y2
	VFNMADD231PS Y9, Y3, Y2 // r
	VBROADCASTSS a2c<>+12(SB), Y4
	VBROADCASTSS a2c<>+16(SB), Y5
	VFMADD213PS Y5, Y2, Y4
	VBROADCASTSS a2c<>+20(SB), Y5
	VFMADD213PS Y5, Y2, Y4
	VBROADCASTSS a2c<>+24(SB), Y5
	VFMADD213PS Y5, Y2, Y4
	VBROADCASTSS a2c<>+28(SB), Y5
	VFMADD213PS Y5, Y2, Y4
	VFMADD213PS Y8, Y2, Y4
	VFMADD213PS Y8, Y2, Y4
	VCVTPS2DQ Y3, Y3
	VPADDD Y7, Y3, Y3
	VPSLLD $23, Y3, Y3
	VMULPS Y3, Y4, Y4 // e = e^(-z²)
	VANDPS Y6, Y1, Y1 // |z|
	VBROADCASTSS a2c<>+52(SB), Y5
	VMOVAPS Y8, Y2
	VFMADD231PS Y5, Y1, Y2 // d = 1 + p·|z|
	VDIVPS Y2, Y8, Y3 // t = 1/d
	VBROADCASTSS a2c<>+72(SB), Y1
	VBROADCASTSS a2c<>+68(SB), Y5
	VFMADD213PS Y5, Y3, Y1
	VBROADCASTSS a2c<>+64(SB), Y5
	VFMADD213PS Y5, Y3, Y1
	VBROADCASTSS a2c<>+60(SB), Y5
	VFMADD213PS Y5, Y3, Y1
	VBROADCASTSS a2c<>+56(SB), Y5
	VFMADD213PS Y5, Y3, Y1
	VMULPS Y3, Y1, Y1 // poly·t
	VMOVAPS Y8, Y2
	VFNMADD231PS Y4, Y1, Y2 // erf(|z|) = 1 - poly·t·e
	VANDPS Y14, Y0, Y5
	VORPS Y5, Y2, Y2 // erf(z): the sign of x
	VADDPS Y8, Y2, Y2
	VBROADCASTSS a2c<>+28(SB), Y5
	VMULPS Y5, Y0, Y0
	VMULPS Y2, Y0, Y0
	VMOVUPS Y0, (SI)
	ADDQ $32, SI
	DECQ CX
	JNZ  gloop
	VZEROUPPER

gdone:
	RET

// func max8(x *float32, n int) float32
//
// The greatest of n floats, n a positive multiple of 8: four chains of
// eight lanes over each 32 floats (a maximum is exact in any order), then
// one over the last n % 32.
TEXT ·max8(SB), NOSPLIT, $0-20
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	VBROADCASTSS a2c<>+108(SB), Y0
	VMOVAPS Y0, Y1
	VMOVAPS Y0, Y2
	VMOVAPS Y0, Y3
	MOVQ CX, DX
	SHRQ $5, DX
	JZ   xtail

x4loop:
	VMAXPS (SI), Y0, Y0
	VMAXPS 32(SI), Y1, Y1
	VMAXPS 64(SI), Y2, Y2
	VMAXPS 96(SI), Y3, Y3
	ADDQ $128, SI
	DECQ DX
	JNZ  x4loop

xtail:
	ANDQ $31, CX
	SHRQ $3, CX
	JZ   xdone

xloop:
	VMAXPS (SI), Y0, Y0
	ADDQ $32, SI
	DECQ CX
	JNZ  xloop

xdone:
	VMAXPS Y1, Y0, Y0
	VMAXPS Y3, Y2, Y2
	VMAXPS Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VMAXPS X1, X0, X0
	VMOVSS X0, ret+16(FP)
	VZEROUPPER
	RET

// func softmaxBytes8(dst *uint8, x *float32, n int, m float32) (sum int)
//
// dst[j] = round(255·e^(x[j] - m)) for n floats, n a multiple of 8, m
// their maximum (or more), returning the sum of the bytes: softmaxBytes16's
// method, t = (x - m)·log2(e) kept above -126 so that 2^round(t) is built
// from its exponent bits. Requires AVX2 and FMA.
TEXT ·softmaxBytes8(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	VPXOR Y15, Y15, Y15 // sum
	VBROADCASTSS a2c<>+0(SB), Y14 // log2e
	VBROADCASTSS m+24(FP), Y13
	VMULPS Y14, Y13, Y13 // m·log2e
	VBROADCASTSS a2c<>+84(SB), Y12 // -126
	VBROADCASTSS a2c<>+88(SB), Y11
	VBROADCASTSS a2c<>+92(SB), Y10
	VBROADCASTSS a2c<>+96(SB), Y9
	VBROADCASTSS a2c<>+100(SB), Y8
	VBROADCASTSS a2c<>+104(SB), Y7
	VPBROADCASTD a2c<>+44(SB), Y6 // 127
	MOVQ CX, DX
	SHRQ $4, DX
	JZ   s8

	// Sixteen floats at a time, two vectors side by side, their bytes
	// packed and stored together.
s16loop:
	VMOVUPS (SI), Y0
	VMOVUPS 32(SI), Y3
	VFMSUB213PS Y13, Y14, Y0 // t = x·log2e - m·log2e
	VFMSUB213PS Y13, Y14, Y3
	VMAXPS Y12, Y0, Y0
	VMAXPS Y12, Y3, Y3
	VROUNDPS $0, Y0, Y1 // n
	VROUNDPS $0, Y3, Y4
	VSUBPS Y1, Y0, Y0 // f
	VSUBPS Y4, Y3, Y3
	VMOVAPS Y7, Y2
	VMOVAPS Y7, Y5
	VFMADD213PS Y8, Y0, Y2
	VFMADD213PS Y8, Y3, Y5
	VFMADD213PS Y9, Y0, Y2
	VFMADD213PS Y9, Y3, Y5
	VFMADD213PS Y10, Y0, Y2
	VFMADD213PS Y10, Y3, Y5
	VFMADD213PS Y11, Y0, Y2 // 255·2^f
	VFMADD213PS Y11, Y3, Y5
	VCVTPS2DQ Y1, Y1
	VCVTPS2DQ Y4, Y4
	VPADDD Y6, Y1, Y1
	VPADDD Y6, Y4, Y4
	VPSLLD $23, Y1, Y1
	VPSLLD $23, Y4, Y4
	VMULPS Y1, Y2, Y2 // ·2^n
	VMULPS Y4, Y5, Y5
	VCVTPS2DQ Y2, Y2
	VCVTPS2DQ Y5, Y5
	VPADDD Y2, Y15, Y15
	VPADDD Y5, Y15, Y15
	VPACKSSDW Y5, Y2, Y2 // words: 0-3 8-11 | 4-7 12-15
	VPERMQ $0xd8, Y2, Y2 // 0-7 | 8-15
	VEXTRACTI128 $1, Y2, X5
	VPACKUSWB X5, X2, X2
	VMOVDQU X2, (DI)
	ADDQ $64, SI
	ADDQ $16, DI
	DECQ DX
	JNZ  s16loop

s8:
	ANDQ $8, CX // n is a multiple of 8: eight floats left, or none
	JZ   sdone
	VMOVUPS (SI), Y0
	VFMSUB213PS Y13, Y14, Y0
	VMAXPS Y12, Y0, Y0
	VROUNDPS $0, Y0, Y1
	VSUBPS Y1, Y0, Y0
	VMOVAPS Y7, Y2
	VFMADD213PS Y8, Y0, Y2
	VFMADD213PS Y9, Y0, Y2
	VFMADD213PS Y10, Y0, Y2
	VFMADD213PS Y11, Y0, Y2
	VCVTPS2DQ Y1, Y1
	VPADDD Y6, Y1, Y1
	VPSLLD $23, Y1, Y1
	VMULPS Y1, Y2, Y2
	VCVTPS2DQ Y2, Y2
	VPADDD Y2, Y15, Y15
	VPACKSSDW Y2, Y2, Y2 // words: 0-3 0-3 | 4-7 4-7
	VPERMQ $0x08, Y2, Y2 // 0-3 4-7 in the low lane
	VPACKUSWB X2, X2, X2
	VMOVQ X2, (DI)

sdone:
	VEXTRACTI128 $1, Y15, X1
	VPADDD X1, X15, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	MOVQ AX, sum+32(FP)
	VZEROUPPER
	RET

// func layerNorm8(x, res *float32, n int, gamma, beta *float32, eps float32)
//
// layerNorm16 in eight lanes: x = (v - mean)/sqrt(var + eps)·g + b with
// v = x + res (res nil: v = x), for n floats, n a positive multiple of 8;
// sums in float32. Requires AVX2 and FMA.
TEXT ·layerNorm8(SB), NOSPLIT, $0-44
	MOVQ x+0(FP), DI
	MOVQ res+8(FP), SI
	MOVQ n+16(FP), R8
	MOVQ gamma+24(FP), R9
	MOVQ beta+32(FP), R10
	MOVQ R8, R11
	SHRQ $3, R11
	VXORPS Y1, Y1, Y1 // Σv
	MOVQ DI, AX
	MOVQ R11, CX
	TESTQ SI, SI
	JZ   lsum

ladd:
	VMOVUPS (AX), Y0
	VADDPS (SI), Y0, Y0
	VMOVUPS Y0, (AX)
	VADDPS Y0, Y1, Y1
	ADDQ $32, AX
	ADDQ $32, SI
	DECQ CX
	JNZ  ladd
	JMP  lmean

lsum:
	VADDPS (AX), Y1, Y1
	ADDQ $32, AX
	DECQ CX
	JNZ  lsum

lmean:
	VEXTRACTF128 $1, Y1, X2
	VADDPS X2, X1, X1
	VPSHUFD $0x4e, X1, X2
	VADDPS X2, X1, X1
	VPSHUFD $0xb1, X1, X2
	VADDPS X2, X1, X1
	CVTSQ2SS R8, X3 // n
	VDIVSS X3, X1, X1 // mean
	VBROADCASTSS X1, Y4
	VXORPS Y5, Y5, Y5 // Σ(v - mean)²
	MOVQ DI, AX
	MOVQ R11, CX

lvar:
	VMOVUPS (AX), Y0
	VSUBPS Y4, Y0, Y0
	VFMADD231PS Y0, Y0, Y5
	ADDQ $32, AX
	DECQ CX
	JNZ  lvar
	VEXTRACTF128 $1, Y5, X2
	VADDPS X2, X5, X5
	VPSHUFD $0x4e, X5, X2
	VADDPS X2, X5, X5
	VPSHUFD $0xb1, X5, X2
	VADDPS X2, X5, X5
	VDIVSS X3, X5, X5 // var
	VADDSS eps+40(FP), X5, X5
	VSQRTSS X5, X5, X5
	MOVL $0x3f800000, AX
	VMOVD AX, X6
	VDIVSS X5, X6, X6 // 1/sqrt(var + eps)
	VBROADCASTSS X6, Y6
	MOVQ DI, AX
	MOVQ R11, CX

lnorm:
	VMOVUPS (AX), Y0
	VSUBPS Y4, Y0, Y0
	VMULPS Y6, Y0, Y0
	VMULPS (R9), Y0, Y0
	VADDPS (R10), Y0, Y0
	VMOVUPS Y0, (AX)
	ADDQ $32, AX
	ADDQ $32, R9
	ADDQ $32, R10
	DECQ CX
	JNZ  lnorm
	VZEROUPPER
	RET
