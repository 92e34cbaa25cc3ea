#include "textflag.h"

// Constants of the AVX-512 kernels: expf's (scalar.go) and GELU's, as
// float32 bit patterns.
DATA z512c<>+0(SB)/4, $0x3fb8aa3b // log2e
DATA z512c<>+4(SB)/4, $0x3f318000 // ln2hi
DATA z512c<>+8(SB)/4, $0xb95e8083 // ln2lo
DATA z512c<>+12(SB)/4, $0x3ab60b61 // c720
DATA z512c<>+16(SB)/4, $0x3c088889 // c120
DATA z512c<>+20(SB)/4, $0x3d2aaaab // c24
DATA z512c<>+24(SB)/4, $0x3e2aaaab // c6
DATA z512c<>+28(SB)/4, $0x3f000000 // c2
DATA z512c<>+32(SB)/4, $0x3f800000 // one
DATA z512c<>+36(SB)/4, $0xc2ae0000 // m87
DATA z512c<>+40(SB)/4, $0x42b00000 // p88
DATA z512c<>+44(SB)/4, $0x0000007f // bias
DATA z512c<>+48(SB)/4, $0x3f3504f3 // hs2
DATA z512c<>+52(SB)/4, $0x3ea7ba05 // p
DATA z512c<>+56(SB)/4, $0x3e827906 // a1
DATA z512c<>+60(SB)/4, $0xbe91a98e // a2
DATA z512c<>+64(SB)/4, $0x3fb5f0e3 // a3
DATA z512c<>+68(SB)/4, $0xbfba00e3 // a4
DATA z512c<>+72(SB)/4, $0x3f87dc22 // a5
DATA z512c<>+76(SB)/4, $0x80000000 // sign
DATA z512c<>+80(SB)/4, $0x7fffffff // abs
DATA z512c<>+84(SB)/4, $0x3f000000 // half
DATA z512c<>+88(SB)/4, $0xff800000 // ninf
DATA z512c<>+92(SB)/4, $0x437f0000 // s0: 255·ln2^0/0!
DATA z512c<>+96(SB)/4, $0x4330c0a6 // s1: 255·ln2^1/1!
DATA z512c<>+100(SB)/4, $0x427507f2 // s2: 255·ln2^2/2!
DATA z512c<>+104(SB)/4, $0x416274ee // s3: 255·ln2^3/3!
DATA z512c<>+108(SB)/4, $0x401cf7c6 // s4: 255·ln2^4/4!
GLOBL z512c<>(SB), RODATA|NOPTR, $112

// func softmaxBytes16(dst *uint8, x *float32, n int) (sum int)
//
// dst[j] = round(255·e^(x[j] - max x)) for n ≥ 1 floats (the last partial
// vector masked), returning the sum of the bytes. e^y is 2^t with t =
// y·log2(e): 2^round(t) (VSCALEFPS) times 2^f, |f| ≤ 1/2, by its degree-4
// Taylor polynomial (relative error below 5e-5, a fiftieth of a byte),
// 255 folded into the coefficients. Requires AVX-512F.
TEXT ·softmaxBytes16(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ CX, R8
	SHRQ $4, R8 // full vectors
	ANDQ $15, CX
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVW AX, K1 // lanes of the partial vector
	MOVQ CX, R9
	VPBROADCASTD z512c<>+88(SB), Z28 // -inf
	MOVQ SI, R10
	MOVQ R8, R11
	TESTQ R11, R11
	JZ   maxtail

maxloop:
	VMAXPS (R10), Z28, Z28
	ADDQ $64, R10
	DECQ R11
	JNZ  maxloop

maxtail:
	TESTQ R9, R9
	JZ   maxdone
	VPBROADCASTD z512c<>+88(SB), Z0
	VMOVUPS (R10), K1, Z0
	VMAXPS Z0, Z28, Z28

maxdone:
	VMOVAPS Z28, Z0
	VEXTRACTF32X8 $1, Z0, Y1
	VMAXPS Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VMAXPS X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VMAXPS X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VMAXPS X1, X0, X0
	VBROADCASTSS X0, Z29 // max
	VPXORD Z31, Z31, Z31 // sum of the bytes
	VPBROADCASTD z512c<>+0(SB), Z16 // log2(e)
	VMULPS Z16, Z29, Z29 // max·log2(e)
	VPBROADCASTD z512c<>+92(SB), Z20 // s0
	VPBROADCASTD z512c<>+96(SB), Z21 // s1
	VPBROADCASTD z512c<>+100(SB), Z22 // s2
	VPBROADCASTD z512c<>+104(SB), Z23 // s3
	VPBROADCASTD z512c<>+108(SB), Z24 // s4
	TESTQ R8, R8
	JZ   exptail

exploop:
	VMOVUPS (SI), Z0
	VFMSUB213PS Z29, Z16, Z0 // t = x·log2(e) - max·log2(e)
	VRNDSCALEPS $0, Z0, Z1 // n = round(t)
	VSUBPS Z1, Z0, Z0 // f
	VMOVAPS Z24, Z2
	VFMADD213PS Z23, Z0, Z2
	VFMADD213PS Z22, Z0, Z2
	VFMADD213PS Z21, Z0, Z2
	VFMADD213PS Z20, Z0, Z2 // 255·2^f
	VSCALEFPS Z1, Z2, Z2 // ·2^n
	VCVTPS2DQ Z2, Z2
	VPADDD Z2, Z31, Z31
	VPMOVUSDB Z2, (DI)
	ADDQ $64, SI
	ADDQ $16, DI
	DECQ R8
	JNZ  exploop

exptail:
	TESTQ R9, R9
	JZ   sumdone
	VMOVUPS.Z (SI), K1, Z0
	VFMSUB213PS Z29, Z16, Z0 // t = x·log2(e) - max·log2(e)
	VRNDSCALEPS $0, Z0, Z1 // n = round(t)
	VSUBPS Z1, Z0, Z0 // f
	VMOVAPS Z24, Z2
	VFMADD213PS Z23, Z0, Z2
	VFMADD213PS Z22, Z0, Z2
	VFMADD213PS Z21, Z0, Z2
	VFMADD213PS Z20, Z0, Z2 // 255·2^f
	VSCALEFPS Z1, Z2, Z2 // ·2^n
	VCVTPS2DQ.Z Z2, K1, Z2
	VPADDD Z2, Z31, Z31
	VPMOVUSDB Z2, K1, (DI)

sumdone:
	VMOVDQA32 Z31, Z0
	VEXTRACTI32X8 $1, Z0, Y1
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	VMOVD X0, AX
	MOVQ AX, sum+24(FP)
	VZEROUPPER
	RET

// func gelu16(x *float32, n int)
//
// x[i] = GELU(x[i]) for n floats, n a multiple of 16: GELU's formula
// (scalar.go) on sixteen lanes, 1/(1+p·|z|) by VRCP14PS and a Newton step.
// Requires AVX-512F.
TEXT ·gelu16(SB), NOSPLIT, $0-16
	MOVQ x+0(FP), SI
	MOVQ n+8(FP), CX
	SHRQ $4, CX
	JZ   gdone
	VPBROADCASTD z512c<>+0(SB), Z16
	VPBROADCASTD z512c<>+4(SB), Z17
	VPBROADCASTD z512c<>+8(SB), Z18
	VPBROADCASTD z512c<>+12(SB), Z19
	VPBROADCASTD z512c<>+16(SB), Z20
	VPBROADCASTD z512c<>+20(SB), Z21
	VPBROADCASTD z512c<>+24(SB), Z22
	VPBROADCASTD z512c<>+28(SB), Z23
	VPBROADCASTD z512c<>+32(SB), Z24
	VPBROADCASTD z512c<>+36(SB), Z25
	VPBROADCASTD z512c<>+40(SB), Z26
	VPBROADCASTD z512c<>+44(SB), Z27
	VPBROADCASTD z512c<>+48(SB), Z4
	VPBROADCASTD z512c<>+52(SB), Z5
	VPBROADCASTD z512c<>+56(SB), Z6
	VPBROADCASTD z512c<>+60(SB), Z7
	VPBROADCASTD z512c<>+64(SB), Z8
	VPBROADCASTD z512c<>+68(SB), Z9
	VPBROADCASTD z512c<>+72(SB), Z10
	VPBROADCASTD z512c<>+76(SB), Z11
	VPBROADCASTD z512c<>+80(SB), Z12
	VPBROADCASTD z512c<>+84(SB), Z13

gloop:
	VMOVUPS (SI), Z0 // x
	VMULPS Z4, Z0, Z1 // z = x/√2
	VMULPS Z1, Z1, Z28
	VPXORD Z11, Z28, Z28 // -z²
	VMAXPS Z25, Z28, Z28
	VMINPS Z26, Z28, Z28
	VMULPS Z16, Z28, Z29
	VRNDSCALEPS $0, Z29, Z29
	VFNMADD231PS Z17, Z29, Z28
	VFNMADD231PS Z18, Z29, Z28
	VMOVAPS Z19, Z30
	VFMADD213PS Z20, Z28, Z30
	VFMADD213PS Z21, Z28, Z30
	VFMADD213PS Z22, Z28, Z30
	VFMADD213PS Z23, Z28, Z30
	VFMADD213PS Z24, Z28, Z30
	VFMADD213PS Z24, Z28, Z30
	VCVTPS2DQ Z29, Z31
	VPADDD Z27, Z31, Z31
	VPSLLD $23, Z31, Z31
	VMULPS Z31, Z30, Z28
	VPANDD Z12, Z1, Z1 // |z|
	VMOVAPS Z24, Z2
	VFMADD231PS Z5, Z1, Z2 // d = 1 + p·|z|
	VRCP14PS Z2, Z3
	VMOVAPS Z24, Z29
	VFNMADD231PS Z3, Z2, Z29 // 1 - d·r
	VFMADD231PS Z29, Z3, Z3 // t = r + r·(1 - d·r)
	VMOVAPS Z10, Z30
	VFMADD213PS Z9, Z3, Z30
	VFMADD213PS Z8, Z3, Z30
	VFMADD213PS Z7, Z3, Z30
	VFMADD213PS Z6, Z3, Z30
	VMULPS Z3, Z30, Z30 // poly·t
	VMOVAPS Z24, Z31
	VFNMADD231PS Z28, Z30, Z31 // erf(|z|) = 1 - poly·t·e^(-z²)
	VPANDD Z11, Z0, Z29
	VPORD Z29, Z31, Z31 // erf(z): the sign of x
	VADDPS Z24, Z31, Z31
	VMULPS Z13, Z0, Z0
	VMULPS Z31, Z0, Z0
	VMOVUPS Z0, (SI)
	ADDQ $64, SI
	DECQ CX
	JNZ  gloop
	VZEROUPPER

gdone:
	RET

// func layerNorm16(x, res *float32, n int, gamma, beta *float32, eps float32)
//
// x = (v - mean)/sqrt(var + eps)·g + b with v = x + res (res nil: v = x),
// for n floats, n a positive multiple of 16; sums in float32, sixteen lanes.
TEXT ·layerNorm16(SB), NOSPLIT, $0-44
	MOVQ x+0(FP), DI
	MOVQ res+8(FP), SI
	MOVQ n+16(FP), R8
	MOVQ gamma+24(FP), R9
	MOVQ beta+32(FP), R10
	MOVQ R8, R11
	SHRQ $4, R11
	VPXORD Z1, Z1, Z1 // Σv
	MOVQ DI, AX
	MOVQ R11, CX
	TESTQ SI, SI
	JZ   lsum

ladd:
	VMOVUPS (AX), Z0
	VADDPS (SI), Z0, Z0
	VMOVUPS Z0, (AX)
	VADDPS Z0, Z1, Z1
	ADDQ $64, AX
	ADDQ $64, SI
	DECQ CX
	JNZ  ladd
	JMP  lmean

lsum:
	VADDPS (AX), Z1, Z1
	ADDQ $64, AX
	DECQ CX
	JNZ  lsum

lmean:
	VEXTRACTF32X8 $1, Z1, Y2
	VADDPS Y2, Y1, Y1
	VEXTRACTF128 $1, Y1, X2
	VADDPS X2, X1, X1
	VPSHUFD $0x4e, X1, X2
	VADDPS X2, X1, X1
	VPSHUFD $0xb1, X1, X2
	VADDPS X2, X1, X1
	CVTSQ2SS R8, X3 // n
	VDIVSS X3, X1, X1 // mean
	VBROADCASTSS X1, Z4
	VPXORD Z5, Z5, Z5 // Σ(v - mean)²
	MOVQ DI, AX
	MOVQ R11, CX

lvar:
	VMOVUPS (AX), Z0
	VSUBPS Z4, Z0, Z0
	VFMADD231PS Z0, Z0, Z5
	ADDQ $64, AX
	DECQ CX
	JNZ  lvar
	VEXTRACTF32X8 $1, Z5, Y2
	VADDPS Y2, Y5, Y5
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
	VBROADCASTSS X6, Z6
	MOVQ DI, AX
	MOVQ R11, CX

lnorm:
	VMOVUPS (AX), Z0
	VSUBPS Z4, Z0, Z0
	VMULPS Z6, Z0, Z0
	VMULPS (R9), Z0, Z0
	VADDPS (R10), Z0, Z0
	VMOVUPS Z0, (AX)
	ADDQ $64, AX
	ADDQ $64, R9
	ADDQ $64, R10
	DECQ CX
	JNZ  lnorm
	VZEROUPPER
	RET
