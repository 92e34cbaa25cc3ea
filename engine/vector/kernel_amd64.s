#include "textflag.h"

// func dotsVNNI(codes *byte, q *int8, stride, n int, out *int32)
//
// For each of n rows of stride bytes (a multiple of 32; 32 bytes per
// 64-component block, component j in the low nibble of byte j, component
// j+32 in the high one): unpack each block into 64 unsigned bytes in
// component order and accumulate their products with the query block's
// 64 signed bytes (VPDPBUSD); two accumulators over alternating blocks,
// reduced horizontally at the end of the row into out[i].
TEXT ·dotsVNNI(SB), NOSPLIT, $0-40
	MOVQ codes+0(FP), SI
	MOVQ q+8(FP), DI
	MOVQ stride+16(FP), CX
	MOVQ n+24(FP), DX
	MOVQ out+32(FP), R8
	TESTQ DX, DX
	JZ done
	MOVL $0x0f0f0f0f, R9
	VPBROADCASTD R9, Y15
	MOVQ CX, R10
	SUBQ $32, R10       // R10 = start of the last block

row:
	VPXORD Z0, Z0, Z0
	VPXORD Z1, Z1, Z1
	XORQ AX, AX         // code offset in the row
	XORQ BX, BX         // query offset (2 × AX)

pair:
	CMPQ AX, R10
	JGE last
	VMOVDQU (SI)(AX*1), Y2
	VMOVDQU 32(SI)(AX*1), Y4
	VPSRLW $4, Y2, Y3
	VPSRLW $4, Y4, Y5
	VPAND Y15, Y2, Y2
	VPAND Y15, Y3, Y3
	VPAND Y15, Y4, Y4
	VPAND Y15, Y5, Y5
	VINSERTI64X4 $1, Y3, Z2, Z2
	VINSERTI64X4 $1, Y5, Z4, Z4
	VMOVDQU8 (DI)(BX*1), Z6
	VMOVDQU8 64(DI)(BX*1), Z7
	VPDPBUSD Z6, Z2, Z0
	VPDPBUSD Z7, Z4, Z1
	ADDQ $64, AX
	ADDQ $128, BX
	JMP pair

last:
	CMPQ AX, CX
	JGE reduce
	VMOVDQU (SI)(AX*1), Y2
	VPSRLW $4, Y2, Y3
	VPAND Y15, Y2, Y2
	VPAND Y15, Y3, Y3
	VINSERTI64X4 $1, Y3, Z2, Z2
	VMOVDQU8 (DI)(BX*1), Z6
	VPDPBUSD Z6, Z2, Z0

reduce:
	VPADDD Z1, Z0, Z0
	VEXTRACTI64X4 $1, Z0, Y1
	VPADDD Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4E, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xB1, X0, X1
	VPADDD X1, X0, X0
	MOVL X0, (R8)

	ADDQ CX, SI
	ADDQ $4, R8
	DECQ DX
	JNZ row

done:
	VZEROUPPER
	RET

// func dotsAVX2(codes *byte, q *int8, stride, n int, out *int32)
//
// dotsVNNI for AVX2: each block's nibbles are unpacked into two 32-byte
// halves and multiplied with the query's halves by VPMADDUBSW (unsigned ×
// signed bytes, adjacent pairs summed into int16: at most 2×15×127, so it
// never saturates), the halves added as int16 (at most 4×15×127) and
// widened by VPMADDWD against ones into the int32 accumulator.
TEXT ·dotsAVX2(SB), NOSPLIT, $0-40
	MOVQ codes+0(FP), SI
	MOVQ q+8(FP), DI
	MOVQ stride+16(FP), CX
	MOVQ n+24(FP), DX
	MOVQ out+32(FP), R8
	TESTQ DX, DX
	JZ done2
	MOVL $0x0f0f0f0f, R9
	MOVQ R9, X15
	VPBROADCASTD X15, Y15
	MOVL $0x00010001, R9
	MOVQ R9, X14
	VPBROADCASTD X14, Y14

row2:
	VPXOR Y0, Y0, Y0
	XORQ AX, AX
	XORQ BX, BX

block2:
	VMOVDQU (SI)(AX*1), Y2
	VPSRLW $4, Y2, Y3
	VPAND Y15, Y2, Y2
	VPAND Y15, Y3, Y3
	VPMADDUBSW (DI)(BX*1), Y2, Y2
	VPMADDUBSW 32(DI)(BX*1), Y3, Y3
	VPADDW Y3, Y2, Y2
	VPMADDWD Y14, Y2, Y2
	VPADDD Y2, Y0, Y0
	ADDQ $32, AX
	ADDQ $64, BX
	CMPQ AX, CX
	JLT block2

	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4E, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xB1, X0, X1
	VPADDD X1, X0, X0
	MOVL X0, (R8)

	ADDQ CX, SI
	ADDQ $4, R8
	DECQ DX
	JNZ row2

done2:
	VZEROUPPER
	RET
